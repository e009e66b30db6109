import { describe, expect, it } from 'vitest';
import { leaseNextCell } from '../../utils/queue';
import { DB_VERSION, openStore, StoreError } from '../../utils/store';
import { toStoreError } from '../../utils/store/errors';
import { dumpDatabase, freshFactory, makeCell, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';

/** The version-1 layout, written out by hand so the test does not trust the migration code. */
function createV1Layout(db: IDBDatabase) {
  db.createObjectStore('sweeps', { keyPath: 'id' });
  const cells = db.createObjectStore('cells', { keyPath: 'id' });
  cells.createIndex('bySweep', 'sweepId');
  cells.createIndex('bySweepStatus', ['sweepId', 'status']);
  const listings = db.createObjectStore('listings', { keyPath: 'key' });
  listings.createIndex('byCollection', 'collections', { multiEntry: true });
  db.createObjectStore('events', { keyPath: 'id', autoIncrement: true });
}

/** The version-2 layout, by hand: version 1 plus the lease-order and per-sweep events indexes. */
function createV2Layout(db: IDBDatabase, tx: IDBTransaction) {
  createV1Layout(db);
  tx.objectStore('cells').createIndex('byLeaseOrder', 'queue');
  tx.objectStore('events').createIndex('bySweep', 'sweepId');
}

async function expectStoreError(p: Promise<unknown>, code: StoreError['code']): Promise<StoreError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe(code);
  return error as StoreError;
}

describe('opening', () => {
  it('creates the current layout in a new database', async () => {
    const factory = freshFactory();
    const store = await openStore({ factory, name: 'fresh' });
    store.close();
    const db = await rawOpen(factory, 'fresh');
    expect(db.version).toBe(DB_VERSION);
    expect(Array.from(db.objectStoreNames).sort()).toEqual([
      'ambiguities',
      'businesses',
      'cells',
      'changes',
      'contactSites',
      'events',
      'linkDecisions',
      'linkRuns',
      'listings',
      'placeLists',
      'placeQueue',
      'placeSnapshots',
      'reviewQueue',
      'reviews',
      'runs',
      'savedSearches',
      'sweepPlaces',
      'sweeps',
    ]);
    const tx = db.transaction(['cells', 'events', 'runs', 'placeSnapshots', 'changes', 'contactSites'], 'readonly');
    expect(Array.from(tx.objectStore('contactSites').indexNames).sort()).toEqual(['byLeaseOrder', 'byPlace']);
    expect(tx.objectStore('contactSites').index('byPlace').multiEntry).toBe(true);
    expect(Array.from(tx.objectStore('cells').indexNames).sort()).toEqual(['byLeaseOrder', 'bySweep', 'bySweepStatus']);
    expect(Array.from(tx.objectStore('events').indexNames).sort()).toEqual(['bySweep', 'bySweepKind']);
    expect(Array.from(tx.objectStore('runs').indexNames).sort()).toEqual(['bySavedSearch', 'bySweep']);
    expect(tx.objectStore('placeSnapshots').keyPath).toEqual(['savedSearchId', 'key']);
    expect(tx.objectStore('changes').keyPath).toEqual(['runId', 'key']);
    db.close();
  });

  it('upgrades a version-1 database: data intact, open cells get their lease-order key', async () => {
    const factory = freshFactory();
    const v1 = await rawOpen(factory, 'old', 1, (db) => createV1Layout(db));
    const sweep = makeSweep('s1');
    const pending = makeCell('s1', 'r0c0', { distance: 50 });
    const expired = makeCell('s1', 'r0c1', { status: 'leased', leaseHolder: 'tab:1', leaseUntil: 500 });
    const held = makeCell('s1', 'r0c2', { status: 'leased', leaseHolder: 'tab:2', leaseUntil: 99_999 });
    const done = makeCell('s1', 'r0c3', { status: 'done' });
    const quarantined = makeCell('s1', 'r0c4', { status: 'quarantined', attempts: 3 });
    const cells = [pending, expired, held, done, quarantined];
    const listing = { ...makeListing('1'), firstSeen: 10, lastSeen: 20, collections: ['s1'], keywords: ['bakery'], cells: [done.id] };
    await rawPut(v1, 'sweeps', [sweep]);
    await rawPut(v1, 'cells', cells);
    await rawPut(v1, 'listings', [listing]);
    await rawPut(v1, 'events', [
      { sweepId: 's1', at: 1, kind: 'info', message: 'first' },
      { sweepId: 'other', at: 2, kind: 'info', message: 'not ours' },
      { sweepId: 's1', at: 3, kind: 'info', message: 'second' },
    ]);
    v1.close();

    const store = await openStore({ factory, name: 'old' });
    expect(await store.getSweep('s1')).toEqual(sweep);
    expect(await store.getListing('google:1')).toEqual(listing);
    for (const c of cells) expect(await store.getCell(c.id)).toEqual(c);
    // The v2 events index works on v1 events.
    expect((await store.listEvents('s1')).map((e) => e.message)).toEqual(['second', 'first']);
    // The v2 lease-order index holds exactly the three open cells written by v1.
    const dump = await dumpDatabase(factory, 'old');
    expect(dump.version).toBe(DB_VERSION);
    expect((dump['cells.byLeaseOrder'] as [unknown, string][]).map(([, id]) => id).sort()).toEqual([pending.id, expired.id, held.id].sort());
    // And the queue runs on it: the pending cell, then the expired lease; never the held one.
    const now = 1_000;
    expect((await leaseNextCell(store, { sweepId: 's1', holder: 'tab:9', now, leaseMs: 60_000 }))?.id).toBe(pending.id);
    expect((await leaseNextCell(store, { sweepId: 's1', holder: 'tab:9', now, leaseMs: 60_000 }))?.id).toBe(expired.id);
    expect(await leaseNextCell(store, { sweepId: 's1', holder: 'tab:9', now, leaseMs: 60_000 })).toBeNull();
    store.close();
  });

  it('upgrades a version-2 database (through 3 to the current version): every record kept byte for byte, old events found by kind', async () => {
    const factory = freshFactory();
    const v2 = await rawOpen(factory, 'old', 2, (db, tx) => createV2Layout(db, tx));
    const sweep = makeSweep('s1');
    const open = { ...makeCell('s1', 'r0c0'), queue: ['s1', 0, 0, 0, 100, 's1/0/r0c0', 0] };
    const done = makeCell('s1', 'r0c1', { status: 'done' });
    const listing = { ...makeListing('1'), firstSeen: 10, lastSeen: 20, collections: ['s1'], keywords: ['bakery'], cells: [done.id] };
    await rawPut(v2, 'sweeps', [sweep]);
    await rawPut(v2, 'cells', [open, done]);
    await rawPut(v2, 'listings', [listing]);
    await rawPut(v2, 'events', [
      { sweepId: 's1', at: 1, kind: 'cell-retry', cellId: open.id, keyword: 'bakery', errorKind: 'http', message: 'HTTP 503' },
      { sweepId: 's1', at: 2, kind: 'cell-done', cellId: done.id, keyword: 'bakery', message: '3 listings' },
    ]);
    v2.close();
    const before = await dumpDatabase(factory, 'old');

    const store = await openStore({ factory, name: 'old' });
    store.close();
    const after = await dumpDatabase(factory, 'old');
    expect(after.version).toBe(DB_VERSION);
    // Everything version 2 had is there unchanged: stores, records and index entries.
    for (const [name, content] of Object.entries(before)) if (name !== 'version') expect(after[name]).toEqual(content);
    for (const name of ['savedSearches', 'runs', 'placeSnapshots', 'changes']) expect(after[name]).toEqual([]);
    // The new index covers the events written by version 2.
    expect(after['events.bySweepKind']).toEqual([
      [['s1', 'cell-done'], 2],
      [['s1', 'cell-retry'], 1],
    ]);
  });

  it('upgrades a version-1 database straight to the current version, and it can hold a saved search', async () => {
    const factory = freshFactory();
    const v1 = await rawOpen(factory, 'old', 1, (db) => createV1Layout(db));
    await rawPut(v1, 'sweeps', [makeSweep('s1')]);
    v1.close();
    const store = await openStore({ factory, name: 'old' });
    await store.transact(['savedSearches'], 'readwrite', async (tx) => {
      await tx.objectStore('savedSearches').add({
        id: 'ss1',
        name: 'n',
        areaText: '1,2,1.1,2.1',
        keywordsText: 'bakery',
        repeat: 'daily',
        hour: 9,
        weekday: 0,
        thresholdDays: 7,
        createdAt: 1,
        lastRunAt: null,
        lastSuccessfulRunAt: null,
        lastNewPlaceAt: null,
      });
    });
    expect((await store.getSweep('s1'))?.id).toBe('s1');
    store.close();
    const dump = await dumpDatabase(factory, 'old');
    expect(dump.version).toBe(DB_VERSION);
    expect((dump.savedSearches as unknown[]).length).toBe(1);
  });

  it('refuses a database from a newer version, and leaves it there', async () => {
    const factory = freshFactory();
    const newer = await rawOpen(factory, 'mapsweep', DB_VERSION + 1, (db) => db.createObjectStore('future', { keyPath: 'id' }));
    await rawPut(newer, 'future', [{ id: 'keep-me' }]);
    newer.close();

    const error = await expectStoreError(openStore({ factory }), 'newer-version');
    expect(error.message).toMatch(/newer version of MapSweep/);
    expect(error.message).toContain(String(DB_VERSION + 1));
    expect(await dumpDatabase(factory, 'mapsweep')).toEqual({ version: DB_VERSION + 1, future: [['keep-me', { id: 'keep-me' }]] });
  });

  it('refuses a database at the current version with stores missing, and leaves it there', async () => {
    const factory = freshFactory();
    const broken = await rawOpen(factory, 'mapsweep', DB_VERSION, (db) => db.createObjectStore('sweeps', { keyPath: 'id' }));
    await rawPut(broken, 'sweeps', [makeSweep('s1')]);
    broken.close();
    const before = await dumpDatabase(factory, 'mapsweep');

    const error = await expectStoreError(openStore({ factory }), 'corrupt');
    expect(error.message).toMatch(/damaged/);
    expect(error.message).toContain('cells');
    expect(await dumpDatabase(factory, 'mapsweep')).toEqual(before);
  });

  it('refuses a damaged version-1 database whose upgrade cannot run, and rolls the upgrade back', async () => {
    const factory = freshFactory();
    const broken = await rawOpen(factory, 'mapsweep', 1, (db) => db.createObjectStore('sweeps', { keyPath: 'id' }));
    await rawPut(broken, 'sweeps', [makeSweep('s1')]);
    broken.close();
    const before = await dumpDatabase(factory, 'mapsweep');

    await expectStoreError(openStore({ factory }), 'corrupt');
    expect(await dumpDatabase(factory, 'mapsweep')).toEqual(before);
    expect(before.version).toBe(1);
  });

  it('reports "blocked" while an old connection will not close, and opens once it has', async () => {
    const factory = freshFactory();
    const old = await rawOpen(factory, 'mapsweep', 1, (db) => createV1Layout(db));
    await rawPut(old, 'sweeps', [makeSweep('s1')]);
    // This connection ignores versionchange, as an old page that never heard of it would.
    await expectStoreError(openStore({ factory }), 'blocked');
    old.close();
    // Let the abandoned attempt finish its upgrade (and close itself) before trying again.
    await new Promise((r) => setTimeout(r, 20));
    const store = await openStore({ factory });
    expect((await store.getSweep('s1'))?.id).toBe('s1');
    store.close();
  });

  it('steps aside when a newer version wants to upgrade, and says so afterwards', async () => {
    const factory = freshFactory();
    const store = await openStore({ factory });
    await store.createSweep(makeSweep('s1'), [makeCell('s1', 'r0c0')]);
    const next = await rawOpen(factory, 'mapsweep', DB_VERSION + 1, () => {});
    expect(next.version).toBe(DB_VERSION + 1);
    next.close();
    await expectStoreError(store.getSweep('s1'), 'closed');
  });

  it('maps a quota abort reported on the transaction to "quota"', () => {
    const abort = new DOMException('aborted', 'AbortError');
    const error = toStoreError(abort, new DOMException('full', 'QuotaExceededError'));
    expect(error.code).toBe('quota');
    expect(error.message).toMatch(/disk is full.*already committed data is safe/i);
  });
});
