import type { WxtBrowser as Browser } from 'wxt/browser';
import type { Listing } from '../domain/listing';
import type { Store } from '../store';
import { BROWSING_STATS_KEY, readTotals } from '../config/storage-keys';

/**
 * Listings a browsing tab saw, committed to the Browsing collection, and the popup's totals.
 * Tabs a running sweep drives are skipped: their pages are the sweep's, and counting them as
 * "seen while browsing" would mislead.
 */
export function createBrowsingCommits(deps: { browser: Browser; store: Store; now(): number; tabsInUse(): Promise<Set<number>> }) {
  // Browsing batches from several tabs are handled one at a time: the totals are read, added
  // to and written back, and two at once would lose an increment.
  let browsingQueue: Promise<void> = Promise.resolve();
  return function commitBrowsing(tabId: number, listings: Listing[]): Promise<void> {
    const next = browsingQueue.then(async () => {
      const read = async () => readTotals((await deps.browser.storage.local.get(BROWSING_STATS_KEY))[BROWSING_STATS_KEY]);
      let result: { added: number; seen: number };
      try {
        if ((await deps.tabsInUse()).has(tabId)) return;
        result = await deps.store.commitBrowsing(listings, deps.now());
      } catch (e) {
        // Counted and shown in the popup; the rejection tells the tab to keep the batch and retry.
        const lastFailure = { at: deps.now(), message: e instanceof Error ? e.message : String(e) };
        await read()
          .then((totals) => deps.browser.storage.local.set({ [BROWSING_STATS_KEY]: { ...totals, failed: totals.failed + 1, lastFailure } }))
          .catch(() => {}); // the commit's own error is the one to report
        throw e;
      }
      const totals = await read();
      await deps.browser.storage.local.set({
        [BROWSING_STATS_KEY]: { ...totals, seen: totals.seen + result.added + result.seen, added: totals.added + result.added, lastSavedAt: deps.now() },
      });
    });
    browsingQueue = next.catch(() => {});
    return next;
  };
}
