/**
 * Politeness has no unpaced path (issue 22): paging stops at the next page once the sweep is
 * paused, stopped or failed (by the user, or by another worker that met a block) and the cell
 * goes back without an attempt; a worker window loads its start page in its turn of the host's
 * lane and nothing else before the loops' own paced loads; the delay has a floor that only an
 * explicit "I accept the risk" setting lowers.
 */
import 'fake-indexeddb/auto';
import type { WxtBrowser as Browser } from 'wxt/browser';
import { describe, expect, it } from 'vitest';
import { openWorkerWindow } from '../../utils/browser/tabs';
import type { SweepStatus } from '../../utils/domain/sweep';
import { kakaoProvider } from '../../utils/providers/kakao/provider';
import { openStore } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS, DELAY_FLOOR_MS, normaliseSettings } from '../../utils/config/settings';
import { createKakaoSimDriver } from '../helpers/kakao-sim-page';
import { seededRandom } from '../helpers/random';
import { kakaoWorld } from '../replica/kakao/places';
import { createWorld } from '../replica/world';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 12, places: 30_000, centre: CENTRE, radiusKm: 5 });
const kw = kakaoWorld(world);
/** One crowded cell's worth at the centre: a long list, read page by page (the sim's answers give no total). */
const AREA = `${CENTRE.lat - 0.004},${CENTRE.lng - 0.005},${CENTRE.lat + 0.004},${CENTRE.lng + 0.005}`;

function virtualClock() {
  let clock = 1_000_000;
  return {
    now: () => clock,
    sleep: async (ms: number) => {
      clock += Math.max(0, ms);
      await Promise.resolve();
    },
  };
}

describe('paging stops at the next page when the sweep stops running', () => {
  for (const status of ['paused', 'stopped', 'failed'] as SweepStatus[]) {
    it(`${status} during a walk: no further page turn, the cell back as it was (no attempt), the loop ends`, async () => {
      const { now, sleep } = virtualClock();
      const random = seededRandom(2);
      const store = await openStore({ name: `politeness-walk-${status}` });
      const settings = { ...DEFAULT_SETTINGS, delayMs: 2000, jitterMs: 0 };
      const sim = createKakaoSimDriver(kw, { random, reportsTotal: false });
      let turnsAtStop: number | null = null;
      const page = {
        ...sim,
        async nextPage(tabId: number) {
          const r = await sim.nextPage!(tabId);
          // Another worker met a captcha (or the user pressed Pause/Stop) after the second page turn.
          if (sim.pageTurns === 2 && turnsAtStop === null) {
            turnsAtStop = sim.pageTurns;
            await store.patchSweep('walk', { status, pauseReason: status === 'paused' ? 'captcha' : null });
          }
          return r;
        },
      };
      const plan = planSweep(
        { areaText: AREA, keywordsText: '카페', settings, viewport: await sim.viewport(1), origin: null, provider: kakaoProvider },
        'walk',
        now(),
      );
      if (!plan.ok) throw new Error(plan.error.message);
      await store.createSweep(plan.sweep, plan.cells);
      const pacer = createPacer({ now, sleep, random, timing: () => settings });

      const exit = await runWorker({ store, page, pacer, now, sleep, random, attention: () => {} }, 'walk', 1);

      expect(turnsAtStop).toBe(2);
      expect(sim.pageTurns).toBe(2);
      expect(sim.loads).toBe(1);
      expect(exit).toBe('not-running');
      const cells = await store.listCells('walk');
      // Released, not failed: pending at once, no attempt counted, nothing committed.
      expect(cells.filter((c) => c.status !== 'pending')).toEqual([]);
      expect(cells.map((c) => c.attempts)).toEqual(cells.map(() => 0));
      expect(cells.every((c) => c.leaseHolder === null && c.lastError === null)).toBe(true);
      expect((await store.getSweep('walk'))?.status).toBe(status);
    });
  }
});

describe('a worker window', () => {
  it('loads its start page once, in its turn of the lane; its other tabs load nothing until their loop does', async () => {
    const { now, sleep } = virtualClock();
    const created: { kind: 'window' | 'tab'; url: string }[] = [];
    let nextId = 10;
    const browser = {
      windows: {
        create: async (o: { url: string }) => {
          created.push({ kind: 'window', url: o.url });
          return { id: 1, tabs: [{ id: nextId++ }] };
        },
      },
      tabs: {
        create: async (o: { url: string }) => {
          created.push({ kind: 'tab', url: o.url });
          return { id: nextId++ };
        },
      },
    } as unknown as Browser;
    const settings = { delayMs: 2000, jitterMs: 0 };
    const pacer = createPacer({ now, sleep, random: () => 0, timing: () => settings });
    // A search of this host just ended (another sweep, or this one's before a restart).
    (await pacer.acquire(kakaoProvider.laneUrl))();
    const lastSearch = now();
    const loads: { tab: number; url: string; at: number }[] = [];

    const ids = await openWorkerWindow(browser, 3, {
      url: kakaoProvider.startUrl,
      turn: (url) => pacer.acquire(url),
      load: async (tab, url) => {
        loads.push({ tab, url, at: now() });
        await sleep(700);
      },
    });

    expect(ids).toEqual([10, 11, 12]);
    expect(created.map((c) => c.url)).toEqual(['about:blank', 'about:blank', 'about:blank']);
    expect(loads).toEqual([{ tab: 10, url: kakaoProvider.startUrl, at: lastSearch + settings.delayMs }]);
    // The lane was held until the start page had loaded: the next search waits a delay after that.
    const release = await pacer.acquire(kakaoProvider.laneUrl);
    release();
    expect(now()).toBe(lastSearch + settings.delayMs + 700 + settings.delayMs);
  });
});

describe('a floor on the delay', () => {
  it(`keeps ${DELAY_FLOOR_MS} ms unless the risk was accepted: typed, stored by an old version, or hand-edited`, () => {
    expect(DELAY_FLOOR_MS).toBe(2000);
    expect(normaliseSettings({ delayMs: 0 }).delayMs).toBe(DELAY_FLOOR_MS);
    expect(normaliseSettings({ delayMs: 500, belowFloorAccepted: false }).delayMs).toBe(DELAY_FLOOR_MS);
    // Only a real "true" accepts the risk.
    expect(normaliseSettings({ delayMs: 500, belowFloorAccepted: 'yes' }).delayMs).toBe(DELAY_FLOOR_MS);
    expect(normaliseSettings({ delayMs: 500, belowFloorAccepted: 1 }).delayMs).toBe(DELAY_FLOOR_MS);
    // Above the floor, the user's number stands.
    expect(normaliseSettings({ delayMs: 4000 }).delayMs).toBe(4000);
    // With the risk accepted, below it (down to 0).
    expect(normaliseSettings({ delayMs: 500, belowFloorAccepted: true })).toMatchObject({ delayMs: 500, belowFloorAccepted: true });
    expect(normaliseSettings({ delayMs: 0, belowFloorAccepted: true }).delayMs).toBe(0);
    expect(normaliseSettings(undefined)).toMatchObject({ delayMs: DEFAULT_SETTINGS.delayMs, belowFloorAccepted: false });
  });
});
