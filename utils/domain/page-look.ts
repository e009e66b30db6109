import type { Observation } from './sweep';

/**
 * What a content script saw of the page a person has open, for Check this page (issue 41): the
 * sweep's own reading of it, taken without scrolling, clicking or loading (`CollectOptions.look`),
 * and where it was read.
 */
export interface PageLook {
  observation: Observation;
  /** `<html lang>` of the document read, or null when it says none. */
  lang: string | null;
  /** Naver's list and place pages are frames of map.naver.com: which one was read. */
  frame: 'top' | 'list-frame' | 'place-frame';
}
