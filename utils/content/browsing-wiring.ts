/**
 * The browsing collector of a content script, wired to its page and the extension (the same
 * for Google, Naver and Kakao): the page's DOM, clock and timers; the background as the sink
 * (a batch counts as saved once the background committed it); and the user's two settings,
 * read now and followed as they change. A page a sweep loaded never browses: the background is
 * asked whether a sweep drives this tab, and `isSweepPage` (the page was asked to collect) at
 * every change.
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import { sendMessage } from '../messaging/protocol';
import { BROWSING_ENABLED_KEY, BROWSING_INCOGNITO_KEY, isBrowsingEnabled, isIncognitoAllowed } from '../config/storage-keys';
import { browsingAllowed, createBrowsingCollector, type BrowsingCollector, type BrowsingReader } from './browsing';

export function startBrowsing(win: Window, browser: Browser, reader: BrowsingReader, isSweepPage: () => boolean): BrowsingCollector {
  const browsing = createBrowsingCollector({
    reader,
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
  // The background knows which tabs sweeps drive (a page a sweep loaded is not asked to collect
  // at once): until it has said this tab is not one of them, nothing is collected.
  let sweepTab = true;
  const apply = () => (browsingAllowed({ ...options, sweepPage: sweepTab || isSweepPage(), incognito }) ? browsing.start() : browsing.stop());
  void sendMessage('isSweepTab', undefined).then(
    (isSweep) => {
      sweepTab = isSweep !== false;
      apply();
    },
    () => {}, // no background to ask: nothing could be saved either
  );
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
  return browsing;
}
