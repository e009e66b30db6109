import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaseNextCell } from '../../utils/queue';
import { openStore, StoreError, type CommitCellInput, type Store } from '../../utils/store';
import type { Listing } from '../../utils/domain/listing';
import type { Cell } from '../../utils/domain/sweep';
import { childOf, dumpDatabase, freshFactory, makeCell, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';

const NAME = 'commit-test';
const LEASE = 60_000;

async function setup(cells: Cell[] = makeCells('s1', 4)) {
  const factory = freshFactory();
  const store = await openStore({ factory, name: NAME });
  await store.createSweep(makeSweep('s1'), cells);
  return { factory, store };
}

async function lease(store: Store, holder = 'tab:1', now = 1_000): Promise<Cell> {
  const cell = await leaseNextCell(store, { sweepId: 's1', holder, now, leaseMs: LEASE });
  if (!cell) throw new Error('no cell to lease');
  return cell;
}

function input(cell: Cell, listings: Listing[], over: Partial<CommitCellInput> = {}): CommitCellInput {
  return {
    sweepId: 's1',
    cellId: cell.id,
    holder: 'tab:1',
    now: 2_000,
    keyword: cell.keyword,
    listings,
    outcome: { status: 'done', result: { ...RESULT, organic: listings.length } },
    ...over,
  };
}

const cids = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i));

async function rejection(p: Promise<unknown>): Promise<StoreError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StoreError);
  return e as StoreError;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('commitCell', () => {
  it('checks the cell cap inside the transaction that splits: a split past it is saturated, no child added', async () => {
    const { store } = await setup(makeCells('s1', 4));
    const a = await lease(store, 'loop:a');
    const b = await lease(store, 'loop:b');
    const split = (cell: Cell, holder: string) =>
      input(cell, [], { holder, maxCells: 8, outcome: { status: 'split', result: RESULT, children: [0, 1, 2, 3].map((n) => childOf(cell, n)) } });
    // Both loops decided "split" from the same count (4 cells, room for one split of 4).
    const [first, second] = await Promise.all([store.commitCell(split(a, 'loop:a')), store.commitCell(split(b, 'loop:b'))]);
    expect(first.applied && second.applied).toBe(true);
    const cells = await store.listCells('s1');
    expect(cells).toHaveLength(8);
    expect([(await store.getCell(a.id))?.status, (await store.getCell(b.id))?.status]).toEqual(['split', 'saturated']);
    expect((await store.getCell(b.id))?.result?.reason).toBe('cell-cap');
    expect((await store.getSweep('s1'))?.counters).toMatchObject({ cellsSplit: 1, cellsSaturated: 1, cellsKnown: 8 });
  });

  it('two loops that both find their search unresolved: the second is refused inside the transaction, and nothing of it is saved', async () => {
    const { factory, store } = await setup(makeCells('s1', 4));
    const a = await lease(store, 'loop:a');
    const b = await lease(store, 'loop:b');
    const unresolved = (cell: Cell, holder: string) =>
      input(cell, [makeListing(holder === 'loop:a' ? '1' : '2')], {
        holder,
        outcome: { status: 'saturated', result: { ...RESULT, reason: 'search-unknown' } },
      });
    // Both loops read the sweep's run of unresolved cells as 0 before either committed.
    expect(await store.commitCell(unresolved(a, 'loop:a'))).toMatchObject({ applied: true });
    const before = await dumpDatabase(factory, NAME);
    expect(await store.commitCell(unresolved(b, 'loop:b'))).toEqual({ applied: false, reason: 'unknown-streak' });
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
    expect((await store.getSweep('s1'))?.counters).toMatchObject({ cellsSaturated: 1, unknownSearchStreak: 1 });
  });

  it("another browser's reading (secondHand) never renames a place read here, and adds what the field rule takes", async () => {
    const { store } = await setup();
    const first = await lease(store);
    const mine = { ...makeListing('777'), name: 'Café Ana', phone: null, url: 'https://www.google.com/maps?cid=777' };
    expect(await store.commitCell(input(first, [mine]))).toMatchObject({ applied: true });
    const second = await lease(store, 'tab:1', 3_000);
    const theirs = { ...makeListing('777'), name: '=HYPERLINK("http://x","Café Ana")', phone: '+33 1 42 00 00 00', url: 'https://elsewhere.example/' };
    const newOne = { ...makeListing('778'), name: 'Boulangerie Bo' };
    expect(await store.commitCell({ ...input(second, [theirs, newOne]), now: 4_000, secondHand: true })).toMatchObject({ applied: true });
    expect(await store.getListing(mine.key)).toMatchObject({ name: 'Café Ana', url: mine.url, phone: '+33 1 42 00 00 00' });
    // A place this browser never read is taken as the team read it.
    expect(await store.getListing(newOne.key)).toMatchObject({ name: 'Boulangerie Bo' });
  });

  it('stores the listings, settles the cell, counts, and logs, in one go', async () => {
    const { store } = await setup();
    const cell = await lease(store);
    const result = await store.commitCell(
      input(
        cell,
        cids(1, 3).map((c) => makeListing(c)),
      ),
    );
    expect(result).toEqual({ applied: true, newListings: 3, seenListings: 0, newToSweep: ['google:1', 'google:2', 'google:3'] });

    const settled = await store.getCell(cell.id);
    expect(settled).toMatchObject({ status: 'done', leaseHolder: null, leaseUntil: 0 });
    expect(settled?.result).toEqual({ ...RESULT, organic: 3, newListings: 3 });
    expect(await store.getListing('google:2')).toMatchObject({
      firstSeen: 2_000,
      lastSeen: 2_000,
      collections: ['s1'],
      keywords: ['bakery'],
      cells: [cell.id],
    });
    const sweep = await store.getSweep('s1');
    expect(sweep?.counters).toMatchObject({ cellsDone: 1, listingsNew: 3, listingsSeen: 0, pageLoads: 1 });
    expect(sweep?.lastNewListingAt).toBe(2_000);
    expect((await store.listEvents('s1')).map((e) => [e.kind, e.cellId])).toEqual([['cell-done', cell.id]]);
  });

  it('is a no-op when repeated (a restart re-sends the same result)', async () => {
    const { factory, store } = await setup();
    const cell = await lease(store);
    const listings = cids(1, 3).map((c) => makeListing(c));
    await store.commitCell(input(cell, listings));
    const before = await dumpDatabase(factory, NAME);
    expect(await store.commitCell(input(cell, listings, { now: 3_000 }))).toEqual({ applied: false, reason: 'settled' });
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });

  it('refuses a commit while another holder has a valid lease, and takes a late one when nobody else did', async () => {
    const { factory, store } = await setup([makeCell('s1', 'r0c0')]);
    const cell = await lease(store, 'tab:1', 1_000);
    // tab:1's lease runs out; tab:2 takes the cell over.
    const again = await lease(store, 'tab:2', 1_000 + LEASE);
    expect(again.id).toBe(cell.id);
    const before = await dumpDatabase(factory, NAME);
    const late = input(cell, [makeListing('1')], { holder: 'tab:1', now: 1_000 + LEASE + 1 });
    expect(await store.commitCell(late)).toEqual({ applied: false, reason: 'leased-by-other' });
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
    // tab:2 dies too and its lease runs out: tab:1's result is still good and is kept.
    const later = { ...late, now: 1_000 + 2 * LEASE + 5 };
    expect(await store.commitCell(later)).toMatchObject({ applied: true, newListings: 1 });
    expect(await store.commitCell({ ...later, holder: 'tab:2' })).toEqual({ applied: false, reason: 'settled' });
  });

  it('inserts the children of a split as pending cells, leased coarse-first after their siblings', async () => {
    const { store } = await setup(makeCells('s1', 2));
    const parent = await lease(store);
    const children = [0, 1, 2, 3].map((n) => childOf(parent, n, { distance: 10 + n }));
    children[3] = { ...children[3]!, status: 'outside' };
    const result = await store.commitCell(input(parent, [makeListing('1')], { outcome: { status: 'split', result: { ...RESULT, capHit: true }, children } }));
    expect(result.applied).toBe(true);
    expect((await store.getCell(parent.id))?.status).toBe('split');
    expect((await store.listCells('s1', 'pending')).map((c) => c.id)).toEqual(['s1/0/r0c0.0', 's1/0/r0c0.1', 's1/0/r0c0.2', 's1/0/r0c1']);
    expect((await store.getCell('s1/0/r0c0.3'))?.status).toBe('outside');
    expect((await store.getSweep('s1'))?.counters).toMatchObject({ cellsKnown: 6, cellsSplit: 1, cellsOutside: 1 });
    // The sibling at depth 0 comes before the children at depth 1, though they are nearer.
    expect((await lease(store, 'tab:1', 3_000)).id).toBe('s1/0/r0c1');
    expect((await lease(store, 'tab:1', 3_000)).id).toBe(children[0]!.id);
  });

  it('keeps organic places only, and each place once however often the page showed it', async () => {
    const { store } = await setup();
    const cell = await lease(store);
    const result = await store.commitCell(
      input(cell, [
        makeListing('1'),
        makeListing('1', { phone: '+33 1' }),
        makeListing('2', { sponsored: true }),
        makeListing('3', { sponsored: true, website: 'https://www.google.com/aclk?x' }),
        makeListing('3', { website: 'https://three.example' }),
      ]),
    );
    expect(result).toEqual({ applied: true, newListings: 2, seenListings: 0, newToSweep: ['google:1', 'google:3'] });
    expect(await store.countListings()).toBe(2);
    expect(await store.getListing('google:2')).toBeUndefined();
    expect(await store.getListing('google:1')).toMatchObject({ phone: '+33 1', sponsored: false });
    expect((await store.getListing('google:3'))?.website).toBe('https://three.example');
  });

  it('stores a place found by two cells, two keywords and again after a reopen once, with its history', async () => {
    const factory = freshFactory();
    let store = await openStore({ factory, name: NAME });
    const bakery = makeCell('s1', 'r0c0', { keywordIndex: 0 });
    const bakery2 = makeCell('s1', 'r0c1', { keywordIndex: 0 });
    const florist = makeCell('s1', 'r0c0', { keywordIndex: 1 });
    await store.createSweep(makeSweep('s1'), [bakery, bakery2, florist]);
    const place = makeListing('42', { phone: null });

    const a = await lease(store, 'tab:1', 1_000);
    expect(await store.commitCell(input(a, [place], { now: 1_500 }))).toMatchObject({ newListings: 1 });
    const b = await lease(store, 'tab:1', 2_000);
    expect(await store.commitCell(input(b, [{ ...place, phone: '+33 2' }], { now: 2_500 }))).toMatchObject({
      newListings: 0,
      seenListings: 1,
    });
    store.close();

    store = await openStore({ factory, name: NAME });
    const c = await lease(store, 'tab:7', 3_000);
    expect(c.keyword).toBe('florist');
    await store.commitCell(input(c, [{ ...place, rating: 4.9 }], { holder: 'tab:7', now: 3_500 }));

    expect(await store.countListings()).toBe(1);
    expect(await store.getListing('google:42')).toMatchObject({
      firstSeen: 1_500,
      lastSeen: 3_500,
      phone: '+33 2',
      rating: 4.9,
      keywords: ['bakery', 'florist'],
      collections: ['s1'],
      cells: [a.id, b.id, c.id],
    });
    expect((await store.getSweep('s1'))?.counters).toMatchObject({ listingsNew: 1, listingsSeen: 2, cellsDone: 3 });
    store.close();
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const { factory, store } = await setup();
    const cell = await lease(store);
    const before = await dumpDatabase(factory, NAME);
    // (One bad listing among good ones is refused alone: store-commit-refused.test.ts.)
    const bad = await rejection(store.commitCell(input(cell, 'not a list' as unknown as Listing[])));
    expect(bad.code).toBe('invalid');
    expect(bad.message).toMatch(/listings is not a list/);
    const wrongKeyword = await rejection(store.commitCell(input(cell, [], { keyword: 'florist' })));
    expect(wrongKeyword.code).toBe('invalid');
    const orphan = childOf(cell, 0, { parentId: 's1/0/r9c9' });
    const badSplit = await rejection(store.commitCell(input(cell, [makeListing('1')], { outcome: { status: 'split', result: RESULT, children: [orphan] } })));
    expect(badSplit.code).toBe('invalid');
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });
});

describe('commitCell failing half-way leaves the store exactly as before', () => {
  /** A previous commit, then a leased cell whose commit of 10 listings (5 known, 5 new) will fail. */
  async function halfway() {
    const { factory, store } = await setup();
    const first = await lease(store);
    await store.commitCell(
      input(
        first,
        cids(1, 5).map((c) => makeListing(c)),
      ),
    );
    const cell = await lease(store, 'tab:1', 3_000);
    const listings = cids(1, 10).map((c) => makeListing(c, { phone: '+33 new' }));
    return { factory, store, cell, listings, before: await dumpDatabase(factory, NAME) };
  }

  /** Make the nth put into the listings store misbehave; puts into other stores go through. */
  function onNthListingPut(n: number, misbehave: (store: IDBObjectStore) => void) {
    const realPut = IDBObjectStore.prototype.put;
    let seen = 0;
    return vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'listings' && ++seen === n) misbehave(this);
      return realPut.apply(this, args);
    });
  }

  it('when a put throws', async () => {
    const { factory, store, cell, listings, before } = await halfway();
    onNthListingPut(6, () => {
      throw new DOMException('poisoned value', 'DataCloneError');
    });
    const error = await rejection(store.commitCell(input(cell, listings, { now: 4_000 })));
    expect(error.code).toBe('failed');
    vi.restoreAllMocks();
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });

  it('when the transaction aborts', async () => {
    const { factory, store, cell, listings, before } = await halfway();
    onNthListingPut(6, (s) => s.transaction.abort());
    await rejection(store.commitCell(input(cell, listings, { now: 4_000 })));
    vi.restoreAllMocks();
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });

  it('when a child cell collides with an existing one', async () => {
    const { factory, store, cell, listings, before } = await halfway();
    const clash = { ...childOf(cell, 0), id: 's1/0/r0c3' };
    const error = await rejection(
      store.commitCell(input(cell, listings, { now: 4_000, outcome: { status: 'split', result: RESULT, children: [childOf(cell, 1), clash] } })),
    );
    expect(error.code).toBe('exists');
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
  });

  it('when the disk is full: a "quota" error, and the previous commit intact', async () => {
    const { factory, store, cell, listings, before } = await halfway();
    onNthListingPut(3, () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const error = await rejection(store.commitCell(input(cell, listings, { now: 4_000 })));
    expect(error.code).toBe('quota');
    expect(error.message).toMatch(/disk is full/i);
    expect(error.message).toMatch(/already committed data is safe/i);
    vi.restoreAllMocks();
    expect(await dumpDatabase(factory, NAME)).toEqual(before);
    // Space freed: the same commit now goes through.
    expect(await store.commitCell(input(cell, listings, { now: 5_000 }))).toMatchObject({
      applied: true,
      newListings: 5,
      seenListings: 5,
    });
    expect((await store.getListing('google:1'))?.phone).toBe('+33 new');
  });
});
