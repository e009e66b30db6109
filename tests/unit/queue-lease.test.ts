import { describe, expect, it } from 'vitest';
import { deferCell, failCell, leaseNextCell, releaseCell, renewLease } from '../../utils/queue';
import { openStore, type Store } from '../../utils/store';
import type { Cell, CellStatus } from '../../utils/domain/sweep';
import { dumpDatabase, freshFactory, makeCell, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';

const NAME = 'queue-test';

async function storeWith(cells: Cell[]) {
  const factory = freshFactory();
  const store = await openStore({ factory, name: NAME });
  await store.createSweep(makeSweep('s1'), cells);
  return { factory, store };
}

const lease = (store: Store, holder: string, now: number, leaseMs = 60_000) => leaseNextCell(store, { sweepId: 's1', holder, now, leaseMs });

async function leaseAll(store: Store, now: number): Promise<string[]> {
  const ids: string[] = [];
  for (let cell = await lease(store, 'tab:1', now); cell; cell = await lease(store, 'tab:1', now)) ids.push(cell.id);
  return ids;
}

const timeout = (at: number) => ({ kind: 'timeout' as const, message: 'page did not load', at });

describe('lease order', () => {
  it('goes by keyword, then depth (coarse first), then distance, then id', async () => {
    const { store } = await storeWith([
      makeCell('s1', 'x', { keywordIndex: 1, distance: 5 }),
      makeCell('s1', 'y', { depth: 1, distance: 1 }),
      makeCell('s1', 'z', { distance: 300 }),
      makeCell('s1', 'w', { distance: 200 }),
      makeCell('s1', 'v', { distance: 200 }),
    ]);
    expect(await leaseAll(store, 0)).toEqual(['s1/0/v', 's1/0/w', 's1/0/z', 's1/0/y', 's1/1/x']);
  });

  it('hands out fresh cells before a failed one whose backoff has passed, and never one still backing off', async () => {
    const { store } = await storeWith([makeCell('s1', 'a', { distance: 1 }), makeCell('s1', 'b', { keywordIndex: 1 })]);
    const first = await lease(store, 'tab:1', 0);
    expect(first?.id).toBe('s1/0/a');
    const failed = await failCell(store, { cellId: 's1/0/a', holder: 'tab:1', now: 0, error: timeout(0), maxAttempts: 3, random: () => 0.5 });
    // Full jitter over [0, 5000) with a draw of 0.5: 2500 ms.
    expect(failed).toEqual({ applied: true, outcome: 'retry', attempts: 1, nextAttemptAt: 2_500 });

    expect((await lease(store, 'tab:2', 1_000))?.id).toBe('s1/1/b');
    expect(await lease(store, 'tab:2', 1_000)).toBeNull();
    expect(await store.countOpenCells('s1')).toEqual({ total: 2, nextAvailableAt: 2_500 });
    expect((await lease(store, 'tab:2', 2_500))?.id).toBe('s1/0/a');

    // And with a fresh cell and a retry both available, the fresh one goes first whatever its keyword.
    const { store: other } = await storeWith([makeCell('s1', 'a', { distance: 1 }), makeCell('s1', 'b', { keywordIndex: 1 })]);
    await lease(other, 'tab:1', 0);
    await failCell(other, { cellId: 's1/0/a', holder: 'tab:1', now: 0, error: timeout(0), maxAttempts: 3, random: () => 0 });
    expect(await leaseAll(other, 10_000)).toEqual(['s1/1/b', 's1/0/a']);
  });

  it('keeps only open cells in the lease-order index: done cells cost the queue nothing', async () => {
    const { factory, store } = await storeWith(makeCells('s1', 30));
    for (let i = 0; i < 25; i++) {
      const cell = await lease(store, 'tab:1', i);
      await store.commitCell({
        sweepId: 's1',
        cellId: cell!.id,
        holder: 'tab:1',
        now: i,
        keyword: cell!.keyword,
        listings: [makeListing(String(i))],
        outcome: { status: 'done', result: RESULT },
      });
    }
    const held = await lease(store, 'tab:2', 100);
    const dump = await dumpDatabase(factory, NAME);
    const indexed = (dump['cells.byLeaseOrder'] as [unknown, string][]).map(([, id]) => id);
    const open = (await store.listCells('s1')).filter((c) => c.status === 'pending' || c.status === 'leased');
    expect(indexed.sort()).toEqual(open.map((c) => c.id).sort());
    expect(indexed).toHaveLength(5);
    expect(indexed).toContain(held!.id);
  });
});

describe('a lease is a time', () => {
  it('is not handed out while it runs, and is handed out again once it has passed', async () => {
    const { store } = await storeWith([makeCell('s1', 'only')]);
    expect((await lease(store, 'tab:1', 0, 1_000))?.leaseUntil).toBe(1_000);
    expect(await lease(store, 'tab:2', 999, 1_000)).toBeNull();
    const again = await lease(store, 'tab:2', 1_000, 1_000);
    expect(again).toMatchObject({ id: 's1/0/only', leaseHolder: 'tab:2', leaseUntil: 2_000, attempts: 0 });
  });

  it('can be renewed by its holder, not by one who lost it', async () => {
    const { store } = await storeWith([makeCell('s1', 'only')]);
    await lease(store, 'tab:1', 0, 1_000);
    expect(await renewLease(store, { cellId: 's1/0/only', holder: 'tab:1', now: 900, leaseMs: 1_000 })).toBe(true);
    expect(await renewLease(store, { cellId: 's1/0/only', holder: 'tab:2', now: 900, leaseMs: 1_000 })).toBe(false);
    expect(await lease(store, 'tab:2', 1_500)).toBeNull();
    expect((await lease(store, 'tab:2', 1_900))?.leaseHolder).toBe('tab:2');
    expect(await renewLease(store, { cellId: 's1/0/only', holder: 'tab:1', now: 1_950, leaseMs: 1_000 })).toBe(false);
  });

  it('is given back by its holder only, and the cell is available at once', async () => {
    const { store } = await storeWith([makeCell('s1', 'only')]);
    await lease(store, 'tab:1', 0);
    expect(await releaseCell(store, { cellId: 's1/0/only', holder: 'tab:2' })).toBe(false);
    expect(await releaseCell(store, { cellId: 's1/0/only', holder: 'tab:1' })).toBe(true);
    expect(await store.getCell('s1/0/only')).toMatchObject({ status: 'pending', leaseHolder: null, attempts: 0 });
    expect((await lease(store, 'tab:2', 1))?.id).toBe('s1/0/only');
  });

  it('is never given to two of many workers asking at the same moment', async () => {
    const { store } = await storeWith(makeCells('s1', 10));
    const got = await Promise.all(Array.from({ length: 12 }, (_, i) => lease(store, `tab:${i}`, 0)));
    const ids = got.filter((c): c is Cell => c !== null).map((c) => c.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
  });
});

describe('a restarted worker', () => {
  it('finds every cell as it was and gets the expired lease back, never the valid one', async () => {
    const factory = freshFactory();
    const first = await openStore({ factory, name: NAME });
    await first.createSweep(makeSweep('s1'), makeCells('s1', 6));
    const held = await lease(first, 'tab:1', 0, 100_000); // c0: still held at t = 50,000
    const dropped = await lease(first, 'tab:2', 0, 10_000); // c1: its worker dies; expires at 10,000
    const done = await lease(first, 'tab:1', 0);
    await first.commitCell({
      sweepId: 's1',
      cellId: done!.id,
      holder: 'tab:1',
      now: 1,
      keyword: done!.keyword,
      listings: [],
      outcome: { status: 'done', result: RESULT },
    });
    const bad = await lease(first, 'tab:1', 2);
    await failCell(first, { cellId: bad!.id, holder: 'tab:1', now: 3, error: timeout(3), maxAttempts: 1, random: () => 0 });
    first.close();

    const store = await openStore({ factory, name: NAME });
    const statuses = Object.fromEntries((await store.listCells('s1')).map((c) => [c.id, c.status]));
    expect(statuses).toEqual<Record<string, CellStatus>>({
      's1/0/r0c0': 'leased',
      's1/0/r0c1': 'leased',
      's1/0/r0c2': 'done',
      's1/0/r0c3': 'quarantined',
      's1/0/r0c4': 'pending',
      's1/0/r0c5': 'pending',
    });
    expect(held?.id).toBe('s1/0/r0c0');
    expect(dropped?.id).toBe('s1/0/r0c1');
    expect(await leaseAll(store, 50_000)).toEqual(['s1/0/r0c4', 's1/0/r0c5', 's1/0/r0c1']);
    expect(await store.getCell('s1/0/r0c0')).toMatchObject({ status: 'leased', leaseHolder: 'tab:1', leaseUntil: 100_000 });
    expect(await store.countCells('s1')).toMatchObject({ leased: 4, done: 1, quarantined: 1 });
    store.close();
  });
});

describe('deferCell (a team sweep\u2019s cell another browser holds)', () => {
  it('puts the cell back until the given time without counting an attempt, and only for its holder', async () => {
    const { store } = await storeWith(makeCells('s1', 2));
    const first = await lease(store, 'tab:1', 1_000);
    expect(await deferCell(store, { cellId: first!.id, holder: 'tab:2', until: 50_000 })).toBe(false);
    expect(await deferCell(store, { cellId: first!.id, holder: 'tab:1', until: 50_000 })).toBe(true);
    expect(await store.getCell(first!.id)).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: 50_000, leaseHolder: null });
    // Meanwhile the other cell is leased; the deferred one only once its time has come.
    expect((await lease(store, 'tab:1', 2_000))?.id).not.toBe(first!.id);
    expect(await lease(store, 'tab:1', 2_000)).toBeNull();
    expect((await lease(store, 'tab:1', 50_000))?.id).toBe(first!.id);
  });
});
