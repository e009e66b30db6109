/**
 * Check this page (issue 41), the content-script side shared by the three sites: answer
 * `lookAtPage` from the extension's background only, with the site's own sweep reading of the
 * page as it is (its collect with `look`: no scroll, no press, no load) and, where that sees no
 * list, the site's place reader. The page is the person's: browsing collection goes on untouched.
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import type { Observation } from '../domain/sweep';
import type { PageLook } from '../domain/page-look';
import { LOOK_OPTIONS, onCheckMessage } from '../messaging/check-protocol';
import type { CollectOptions } from '../messaging/protocol';
import { guarded } from '../messaging/senders';
import type { PlaceReader } from './place-details';

export interface LookSource {
  /** The site's sweep reading (its collect) of this document. */
  collect(options: CollectOptions): Promise<Observation>;
  /** The site's place reader, for a place page the collect does not read as one. */
  readPlace: PlaceReader;
  /** Where this document is (Naver's frames). */
  frame(): PageLook['frame'];
  /**
   * How long this document waits before it answers: a tab message reaches every frame and the
   * first answer is taken, so where a page has a list frame and a place frame (Naver) the list's
   * answer comes first, a place's next, a frame that saw neither last. Default 0.
   */
  answerDelayMs?(look: PageLook): number;
}

export async function lookAtPage(win: Window, source: LookSource): Promise<PageLook> {
  let observation = await source.collect(LOOK_OPTIONS);
  if (observation.pageKind === 'unknown' && !observation.unproven && observation.listings.length === 0) {
    const place = source.readPlace(win.document, win.location.href);
    if (place) observation = { ...observation, pageKind: 'place', cardsVisible: 1, organicShown: 1, listings: [place] };
  }
  return { observation, lang: win.document.documentElement.lang || null, frame: source.frame() };
}

export function answerLookAtPage(win: Window, browser: Pick<Browser, 'runtime'>, source: LookSource): () => void {
  const senders = { runtime: browser.runtime };
  const look = async () => {
    const seen = await lookAtPage(win, source);
    const delay = source.answerDelayMs?.(seen) ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    return seen;
  };
  const stops = [
    onCheckMessage('lookAtPage', guarded('lookAtPage', senders, look)),
    // A page report's source: this document as it is now, with what the readers see of it.
    onCheckMessage(
      'pageSnapshot',
      guarded('pageSnapshot', senders, async () => {
        const seen = await look();
        const doc = win.document;
        return { html: `${doc.doctype ? '<!DOCTYPE html>' : ''}${doc.documentElement.outerHTML}`, look: seen };
      }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
