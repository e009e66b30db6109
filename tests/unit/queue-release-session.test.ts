import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createPageDriver } from '../../utils/browser/page-driver';
import { failCell, leaseNextCell } from '../../utils/queue';
import { releaseSessionLeases } from '../../utils/queue/release-session';
import { openStore, type Store } from '../../utils/store';
import { createController } from '../../utils/sweep/controller';
import { createPacer } from '../../utils/queue/pacing';
import { normaliseSettings } from '../../utils/config/settings';
import { freshFactory, makeCell, makeSweep } from './store-fixtures';

const LEASE_MS = 90_000;

/** Two sweeps as a killed browser leaves them: cells leased by its workers, one a retry. */
async function killedSession(): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'release-session' });
  await store.createSweep(makeSweep('s1'), [makeCell('s1', 'a', { distance: 1 }), makeCell('s1', 'b', { distance: 2 }), makeCell('s1', 'c', { distance: 3 })]);
  await store.createSweep(makeSweep('s2', { status: 'paused', pauseReason: 'user' }), [makeCell('s2', 'a')]);
  const lease = (sweepId: string, holder: string, now: number) => leaseNextCell(store, { sweepId, holder, now, leaseMs: LEASE_MS });
  expect((await lease('s1', 'tab:1', 0))?.id).toBe('s1/0/a');
  expect((await lease('s1', 'tab:2', 0))?.id).toBe('s1/0/b');
  expect((await lease('s1', 'tab:3', 0))?.id).toBe('s1/0/c');
  const error = { kind: 'timeout' as const, message: 'slow', at: 0 };
  await failCell(store, { cellId: 's1/0/c', holder: 'tab:3', now: 0, error, maxAttempts: 3, random: () => 0 });
  expect((await lease('s1', 'tab:3', 1_000))?.id).toBe('s1/0/c'); // a retry, attempts 1
  expect((await lease('s2', 'tab:4', 0))?.id).toBe('s2/0/a');
  return store;
}

describe('releaseSessionLeases (browser restart)', () => {
  it('gives back every lease of every sweep at once, counting no attempt', async () => {
    const store = await killedSession();
    const now = 5_000; // long before any lease (90 s) runs out
    expect(await releaseSessionLeases(store, now)).toBe(4);

    const cells = [...(await store.listCells('s1')), ...(await store.listCells('s2'))];
    expect(cells.map((c) => [c.id, c.status, c.leaseHolder, c.attempts])).toEqual([
      ['s1/0/a', 'pending', null, 0],
      ['s1/0/b', 'pending', null, 0],
      ['s1/0/c', 'pending', null, 1],
      ['s2/0/a', 'pending', null, 0],
    ]);
    expect((await store.getSweep('s1'))?.counters.errors).toBe(1); // c's own failure, nothing more
    // Available now, fresh cells still first: the cell that was in flight is searched next.
    expect((await leaseNextCell(store, { sweepId: 's1', holder: 'loop:new', now, leaseMs: LEASE_MS }))?.id).toBe('s1/0/a');
    expect(await store.countOpenCells('s2')).toEqual({ total: 1, nextAvailableAt: 0 });
    const logged = (await store.listEvents('s1')).filter((e) => e.kind === 'cell-released').map((e) => e.cellId);
    expect(logged.sort()).toEqual(['s1/0/a', 's1/0/b', 's1/0/c']);
  });

  it('is a no-op on a store with no leases', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'release-none' });
    await store.createSweep(makeSweep('s1'), [makeCell('s1', 'a')]);
    expect(await releaseSessionLeases(store, 1)).toBe(0);
    expect((await store.getCell('s1/0/a'))?.status).toBe('pending');
  });

  it("is part of the controller's browser start: sweeps paused for Resume, their cells free at once", async () => {
    const store = await killedSession();
    let clock = 5_000;
    const sleep = async () => {};
    const controller = createController({
      browser: fakeBrowser,
      store,
      pacer: createPacer({ now: () => clock, sleep, random: () => 0, timing: () => ({ delayMs: 2000, jitterMs: 0 }) }),
      page: createPageDriver(
        fakeBrowser,
        { collect: async () => Promise.reject(new Error('no page in this test')), nextPage: async () => Promise.reject(new Error('no page in this test')) },
        sleep,
      ),
      now: () => clock,
      sleep,
      random: () => 0,
      newId: () => 'new',
      settings: async () => normaliseSettings(undefined),
      attention: () => {},
    });
    await controller.onBrowserStart();
    expect((await store.getSweep('s1'))?.status).toBe('paused');
    expect((await store.getSweep('s1'))?.pauseReason).toBe('restart');
    expect((await store.listCells('s1', 'leased')).length).toBe(0);
    clock += 1;
    expect(await store.countOpenCells('s1')).toEqual({ total: 3, nextAvailableAt: 0 });
  });
});
