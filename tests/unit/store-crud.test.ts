import { describe, expect, it } from 'vitest';
import { leaseNextCell } from '../../utils/queue';
import { openStore, StoreError, type Store } from '../../utils/store';
import type { StoredListing } from '../../utils/domain/listing';
import { dumpDatabase, freshFactory, makeCell, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';

const NAME = 'crud-test';

async function rejection(p: Promise<unknown>): Promise<StoreError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StoreError);
  return e as StoreError;
}

/** Lease the sweep's next cell to tab:1 and commit it as done with these listings. */
async function commitNext(store: Store, sweepId: string, cids: string[], now: number) {
  const cell = await leaseNextCell(store, { sweepId, holder: 'tab:1', now, leaseMs: 60_000 });
  if (!cell) throw new Error('no cell');
  await store.commitCell({
    sweepId,
    cellId: cell.id,
    holder: 'tab:1',
    now,
    keyword: cell.keyword,
    listings: cids.map((c) => makeListing(c)),
    outcome: { status: 'done', result: RESULT },
  });
  return cell;
}

describe('sweeps', () => {
  it('creates a sweep with counters computed from its cells, not taken from the caller', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    const cells = [...makeCells('s1', 3), makeCell('s1', 'r1c0', { status: 'outside' })];
    const given = makeSweep('s1');
    given.counters.cellsDone = 99;
    const stored = await store.createSweep(given, cells);
    expect(stored.counters).toMatchObject({ cellsKnown: 4, cellsOutside: 1, cellsDone: 0 });
    expect(await store.getSweep('s1')).toEqual(stored);
    expect(await store.countCells('s1')).toMatchObject({ total: 4, pending: 3, outside: 1, done: 0 });
    expect(await store.countOpenCells('s1')).toEqual({ total: 3, nextAvailableAt: 0 });
  });

  it('refuses a duplicate sweep or a malformed cell and writes nothing', async () => {
    const factory = freshFactory();
    const store = await openStore({ factory, name: NAME });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
    const before = await dumpDatabase(factory, NAME);
    expect((await rejection(store.createSweep(makeSweep('s1'), makeCells('s1', 1)))).code).toBe('exists');
    const nan = makeCell('s2', 'r0c1', { distance: Number.NaN });
    const invalid = await rejection(store.createSweep(makeSweep('s2'), [makeCell('s2', 'r0c0'), nan]));
    expect(invalid.code).toBe('invalid');
    expect(invalid.message).toMatch(/distance/);
    const foreign = await rejection(store.createSweep(makeSweep('s3'), [makeCell('s1', 'r5c5')]));
    expect(foreign.message).toMatch(/belongs to sweep s1/);
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });

  it('lists sweeps newest first', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    await store.createSweep(makeSweep('old', { createdAt: 1 }), makeCells('old', 1));
    await store.createSweep(makeSweep('new', { createdAt: 3 }), makeCells('new', 1));
    await store.createSweep(makeSweep('mid', { createdAt: 2 }), makeCells('mid', 1));
    expect((await store.listSweeps()).map((s) => s.id)).toEqual(['new', 'mid', 'old']);
  });

  it('patches status, pause reason, problem and settings; refuses counters', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME, now: () => 7_777 });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 1));
    const problem = { kind: 'blocked' as const, message: 'captcha', at: 7_000 };
    const patched = await store.patchSweep('s1', { status: 'paused', pauseReason: 'captcha', problem, settings: { delayMs: 9000 } });
    expect(patched).toMatchObject({ status: 'paused', pauseReason: 'captcha', problem, updatedAt: 7_777 });
    expect(patched?.settings).toEqual({ ...makeSweep('s1').settings, delayMs: 9000 });
    expect(await store.getSweep('s1')).toEqual(patched);

    const sneaky = { counters: { ...makeSweep('s1').counters, cellsDone: 5 } } as unknown as Parameters<Store['patchSweep']>[1];
    expect((await rejection(store.patchSweep('s1', sneaky))).message).toMatch(/counters cannot be changed/);
    expect((await rejection(store.patchSweep('s1', { settings: { delayMs: -1 } }))).code).toBe('invalid');
    expect(await store.getSweep('s1')).toEqual(patched);
    expect(await store.patchSweep('nope', { status: 'running' })).toBeUndefined();
  });

  it("patches only from the given statuses: a worker's late pause never undoes the user's Stop", async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 1));
    await store.patchSweep('s1', { status: 'stopped', pauseReason: null });
    const late = await store.patchSweep('s1', { status: 'paused', pauseReason: 'captcha' }, ['running']);
    expect(late).toBeUndefined();
    expect((await store.getSweep('s1'))?.status).toBe('stopped');
    await store.patchSweep('s1', { status: 'running' });
    expect((await store.patchSweep('s1', { status: 'paused', pauseReason: 'captcha' }, ['running']))?.status).toBe('paused');
  });

  it('deletes a sweep: its cells and events go, its listings lose it (and go if it was their only finder)', async () => {
    const factory = freshFactory();
    const store = await openStore({ factory, name: NAME });
    await store.createSweep(makeSweep('a'), makeCells('a', 2));
    await store.createSweep(makeSweep('b'), makeCells('b', 1));
    const aCell = await commitNext(store, 'a', ['1', '2'], 1_000);
    await commitNext(store, 'b', ['2'], 2_000);
    await store.commitBrowsing([makeListing('1')], 3_000);
    await commitNext(store, 'a', ['3'], 4_000);
    await store.addEvent({ sweepId: 'a', at: 5, kind: 'info', message: 'note' });

    expect(await store.deleteSweep('a')).toBe(true);
    expect(await store.getSweep('a')).toBeUndefined();
    expect(await store.listCells('a')).toEqual([]);
    expect(await store.listEvents('a')).toEqual([]);
    expect(await store.getListing('google:3')).toBeUndefined();
    expect(await store.getListing('google:1')).toMatchObject({ collections: ['browsing'], cells: [] });
    const shared = await store.getListing('google:2');
    expect(shared?.collections).toEqual(['b']);
    expect(shared?.cells).not.toContain(aCell.id);
    expect(await store.listCells('b')).toHaveLength(1);
    expect(await store.listEvents('b')).toHaveLength(1);
    expect(await store.deleteSweep('a')).toBe(false);
    // Nothing of 'a' is left anywhere, indexes included.
    const dump = JSON.stringify(await dumpDatabase(factory, NAME));
    expect(dump).not.toMatch(/"a\//);
    expect(dump).not.toMatch(/"a"/);
  });
});

describe('events', () => {
  it('lists a sweep’s events newest first, up to a limit, ignoring a caller-given id', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    for (let i = 0; i < 5; i++) await store.addEvent({ sweepId: 's1', at: i, kind: 'info', message: `m${i}` });
    await store.addEvent({ sweepId: 's2', at: 9, kind: 'info', message: 'other' });
    await store.addEvent({ id: 1, sweepId: 's1', at: 10, kind: 'warning', message: 'last' } as never);
    expect((await store.listEvents('s1', 3)).map((e) => e.message)).toEqual(['last', 'm4', 'm3']);
    expect(await store.listEvents('s1', 100)).toHaveLength(6);
  });
});

describe('listings', () => {
  it('records listings seen while browsing under "browsing", sponsored ones flagged (issue 14)', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    expect(await store.commitBrowsing([makeListing('1'), makeListing('2', { sponsored: true })], 10)).toEqual({ added: 2, seen: 0 });
    expect(await store.commitBrowsing([makeListing('1'), makeListing('3')], 20)).toEqual({ added: 1, seen: 1 });
    expect(await store.getListing('google:1')).toMatchObject({ firstSeen: 10, lastSeen: 20, collections: ['browsing'], keywords: [], sponsored: false });
    expect(await store.getListing('google:2')).toMatchObject({ collections: ['browsing'], sponsored: true });
    expect(await store.countListings('browsing')).toBe(3);
    expect(await store.countListings()).toBe(3);
  });

  it('iterates every listing once, in key order, in batches of at most batchSize', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    const all = Array.from({ length: 1234 }, (_, i) => makeListing(String(100_000 + i)));
    for (let i = 0; i < all.length; i += 300) await store.commitBrowsing(all.slice(i, i + 300), 1);
    const sizes: number[] = [];
    const keys: string[] = [];
    for await (const batch of store.iterateListings(100)) {
      sizes.push(batch.length);
      keys.push(...batch.map((l) => l.key));
    }
    expect(sizes).toEqual([...Array<number>(12).fill(100), 34]);
    expect(keys).toEqual(all.map((l) => l.key).sort());
  });

  it('reads each batch in its own transaction: the store can be written between batches', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    await store.commitBrowsing(
      ['10', '11', '12', '13'].map((c) => makeListing(c)),
      1,
    );
    const seen: string[] = [];
    for await (const batch of store.iterateListings(2)) {
      seen.push(...batch.map((l) => l.key));
      // Would never commit (and this loop would hang) if a read transaction stayed open across the yield.
      if (seen.length === 2) await store.commitBrowsing([makeListing('14')], 2);
    }
    expect(seen).toEqual(['google:10', 'google:11', 'google:12', 'google:13', 'google:14']);
  });

  it('iterates one collection through its index, resuming after the last key of each batch', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
    const cids = Array.from({ length: 25 }, (_, i) => String(500 + i));
    await commitNext(
      store,
      's1',
      cids.filter((_, i) => i % 2 === 0),
      1_000,
    );
    await store.commitBrowsing(
      cids.map((c) => makeListing(c)),
      2_000,
    );
    const batches: StoredListing[][] = [];
    for await (const batch of store.iterateListings(4, 's1')) batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([4, 4, 4, 1]);
    expect(batches.flat().map((l) => l.cid)).toEqual(cids.filter((_, i) => i % 2 === 0));
    expect(await store.countListings('s1')).toBe(13);
    expect(await store.countListings('browsing')).toBe(25);
  });

  it('refuses a zero batch size', async () => {
    const store = await openStore({ factory: freshFactory(), name: NAME });
    await expect(store.iterateListings(0).next()).rejects.toThrow(/batch size/);
  });
});

it('uses the name it is given and the default "mapsweep" otherwise', async () => {
  const factory = freshFactory();
  (await openStore({ factory })).close();
  (await openStore({ factory, name: 'other' })).close();
  const names = (await factory.databases()).map((d) => d.name).sort();
  expect(names).toEqual(['mapsweep', 'other']);
});
