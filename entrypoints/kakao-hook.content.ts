import { defineContentScript } from 'wxt/utils/define-content-script';
import { installKakaoNetworkHook } from '../utils/providers/kakao/network-hook';

/**
 * MAIN world, before the page's own scripts: copies the search page's map.daum answers to the
 * isolated content script, which treats them as untrusted (any page script can post the same
 * message).
 */
export default defineContentScript({
  matches: ['https://map.kakao.com/*'],
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    installKakaoNetworkHook(window, (message) => window.postMessage(message, window.location.origin));
  },
});
