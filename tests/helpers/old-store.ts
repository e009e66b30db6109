/**
 * Databases of earlier store versions, written by hand with raw IndexedDB in the shapes those
 * versions wrote, so a migration test does not trust the migration code (store-migration-v4,
 * details-store-migration-v5); and the check that the store refuses a damaged one untouched.
 */
import { expect } from 'vitest';
import { openStore, StoreError } from '../../utils/store';
import { dumpDatabase, rawOpen, rawPut } from '../unit/store-fixtures';
import { makeCell, makeSweep } from './store-records';

/** The version-3 layout, by hand (see tests/unit/store-schema.test.ts for 1 and 2). */
export function createV3Layout(db: IDBDatabase): void {
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

/** The version-4 layout: the same stores and indexes as version 3 (3 → 4 only rewrote listings). */
export const createV4Layout = createV3Layout;

/** The version-5 layout: version 4's, and the place-details queue. */
export function createV5Layout(db: IDBDatabase): void {
  createV4Layout(db);
  const queue = db.createObjectStore('placeQueue', { keyPath: 'id' });
  queue.createIndex('bySweep', 'sweepId');
  queue.createIndex('bySweepStatus', ['sweepId', 'status']);
  queue.createIndex('byLeaseOrder', 'queue');
}

/** The version-6 layout: version 5's, and what each sweep listed under each keyword. */
export function createV6Layout(db: IDBDatabase): void {
  createV5Layout(db);
  db.createObjectStore('sweepPlaces');
}

/** The version-7 layout: version 6's, and the contacts pass's websites. */
export function createV7Layout(db: IDBDatabase): void {
  createV6Layout(db);
  const sites = db.createObjectStore('contactSites', { keyPath: 'url' });
  sites.createIndex('byLeaseOrder', 'queue');
  sites.createIndex('byPlace', 'places', { multiEntry: true });
}

/** The version-8 layout: version 7's, and the linking's stores. */
export function createV8Layout(db: IDBDatabase): void {
  createV7Layout(db);
  db.createObjectStore('businesses', { keyPath: 'id' }).createIndex('byPlace', 'members', { multiEntry: true });
  db.createObjectStore('ambiguities', { keyPath: 'id' });
  db.createObjectStore('linkDecisions', { keyPath: 'id' });
  db.createObjectStore('linkRuns', { keyPath: 'id' });
}

/** Version 9's layout: version 8's and the reviews pass's stores (utils/store/schema.ts 8 → 9). */
export function createV9Layout(db: IDBDatabase): void {
  createV8Layout(db);
  const queue = db.createObjectStore('reviewQueue', { keyPath: 'id' });
  queue.createIndex('bySweep', 'sweepId');
  queue.createIndex('bySweepStatus', ['sweepId', 'status']);
  queue.createIndex('byLeaseOrder', 'queue');
  db.createObjectStore('reviews', { keyPath: 'key' }).createIndex('byPlace', 'placeKey');
}

/**
 * A version-3 or version-4 database `name` with something in every store: the given sweeps and
 * listings; sweep s1's cells (r0c0 open with its lease-order key, r0c1 done) and a saturated
 * cell of s2; a retry and a done event of s1 searching `keyword`, then `moreEvents`; saved
 * search ss1 whose run r1 was sweep s2, with its snapshot of `placeKey` and that place's change.
 */
export async function seedOldStore(
  factory: IDBFactory,
  name: string,
  version: 3 | 4,
  content: { sweeps: unknown[]; listings: unknown[]; keyword: string; moreEvents?: unknown[]; placeKey: string },
): Promise<void> {
  const db = await rawOpen(factory, name, version, (d) => createV3Layout(d));
  const open = { ...makeCell('s1', 'r0c0'), queue: ['s1', 0, 0, 0, 100, 's1/0/r0c0', 0] };
  await rawPut(db, 'sweeps', content.sweeps);
  await rawPut(db, 'cells', [open, makeCell('s1', 'r0c1', { status: 'done' }), makeCell('s2', 'r0c0', { status: 'saturated' })]);
  await rawPut(db, 'listings', content.listings);
  await rawPut(db, 'events', [
    { sweepId: 's1', at: 1, kind: 'cell-retry', cellId: open.id, keyword: content.keyword, errorKind: 'http', httpStatus: 503, message: 'HTTP 503' },
    { sweepId: 's1', at: 2, kind: 'cell-done', cellId: 's1/0/r0c1', keyword: content.keyword, message: '3 listings' },
    ...(content.moreEvents ?? []),
  ]);
  await rawPut(db, 'savedSearches', [
    {
      id: 'ss1',
      name: 'n',
      areaText: '1,2,1.1,2.1',
      keywordsText: 'cafe',
      repeat: 'daily',
      hour: 9,
      weekday: 0,
      thresholdDays: 7,
      createdAt: 1,
      lastRunAt: null,
      lastSuccessfulRunAt: null,
      lastNewPlaceAt: null,
    },
  ]);
  await rawPut(db, 'runs', [{ id: 'r1', savedSearchId: 'ss1', sweepId: 's2', claimedAt: 5, status: 'finished' }]);
  await rawPut(db, 'placeSnapshots', [{ savedSearchId: 'ss1', key: content.placeKey, name: 'Place 1', lastSeenRun: 'r1' }]);
  await rawPut(db, 'changes', [{ runId: 'r1', key: content.placeKey, kind: 'added' }]);
  db.close();
}

/**
 * A damaged 'mapsweep' database at `version`, laid out by `layout` with one sweep s1: opening
 * the store must fail with a 'corrupt' StoreError and leave the database exactly as it was.
 * Returns the error (for its message) and the dump taken before.
 */
export async function expectDamagedRefused(
  factory: IDBFactory,
  version: number,
  layout: (db: IDBDatabase) => void,
): Promise<{ error: StoreError; before: Record<string, unknown> }> {
  const broken = await rawOpen(factory, 'mapsweep', version, (db) => layout(db));
  await rawPut(broken, 'sweeps', [makeSweep('s1')]);
  broken.close();
  const before = await dumpDatabase(factory, 'mapsweep');
  const error = await openStore({ factory }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe('corrupt');
  expect(await dumpDatabase(factory, 'mapsweep')).toEqual(before);
  return { error: error as StoreError, before };
}
