import { describe, expect, it } from 'vitest';
import { listFailedAttempts } from '../../utils/health/errors';
import { loadHealth } from '../../utils/health/queries';
import { renderText } from '../../utils/i18n/text';
import { healthLine, healthPanel } from '../../utils/health/view';
import type { StoredListing } from '../../utils/domain/listing';
import { openStore, type Store } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import type { Sweep } from '../../utils/domain/sweep';
import { MESSAGES } from '../../scripts/locales';
import { createSimPageDriver } from '../helpers/sim-page-driver';
import { seededRandom } from '../helpers/random';
import { frozenCalibration, simSweep } from '../helpers/sim-sweep';
import { AREA as CROWDED, world } from '../helpers/sim-world';
import type { PageDriver } from '../../utils/browser/page-driver';
import { freshFactory } from './store-fixtures';
import { DAY, SEOUL } from './schedule-fixtures';

const VIEWPORT = { width: 1280, height: 800, panelWidth: 408 };
const en = (key: string, ...params: (string | number)[]) =>
  (MESSAGES[key]?.[0] ?? `«${key}»`).replace(/\$(\d)/g, (_, i: string) => String(params[Number(i) - 1]));
const time = (at: number) => new Date(at).toISOString();

/** The real driver, queue and store over a given page driver, one worker, fake clock (as simSweep). */
async function drive(store: Store, page: PageDriver, areaText: string, keywordsText: string): Promise<Sweep> {
  let clock = 1_000_000;
  const sleep = async (ms: number) => {
    clock += Math.max(0, ms);
    await Promise.resolve();
  };
  const settings = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0 };
  const plan = planSweep({ areaText, keywordsText, settings, viewport: VIEWPORT, origin: null }, 'sweep-1', clock);
  if (!plan.ok) throw new Error(plan.error.message);
  await store.createSweep(plan.sweep, plan.cells);
  const random = seededRandom(3);
  const deps = {
    store,
    page,
    pacer: createPacer({ now: () => clock, sleep, random, timing: () => settings }),
    now: () => clock,
    sleep,
    random,
    attention: () => {},
  };
  await runWorker(deps, plan.sweep.id, 1);
  return (await store.getSweep(plan.sweep.id))!;
}

async function allListings(store: Store): Promise<StoredListing[]> {
  const out: StoredListing[] = [];
  for await (const batch of store.iterateListings(500)) out.push(...batch);
  return out;
}

describe('errors signal: every failed attempt with its cell, keyword, URL, kind and time', () => {
  it('lists each failure the sweep counted, with HTTP status and what became of the cell', async () => {
    // The third page the sweep asks for never loads; one in four others fails once in a while.
    const urls: string[] = [];
    const isFailing = (url: string) => {
      if (!urls.includes(url)) urls.push(url);
      return url === urls[2];
    };
    const { store, sweep } = await simSweep({
      world,
      areaText: CROWDED,
      keywordsText: 'cafe',
      seed: 9,
      settings: { maxAttempts: 3 },
      sim: { errorRate: 0.25, alwaysFail: isFailing },
      // Learning the geometry moves a cell's view (and so its URL) as the sweep goes; this test needs one URL per cell.
      calibration: frozenCalibration(),
    });
    const failing = urls[2];
    expect(sweep.status).toBe('finished');
    const attempts = await listFailedAttempts(store, [sweep.id], { limit: 10_000 });
    expect(attempts).toHaveLength(sweep.counters.errors);
    expect(attempts.length).toBeGreaterThan(3);
    for (const a of attempts) {
      expect(a).toMatchObject({ sweepId: sweep.id, keyword: 'cafe', kind: 'http', httpStatus: 500 });
      expect(a.cellId).toMatch(/^sim\/0\//);
      expect(a.url).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/cafe\//);
      expect(a.at).toBeGreaterThanOrEqual(1_000_000);
    }
    // The always-failing page: two retries, then set aside, all on the same cell and URL.
    const always = attempts.filter((a) => a.url === failing);
    expect(always.map((a) => a.outcome).sort()).toEqual(['quarantined', 'retry', 'retry']);
    expect(new Set(always.map((a) => a.cellId)).size).toBe(1);
    // Newest first, and `since` cuts older ones off.
    expect(attempts.map((a) => a.at)).toEqual([...attempts.map((a) => a.at)].sort((x, y) => y - x));
    const cut = attempts[Math.floor(attempts.length / 2)]!.at;
    expect(await listFailedAttempts(store, [sweep.id], { since: cut, limit: 10_000 })).toEqual(attempts.filter((a) => a.at >= cut));
  });
});

describe('coverage: the page changed under the extractor (in-process: cards on screen, nothing read)', () => {
  it('stops the sweep after the first such page: no cell done empty, nothing stored changes, health says so', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'changed' });
    const sim = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } });
    let before: StoredListing[] | null = null;
    const broken: PageDriver = {
      ...sim,
      load: (tabId, url, ms) => sim.load(tabId, url, ms),
      async collect(tabId, options, ms) {
        const obs = await sim.collect(tabId, options, ms);
        if (sim.loads === 1) return obs;
        // From the second page on, the cards are there but the extractor reads none of them.
        before ??= await allListings(store);
        return { ...obs, listings: [] };
      },
    };
    const sweep = await drive(store, broken, CROWDED, 'cafe');

    expect(sweep.status).toBe('failed');
    expect(sweep.problem?.kind).toBe('extractor');
    expect(sim.loads).toBe(2);
    const cells = await store.listCells(sweep.id);
    expect(cells.filter((c) => c.status === 'done')).toEqual([]);
    expect(cells.filter((c) => c.status === 'split')).toHaveLength(1);
    expect(before).not.toBeNull();
    expect((before as StoredListing[] | null)?.length).toBeGreaterThan(0);
    expect(await allListings(store)).toEqual(before);

    const [stop] = await listFailedAttempts(store, [sweep.id]);
    expect(stop).toMatchObject({ kind: 'extractor', outcome: 'stopped', keyword: 'cafe' });
    expect(stop?.cellId).toMatch(/^sweep-1\/0\/r0c0\.\d$/);
    expect(stop?.url).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/cafe\//);

    const data = await loadHealth(store, 1_000_000 + DAY / 2, SEOUL);
    expect(data.pageChanged?.sweepId).toBe(sweep.id);
    const line = healthLine(data);
    expect(line.state).toBe('page-changed');
    expect(renderText(line.text, en, time)).toMatch(/^Health: the map page changed · last new place .+ · 1 error in 24 h$/);
    expect(healthPanel(data).coverage.state).toBe('page-changed');
  });

  it('accepts a genuinely empty area as empty: cells done with zero places, sweep finished, health ok', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'empty' });
    // 30 km from the world's centre: no place there.
    const sim = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } });
    const sweep = await drive(store, sim, '37.80,127.30,37.81,127.31', 'cafe');
    expect(sweep.status).toBe('finished');
    const cells = await store.listCells(sweep.id);
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => c.status === 'done' && c.result?.organic === 0)).toBe(true);
    expect(await store.countListings()).toBe(0);
    const data = await loadHealth(store, 1_000_000 + 60_000, SEOUL);
    expect(healthLine(data).state).toBe('ok');
    expect(renderText(healthLine(data).text, en, time)).toBe('Health: ok · last new place never · 0 errors in 24 h');
  });
});
