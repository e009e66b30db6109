/**
 * Run a whole sweep in-process: the real planner, queue, store and driver against the
 * replica's search semantics (SimPageDriver). No timers: sleep advances a fake clock.
 */
import type { CalibrationStore } from '../../utils/coverage/calibration';
import type { Viewport } from '../../utils/geo/types';
import { openStore, type Store } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import type { Sweep, SweepSettings } from '../../utils/domain/sweep';
import type { SearchSwitches } from '../replica/search';
import type { World } from '../replica/world';
import { createSimPageDriver, type SimOptions } from './sim-page-driver';
import { seededRandom } from './random';

export interface SimSweepOptions {
  world: World;
  areaText: string;
  keywordsText: string;
  viewport?: Viewport;
  switches?: SearchSwitches;
  workers?: number;
  settings?: Partial<SweepSettings>;
  sim?: Partial<SimOptions>;
  store?: Store;
  seed?: number;
  /** Where the geometry calibration lives (default: learnt for the run only; `frozenCalibration()` turns learning off). */
  calibration?: CalibrationStore;
  /** The sweep to run: created if the store has none of that id (a saved search's next run); default the store's newest, or 'sim'. */
  sweepId?: string;
  /** Stop after this many page loads (to simulate a crash); the store keeps what was committed. */
  stopAfterLoads?: number;
}

let dbCounter = 0;

/** A calibration store that never learns: every search is planned and judged on the starting bounds. */
export function frozenCalibration(): CalibrationStore {
  return { get: async () => null, update: async (_key, fresh, learn) => ({ before: fresh, result: learn(fresh) }) };
}

export async function simSweep(o: SimSweepOptions): Promise<{ store: Store; sweep: Sweep; loads: number }> {
  const viewport = o.viewport ?? { width: 1280, height: 800, panelWidth: 408 };
  const random = seededRandom(o.seed ?? 1);
  const store = o.store ?? (await openStore({ name: `sim-${++dbCounter}-${Date.now()}` }));
  let clock = 1_000_000;
  const sleep = async (ms: number) => {
    clock += Math.max(0, ms);
    await Promise.resolve();
  };
  const settings: SweepSettings = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0, ...o.settings };
  const page = createSimPageDriver(o.world, {
    viewport,
    switches: o.switches ?? { signedIn: true, sparseZoomOut: false },
    random,
    ...o.sim,
  });
  // A crash is a worker that stops dead holding a leased cell, as when the service worker is
  // stopped mid-cell: its next call never returns, and nothing it had not committed is kept.
  let crashed!: () => void;
  const crash = new Promise<'crashed'>((resolve) => (crashed = () => resolve('crashed')));
  const limitedPage: typeof page = o.stopAfterLoads
    ? {
        ...page,
        get loads() {
          return page.loads;
        },
        load(tabId, url, timeoutMs) {
          if (page.loads < o.stopAfterLoads!) return page.load(tabId, url, timeoutMs);
          crashed();
          return new Promise<never>(() => {});
        },
      }
    : page;

  let sweep = o.sweepId ? await store.getSweep(o.sweepId) : (await store.listSweeps())[0];
  if (!sweep) {
    const plan = planSweep({ areaText: o.areaText, keywordsText: o.keywordsText, settings, viewport, origin: null }, o.sweepId ?? 'sim', clock);
    if (!plan.ok) throw new Error(plan.error.message);
    sweep = await store.createSweep(plan.sweep, plan.cells);
  }
  const pacer = createPacer({ now: () => clock, sleep, random, timing: () => settings });
  const deps = {
    store,
    page: limitedPage,
    pacer,
    now: () => clock,
    sleep,
    random,
    attention: () => {},
    ...(o.calibration ? { calibration: o.calibration } : {}),
  };
  const workers = o.workers ?? 1;
  await Promise.race([Promise.all(Array.from({ length: workers }, (_, i) => runWorker(deps, sweep!.id, i + 1))), crash]);
  return { store, sweep: (await store.getSweep(sweep.id))!, loads: page.loads };
}
