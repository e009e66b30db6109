/**
 * Exports with the filters of the moment (issue 40, utils/export/filtered.ts): every places
 * format and the reviews hold only the places that pass, and say which filters made them (the
 * file's name, the JSON's and GeoJSON's `filters`, the workbook's first sheet); no filter, no
 * change. And the count the popup and dashboard show, from the same store.
 */
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_FILTER, type PlaceFilter } from '../../utils/config/settings';
import type { StoredListing } from '../../utils/domain/listing';
import { buildExport, type ExportFormat } from '../../utils/export/build';
import { buildInOffscreen } from '../../utils/export/long-export';
import { buildReviewsExport } from '../../utils/export/reviews';
import { countPassing, describeFilter } from '../../utils/filters';
import { openStore, type Store } from '../../utils/store';
import { makeReview } from '../helpers/store-records';
import { freshFactory, makeListing } from './store-fixtures';

const NOW = new Date(Date.UTC(2026, 11, 3, 9));

const FILTER: PlaceFilter = { ...NO_FILTER, categories: ['카페'], excludeNames: ['스타벅스'], minRating: 4, status: 'open-only' };
const SLUG = 'filtered-카페-x-스타벅스-r4-open';

function stored(cid: string, over: Partial<StoredListing>): StoredListing {
  return { ...makeListing(cid), category: '카페', firstSeen: 1, lastSeen: 2, collections: ['s1'], keywords: ['카페'], cells: [], ...over };
}

/** Six places of one sweep: two pass (one of them on a rating nobody has read), four are ruled out by what is known. */
const PLACES = [
  stored('1', { name: '카페 하나', rating: 4.5, reviews: 100, closed: null }),
  stored('2', { name: '스타벅스 광화문점', rating: 4.2 }),
  stored('3', { name: 'Bakery Three', category: 'Bakery', categories: ['Bakery'], rating: 4.8 }),
  stored('4', { name: '카페 넷', rating: 3.5 }),
  stored('5', { name: '카페 다섯', rating: null, reviews: null }),
  stored('6', { name: '카페 여섯', rating: 4.9, closed: 'permanently' }),
];
const PASSING = ['카페 하나', '카페 다섯'];

let store: Store;
beforeEach(async () => {
  store = await openStore({ factory: freshFactory(), name: 'filters-export' });
  await store.transact(['listings', 'reviews'], 'readwrite', async (tx) => {
    for (const l of PLACES) await tx.objectStore('listings').put(l);
    await tx.objectStore('reviews').put(makeReview('google:1', 'r1'));
    await tx.objectStore('reviews').put(makeReview('google:2', 'r2'));
    await tx.objectStore('reviews').put(makeReview('google:4', 'r4'));
  });
});
afterEach(() => store.close());

const text = (parts: BlobPart[]) => new Blob(parts).text();
const csvNames = (csv: string) =>
  Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data.map((r) => r.name);
const build = (format: ExportFormat, filter?: PlaceFilter) =>
  buildExport(store, { collection: 's1', fileWords: ['카페'], ...(filter ? { filter } : {}) }, format, NOW);

describe('places exports with filters', () => {
  it('CSV: only the places that pass, the slug in the file name; no filter or an inactive one, every place and the old name', async () => {
    const filtered = await build('csv', FILTER);
    expect(csvNames(await text(filtered.parts))).toEqual(PASSING);
    expect(filtered.fileName).toBe(`mapsweep_카페_${SLUG}_2026-12-03.csv`);
    expect(filtered.places).toBe(2);

    const plain = await build('csv');
    expect(csvNames(await text(plain.parts))).toEqual(PLACES.map((p) => p.name));
    expect(plain.fileName).toBe('mapsweep_카페_2026-12-03.csv');
    const inactive = await build('csv', NO_FILTER);
    expect(await text(inactive.parts)).toBe(await text(plain.parts));
    expect(inactive.fileName).toBe(plain.fileName);
  });

  it('JSON: {"filters", "places"} when filtered, the bare array otherwise', async () => {
    const filtered = JSON.parse(await text((await build('json', FILTER)).parts)) as { filters: string; places: { name: string }[] };
    expect(Object.keys(filtered)).toEqual(['filters', 'places']);
    expect(filtered.filters).toBe('category: 카페; not name: 스타벅스; rating ≥ 4; open only');
    expect(filtered.places.map((p) => p.name)).toEqual(PASSING);
    const plain = JSON.parse(await text((await build('json')).parts)) as unknown;
    expect(Array.isArray(plain)).toBe(true);
    expect((plain as unknown[]).length).toBe(6);
  });

  it('GeoJSON: a top-level "filters" member beside the features that pass', async () => {
    const built = await build('geojson', FILTER);
    const collection = JSON.parse(await text(built.parts)) as { type: string; filters: string; features: { properties: { name: string } }[] };
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.filters).toBe(describeFilter(FILTER));
    expect(collection.features.map((f) => f.properties.name)).toEqual(PASSING);
    expect(built.fileName).toBe(`mapsweep_카페_${SLUG}_2026-12-03.geojson`);
    const plain = JSON.parse(await text((await build('geojson')).parts)) as Record<string, unknown>;
    expect('filters' in plain).toBe(false);
  });

  it('XLSX: an "about" sheet first with the filters and the counts, then the places that pass (and their reviews)', async () => {
    const built = await build('xlsx', FILTER);
    const book = XLSX.read(new Uint8Array(await new Blob(built.parts).arrayBuffer()), { type: 'array' });
    expect(book.SheetNames).toEqual(['about', 'places', 'reviews']);
    const about = XLSX.utils.sheet_to_json<[string, string | number]>(book.Sheets.about!, { header: 1 });
    expect(about.slice(0, 3)).toEqual([
      ['filters', describeFilter(FILTER)],
      ['places', 2],
      ['places_read', 6],
    ]);
    const places = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.places!);
    expect(places.map((p) => p.name)).toEqual(PASSING);
    const reviews = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.reviews!);
    expect(reviews.map((r) => r.review_id)).toEqual(['r1']);

    const plain = XLSX.read(new Uint8Array(await new Blob((await build('xlsx')).parts).arrayBuffer()), { type: 'array' });
    expect(plain.SheetNames).toEqual(['places', 'reviews']);
  });

  it('Businesses stays unfiltered', async () => {
    const built = await build('businesses-csv', FILTER);
    expect(built.fileName).toBe('mapsweep_카페+businesses_2026-12-03.csv');
    expect(built.places).toBe(6);
  });

  it('a long export (the offscreen document) applies the filter its request carries', async () => {
    let blob: Blob | null = null;
    const reply = await buildInOffscreen(
      store,
      { collection: 's1', fileWords: ['카페'], format: 'csv', exportId: 'x1', now: NOW.getTime(), filter: FILTER } as Parameters<typeof buildInOffscreen>[1],
      () => {},
      (b) => {
        blob = b;
        return 'blob:x';
      },
    );
    expect(reply).toMatchObject({ ok: true, fileName: `mapsweep_카페_${SLUG}_2026-12-03.csv`, places: 2 });
    expect(csvNames(await blob!.text())).toEqual(PASSING);
  });
});

describe('the reviews export with filters', () => {
  it('only the reviews of the places that pass; JSON says which filters; the name carries the slug', async () => {
    const scope = { collection: 's1', fileWords: ['카페'], filter: FILTER };
    const csv = await buildReviewsExport(store, scope, 'csv', NOW);
    expect(csv.fileName).toBe(`mapsweep_카페+reviews_${SLUG}_2026-12-03.csv`);
    const rows = Papa.parse<Record<string, string>>((await text(csv.parts)).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => r.review_id)).toEqual(['r1']);

    const json = JSON.parse(await text((await buildReviewsExport(store, scope, 'json', NOW)).parts)) as { filters: string; reviews: { review_id: string }[] };
    expect(json.filters).toBe(describeFilter(FILTER));
    expect(json.reviews.map((r) => r.review_id)).toEqual(['r1']);

    const plain = JSON.parse(await text((await buildReviewsExport(store, { collection: 's1', fileWords: ['카페'] }, 'json', NOW)).parts)) as {
      review_id: string;
    }[];
    expect(plain.map((r) => r.review_id)).toEqual(['r1', 'r2', 'r4']);
  });
});

describe('countPassing', () => {
  it('counts a collection in batches: passing (unknown included) of the total', async () => {
    expect(await countPassing(store, 's1', FILTER, undefined, 2)).toEqual({ total: 6, passing: 2, unknown: 1 });
    expect(await countPassing(store, undefined, FILTER)).toEqual({ total: 6, passing: 2, unknown: 1 });
    expect(await countPassing(store, 'other', FILTER)).toEqual({ total: 0, passing: 0, unknown: 0 });
    expect(await countPassing(store, 's1', NO_FILTER)).toEqual({ total: 6, passing: 6, unknown: 0 });
  });
});
