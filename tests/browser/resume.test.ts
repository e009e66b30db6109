/**
 * Resume and pacing across a browser crash (issue 13), in real Chromium against the replica:
 *
 * - a browser killed while a cell is being collected gives that cell's lease back at the next
 *   start (utils/queue/release-session.ts): Resume loads the next page within seconds, not
 *   after the old lease's expiry (minutes), and the killed cell is searched again once;
 * - the pacer's last page load per host outlives the browser (utils/queue/pacing.ts,
 *   pacer-memory.ts): killed right after a load and resumed at once, the next load still comes
 *   at least the configured delay after the last one the site saw.
 *
 * Every time here is the replica's own request log (`replica.requests`): what the site saw.
 *
 * Budget: 40 s (alone on 2 cores; measured 33 s).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseAreaText } from '../../utils/geo';
import { chromiumArgs, startReplica, type Replica, type RequestRecord } from '../replica/server';
import { createWorld } from '../replica/world';
import { exportCsvFromPopup, resumeFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import { launchBrowser, newProfileDir, openPopup, readAll, readCells, removeProfileDir, type RunningBrowser } from './harness';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });
/** sweep.test.ts's SMALL area: ~400 cafes, so a few cells and a split. */
const AREA = '37.52400,127.01244,37.53600,127.02756';
/** The user's own Maps tab: a search without `?hl=`, so never mistaken for one of the sweep's. */
const MAP_TAB = `https://www.google.com/maps/search/cafe/@${CENTRE.lat},${CENTRE.lng},14z`;

let replica: Replica;
const browsers: RunningBrowser[] = [];

async function browser(profileDir = newProfileDir()): Promise<RunningBrowser> {
  const b = await launchBrowser({ profileDir, resolverArgs: chromiumArgs(replica.port) });
  browsers.push(b);
  const page = await b.context.newPage();
  await page.goto(MAP_TAB);
  return b;
}

/** The sweep's own page loads: cell searches (searchUrl always adds `?hl=`), with their index in the log. */
function sweepLoads(from = 0): { i: number; r: RequestRecord }[] {
  const out: { i: number; r: RequestRecord }[] = [];
  for (let i = from; i < replica.requests.length; i++) {
    const r = replica.requests[i]!;
    if (r.kind === 'page' && r.path.startsWith('/maps/search/') && r.path.includes('?hl=')) out.push({ i, r });
  }
  return out;
}

/** Polls the request log every few ms: the replica runs in this process, so a request is seen at once. */
async function until<T>(fn: () => T | null | undefined | false, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Relaunch on the same profile; the sweep shows as paused by the restart; press Resume. */
async function relaunchAndResume(
  profileDir: string,
  beforeResume?: (popup: Page) => Promise<void>,
): Promise<{ popup: Page; resumedAt: number; logAtResume: number }> {
  await browser(profileDir);
  const b = browsers[browsers.length - 1]!;
  const popup = await openPopup(b.context);
  await popup.getByRole('button', { name: 'Resume' }).waitFor({ timeout: 30_000 });
  await beforeResume?.(popup);
  const logAtResume = replica.requests.length;
  const resumedAt = Date.now();
  await resumeFromPopup(popup);
  return { popup, resumedAt, logAtResume };
}

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
});

afterEach(async () => {
  while (browsers.length) {
    const b = browsers.pop()!;
    await b.close();
    removeProfileDir(b.profileDir);
  }
});

afterAll(async () => {
  await replica?.close();
});

describe('resume after a browser crash', () => {
  it('a cell killed mid-collection is given back at once: next load within 20 s of Resume, searched again once, ground truth', async () => {
    const area = parseAreaText(AREA);
    if (!area.ok) throw new Error(area.error.message);
    const truth = new Set(replica.groundTruth('cafe', area.area).map((p) => p.cid));
    const started = Date.now();
    const profileDir = newProfileDir();
    const first = await browser(profileDir);
    const since = replica.requests.length;
    await startSweepFromPopup(first.context, { keywords: 'cafe', area: AREA });

    // The third cell search (the page has measured its canvas by then), once its list XHRs are under way.
    const killed = await until(() => {
      const loads = sweepLoads(since);
      const last = loads[loads.length - 1];
      if (!last || loads.length < 3) return null;
      return replica.requests.slice(last.i + 1).some((r) => r.kind === 'xhr') ? last : null;
    }, 'a third cell search with its list loading');
    await first.kill();
    const logAtKill = replica.requests.length;
    const xhrsOfKilled = replica.requests.slice(killed.i + 1, logAtKill).filter((r) => r.kind === 'xhr').length;

    const { popup, resumedAt, logAtResume } = await relaunchAndResume(profileDir);
    const next = await until(() => sweepLoads(logAtResume)[0], 'the first page load after Resume', 60_000);
    const secondsToNext = (next.r.at - resumedAt) / 1000;
    expect(secondsToNext).toBeLessThan(20);

    // The start-up gave back exactly the one lease the killed session held (one worker).
    const released = (await readAll<{ kind: string; cellId: string }>(popup, 'events')).filter((e) => e.kind === 'cell-released');
    expect(released).toHaveLength(1);

    const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the resumed sweep to finish', 150_000);
    const after = sweepLoads(logAtKill);
    const again = after.filter((l) => l.r.path === killed.r.path).length;
    const killedLat = /\/@(-?[\d.]+),/.exec(killed.r.path)![1];
    const sameRow = after.filter((l) => l.r.path.includes(`/@${killedLat},`)).map((l) => l.r.path);
    expect(again).toBe(1);

    // The ground truth, except places in cells still crowded at the closest zoom.
    const csv = await exportCsvFromPopup(popup);
    const cids = csv.rows.map((r) => r.cid!);
    expect(new Set(cids).size).toBe(cids.length);
    const got = new Set(cids);
    expect([...got].filter((c) => !truth.has(c))).toEqual([]);
    const saturated = (await readCells(popup)).filter((c) => c.status === 'saturated');
    const inSaturated = (p: { lat: number; lng: number }) =>
      saturated.some(({ bbox: c }) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east);
    expect([...truth].filter((c) => !got.has(c) && !inSaturated(world.byCid.get(c)!))).toEqual([]);

    console.log(
      `killed during ${killed.r.path} (${xhrsOfKilled} list XHRs served), search load ${sweepLoads(since).findIndex((l) => l.i === killed.i) + 1} of the sweep; ` +
        `first load ${secondsToNext.toFixed(2)} s after Resume (${next.r.path}); killed URL loaded again ${again}× ` +
        `(loads sharing its centre latitude after the kill: ${sameRow.join(' ')}); ` +
        `${got.size} of ${truth.size} places (${saturated.length} saturated cells), cells ${JSON.stringify(done.counters)}; ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }, 180_000);

  it('killed right after a page load and resumed at once, the next load still waits the configured delay', async () => {
    // The premise (Resume pressed inside the delay) is arranged, not hoped for: a relaunch took
    // 5.6 s on a busy 2-core machine, longer than the 4 s this test once used (issue 22).
    const settings = { ...TEST_SETTINGS, delayMs: 15_000, jitterMs: 0 };
    const started = Date.now();
    const profileDir = newProfileDir();
    const first = await browser(profileDir);
    const since = replica.requests.length;
    await startSweepFromPopup(first.context, { keywords: 'cafe', area: AREA }, settings);

    const last = await until(() => sweepLoads(since)[0], "the sweep's first page load");
    await first.kill();
    const killedAfterMs = Date.now() - last.r.at;

    // What the killed session's pacer left in storage.local (pacer-memory.ts), read before Resume.
    const seen = { remembered: null as number | null };
    const { resumedAt, logAtResume } = await relaunchAndResume(profileDir, async (popup) => {
      seen.remembered = await popup.evaluate(async () => {
        const api = (
          globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<{ pacer?: Record<string, { lastLoadAt?: number }> }> } } } }
        ).chrome;
        return (await api.storage.local.get('pacer')).pacer?.['www.google.com']?.lastLoadAt ?? null;
      });
    });
    const resumedAfterMs = resumedAt - last.r.at;
    const next = await until(() => sweepLoads(logAtResume)[0], 'the first page load after Resume', 60_000);
    const gapMs = next.r.at - last.r.at;
    console.log(
      `delay ${settings.delayMs} ms, jitter 0: killed ${killedAfterMs} ms after the load, Resume pressed ${resumedAfterMs} ms after it; ` +
        `remembered last load ${seen.remembered === null ? 'none' : `${seen.remembered - last.r.at} ms from the site's`}; ` +
        `next load ${gapMs} ms after the last one (${gapMs - settings.delayMs} ms over the delay); ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    // Without the remembered pace the new pacer would load at once: the test proves something
    // only if Resume was pressed inside the delay.
    expect(resumedAfterMs).toBeLessThan(settings.delayMs);
    // The killed session's last load outlived the SIGKILL (it is stamped just before the load starts).
    expect(seen.remembered).not.toBeNull();
    expect(Math.abs(seen.remembered! - last.r.at)).toBeLessThan(1000);
    // The pace is the pacer's: the next load reaches the replica at least the delay after the
    // killed session stamped its last load (the same machine's clock). Measured between two
    // arrivals instead, the latency of each (157 ms for the first on a busy machine, 40 for the
    // next) made a correct pacer look 117 ms early.
    expect(next.r.at - seen.remembered!).toBeGreaterThanOrEqual(settings.delayMs);
  }, 90_000);
});
