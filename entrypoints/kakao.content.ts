import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { startKakaoContent } from '../utils/providers/kakao/content';

/** Isolated world on Kakao Map: answers the sweep driver's "collect" and "nextPage", and watches browsing. */
export default defineContentScript({
  matches: ['https://map.kakao.com/*', 'https://place.map.kakao.com/*'],
  runAt: 'document_start',
  main() {
    startKakaoContent(window, browser);
  },
});
