/**
 * Store version 3 → 4 (issue 11): every Google listing gains its provider-neutral id
 * (providerId = CID) and nothing else changes. The version-3 database is written by hand with
 * raw IndexedDB, in the shapes version 3 wrote (tests/helpers/old-store.ts), so the test does not trust the migration code;
 * the result is compared with a raw dump of everything, records and index entries.
 */
import { describe, expect, it } from 'vitest';
import { listingToRow } from '../../utils/export/columns';
import type { StoredListing } from '../../utils/domain/listing';
import { idsFromPair } from '../../utils/providers/google/ids';
import { DB_VERSION, openStore } from '../../utils/store';
import { expectDamagedRefused, seedOldStore } from '../helpers/old-store';
import { dumpDatabase, freshFactory, makeSweep, seeded } from './store-fixtures';

type V3Listing = Omit<StoredListing, 'providerId' | 'provider'> & { provider?: 'google' };

const COLLECTIONS = ['s1', 's2', 's3', 'browsing'];

/**
 * A Google listing as version 3 stored it: no providerId. Varied: ids from small to 20
 * digits, nulls, Korean and hostile text, several collections, optional page-data fields on
 * some, and a few very old records without `provider` at all.
 */
function v3Listing(n: number, rng: () => number): V3Listing {
  const big = n % 10 === 0;
  const ids = big ? idsFromPair(BigInt(n) * 7919n, 18446744073709551615n - BigInt(n)) : idsFromPair(BigInt(n) * 7919n + 1n, BigInt(n) * 104729n + 1n);
  const collections = COLLECTIONS.filter((_, i) => (n >> i) % 2 === 1);
  const l: V3Listing = {
    key: `google:${ids.cid}`,
    provider: 'google',
    placeId: n % 3 === 0 ? null : ids.placeId,
    featureId: n % 3 === 0 ? null : ids.featureId,
    cid: ids.cid,
    name: n % 7 === 0 ? `=카페 "${n}", 서울` : `Place ${n}`,
    category: n % 5 === 0 ? null : 'Cafe',
    address: n % 4 === 0 ? null : `${n} Sejong-daero, Jung-gu, Seoul`,
    phone: n % 2 === 0 ? `+82 2-${1000 + n}` : null,
    website: n % 3 === 1 ? `https://p${n}.example/` : null,
    rating: n % 6 === 0 ? null : Math.round(rng() * 40 + 10) / 10,
    reviews: n % 6 === 0 ? null : Math.floor(rng() * 5000),
    lat: n % 9 === 0 ? null : 37.5 + rng() / 10,
    lng: n % 9 === 0 ? null : 126.9 + rng() / 10,
    url: n % 8 === 0 ? '' : `https://www.google.com/maps?cid=${ids.cid}`,
    sponsored: false,
    firstSeen: 1_000 + n,
    lastSeen: 2_000 + n,
    collections: collections.length > 0 ? collections : ['s1'],
    keywords: n % 2 ? ['cafe'] : ['cafe', '카페'],
    cells: n % 3 ? [`s1/0/r${n % 5}c0`] : [],
  };
  if (n % 11 === 0) delete l.provider;
  if (n % 4 === 1) {
    Object.assign(l, {
      categories: ['Cafe', 'Bakery'],
      addressParts: { street: `${n} Sejong-daero`, district: 'Jung-gu', city: 'Seoul', postalCode: '04524', region: null, countryCode: 'KR' },
      phoneE164: `+8221${n}`,
      otherPhones: ['010-1234-5678'],
      hours: 'Monday: 9 AM–6 PM',
      openingHours: [{ day: 1, dayName: 'Monday', text: '9 AM–6 PM', intervals: [{ open: '09:00', close: '18:00' }] }],
      priceLevel: '₩₩',
      closed: n % 8 === 1 ? 'temporarily' : null,
      sources: { address: 'page-data', phone: 'card' },
    });
  }
  return l;
}

function seedV3(factory: IDBFactory, name: string, listings: unknown[]): Promise<void> {
  return seedOldStore(factory, name, 3, {
    sweeps: [makeSweep('s1'), makeSweep('s2', { status: 'finished' }), makeSweep('s3', { status: 'paused', pauseReason: 'user' })],
    listings,
    keyword: 'bakery',
    moreEvents: [
      {
        sweepId: 's2',
        at: 3,
        kind: 'audit',
        message: 'audit',
        audit: {
          pageKind: 'results',
          verdict: 'ok',
          cardsVisible: 3,
          extracted: 3,
          sponsored: 0,
          networkItems: null,
          networkMatched: null,
          networkShortfall: false,
          firstKeys: ['google:7920'],
        },
      },
    ],
    placeKey: 'google:7920',
  });
}

type Dump = Record<string, unknown>;
const listingsOf = (dump: Dump) => dump.listings as [string, Record<string, unknown>][];

describe('store version 3 → 4: providerId for every Google listing', () => {
  it('upgrades 1,000 Google listings: every key, field and collection survives, providerId = cid, nothing else changes', async () => {
    const factory = freshFactory();
    const rng = seeded(20261201);
    const old = Array.from({ length: 1000 }, (_, i) => v3Listing(i + 1, rng));
    await seedV3(factory, 'v3', old);
    const before = await dumpDatabase(factory, 'v3');
    expect(before.version).toBe(3);

    const store = await openStore({ factory, name: 'v3' });
    store.close();
    const after = await dumpDatabase(factory, 'v3');
    expect(after.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBeGreaterThanOrEqual(4);

    // Every other store and every index (collections included) byte for byte.
    for (const [name, content] of Object.entries(before)) {
      if (name === 'version' || name === 'listings') continue;
      expect(after[name], name).toEqual(content);
    }
    // The listings: same keys in the same order; each record is the old one plus its identity.
    const was = listingsOf(before);
    const now = listingsOf(after);
    expect(now.map(([k]) => k)).toEqual(was.map(([k]) => k));
    expect(now).toHaveLength(1000);
    let withoutProvider = 0;
    for (const [i, [key, record]] of now.entries()) {
      const prior = was[i]![1];
      if (prior.provider === undefined) withoutProvider++;
      expect(record, key).toEqual({ ...prior, provider: 'google', providerId: prior.cid });
      expect(record.key).toBe(`google:${String(record.cid)}`);
    }
    // The test covered what it claims to: old records without `provider`, and page-data fields.
    expect(withoutProvider).toBeGreaterThan(50);
    expect(now.filter(([, r]) => r.openingHours !== undefined).length).toBeGreaterThan(200);
  });

  it('serves the upgraded listings through the store: counts per collection, merges that keep history, exports with provider_id', async () => {
    const factory = freshFactory();
    const rng = seeded(7);
    const old = Array.from({ length: 200 }, (_, i) => v3Listing(i + 1, rng));
    await seedV3(factory, 'v3', old);

    const store = await openStore({ factory, name: 'v3' });
    for (const c of COLLECTIONS) expect(await store.countListings(c), c).toBe(old.filter((l) => l.collections.includes(c)).length);
    const first = old[20]!;
    const got = (await store.getListing(first.key))!;
    expect(got).toMatchObject({ provider: 'google', providerId: first.cid, cid: first.cid, firstSeen: first.firstSeen });
    expect(listingToRow(got)).toMatchObject({ provider: 'google', provider_id: first.cid, cid: first.cid });

    // A new sighting of an upgraded place merges into it: same key, history kept, id kept.
    const { firstSeen: _f, lastSeen: _l, collections: _c, keywords: _k, cells: _cells, ...fields } = got;
    expect(await store.commitBrowsing([{ ...fields, phone: '+82 2-9999' }], 50_000)).toEqual({ added: 0, seen: 1 });
    expect(await store.getListing(first.key)).toMatchObject({
      providerId: first.cid,
      firstSeen: first.firstSeen,
      lastSeen: 50_000,
      collections: [...new Set([...first.collections, 'browsing'])],
    });
    expect(await store.countListings()).toBe(200);
    store.close();
  });

  it('leaves a damaged version-3 record exactly as it was, and still upgrades the rest', async () => {
    const factory = freshFactory();
    const rng = seeded(3);
    const good = v3Listing(1, rng);
    // Written by something other than MapSweep, or half-written: no usable CID. Not this step's to guess or drop.
    const damaged = { key: 'google:oops', provider: 'google', cid: null, name: 'half a record', collections: ['s1'] };
    await seedV3(factory, 'v3', [good, damaged]);
    const store = await openStore({ factory, name: 'v3' });
    store.close();
    const after = listingsOf(await dumpDatabase(factory, 'v3'));
    expect(after).toEqual([
      [good.key, { ...good, provider: 'google', providerId: good.cid }],
      ['google:oops', damaged],
    ]);
  });

  it('refuses a version-3 database whose listings store is missing, rolls back, and says what is damaged', async () => {
    const { error, before } = await expectDamagedRefused(freshFactory(), 3, (db) => db.createObjectStore('sweeps', { keyPath: 'id' }));
    expect(error.message).toMatch(/damaged.*nothing was deleted/i);
    expect(before.version).toBe(3);
  });
});
