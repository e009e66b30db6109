/**
 * What a test does with the loaded extension, through its real surfaces: the popup (by
 * accessible names, as a person or a screen reader finds the controls), the content script's
 * real message protocol, and the downloaded CSV.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import type { CollectOptions } from '../../utils/messaging/protocol';
import type { Observation } from '../../utils/domain/sweep';
import { showCoveredTabInPage } from './in-page';
import { openPopup, readAll, readSweeps, serviceWorker, setSettings, waitFor } from './harness';
import type { ReviewJob } from '../../utils/reviews/records';
import type { WxtBrowser } from 'wxt/browser';

/**
 * Fast but still paced settings for tests: the replica answers in milliseconds. A delay below the
 * 2 s floor needs the options' explicit "I accept the risk" (utils/config/settings.ts).
 */
export const TEST_SETTINGS = { delayMs: 150, jitterMs: 100, scrollPauseMs: 120, cellTimeoutMs: 30_000, maxAttempts: 3, belowFloorAccepted: true };

/**
 * Ask the content script of the tab showing `urlPrefix` for an observation, exactly as the
 * background does (same message, sent from the service worker).
 */
export async function collectFromTab(sw: Worker, urlPrefix: string, options: Partial<CollectOptions> = {}): Promise<Observation> {
  const data: CollectOptions = { cap: 120, stallMs: 4000, maxMs: 60_000, settleMs: 10_000, scrollPauseMs: 120, ...options };
  return sw.evaluate(
    async ({ urlPrefix, data }) => {
      const api = (globalThis as unknown as { chrome: WxtBrowser }).chrome;
      const tabs = await api.tabs.query({});
      const tab = tabs.find((t) => t.url?.startsWith(urlPrefix));
      if (tab?.id === undefined) throw new Error(`no tab at ${urlPrefix}: ${tabs.map((t) => t.url).join(', ')}`);
      // @webext-core/messaging's wire format: { id, type, data, timestamp } → { res } | { err }.
      const reply = (await api.tabs.sendMessage(tab.id, { id: 1, type: 'collect', data, timestamp: Date.now() })) as
        | { res?: Observation; err?: unknown }
        | undefined;
      if (reply?.err) throw new Error(JSON.stringify(reply.err));
      return reply?.res as Observation;
    },
    { urlPrefix, data },
  );
}

export interface SweepStart {
  keywords: string;
  area: string;
}

/**
 * Fill the popup as a person would and press Start; the map tab then in front again
 * (showCoveredTab). Returns the popup page.
 */
export async function startSweepFromPopup(
  context: BrowserContext,
  input: SweepStart,
  settings: Record<string, number | boolean> = TEST_SETTINGS,
): Promise<Page> {
  const popup = await openPopup(context);
  await setSettings(popup, settings);
  await popup.getByLabel('Keywords').fill(input.keywords);
  await popup.getByLabel('Area').fill(input.area);
  await popup.getByRole('button', { name: 'Start', exact: true }).click();
  await showCoveredTab(popup);
  return popup;
}

/** Press Resume in the popup; the map tab then in front again, as after Start. */
export async function resumeFromPopup(popup: Page): Promise<void> {
  await popup.getByRole('button', { name: 'Resume' }).click();
  await showCoveredTab(popup);
}

/**
 * The tab the popup's tab covers back in front, as a real action popup leaves it in view: the
 * tab used last before the popup, in these tests the map tab a one-worker sweep works in
 * (findMapTab, utils/browser/tabs.ts, takes the map tab used last too); a sweep with a window of
 * its own works there, whichever tab is in front here. Covered, a tab is drawn only now and then
 * whatever the throttling switches say, and the map page's list asks for its next batch on a
 * scroll event, which waits for a drawing: measured, 3 scroll events a second covered against
 * 50-60 in front, and a 12 s sweep took 30 s. The popup still answers from behind: reads are
 * evaluations, and Playwright clicks and downloads on a covered page.
 */
async function showCoveredTab(popup: Page): Promise<void> {
  await popup.evaluate(showCoveredTabInPage);
}

export type SweepRecord = Awaited<ReturnType<typeof readSweeps>>[number];

export async function waitForSweep(popup: Page, predicate: (s: SweepRecord) => boolean, what: string, timeoutMs = 300_000): Promise<SweepRecord> {
  return waitFor(
    async () => {
      const sweeps = await readSweeps(popup);
      return sweeps.find(predicate) ?? null;
    },
    what,
    timeoutMs,
    // A sweep's end is seen within a quarter second (a second cost each of the suite's ~60 sweeps half a second on average).
    250,
  );
}

/** Press Export CSV and read the downloaded file back. */
export async function exportCsvFromPopup(popup: Page, button = 'Export CSV'): Promise<{ text: string; rows: Record<string, string>[]; fileName: string }> {
  const [download] = await Promise.all([popup.waitForEvent('download', { timeout: 60_000 }), popup.getByRole('button', { name: button }).click()]);
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  return { text, rows: parsed.data, fileName: download.suggestedFilename() };
}

export { serviceWorker };

/** The reviews pass's jobs once every place is settled (done or failed), else null. */
export async function settledReviewJobs(popup: Page): Promise<ReviewJob[] | null> {
  const jobs = (await readAll<ReviewJob>(popup, 'reviewQueue')).filter((j) => j.key !== '#queued');
  return jobs.length > 0 && jobs.every((j) => j.status === 'done' || j.status === 'failed') ? jobs : null;
}

/** The popup's Resume reviews, as its command (the button shows only while the pass waits). */
export async function resumeReviews(popup: Page, sweepId: string): Promise<void> {
  await popup.evaluate(
    (id) =>
      (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({
        id: 1,
        type: 'resumeReviews',
        data: id,
        timestamp: Date.now(),
      }),
    sweepId,
  );
}

/** A sweep's places read again from nothing: the reviews queue and the reviews emptied, then the pass asked to go on. */
export async function readReviewsAgain(popup: Page, sweepId: string): Promise<void> {
  await popup.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('mapsweep');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const tx = req.result.transaction(['reviewQueue', 'reviews'], 'readwrite');
          tx.objectStore('reviewQueue').clear();
          tx.objectStore('reviews').clear();
          tx.oncomplete = () => {
            req.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await resumeReviews(popup, sweepId);
}
