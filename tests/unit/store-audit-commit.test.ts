/**
 * Issue 22, "audits and repairs cannot be lost", at the store: an audit cell's commit carries its
 * verdict in the same transaction (a throw in it keeps nothing of the commit), re-opening done
 * cells of a finished sweep brings it back to running, and "new to this sweep" is read from the
 * sweep's own records, never from what another sweep found under the keyword.
 */
import { describe, expect, it } from 'vitest';
import { leaseNextCell } from '../../utils/queue';
import { reopenCells } from '../../utils/store/audit-rounds';
import { openStore, StoreError, type Store } from '../../utils/store';
import { memoryCalibrationStore } from '../../utils/coverage/calibration';
import { auditSettlement } from '../../utils/sweep/self-audit';
import { finishIfDrained, transition } from '../../utils/sweep/status-machine';
import type { Cell } from '../../utils/domain/sweep';
import type { Listing } from '../../utils/domain/listing';
import { dumpDatabase, freshFactory, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';
import { makeCell } from '../helpers/store-records';

async function leaseOne(store: Store, sweepId: string, now: number): Promise<Cell> {
  const cell = await leaseNextCell(store, { sweepId, holder: 'h', now, leaseMs: 60_000 });
  if (!cell) throw new Error('no cell to lease');
  return cell;
}

function commit(store: Store, cell: Cell, listings: Listing[], now: number) {
  return store.commitCell({
    sweepId: cell.sweepId,
    cellId: cell.id,
    holder: 'h',
    now,
    keyword: cell.keyword,
    listings,
    outcome: { status: 'done', result: RESULT },
  });
}

describe("an audit cell's commit and its verdict are one transaction", () => {
  it('a throw in the verdict keeps nothing of the commit: the audit cell is searched again, no evidence half-written', async () => {
    const factory = freshFactory();
    const store = await openStore({ factory, name: 'audit-commit' });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
    const cell = await leaseOne(store, 's1', 1_000);
    const before = await dumpDatabase(factory, 'audit-commit');
    const error = await store
      .commitCell(
        {
          sweepId: 's1',
          cellId: cell.id,
          holder: 'h',
          now: 2_000,
          keyword: cell.keyword,
          listings: [makeListing('1')],
          outcome: { status: 'done', result: RESULT },
        },
        async () => {
          throw new Error('the worker died in the middle of the verdict');
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(await dumpDatabase(factory, 'audit-commit')).toEqual(before);
    expect((await store.getCell(cell.id))?.status).toBe('leased');
  });

  it('the verdict sees the commit it belongs to: the audit cell is done and its places are counted new to the sweep', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'audit-commit-sees' });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
    const cell = await leaseOne(store, 's1', 1_000);
    let seen: { status?: string; newToSweep: readonly string[] } | null = null;
    await store.commitCell(
      {
        sweepId: 's1',
        cellId: cell.id,
        holder: 'h',
        now: 2_000,
        keyword: cell.keyword,
        listings: [makeListing('1')],
        outcome: { status: 'done', result: RESULT },
      },
      async (tx, committed) => {
        seen = { status: (await tx.objectStore('cells').get(cell.id))?.status, newToSweep: committed.newToSweep };
      },
    );
    expect(seen).toEqual({ status: 'done', newToSweep: ['google:1'] });
  });
});

describe('re-opened cells are never left in a finished sweep', () => {
  it('re-opening done cells of a finished sweep brings it back to running, in the same transaction', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'reopen-finished' });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
    for (let i = 0; i < 2; i++) await commit(store, await leaseOne(store, 's1', 1_000 + i), [], 2_000 + i);
    expect(await transition(store, 's1', { event: 'finish' })).toMatchObject({ ok: true, sweep: { status: 'finished' } });
    // A late worker (its shrink or audit) re-opens a cell after another one finished the sweep.
    const [done] = await store.listCells('s1', 'done');
    expect(await reopenCells(store, 's1', [done!.id], (a) => a, 4_000)).toBe(1);
    const sweep = await store.getSweep('s1');
    expect(sweep?.status).toBe('running');
    expect((await store.countOpenCells('s1')).total).toBe(1);
    // Each re-opening is counted on the cell: a team sweep tells a stale settlement by it (utils/team/lease.ts).
    expect((await store.getCell(done!.id))?.reopened).toBe(1);
  });

  it('a sweep finishes only while none of its cells is open (checked in the finishing transaction)', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'finish-drained' });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 1));
    expect(await finishIfDrained(store, 's1', 2_000)).toEqual({ ok: false, status: 'running', open: true });
    expect((await store.getSweep('s1'))?.status).toBe('running');
    await commit(store, await leaseOne(store, 's1', 3_000), [], 4_000);
    expect((await finishIfDrained(store, 's1', 5_000)).ok).toBe(true);
    expect(await finishIfDrained(store, 's1', 6_000)).toEqual({ ok: false, status: 'finished' });
  });
});

describe('"new to this sweep" is decided from the sweep\'s own records', () => {
  // Sweep keywords 'bakery' (index 0) and 'florist' (index 1), as makeSweep and makeCell give them.
  const bakery = (sweepId: string, path: string) => makeCell(sweepId, path);
  const florist = (sweepId: string, path: string) => makeCell(sweepId, path, { keywordIndex: 1 });

  it('a place an older run found under the keyword, that this run found only under another keyword, is new to this run under it', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'new-to-sweep' });
    // The first run found P under both keywords.
    await store.createSweep(makeSweep('run1'), [bakery('run1', 'a'), florist('run1', 'a')]);
    for (let i = 0; i < 2; i++) await commit(store, await leaseOne(store, 'run1', 1_000), [makeListing('7')], 2_000);
    // The re-run: its florist cell lists P, its bakery cell does not (a strip the geometry missed).
    await store.createSweep(makeSweep('run2'), [bakery('run2', 'a'), florist('run2', 'a'), bakery('run2', 'b')]);
    const cells = [await leaseOne(store, 'run2', 3_000), await leaseOne(store, 'run2', 3_000), await leaseOne(store, 'run2', 3_000)];
    const of = (id: string) => cells.find((c) => c.id === id)!;
    expect(await commit(store, of('run2/0/a'), [], 4_000)).toMatchObject({ applied: true, newToSweep: [] });
    expect(await commit(store, of('run2/1/a'), [makeListing('7')], 4_000)).toMatchObject({ applied: true, newToSweep: ['google:7'] });
    // The listing itself says "found by run2" and "found under bakery" (by run1): true, but not the question.
    expect(await store.getListing('google:7')).toMatchObject({ collections: ['run1', 'run2'], keywords: ['bakery', 'florist'] });
    // The audit's bakery search lists P: this run had not collected it under bakery, so it may count as missed.
    expect(await commit(store, of('run2/0/b'), [makeListing('7'), makeListing('8')], 5_000)).toMatchObject({
      applied: true,
      newToSweep: ['google:7', 'google:8'],
    });
  });

  it("a saved search's re-run: its audit finds a place the first run had, and counts it as missed, re-opening the cell that missed it", async () => {
    const store = await openStore({ factory: freshFactory(), name: 'rerun-audit' });
    // P (48.85, 2.35) lies in cell a of both runs.
    const box = { south: 48.84, west: 2.34, north: 48.86, east: 2.36 };
    const p = makeListing('7');
    await store.createSweep(makeSweep('run1'), [makeCell('run1', 'a', { bbox: box })]);
    await commit(store, await leaseOne(store, 'run1', 1_000), [p], 2_000);
    // The re-run's bakery cell a missed P; its florist cell listed it.
    await store.createSweep(makeSweep('run2'), [makeCell('run2', 'a', { bbox: box }), makeCell('run2', 'a', { bbox: box, keywordIndex: 1 })]);
    const [first, second] = [await leaseOne(store, 'run2', 3_000), await leaseOne(store, 'run2', 3_000)];
    for (const c of [first!, second!]) await commit(store, c, c.keyword === 'florist' ? [p] : [], 4_000);
    // The closing audit searches bakery again over cell a, and lists P.
    const auditCell = makeCell('run2', 'a1-0', { bbox: box, role: 'audit', auditOf: 'run2/0/a', distance: 0 });
    await store.transact(['cells'], 'readwrite', async (tx) => {
      await tx.objectStore('cells').add({ ...auditCell, status: 'leased', leaseHolder: 'h', leaseUntil: 99_000 });
    });
    const sweep = (await store.getSweep('run2'))!;
    const settle = await auditSettlement({ store, calibration: memoryCalibrationStore(), sweep, cell: auditCell, kept: [p], now: 5_000 });
    const input = {
      sweepId: 'run2',
      cellId: auditCell.id,
      holder: 'h',
      now: 5_000,
      keyword: 'bakery',
      listings: [p],
      outcome: { status: 'done' as const, result: { ...RESULT, reason: 'audit' as const } },
    };
    expect(await store.commitCell(input, settle)).toMatchObject({ applied: true, newToSweep: ['google:7'] });
    expect((await store.getSweep('run2'))?.audit).toMatchObject({ searched: 1, missed: 1, reopened: 1 });
    expect((await store.getCell('run2/0/a'))?.status).toBe('pending');
  });

  it('a place this sweep already listed under the keyword is not new, and deleting the sweep takes its records along', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'new-to-sweep-own' });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
    await store.createSweep(makeSweep('s2'), makeCells('s2', 1));
    expect(await commit(store, await leaseOne(store, 's1', 1_000), [makeListing('1')], 2_000)).toMatchObject({ newToSweep: ['google:1'] });
    expect(await commit(store, await leaseOne(store, 's1', 1_000), [makeListing('1'), makeListing('2')], 3_000)).toMatchObject({ newToSweep: ['google:2'] });
    // Another sweep, same keyword: its own question, its own answer.
    expect(await commit(store, await leaseOne(store, 's2', 1_000), [makeListing('1')], 4_000)).toMatchObject({ newToSweep: ['google:1'] });
    await store.patchSweep('s1', { status: 'stopped' });
    await store.deleteSweep('s1');
    const left = await store.transact(['sweepPlaces'], 'readonly', (tx) => tx.objectStore('sweepPlaces').getAllKeys());
    expect(left).toEqual([['s2', 'bakery', 'google:1']]);
  });
});
