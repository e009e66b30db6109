/**
 * Linking over the store (issue 24): store version 7 → 8 adds the linking stores and changes
 * nothing else; a run writes businesses and candidates, a re-run that finds the same writes
 * nothing, the user's decisions survive runs; the exports carry `business_id` and the
 * Businesses rows (CSV, JSON, XLSX's second sheet), with `missing_on` only where a site was swept.
 */
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { DB_VERSION, openStore, type Store } from '../../utils/store';
import { linkStoredPlaces } from '../../utils/match/run';
import { decideLink, listAmbiguities, listBusinesses } from '../../utils/match/read';
import { buildExport } from '../../utils/export/build';
import { businessRowBatches, type BusinessRow } from '../../utils/export/businesses';
import type { Listing } from '../../utils/domain/listing';
import { createV7Layout, expectDamagedRefused } from '../helpers/old-store';
import { dumpDatabase, freshFactory, makeCell, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const north = (m: number) => SEOUL.lat + m / 111_320;

function site(provider: 'google' | 'naver' | 'kakao', id: string, over: Partial<Listing>): Listing {
  return {
    ...makeListing(id),
    key: `${provider}:${id}`,
    provider,
    providerId: id,
    cid: provider === 'google' ? id : null,
    url: provider === 'google' ? `https://www.google.com/maps?cid=${id}` : `https://example.invalid/${provider}/${id}`,
    lat: SEOUL.lat,
    lng: SEOUL.lng,
    category: null,
    address: null,
    ...over,
  };
}

/** One café on all three sites, one pharmacy on Google only, a café on Naver only whose name starts with `=`. */
const PLACES: Listing[] = [
  site('google', '1001', {
    name: 'Starbucks Gangnam',
    category: 'Coffee shop',
    phone: '02-555-1234',
    phoneE164: '+8225551234',
    address: '12 Teheran-ro, Gangnam District, Seoul',
  }),
  site('naver', '2001', {
    name: '스타벅스 강남점',
    category: '카페',
    phone: '02-555-1234',
    phoneE164: '+8225551234',
    roadAddress: '서울 강남구 테헤란로 12',
    lat: north(40),
  }),
  site('kakao', '3001', {
    name: '스타벅스 강남',
    category: '카페',
    phone: '02-555-9999',
    phoneE164: '+8225559999',
    roadAddress: '서울 강남구 테헤란로 12',
    lat: north(-30),
    closed: 'permanently',
  }),
  site('google', '1002', { name: 'Onda Pharmacy', category: 'Pharmacy', lat: north(2000) }),
  site('naver', '2002', { name: '=HYPERLINK("http://x")', category: '카페', lat: north(4000) }),
];

async function seeded(): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'link' });
  await store.commitBrowsing(PLACES, 1_000);
  return store;
}

const csvRows = async (store: Store, format: 'csv' | 'businesses-csv') => {
  const built = await buildExport(store, { collection: undefined, fileWords: ['all'] }, format, new Date(0));
  const text = (await new Blob(built.parts).text()).replace(/^\uFEFF/, '');
  return { rows: Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data, fileName: built.fileName };
};

describe('the Businesses export while a linking run commits (issue 36)', () => {
  it('reads its businesses in one snapshot: a run that links places mid-export neither drops nor repeats a row', async () => {
    const store = await seeded();
    const keys = PLACES.map((p) => p.key).sort();
    const rows: BusinessRow[] = [];
    let linked = false;
    // One place a batch, and the run commits after the first batch was written.
    for await (const batch of businessRowBatches(store, undefined, 1)) {
      rows.push(...batch);
      if (!linked) {
        await linkStoredPlaces(store, () => 5_000);
        linked = true;
      }
    }
    expect((await listBusinesses(store)).length).toBeGreaterThan(0);
    const written = rows.flatMap((r) => ['google', 'naver', 'kakao'].map((s) => r[`${s}_id`]).filter((v): v is string => typeof v === 'string'));
    // Every place exactly once (here, before the run, each a business of its own).
    expect(written.length).toBe(keys.length);
    expect(new Set(written).size).toBe(keys.length);
    // The next export sees the run: the café is one row.
    const after: BusinessRow[] = [];
    for await (const batch of businessRowBatches(store, undefined, 1)) after.push(...batch);
    expect(after.length).toBe(keys.length - 2);
  });
});

describe('linking over the store', () => {
  it('links the café across the three sites, leaves the others alone, and a re-run writes nothing', async () => {
    const store = await seeded();
    const run = await linkStoredPlaces(store, () => 5_000);
    expect(run).toMatchObject({ places: 5, businesses: 1, written: 1, deleted: 0, threshold: expect.any(Number) });
    const [business] = await listBusinesses(store);
    expect(business!.members).toEqual(['google:1001', 'naver:2001', 'kakao:3001']);
    expect(business!.since).toBe(5_000);
    const again = await linkStoredPlaces(store, () => 9_000);
    expect([again.written, again.deleted]).toEqual([0, 0]);
    expect((await listBusinesses(store))[0]!.since).toBe(5_000);
    store.close();
  });

  it("keeps the user's decision through later runs: a broken link stays broken, taking it back links again", async () => {
    const store = await seeded();
    await linkStoredPlaces(store, () => 1);
    await decideLink(store, 'google:1001', 'naver:2001', 'broken', 2);
    await decideLink(store, 'google:1001', 'kakao:3001', 'broken', 2);
    await linkStoredPlaces(store, () => 3);
    const after = await listBusinesses(store);
    expect(after.map((b) => b.members)).toEqual([['naver:2001', 'kakao:3001']]);
    await linkStoredPlaces(store, () => 4);
    expect((await listBusinesses(store)).map((b) => b.members)).toEqual([['naver:2001', 'kakao:3001']]);
    await decideLink(store, 'google:1001', 'naver:2001', null, 5);
    await decideLink(store, 'google:1001', 'kakao:3001', null, 5);
    await linkStoredPlaces(store, () => 6);
    expect((await listBusinesses(store)).map((b) => b.members)).toEqual([['google:1001', 'naver:2001', 'kakao:3001']]);
    expect(await listAmbiguities(store)).toEqual([]);
    store.close();
  });

  it('takes a decision in either order as the same pair, and refuses two listings of one site', async () => {
    const store = await seeded();
    await decideLink(store, 'kakao:3001', 'google:1001', 'broken', 2);
    await decideLink(store, 'naver:2001', 'google:1001', 'broken', 2);
    await linkStoredPlaces(store, () => 3);
    expect((await listBusinesses(store)).map((b) => b.members)).toEqual([['naver:2001', 'kakao:3001']]);
    await expect(decideLink(store, 'google:1001', 'google:1002', 'confirmed', 4)).rejects.toThrow(/two different map sites/);
    await expect(decideLink(store, 'nowhere:1', 'google:1002', 'confirmed', 4)).rejects.toThrow(/two different map sites/);
    store.close();
  });

  it('exports business_id on every place and one Businesses row per business, formula-safe, missing only where swept', async () => {
    const store = await seeded();
    // Kakao swept (and proven complete) around the pharmacy only: it is missing there; the Naver-only café was never swept by anyone else.
    const cell = makeCell('k', 'r0c0', { bbox: { south: north(1900), west: SEOUL.lng - 0.01, north: north(2100), east: SEOUL.lng + 0.01 } });
    await store.createSweep(makeSweep('k', { provider: 'kakao', status: 'finished' }), [cell]);
    // As a finished sweep leaves it (a sweep is created with its cells pending).
    await store.transact(['cells'], 'readwrite', (tx) => tx.objectStore('cells').put({ ...cell, status: 'done' }));
    // Before any linking run nothing is claimed missing: the run is what could have found it elsewhere.
    expect((await csvRows(store, 'businesses-csv')).rows.map((r) => r.missing_on)).toEqual(['', '', '', '', '']);
    await linkStoredPlaces(store, () => 5_000);

    const places = await csvRows(store, 'csv');
    const idOf = new Map(places.rows.map((r) => [`${r.provider}:${r.provider_id}`, r.business_id]));
    expect(idOf.get('google:1001')).toBe(idOf.get('naver:2001'));
    expect(idOf.get('kakao:3001')).toBe(idOf.get('google:1001'));
    expect(idOf.get('google:1002')).not.toBe(idOf.get('google:1001'));

    const { rows, fileName } = await csvRows(store, 'businesses-csv');
    expect(fileName).toMatch(/businesses/);
    expect(rows.length).toBe(3);
    const cafe = rows.find((r) => r.google_id === '1001')!;
    expect(cafe).toMatchObject({ business_id: idOf.get('google:1001'), naver_id: '2001', kakao_id: '3001', kakao_closed: 'permanently', missing_on: '' });
    expect(cafe.differs!.split('; ').sort()).toEqual(['closed', 'phone']);
    expect(Number(cafe.match_score)).toBeGreaterThanOrEqual(4);
    expect(rows.find((r) => r.google_id === '1002')).toMatchObject({ missing_on: 'kakao', naver_id: '', match_score: '' });
    // The Naver-only café: nobody else swept there, so it is missing nowhere; its name cannot run as a formula.
    expect(rows.find((r) => r.naver_id === '2002')).toMatchObject({ missing_on: '', naver_name: `'=HYPERLINK("http://x")` });
    // A place found after the last run is not claimed missing either, until a run has seen it.
    await store.commitBrowsing([site('google', '1003', { name: 'Late Bakery', category: 'Bakery', lat: north(2010) })], 9_000);
    expect((await csvRows(store, 'businesses-csv')).rows.find((r) => r.google_id === '1003')).toMatchObject({ missing_on: '' });
    await linkStoredPlaces(store, () => 10_000);
    expect((await csvRows(store, 'businesses-csv')).rows.find((r) => r.google_id === '1003')).toMatchObject({ missing_on: 'kakao' });
    store.close();
  });

  it('adds the Businesses sheet to the workbook once places were linked, and a JSON with lists', async () => {
    const XLSX = await import('@e965/xlsx');
    const store = await seeded();
    const book = async () => {
      const built = await buildExport(store, { collection: undefined, fileWords: ['all'] }, 'xlsx', new Date(0));
      return XLSX.read(new Uint8Array(await new Blob(built.parts).arrayBuffer()), { type: 'array' });
    };
    expect((await book()).SheetNames).toEqual(['places']);
    await linkStoredPlaces(store, () => 1);
    const linked = await book();
    expect(linked.SheetNames).toEqual(['places', 'businesses']);
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(linked.Sheets.businesses!);
    expect(sheet.length).toBe(3);
    expect(sheet.find((r) => r.google_id === '1001')).toMatchObject({ naver_id: '2001', kakao_id: '3001' });

    const json = await buildExport(store, { collection: undefined, fileWords: ['all'] }, 'businesses-json', new Date(0));
    const records = JSON.parse(await new Blob(json.parts).text()) as Array<Record<string, unknown>>;
    const cafe = records.find((r) => r.google_id === '1001')!;
    expect((cafe.differs as string[]).sort()).toEqual(['closed', 'phone']);
    expect(cafe.missing_on).toEqual([]);
    expect(records.find((r) => r.naver_id === '2002')!.naver_name).toBe('=HYPERLINK("http://x")');
    store.close();
  });
});

/** Versions 9's and 10's (tests/unit/store-migration-v9.test.ts, -v10.test.ts), in sorted order. */
const REVIEW_STORES = [
  'placeLists',
  'reviewQueue',
  'reviewQueue.byLeaseOrder',
  'reviewQueue.bySweep',
  'reviewQueue.bySweepStatus',
  'reviews',
  'reviews.byPlace',
];

describe('store version 7 → 8: linking', () => {
  it('adds the four linking stores, empty; every record of version 7 stays as it was; linking works on the upgraded store', async () => {
    const factory = freshFactory();
    const db = await rawOpen(factory, 'v7', 7, (d) => createV7Layout(d));
    await rawPut(db, 'sweeps', [makeSweep('done', { status: 'finished' })]);
    await rawPut(
      db,
      'listings',
      PLACES.slice(0, 2).map((l) => ({ ...l, firstSeen: 1, lastSeen: 2, collections: ['browsing'], keywords: [], cells: [] })),
    );
    await rawPut(db, 'contactSites', [{ url: 'https://bakery.kr/', places: ['google:1001'], status: 'pending' }]);
    db.close();
    const before = await dumpDatabase(factory, 'v7');
    expect(before.version).toBe(7);

    const store = await openStore({ factory, name: 'v7' });
    store.close();
    const after = await dumpDatabase(factory, 'v7');
    expect(after.version).toBe(DB_VERSION);
    for (const [name, content] of Object.entries(before)) if (name !== 'version') expect(after[name], name).toEqual(content);
    expect(
      Object.keys(after)
        .filter((k) => !(k in before))
        .sort(),
    ).toEqual(['ambiguities', 'businesses', 'businesses.byPlace', 'linkDecisions', 'linkRuns', ...REVIEW_STORES]);

    const upgraded = await openStore({ factory, name: 'v7' });
    expect((await linkStoredPlaces(upgraded, () => 1)).businesses).toBe(1);
    upgraded.close();
  });

  it('a damaged version-7 database (a store missing) is refused and left exactly as it was', async () => {
    const { error } = await expectDamagedRefused(freshFactory(), 7, (d) => {
      createV7Layout(d);
      d.deleteObjectStore('contactSites');
    });
    expect(error.message).toMatch(/contactSites/);
  });
});
