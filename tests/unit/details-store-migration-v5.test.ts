/**
 * Store version 4 → 5 (issue 16): the place-details queue is a new object store and nothing
 * else changes. The version-4 database is written by hand with raw IndexedDB, in the shapes
 * version 4 wrote (tests/helpers/old-store.ts, as tests/unit/store-migration-v4.test.ts does for
 * 3 → 4), and compared with a raw dump of everything, records and index entries, after the upgrade.
 */
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openStore } from '../../utils/store';
import { countPlaces, enqueueDetails, leasePlace } from '../../utils/details/queue';
import { createV4Layout, expectDamagedRefused, seedOldStore } from '../helpers/old-store';
import { dumpDatabase, freshFactory, makeListing, makeSweep } from './store-fixtures';

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

function seedV4(factory: IDBFactory, name: string, listings: unknown[]): Promise<void> {
  return seedOldStore(factory, name, 4, {
    sweeps: [makeSweep('s1', { status: 'finished', provider: 'google' }), makeSweep('s2', { status: 'paused', pauseReason: 'user' })],
    listings,
    keyword: 'cafe',
    placeKey: 'google:1007919',
  });
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
    expect(DB_VERSION).toBeGreaterThanOrEqual(5);
    expect(after.version).toBe(DB_VERSION);
    for (const [name, content] of Object.entries(before)) {
      if (name === 'version') continue;
      expect(after[name], name).toEqual(content);
    }
    expect(after.placeQueue).toEqual([]);
    for (const index of ['bySweep', 'bySweepStatus', 'byLeaseOrder']) expect(after[`placeQueue.${index}`], index).toEqual([]);
    // Later steps' own stores (sweepPlaces: store-migration-v6.test.ts; contactSites: -v7; the linking stores: match-store.test.ts; the reviews: -v9) left aside.
    const later = /^(sweepPlaces|contactSites|businesses|ambiguities|linkDecisions|linkRuns|reviewQueue|reviews|placeLists)\b/;
    const added = Object.keys(after).filter((k) => !(k in before) && !later.test(k));
    expect(added.sort()).toEqual(['placeQueue', 'placeQueue.byLeaseOrder', 'placeQueue.bySweep', 'placeQueue.bySweepStatus']);
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
    const { error } = await expectDamagedRefused(freshFactory(), 5, createV4Layout);
    expect(error.message).toMatch(/placeQueue/);
  });
});
