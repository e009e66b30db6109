import { defineContentScript } from 'wxt/utils/define-content-script';
import { installNaverNetworkHook } from '../utils/providers/naver/network-hook';

/**
 * MAIN world, before the page's own scripts, in every pcmap frame (the sweep's worker tab and the
 * map's list iframe): copies the list page's own GraphQL answers to the isolated content script,
 * which treats them as untrusted (any page script can post the same message).
 */
export default defineContentScript({
  matches: ['https://pcmap.place.naver.com/*'],
  allFrames: true,
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    installNaverNetworkHook(window, (message) => window.postMessage(message, window.location.origin));
  },
});
