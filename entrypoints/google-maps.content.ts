import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { startGoogleContent } from '../utils/content/google-content';

/** Isolated world on Google Maps: answers the sweep driver's "collect" and watches browsing. */
export default defineContentScript({
  matches: ['https://www.google.com/maps/*'],
  runAt: 'document_start',
  main() {
    startGoogleContent(window, browser);
  },
});
