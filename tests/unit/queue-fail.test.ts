import { describe, expect, it } from 'vitest';
import { backoffDelay, failCell, leaseNextCell, retryQuarantined } from '../../utils/queue';
import { openStore, StoreError, type Store } from '../../utils/store';
import type { CellError, ErrorKind } from '../../utils/domain/sweep';
import { dumpDatabase, freshFactory, makeCell, makeCells, makeSweep, RESULT, seeded } from './store-fixtures';

const NAME = 'fail-test';

describe('backoffDelay', () => {
  it.each([
    // attempt, draw, expected: draw × min(600 000, 5 000 × 2^(attempt−1)), floored
    [1, 0.5, 2_500],
    [2, 0.5, 5_000],
    [3, 0.25, 5_000],
    [4, 0.1, 4_000],
    [8, 0.5, 300_000], // 5 000 × 128 = 640 000 → capped at 600 000
    [1, 0, 0],
    [0, 0.5, 2_500], // attempt below 1 counts as the first
    [10_000, 0.5, 300_000], // 2^9999 overflows to Infinity; the cap still holds
  ])('attempt %d with draw %d waits %d ms', (attempt, draw, expected) => {
    expect(backoffDelay(attempt, draw)).toBe(expected);
  });

  it('takes its base and cap as parameters', () => {
    expect(backoffDelay(3, 0.5, 100, 250)).toBe(125);
  });

  it('property: stays in [0, ceiling) and grows with the draw (seeded)', () => {
    const random = seeded(7);
    for (let i = 0; i < 2_000; i++) {
      const attempt = 1 + Math.floor(random() * 20);
      const a = random();
      const b = random();
      const ceiling = Math.min(600_000, 5_000 * 2 ** (attempt - 1));
      const d = backoffDelay(attempt, a);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(ceiling);
      expect(Number.isInteger(d)).toBe(true);
      if (a <= b) expect(d).toBeLessThanOrEqual(backoffDelay(attempt, b));
    }
    // A generator that returns exactly 1 still stays below the ceiling.
    expect(backoffDelay(1, 1)).toBe(4_999);
  });
});

async function setup(cellCount = 3) {
  const factory = freshFactory();
  const store = await openStore({ factory, name: NAME });
  await store.createSweep(makeSweep('s1'), makeCells('s1', cellCount));
  return { factory, store };
}

const lease = (store: Store, holder: string, now: number) => leaseNextCell(store, { sweepId: 's1', holder, now, leaseMs: 60_000 });

const err = (kind: ErrorKind, at: number): CellError => ({ kind, message: `${kind} happened`, at, url: 'https://www.google.com/maps/search/x' });

describe('failCell', () => {
  it('counts an attempt, backs off, logs, and quarantines at maxAttempts', async () => {
    const { store } = await setup(1);
    const id = 's1/0/r0c0';
    let now = 0;
    for (const attempt of [1, 2]) {
      await lease(store, 'tab:1', now);
      const r = await failCell(store, { cellId: id, holder: 'tab:1', now, error: err('timeout', now), maxAttempts: 3, random: () => 0.5 });
      const wait = 0.5 * 5_000 * 2 ** (attempt - 1);
      expect(r).toEqual({ applied: true, outcome: 'retry', attempts: attempt, nextAttemptAt: now + wait });
      expect(await store.getCell(id)).toMatchObject({ status: 'pending', attempts: attempt, lastError: err('timeout', now) });
      expect(await lease(store, 'tab:1', now + wait - 1)).toBeNull();
      now += wait;
    }
    await lease(store, 'tab:1', now);
    const last = await failCell(store, { cellId: id, holder: 'tab:1', now, error: err('http', now), maxAttempts: 3, random: () => 0.5 });
    expect(last).toEqual({ applied: true, outcome: 'quarantined', attempts: 3 });
    expect(await store.getCell(id)).toMatchObject({ status: 'quarantined', attempts: 3, leaseHolder: null });
    expect(await lease(store, 'tab:1', now + 10 ** 9)).toBeNull();
    expect(await store.countOpenCells('s1')).toEqual({ total: 0, nextAvailableAt: Number.POSITIVE_INFINITY });
    expect((await store.getSweep('s1'))?.counters).toMatchObject({ errors: 3, cellsQuarantined: 1, pageLoads: 3 });
    expect((await store.listEvents('s1')).map((e) => [e.kind, e.errorKind])).toEqual([
      ['cell-quarantined', 'http'],
      ['cell-retry', 'timeout'],
      ['cell-retry', 'timeout'],
    ]);
  });

  it.each([
    ['blocked', 'paused', 'captcha'],
    ['consent', 'paused', 'consent'],
    ['limited', 'paused', 'signed-out'],
    ['extractor', 'failed', null],
  ] as const)('does not count a %s error as an attempt: the lease goes back and the sweep is %s', async (kind, status, reason) => {
    const { store } = await setup(2);
    const cell = await lease(store, 'tab:1', 0);
    const r = await failCell(store, { cellId: cell!.id, holder: 'tab:1', now: 5, error: err(kind, 5), maxAttempts: 1, random: () => 0.5 });
    expect(r).toMatchObject({ applied: true, outcome: 'released', sweepStatus: status, stopped: { status, pauseReason: reason } });
    expect(await store.getCell(cell!.id)).toMatchObject({ status: 'pending', attempts: 0, leaseHolder: null, lastError: err(kind, 5) });
    expect(await store.getSweep('s1')).toMatchObject({ status, pauseReason: reason, problem: err(kind, 5) });
    expect((await store.getSweep('s1'))?.counters.cellsQuarantined).toBe(0);
    // Back in the queue, first in line, for when the user resumes.
    expect((await lease(store, 'tab:1', 6))?.id).toBe(cell!.id);
  });

  it('stops the sweep for a captcha even when the holder lost the cell meanwhile, in the same transaction', async () => {
    const { store } = await setup(1);
    const cell = await lease(store, 'tab:1', 0);
    await lease(store, 'tab:2', 60_000); // tab:1's lease ran out; tab:2 has it now
    const r = await failCell(store, { cellId: cell!.id, holder: 'tab:1', now: 60_001, error: err('blocked', 60_001), maxAttempts: 3, random: () => 0 });
    expect(r).toMatchObject({ applied: true, outcome: 'released', sweepStatus: 'paused' });
    expect(await store.getSweep('s1')).toMatchObject({ status: 'paused', pauseReason: 'captcha' });
    expect(await store.getCell(cell!.id)).toMatchObject({ status: 'leased', leaseHolder: 'tab:2' }); // not tab:1's to release
    // A second worker's captcha finds the sweep paused already: nobody is told twice.
    const again = await failCell(store, { cellId: cell!.id, holder: 'tab:2', now: 60_002, error: err('blocked', 60_002), maxAttempts: 3, random: () => 0 });
    expect(again).toMatchObject({ applied: true, outcome: 'released', sweepStatus: 'paused', stopped: null });
  });

  it('leaves a stopped sweep stopped when a captcha comes in late', async () => {
    const { store } = await setup(1);
    const cell = await lease(store, 'tab:1', 0);
    await store.patchSweep('s1', { status: 'stopped' });
    await failCell(store, { cellId: cell!.id, holder: 'tab:1', now: 5, error: err('blocked', 5), maxAttempts: 3, random: () => 0 });
    expect((await store.getSweep('s1'))?.status).toBe('stopped');
  });

  it('changes nothing for a holder that lost the cell, or a cell already done', async () => {
    const { factory, store } = await setup(1);
    const cell = await lease(store, 'tab:1', 0);
    await lease(store, 'tab:2', 60_000); // tab:1's lease ran out; tab:2 has it now
    let before = await dumpDatabase(factory, NAME);
    const stale = { cellId: cell!.id, holder: 'tab:1', now: 60_001, error: err('timeout', 1), maxAttempts: 3, random: () => 0 };
    expect(await failCell(store, stale)).toEqual({ applied: false, reason: 'leased-by-other' });
    expect(await dumpDatabase(factory, NAME)).toEqual(before);

    await store.commitCell({
      sweepId: 's1',
      cellId: cell!.id,
      holder: 'tab:2',
      now: 60_002,
      keyword: cell!.keyword,
      listings: [],
      outcome: { status: 'done', result: RESULT },
    });
    before = await dumpDatabase(factory, NAME);
    expect(await failCell(store, { ...stale, holder: 'tab:2', now: 60_003 })).toEqual({ applied: false, reason: 'settled' });
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });

  it('refuses a malformed failure and changes nothing', async () => {
    const { factory, store } = await setup(1);
    const cell = await lease(store, 'tab:1', 0);
    const before = await dumpDatabase(factory, NAME);
    const bad = { cellId: cell!.id, holder: 'tab:1', now: 1, error: err('timeout', 1), random: () => 0 };
    await expect(failCell(store, { ...bad, maxAttempts: 0 })).rejects.toBeInstanceOf(StoreError);
    await expect(failCell(store, { ...bad, maxAttempts: 3, error: { kind: 'weird', message: 'x', at: 1 } as never })).rejects.toThrow(/unknown error/);
    await expect(failCell(store, { ...bad, maxAttempts: 3, cellId: 'nope' })).rejects.toMatchObject({ code: 'not-found' });
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });
});

describe('retryQuarantined', () => {
  it('puts quarantined cells back as fresh, fixes the counter, and counts them', async () => {
    const { store } = await setup(3);
    for (const holder of ['tab:1', 'tab:2']) {
      const cell = await lease(store, holder, 0);
      await failCell(store, { cellId: cell!.id, holder, now: 0, error: err('navigation', 0), maxAttempts: 1, random: () => 0 });
    }
    expect((await store.getSweep('s1'))?.counters.cellsQuarantined).toBe(2);
    expect(await retryQuarantined(store, 's1', 100)).toBe(2);
    expect((await store.getSweep('s1'))?.counters.cellsQuarantined).toBe(0);
    expect(await store.listCells('s1', 'quarantined')).toEqual([]);
    expect(await store.getCell('s1/0/r0c0')).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: 0 });
    expect((await store.listEvents('s1', 1))[0]).toMatchObject({ kind: 'cells-retried', at: 100 });
    expect(await retryQuarantined(store, 's1', 200)).toBe(0);
    // All three are fresh again: handed out in the usual order.
    const order = [];
    for (let c = await lease(store, 'tab:1', 300); c; c = await lease(store, 'tab:1', 300)) order.push(c.id);
    expect(order).toEqual(['s1/0/r0c0', 's1/0/r0c1', 's1/0/r0c2']);
    await expect(retryQuarantined(store, 'nope', 1)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('a cell quarantined on a first unknown search gets its own second look on retry: the flag goes, the message stays', async () => {
    const { store } = await setup(1);
    const cell = await lease(store, 'tab:1', 0);
    const unknown: CellError = { ...err('navigation', 0), message: 'The page did not show which area it searched.', unknownSearch: true };
    await failCell(store, { cellId: cell!.id, holder: 'tab:1', now: 0, error: unknown, maxAttempts: 1, random: () => 0 });
    expect((await store.getCell(cell!.id))?.lastError?.unknownSearch).toBe(true);
    expect(await retryQuarantined(store, 's1', 100)).toBe(1);
    const retried = await store.getCell(cell!.id);
    expect(retried?.lastError).toEqual({ kind: 'navigation', message: unknown.message, at: 0, url: unknown.url });
  });
});

it('keeps nothing in module state: a second store on the same database sees the same queue', async () => {
  const factory = freshFactory();
  const a = await openStore({ factory, name: NAME });
  await a.createSweep(makeSweep('s1'), [makeCell('s1', 'x')]);
  const b = await openStore({ factory, name: NAME });
  expect((await leaseNextCell(a, { sweepId: 's1', holder: 'tab:1', now: 0, leaseMs: 1_000 }))?.id).toBe('s1/0/x');
  expect(await leaseNextCell(b, { sweepId: 's1', holder: 'tab:2', now: 500, leaseMs: 1_000 })).toBeNull();
  expect((await leaseNextCell(b, { sweepId: 's1', holder: 'tab:2', now: 1_000, leaseMs: 1_000 }))?.leaseHolder).toBe('tab:2');
});
