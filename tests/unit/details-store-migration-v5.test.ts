/**
 * Store version 4 → 5 (issue 16): the place-details queue is a new object store and nothing
 * else changes. The version-4 database is written by hand with raw IndexedDB, in the shapes
 * version 4 wrote (as tests/unit/store-migration-v4.test.ts does for 3 → 4), and compared with
 * a raw dump of everything, records and index entries, after the upgrade.
 */
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openStore, StoreError } from '../../utils/store';
import { countPlaces, enqueueDetails, leasePlace } from '../../utils/details/queue';
import { dumpDatabase, freshFactory, makeCell, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';

/** The version-4 layout (the same stores and indexes as version 3: 3 → 4 only rewrote listings). */
function createV4Layout(db: IDBDatabase) {
  db.createObjectStore('sweeps', { keyPath: 'id' });
  const cells = db.createObjectStore('cells', { keyPath: 'id' });
  cells.createIndex('bySweep', 'sweepId');
  cells.createIndex('bySweepStatus', ['sweepId', 'status']);
  cells.createIndex('byLeaseOrder', 'queue');
  const listings = db.createObjectStore('listings', { keyPath: 'key' });
  listings.createIndex('byCollection', 'collections', { multiEntry: true });
  const events = db.createObjectStore('events', { keyPath: 'id', autoIncrement: true });
  events.createIndex('bySweep', 'sweepId');
  events.createIndex('bySweepKind', ['sweepId', 'kind']);
  db.createObjectStore('savedSearches', { keyPath: 'id' });
  const runs = db.createObjectStore('runs', { keyPath: 'id' });
  runs.createIndex('bySavedSearch', ['savedSearchId', 'claimedAt']);
  runs.createIndex('bySweep', 'sweepId');
  db.createObjectStore('placeSnapshots', { keyPath: ['savedSearchId', 'key'] });
  db.createObjectStore('changes', { keyPath: ['runId', 'key'] });
}

const COLLECTIONS = ['s1', 's2', 'browsing'];

function v4Listing(n: number) {
  const cid = String(1_000_000 + n * 7919);
  return {
    ...makeListing(cid, {
      name: n % 7 === 0 ? `=카페 "${n}", 서울` : `Place ${n}`,
      phone: n % 2 === 0 ? `+82 2-${1000 + n}` : null,
      website: n % 3 === 1 ? `https://p${n}.example/` : null,
      ...(n % 4 === 1 && { categories: ['Cafe', 'Bakery'], hours: 'Monday: 9 AM–6 PM', sources: { address: 'page-data' as const, phone: 'card' as const } }),
    }),
    firstSeen: 1_000 + n,
    lastSeen: 2_000 + n,
    collections: COLLECTIONS.filter((_, i) => (n >> i) % 2 === 1).concat(n % 8 === 0 ? ['s1'] : []),
    keywords: ['cafe'],
    cells: [`s1/0/r${n % 5}c0`],
  };
}

async function seedV4(factory: IDBFactory, name: string, listings: unknown[]): Promise<void> {
  const v4 = await rawOpen(factory, name, 4, (db) => createV4Layout(db));
  const open = { ...makeCell('s1', 'r0c0'), queue: ['s1', 0, 0, 0, 100, 's1/0/r0c0', 0] };
  await rawPut(v4, 'sweeps', [makeSweep('s1', { status: 'finished', provider: 'google' }), makeSweep('s2', { status: 'paused', pauseReason: 'user' })]);
  await rawPut(v4, 'cells', [open, makeCell('s1', 'r0c1', { status: 'done' }), makeCell('s2', 'r0c0', { status: 'saturated' })]);
  await rawPut(v4, 'listings', listings);
  await rawPut(v4, 'events', [
    { sweepId: 's1', at: 1, kind: 'cell-retry', cellId: open.id, keyword: 'cafe', errorKind: 'http', httpStatus: 503, message: 'HTTP 503' },
    { sweepId: 's1', at: 2, kind: 'cell-done', cellId: 's1/0/r0c1', keyword: 'cafe', message: '3 listings' },
  ]);
  await rawPut(v4, 'savedSearches', [{ id: 'ss1', name: 'n', areaText: '1,2,1.1,2.1', keywordsText: 'cafe', repeat: 'daily', hour: 9, weekday: 0, thresholdDays: 7, createdAt: 1, lastRunAt: null, lastSuccessfulRunAt: null, lastNewPlaceAt: null }]);
  await rawPut(v4, 'runs', [{ id: 'r1', savedSearchId: 'ss1', sweepId: 's2', claimedAt: 5, status: 'finished' }]);
  await rawPut(v4, 'placeSnapshots', [{ savedSearchId: 'ss1', key: 'google:1007919', name: 'Place 1', lastSeenRun: 'r1' }]);
  await rawPut(v4, 'changes', [{ runId: 'r1', key: 'google:1007919', kind: 'added' }]);
  v4.close();
}

describe('store version 4 → 5: the place-details queue', () => {
  it('adds the placeQueue store and its indexes; every record and index entry of version 4 stays byte for byte', async () => {
    const factory = freshFactory();
    const old = Array.from({ length: 500 }, (_, i) => v4Listing(i + 1));
    await seedV4(factory, 'v4', old);
    const before = await dumpDatabase(factory, 'v4');
    expect(before.version).toBe(4);

    const store = await openStore({ factory, name: 'v4' });
    store.close();
    const after = await dumpDatabase(factory, 'v4');
    expect(DB_VERSION).toBe(5);
    expect(after.version).toBe(5);
    for (const [name, content] of Object.entries(before)) {
      if (name === 'version') continue;
      expect(after[name], name).toEqual(content);
    }
    expect(after.placeQueue).toEqual([]);
    for (const index of ['bySweep', 'bySweepStatus', 'byLeaseOrder']) expect(after[`placeQueue.${index}`], index).toEqual([]);
    expect(Object.keys(after).filter((k) => !(k in before)).sort()).toEqual(['placeQueue', 'placeQueue.byLeaseOrder', 'placeQueue.bySweep', 'placeQueue.bySweepStatus']);
  });

  it('serves the upgraded data: a finished version-4 sweep gets its place queue from its old listings', async () => {
    const factory = freshFactory();
    const old = Array.from({ length: 60 }, (_, i) => v4Listing(i + 1));
    await seedV4(factory, 'v4', old);
    const store = await openStore({ factory, name: 'v4' });
    for (const c of COLLECTIONS) expect(await store.countListings(c), c).toBe(old.filter((l) => l.collections.includes(c)).length);
    const inS1 = old.filter((l) => l.collections.includes('s1'));
    const needing = inS1.filter((l) => !l.sources);
    const { queued } = await enqueueDetails(store, 's1', 50_000, { provider: 'google' });
    expect(queued).toBe(needing.length);
    expect(await countPlaces(store, 's1')).toMatchObject({ pending: needing.length, done: 0 });
    expect(await leasePlace(store, { sweepId: 's1', holder: 'h', now: 50_000, leaseMs: 1000 })).toMatchObject({ sweepId: 's1', status: 'leased' });
    store.close();
  });

  it('refuses a version-5 database whose placeQueue store is missing, and says what is damaged (nothing deleted)', async () => {
    const factory = freshFactory();
    const broken = await rawOpen(factory, 'mapsweep', 5, (db) => createV4Layout(db));
    await rawPut(broken, 'sweeps', [makeSweep('s1')]);
    broken.close();
    const before = await dumpDatabase(factory, 'mapsweep');
    const error = await openStore({ factory }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('corrupt');
    expect((error as StoreError).message).toMatch(/placeQueue/);
    expect(await dumpDatabase(factory, 'mapsweep')).toEqual(before);
  });
});
