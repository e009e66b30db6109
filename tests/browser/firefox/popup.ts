/**
 * What a Firefox test does with the extension, through its real surfaces: the popup's controls
 * by their accessible names (puppeteer's ::-p-aria, as a person or a screen reader finds them),
 * and the downloaded file read from the download folder the browser reports. The Firefox
 * counterpart of ../extension.ts.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Browser, Page } from 'puppeteer-core';
import type { WxtBrowser } from 'wxt/browser';
import { showCoveredTabInPage } from '../in-page';
import { openPopup, readSweeps, setSettings, waitFor, type SweepRow } from './harness';

/** ../extension.ts TEST_SETTINGS: fast but paced (below the 2 s floor needs the explicit acceptance). */
export const TEST_SETTINGS = { delayMs: 150, jitterMs: 100, scrollPauseMs: 120, cellTimeoutMs: 30_000, maxAttempts: 3, belowFloorAccepted: true };

/** The popup's button that asks Firefox for the manifest's host permissions (one click, permissions.request). */
export const ALLOW_ACCESS = 'Allow access to the map sites';

const button = (name: string) => `::-p-aria([name="${name}"][role="button"])`;

/** Whether the extension holds all of its manifest's host permissions now. */
export async function hasMapHosts(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const api = (globalThis as unknown as { browser: WxtBrowser }).browser;
    return api.permissions.contains({ origins: api.runtime.getManifest().host_permissions ?? [] });
  });
}

/**
 * The map sites' access, as a person gives it: with the hosts missing, the popup must show
 * "Allow access to the map sites", and one click must grant them all (permissions.request from
 * the click; extensions.webextOptionalPermissionPrompts=false answers Firefox's doorhanger).
 * Returns whether they were missing (and so granted here by the button).
 */
export async function ensureMapSiteAccess(popup: Page): Promise<boolean> {
  if (await hasMapHosts(popup)) return false;
  const allow = await popup.waitForSelector(button(ALLOW_ACCESS), { timeout: 15_000 }).catch(() => {
    throw new Error(`The map hosts are not granted and the popup shows no "${ALLOW_ACCESS}" button`);
  });
  await allow!.click();
  await waitFor(() => hasMapHosts(popup), `the map hosts granted after "${ALLOW_ACCESS}"`, 15_000, 100);
  return true;
}

export interface SweepStart {
  keywords: string;
  area: string;
}

/** Type into a labelled text field, as a person does, replacing what it held. */
async function typeInto(popup: Page, label: string, text: string): Promise<void> {
  const field = (await popup.waitForSelector(`::-p-aria([name="${label}"][role="textbox"])`, { timeout: 15_000 }))!;
  await field.click({ count: 3 }); // selects what is there, so the typing replaces it
  await field.type(text);
  const value = await field.evaluate((el) => (el as HTMLInputElement).value);
  if (value !== text) throw new Error(`"${label}" holds ${JSON.stringify(value)} after typing ${JSON.stringify(text)}`);
}

/**
 * Fill the popup as a person would and press Start; then the map tab in front again, as a real
 * action popup leaves it (showCoveredTab). Returns the popup page.
 */
export async function startSweepFromPopup(browser: Browser, input: SweepStart, settings: Record<string, number | boolean> = TEST_SETTINGS): Promise<Page> {
  const popup = await openPopup(browser);
  await setSettings(popup, settings);
  await typeInto(popup, 'Keywords', input.keywords);
  await typeInto(popup, 'Area', input.area);
  await popup.locator(button('Start')).click();
  await showCoveredTab(popup);
  return popup;
}

/** Press Resume in the popup; the map tab then in front again, as after Start. */
export async function resumeFromPopup(popup: Page): Promise<void> {
  await popup.locator(button('Resume')).setTimeout(30_000).click();
  await showCoveredTab(popup);
}

/** Press Stop for the sweep the popup shows, if it has not ended (a test's clean-up after a failure). */
export async function stopShownSweep(popup: Page): Promise<void> {
  const stop = await popup.$(button('Stop'));
  if (!stop || (await stop.evaluate((b) => (b as HTMLButtonElement).disabled))) return;
  await popup.bringToFront();
  await stop.click();
}

/**
 * The tab the popup's tab covers back in front (../extension.ts showCoveredTab): Firefox, like
 * Chromium, draws a tab behind another only now and then, and the map pages' lists load their
 * next batch on scroll events that wait for a drawing.
 */
export async function showCoveredTab(popup: Page): Promise<void> {
  await popup.evaluate(showCoveredTabInPage);
}

export async function waitForSweep(popup: Page, predicate: (s: SweepRow) => boolean, what: string, timeoutMs = 300_000): Promise<SweepRow> {
  return waitFor(async () => (await readSweeps(popup)).find(predicate) ?? null, what, timeoutMs, 250);
}

export interface DownloadItem {
  id: number;
  filename: string;
  state: string;
  error?: string;
  startTime: string;
}

/** The browser's downloads, as the extension's downloads API lists them (read from an extension page). */
export async function listDownloads(page: Page): Promise<DownloadItem[]> {
  return page.evaluate(async () => {
    const api = (globalThis as unknown as { browser: WxtBrowser }).browser;
    const items = await api.downloads.search({});
    return items.map((d) => ({ id: d.id, filename: d.filename, state: d.state ?? '', error: d.error, startTime: d.startTime }));
  });
}

/** The next download after `before` (ids already there), once the browser says it is complete or interrupted. */
export async function nextDownload(page: Page, before: ReadonlySet<number>, timeoutMs = 60_000): Promise<DownloadItem> {
  return waitFor(
    async () => (await listDownloads(page)).find((d) => !before.has(d.id) && (d.state === 'complete' || d.state === 'interrupted')) ?? null,
    'the download',
    timeoutMs,
    100,
  );
}

export const parseCsv = (text: string) => Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;

/** Press Export CSV and read the file Firefox saved in the download folder. */
export async function exportCsvFromPopup(popup: Page, name = 'Export CSV'): Promise<{ text: string; rows: Record<string, string>[]; file: string }> {
  const before = new Set((await listDownloads(popup)).map((d) => d.id));
  // In front first: puppeteer waits for a control to hold still over animation frames, and a
  // tab behind another gets none (measured: 16 s before a click on the covered popup landed).
  await popup.bringToFront();
  await popup.locator(button(name)).click();
  const item = await nextDownload(popup, before);
  if (item.state !== 'complete') throw new Error(`the export's download was interrupted: ${item.error ?? 'no reason given'}`);
  const text = readFileSync(item.filename, 'utf8');
  return { text, rows: parseCsv(text), file: item.filename };
}
