import { defineContentScript } from 'wxt/utils/define-content-script';
import { GOOGLE_MAPS_PATTERNS } from '../utils/providers/google/hosts';
import { installNetworkHook, tbmMessage } from '../utils/providers/google/network-hook';

/**
 * MAIN world, before the page's own scripts: copies the page's /search?tbm=map responses to
 * the isolated content script, which treats them as untrusted (any page script can post the
 * same message).
 */
export default defineContentScript({
  // Maps pages on every Google domain (utils/providers/google/hosts.ts), nothing else of the hosts.
  matches: [...GOOGLE_MAPS_PATTERNS],
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    installNetworkHook(window, (body, url) => window.postMessage(tbmMessage(body, url), window.location.origin));
  },
});
