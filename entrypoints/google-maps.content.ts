import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { startGoogleContent } from '../utils/providers/google/content';
import { GOOGLE_MAPS_CONTENT_PATTERNS } from '../utils/providers/google/hosts';

/** Isolated world on Google Maps: answers the sweep driver's "collect" and watches browsing. */
export default defineContentScript({
  // Maps pages on every Google domain (utils/providers/google/hosts.ts), nothing else of the hosts.
  matches: [...GOOGLE_MAPS_CONTENT_PATTERNS],
  runAt: 'document_start',
  main() {
    startGoogleContent(window, browser);
  },
});
