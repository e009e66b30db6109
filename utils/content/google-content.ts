import type { WxtBrowser as Browser } from 'wxt/browser';
import { onMessage, sendMessage } from '../messaging/protocol';
import { createNetworkCollector, readTbmMessage } from '../providers/google';
import { BROWSING_ENABLED_KEY, BROWSING_INCOGNITO_KEY, isBrowsingEnabled, isIncognitoAllowed } from '../sweep/storage-keys';
import { browsingAllowed, createBrowsingCollector } from './browsing';
import { collectGooglePage, navigationStatus } from './collect-google';
import { measureCanvas } from '../providers/google/canvas';

/**
 * Wires the Google Maps content script. Messages from the page's world are accepted only
 * when they come from this very window and have the hook's exact shape; even then they only
 * feed a cross-check, never the store.
 */
export function startGoogleContent(win: Window, browser: Browser): void {
  const network = createNetworkCollector();
  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win || event.origin !== win.location.origin) return;
    const message = readTbmMessage(event.data);
    if (message) network.accept(message.body);
  });

  // A page a sweep loaded is the sweep's, not something the person browsed: once asked to
  // collect, this page never feeds the Browsing collection (even after the sweep ends).
  let sweepPage = false;

  onMessage('collect', async (message) => {
    // Only the extension's background may ask (a tabs.sendMessage has no tab in its sender).
    if (message.sender.id !== browser.runtime.id || message.sender.tab) throw new Error('Not accepted.');
    sweepPage = true;
    browsing.stop();
    const observation = await collectGooglePage(
      {
        doc: win.document,
        url: () => win.location.href,
        now: () => Date.now(),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        random: Math.random,
        network,
        httpStatus: () => navigationStatus(win.performance),
        hidden: () => win.document.visibilityState === 'hidden',
      },
      message.data,
    );
    // What the page searched is measured here, after the page settled, not taken from the tab's size.
    return { ...observation, canvas: measureCanvas(win) };
  });

  const browsing = createBrowsingCollector({
    doc: win.document,
    url: () => win.location.href,
    now: () => win.performance.now(),
    // Resolves only once the background committed the batch; a rejection keeps it for a retry.
    send: (listings) => sendMessage('browsingListings', listings),
    schedule: (fn, ms) => win.setTimeout(fn, ms),
    observe: (target, onChange) => {
      const observer = new MutationObserver(onChange);
      observer.observe(target, { childList: true, subtree: true });
      return observer;
    },
  });
  const incognito = browser.extension?.inIncognitoContext === true;
  const options = { enabled: false, allowIncognito: false };
  const apply = () => (browsingAllowed({ ...options, sweepPage, incognito }) ? browsing.start() : browsing.stop());
  void browser.storage.local.get([BROWSING_ENABLED_KEY, BROWSING_INCOGNITO_KEY]).then((r) => {
    options.enabled = isBrowsingEnabled(r[BROWSING_ENABLED_KEY]);
    options.allowIncognito = isIncognitoAllowed(r[BROWSING_INCOGNITO_KEY]);
    apply();
  });
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(changes[BROWSING_ENABLED_KEY] || changes[BROWSING_INCOGNITO_KEY])) return;
    if (changes[BROWSING_ENABLED_KEY]) options.enabled = isBrowsingEnabled(changes[BROWSING_ENABLED_KEY].newValue);
    if (changes[BROWSING_INCOGNITO_KEY]) options.allowIncognito = isIncognitoAllowed(changes[BROWSING_INCOGNITO_KEY].newValue);
    apply();
  });
}
