import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { startNaverContent } from '../utils/providers/naver/content';

/**
 * Isolated world on pcmap.place.naver.com, in every frame: top-level (a sweep's worker tab) it
 * answers the driver's "collect" and "nextPage"; inside map.naver.com (the list and place
 * iframes) it collects while the person browses.
 */
export default defineContentScript({
  matches: ['https://pcmap.place.naver.com/*'],
  allFrames: true,
  runAt: 'document_start',
  main() {
    startNaverContent(window, browser);
  },
});
