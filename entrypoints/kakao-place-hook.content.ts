import { defineContentScript } from 'wxt/utils/define-content-script';
import { installKakaoReviewsHook } from '../utils/providers/kakao/reviews-hook';

/**
 * MAIN world, before the place page's own scripts: copies its reviews answers to the isolated
 * content script, which treats them as untrusted (any page script can post the same message).
 * `postMessage` is taken now, before the page can replace it.
 */
export default defineContentScript({
  matches: ['https://place.map.kakao.com/*'],
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    const post = window.postMessage.bind(window);
    const origin = window.location.origin;
    installKakaoReviewsHook(window, (message) => post(message, origin));
  },
});
