import { defineContentScript } from 'wxt/utils/define-content-script';
import { installKakaoNetworkHook } from '../utils/providers/kakao/network-hook';

/**
 * MAIN world, before the page's own scripts: copies the search page's search answers (either
 * endpoint) to the isolated content script, which treats them as untrusted (any page script can
 * post the same message). `postMessage` is taken now, before the page can replace it.
 */
export default defineContentScript({
  matches: ['https://map.kakao.com/*'],
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    const post = window.postMessage.bind(window);
    const origin = window.location.origin;
    installKakaoNetworkHook(window, (message) => post(message, origin));
  },
});
