import { defineContentScript } from 'wxt/utils/define-content-script';
import { GOOGLE_MAPS_CONTENT_PATTERNS } from '../utils/providers/google/hosts';
import { installNetworkHook, tbmMessage, tbmProgressMessage } from '../utils/providers/google/network-hook';

/**
 * MAIN world, before the page's own scripts: copies the page's /search?tbm=map responses to
 * the isolated content script, and tells it when each such request starts and ends; it treats
 * both as untrusted (any page script can post the same messages).
 */
export default defineContentScript({
  // Maps pages on every Google domain (utils/providers/google/hosts.ts), nothing else of the hosts.
  matches: [...GOOGLE_MAPS_CONTENT_PATTERNS],
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    const post = (message: unknown) => window.postMessage(message, window.location.origin);
    installNetworkHook(
      window,
      (body, url) => post(tbmMessage(body, url)),
      (phase, id) => post(tbmProgressMessage(phase, id)),
    );
  },
});
