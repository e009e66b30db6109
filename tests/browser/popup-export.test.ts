/**
 * Popup export (issue 14): places collected while browsing are exported from the popup with no
 * sweep, as CSV and XLSX (the XLSX read back by SheetJS equals the CSV cell by cell); a
 * 100,000-place export runs in the background's offscreen document and reaches the downloads
 * API after the popup was closed. Prints the long export's seconds and the browser's memory.
 *
 * Budget: 25 s (alone on 2 cores; measured 20 s).
 */
import * as XLSX from '@e965/xlsx';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMemory, treeMemory } from '../../scripts/bench/chromium-session';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { createWorld } from '../replica/world';
import { seedBrowsingInPage } from './in-page';
import { launchBrowser, newProfileDir, openPopup, readListings, removeProfileDir, serviceWorker, waitFor, type RunningBrowser } from './harness';
import type { WxtBrowser } from 'wxt/browser';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 41, places: 5_000, centre: CENTRE, radiusKm: 4 });
let replica: Replica;
let b: RunningBrowser;

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 50 } });
  b = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: chromiumArgs(replica.port) });
});

afterAll(async () => {
  await b?.close();
  if (b) removeProfileDir(b.profileDir);
  await replica?.close();
});

const parseCsv = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

async function download(popup: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([popup.waitForEvent('download', { timeout: 60_000 }), popup.getByRole('button', { name: button, exact: true }).click()]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

describe('popup export', () => {
  it('exports what was collected while browsing, with no sweep: CSV, and XLSX whose cells equal the CSV', async () => {
    const extensionPage = await openPopup(b.context);
    const maps = await b.context.newPage();
    await maps.goto(`https://www.google.com/maps/search/cafe/@${CENTRE.lat},${CENTRE.lng},15z`);
    await maps.waitForSelector('[role="feed"] [role="article"]');
    const browsing = await waitFor(
      async () => {
        const keys = (await readListings(extensionPage)).filter((l) => l.collections.includes('browsing'));
        return keys.length >= 10 ? keys : null;
      },
      'browsing listings stored',
      30_000,
      250,
    );
    await maps.waitForTimeout(1500);
    const stored = (await readListings(extensionPage)).filter((l) => l.collections.includes('browsing'));
    expect(stored.length).toBeGreaterThanOrEqual(browsing.length);

    const popup = await openPopup(b.context);
    const choice = popup.getByLabel('Places to export');
    await waitFor(async () => (await choice.inputValue()) === 'browsing' && (await choice.locator('option').count()) === 2, 'Browsing offered', 15_000, 250);
    const csv = await download(popup, 'Export CSV');
    expect(csv.name).toMatch(/^mapsweep_browsing_\d{4}-\d\d-\d\d\.csv$/);
    const rows = parseCsv(csv.bytes.toString('utf8'));
    const cid = rows[0]!.indexOf('cid');
    expect(
      rows
        .slice(1)
        .map((r) => r[cid])
        .sort(),
    ).toEqual(stored.map((l) => l.cid).sort());

    const xlsx = await download(popup, 'Export XLSX');
    expect(xlsx.name).toMatch(/^mapsweep_browsing_\d{4}-\d\d-\d\d\.xlsx$/);
    const book = XLSX.read(xlsx.bytes, { type: 'buffer', dense: true });
    const sheet = book.Sheets[book.SheetNames[0]!]!;
    const cells = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '' });
    expect(cells.map((r) => r.map(String))).toEqual(rows);
    // The 19–20-digit CID is a text cell: Excel keeps every digit.
    expect(sheet['!data']![1]![cid]).toMatchObject({ t: 's' });
    await popup.close();
    await maps.close();
    await extensionPage.close();
  });

  it('a 100,000-place export finishes in the background after the popup closed, with progress, through the downloads API', async () => {
    const setup = await openPopup(b.context);
    const before = (await readListings(setup)).filter((l) => l.collections.includes('browsing')).length;
    await setup.evaluate(seedBrowsingInPage, { count: 100_000, cidPrefix: '9' });
    await setup.close();
    const total = before + 100_000;

    const sw = await serviceWorker(b.context);
    const popup = await openPopup(b.context);
    await waitFor(async () => (await popup.getByLabel('Places to export').locator('option:checked').textContent())?.includes('100,'), 'the count', 30_000, 250);
    await popup.waitForTimeout(1500);
    const pid = b.process.pid!;
    const idle = treeMemory(pid, false).rssMb;
    const sampler = sampleMemory(pid, 100);
    const start = Date.now();
    await popup.getByRole('button', { name: 'Export CSV', exact: true }).click();
    // Progress shows while the popup is open...
    const status = popup.getByTestId('export-status');
    await waitFor(async () => /Exporting|Writing/.test((await status.textContent()) ?? ''), 'progress in the popup', 30_000, 50);
    // ...and the popup closes (as a real one does when it loses focus): the export goes on.
    await popup.close();
    const item = await waitFor(
      () =>
        sw.evaluate(async (since) => {
          const api = (globalThis as unknown as { chrome: WxtBrowser }).chrome;
          const items: { filename: string; state: string; startTime: string; error?: string }[] = await api.downloads.search({});
          // This export's file only: the test before this one downloaded files too.
          const done = items.find((d) => Date.parse(d.startTime) >= since - 1000 && (d.state === 'complete' || d.state === 'interrupted'));
          return done ?? null;
        }, start),
      'the download',
      180_000,
      100,
    );
    const seconds = (Date.now() - start) / 1000;
    const memory = sampler.stop();
    expect(item.state).toBe('complete');
    const text = readFileSync(item.filename, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.split('\r\n').filter((l) => l !== '');
    expect(lines.length).toBe(total + 1);
    expect(text).toContain('카페 99999 광화문점');
    const state = await sw.evaluate(
      async () => (await (globalThis as unknown as { chrome: WxtBrowser }).chrome.storage.session.get('long-export'))['long-export'],
    );
    expect(state).toMatchObject({ phase: 'done', done: total, total, fileName: expect.stringMatching(/^mapsweep_browsing_\d{4}-\d\d-\d\d\.csv$/) });
    console.log(
      `[popup-export] ${total} places: ${seconds.toFixed(1)} s click → file complete; browser RSS idle ${idle.toFixed(0)} MB, peak ${memory.peakRssMb.toFixed(0)} MB (+${(memory.peakRssMb - idle).toFixed(0)} MB), file ${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MB`,
    );
  });
});
