/**
 * The product's main job in real Chromium: the production build, the replica as
 * www.google.com, the popup driven by accessible names, a CSV at the end: a district, three
 * SIGKILLs, a stopped service worker, three worker tabs, bad input. A captcha and failing pages
 * are sweep-faults.test.ts.
 *
 * Budget: 150 s (alone on 2 cores; measured 118 s).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seededRandom } from '../helpers/random';
import { exportCsvFromPopup, resumeFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import { DISTRICT, googleSweepSuite, SMALL, world } from './google-suite';
import { newProfileDir, openPopup, readCells, readSweeps, type RunningBrowser, waitFor } from './harness';

const suite = googleSweepSuite();

describe('a sweep in real Chromium', () => {
  it('collects a 1,200-place district exactly: CSV ids = ground truth (saturated cells reported), no duplicates', async () => {
    const truth = suite.truthKeys('cafe', DISTRICT);
    expect(truth.size).toBeGreaterThan(1200);
    const b = await suite.browser();
    await suite.openMapTab(b);
    const started = Date.now();
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: DISTRICT });
    const sweep = await waitForSweep(popup, (s) => s.status === 'finished', 'the district sweep to finish');
    const seconds = (Date.now() - started) / 1000;
    const cells = await readCells(popup);
    // Crowded cells split, and so do their children: a cell path `r0c0.1.2` is two splits deep.
    expect(Math.max(...cells.map((c) => c.id.split('.').length - 1))).toBeGreaterThanOrEqual(2);

    const csv = await exportCsvFromPopup(popup);
    expect(csv.text.charCodeAt(0)).toBe(0xfeff);
    expect(csv.fileName).toMatch(/^mapsweep_cafe_\d{4}-\d{2}-\d{2}\.csv$/);
    const cids = csv.rows.map((r) => r.cid!);
    expect(new Set(cids).size).toBe(cids.length);
    const got = new Set(cids);
    const extra = [...got].filter((c) => !truth.has(c));
    expect(extra).toEqual([]);

    // Places in saturated cells may be missing by design; everything else must be there.
    const saturated = cells.filter((c) => c.status === 'saturated');
    const inSaturated = (p: { lat: number; lng: number }) =>
      saturated.some(({ bbox: c }) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east);
    const missing = [...truth].filter((c) => !got.has(c));
    const unexplained = missing.filter((c) => !inSaturated(world.byCid.get(c)!));
    expect(unexplained).toEqual([]);
    if (sweep.counters.cellsSaturated! > 0) {
      await popup
        .getByText(/Still crowded at the closest zoom/)
        .first()
        .waitFor({ timeout: 5000 });
    }
    console.log(
      `district: ${got.size} exported of ${truth.size} (${missing.length} missing, all in ${sweep.counters.cellsSaturated} saturated cells), ` +
        `${suite.replica.pageLoads()} page loads, cells ${JSON.stringify(sweep.counters)}, ${seconds.toFixed(0)} s`,
    );
  });

  /**
   * The CSV without its time columns and its provenance (`sources`: which visit saw a field
   * first, card or page data, depends on which pages a crash cut short): two runs must agree on
   * all else — every value of every place.
   */
  function comparable(rows: Record<string, string>[]): string[] {
    return rows.map(({ first_seen, last_seen, sources, ...rest }) => JSON.stringify(rest)).sort();
  }

  async function resumeInNewBrowser(profileDir: string): Promise<{ b: RunningBrowser; popup: Page }> {
    const b = await suite.browser(profileDir);
    await suite.openMapTab(b);
    const popup = await openPopup(b.context);
    // After a browser restart nothing runs by itself: the sweep waits, paused, for Resume.
    const paused = await waitForSweep(popup, (s) => s.status === 'paused', 'the sweep to show as paused', 30_000);
    expect(paused.pauseReason).toBe('restart');
    await resumeFromPopup(popup);
    return { b, popup };
  }

  it('survives three SIGKILLs of the browser: Resume continues and the CSV equals an uninterrupted run', async () => {
    const truth = suite.truthKeys('cafe', SMALL);
    const clean = await suite.browser();
    await suite.openMapTab(clean);
    let popup = await startSweepFromPopup(clean.context, { keywords: 'cafe', area: SMALL });
    const cleanSweep = await waitForSweep(popup, (s) => s.status === 'finished', 'the clean run');
    const cleanCsv = comparable((await exportCsvFromPopup(popup)).rows);
    const cleanLoads = cleanSweep.counters.pageLoads!;
    expect(cleanCsv.length).toBeGreaterThan(0);
    await clean.close();

    const random = seededRandom(42);
    const profileDir = newProfileDir();
    let b = await suite.browser(profileDir);
    await suite.openMapTab(b);
    popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: SMALL });
    const kills: number[] = [];
    for (let k = 0; k < 3; k++) {
      // A random moment: after a random number of further page loads of this sweep.
      const before = suite.replica.pageLoads();
      const after = 1 + Math.floor(random() * Math.max(1, cleanLoads / 4));
      await waitFor(async () => suite.replica.pageLoads() >= before + after, `page load ${after} after kill ${k}`, 120_000, 50);
      await new Promise((r) => setTimeout(r, random() * 1500));
      await b.kill();
      kills.push(suite.replica.pageLoads());
      ({ b, popup } = await resumeInNewBrowser(profileDir));
    }
    const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the crashed run to finish');
    const csv = comparable((await exportCsvFromPopup(popup)).rows);
    const onlyHere = csv.filter((r) => !cleanCsv.includes(r));
    if (onlyHere.length)
      console.log(
        `rows that differ from the clean run:\n${onlyHere.slice(0, 3).join('\n')}\nclean:\n${cleanCsv
          .filter((r) => !csv.includes(r))
          .slice(0, 3)
          .join('\n')}`,
      );
    expect(csv).toEqual(cleanCsv);
    expect(csv.length).toBeLessThanOrEqual(truth.size);
    console.log(`kills after page loads ${kills.join(', ')}; ${csv.length} rows identical to the clean run; cells ${JSON.stringify(done.counters)}`);
  });

  it('continues by itself after the service worker is stopped mid-sweep', async () => {
    const b = await suite.browser();
    await suite.openMapTab(b);
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: SMALL });
    const start = suite.replica.pageLoads();
    await waitFor(async () => suite.replica.pageLoads() >= start + 2, 'two page loads', 120_000, 50);
    const cdp = await b.context.newCDPSession(popup);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const stoppedAt = Date.now();
    const loadsAtStop = suite.replica.pageLoads();
    const sweep = await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep to finish after the worker stopped', 300_000);
    expect(suite.replica.pageLoads()).toBeGreaterThan(loadsAtStop);
    console.log(
      `worker stopped after ${loadsAtStop - start} loads; finished ${((Date.now() - stoppedAt) / 1000).toFixed(0)} s later; cells ${JSON.stringify(sweep.counters)}`,
    );
  });

  it('shares one queue among 3 worker tabs in a window of their own, still one page load at a time', async () => {
    const truth = suite.truthKeys('cafe', SMALL);
    const b = await suite.browser();
    await suite.openMapTab(b);
    const since = suite.replica.requests.length;
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: SMALL }, { ...TEST_SETTINGS, workers: 3, delayMs: 300, jitterMs: 0 });
    const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the 3-worker sweep', 300_000);
    const csv = await exportCsvFromPopup(popup);
    const got = new Set(csv.rows.map((r) => r.cid!));
    expect(got.size).toBe(csv.rows.length);
    expect([...truth].filter((c) => !got.has(c))).toEqual([]);
    expect(b.context.pages().length).toBeGreaterThanOrEqual(4); // the user's tab, the popup, 3 workers (+ the start page)
    // Page loads across all workers start at least the delay apart (the pacer is per host).
    const starts = suite.replica.requests
      .slice(since)
      .filter((r) => r.kind === 'page' && r.path.startsWith('/maps/search/'))
      .map((r) => r.at);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(300);
    // The window's start page too: one tab loads it, in its turn; the others load only their searches.
    const everyLoad = suite.replica.requests
      .slice(since)
      .filter((r) => r.kind === 'page')
      .map((r) => r.at);
    const loadGaps = everyLoad.slice(1).map((t, i) => t - everyLoad[i]!);
    expect(everyLoad.length).toBe(starts.length + 1);
    expect(Math.min(...loadGaps)).toBeGreaterThanOrEqual(300);
    console.log(
      `3 workers: ${done.counters.pageLoads} cells, ${got.size} places = ground truth, smallest gap between page loads ${Math.min(...gaps)} ms (${Math.min(...loadGaps)} ms with the start page)`,
    );
  });

  it('refuses bad input with a message and starts nothing', async () => {
    const b = await suite.browser();
    await suite.openMapTab(b);
    const popup = await openPopup(b.context);
    const cases: [string, string, RegExp][] = [
      ['cafe', '37.58,126.99,37.56,126.97', /south-west/i],
      ['   \n  ', SMALL, /at least one keyword/i],
      // Most of the world at neighbourhood scale: far over the cell limit.
      ['cafe', '-60.0,-170.0,70.0,170.0', /cells|smaller/i],
    ];
    for (const [keywords, area, message] of cases) {
      await popup.getByLabel('Keywords').fill(keywords);
      await popup.getByLabel('Area').fill(area);
      await popup.getByRole('button', { name: 'Start', exact: true }).click();
      await waitFor(async () => (await popup.getByRole('alert').textContent())?.match(message), `the message ${message}`, 10_000, 100);
    }
    expect(await readSweeps(popup)).toEqual([]);
    expect(suite.replica.requests.filter((r) => r.kind === 'page').length).toBeGreaterThan(0);
  });
});
