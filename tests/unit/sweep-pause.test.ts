import { describe, expect, it } from 'vitest';
import { openStore } from '../../utils/store';
import { runWorker, type DriverDeps } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { seededRandom } from '../helpers/random';
import { createSimPageDriver } from '../helpers/sim-page-driver';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 3, places: 8000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 4 });
const VIEWPORT = { width: 1280, height: 800, panelWidth: 408 };

describe('pause and resume with one shared pacer', () => {
  it('a worker paused while waiting for its turn gives the turn back: the resumed sweep goes on', async () => {
    const store = await openStore({ name: 'pause-test' });
    let clock = 1_000_000;
    const sleep = async (ms: number) => {
      clock += Math.max(0, ms);
      await Promise.resolve();
    };
    const settings = { ...DEFAULT_SETTINGS, delayMs: 2000, jitterMs: 0 };
    const plan = planSweep({ areaText: '37.53,126.94,37.60,127.02', keywordsText: 'cafe', settings, viewport: VIEWPORT, origin: null }, 'p1', clock);
    if (!plan.ok) throw new Error(plan.error.message);
    const sweep = await store.createSweep(plan.sweep, plan.cells);
    const page = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } });
    const random = seededRandom(9);
    let pausedOnce = false;
    // The pacer outlives sweeps (one per service worker); the user pauses during its wait.
    const pacer = createPacer({
      now: () => clock,
      random,
      timing: () => settings,
      sleep: async (ms) => {
        if (page.loads === 1 && !pausedOnce) {
          pausedOnce = true;
          await store.patchSweep(sweep.id, { status: 'paused', pauseReason: 'user' });
        }
        await sleep(ms);
      },
    });
    const deps: DriverDeps = { store, page, pacer, now: () => clock, sleep, random, attention: () => {} };

    expect(await runWorker(deps, sweep.id, 1)).toBe('not-running');
    expect(page.loads).toBe(1);
    // The cell it held while waiting is given back at once, not left to run out its lease.
    expect((await store.listCells(sweep.id)).filter((c) => c.status === 'leased')).toEqual([]);
    await store.patchSweep(sweep.id, { status: 'running', pauseReason: null });
    // Without the turn given back, this would wait for ever (and the test would time out).
    expect(await runWorker(deps, sweep.id, 1)).toBe('finished');
    expect((await store.getSweep(sweep.id))?.status).toBe('finished');
    expect(page.loads).toBeGreaterThan(1);
  }, 20_000);
});
