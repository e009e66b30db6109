/**
 * The rating distribution in the places export (issue 38): `rating_1` … `rating_5` right after
 * `reviews_collected` in every format (CSV, XLSX, JSON, GeoJSON), from the newest done review job
 * of the place's sweeps that kept one (utils/reviews/distribution.ts storedDistributions); empty
 * where none was read (a Naver place, a Google page without a histogram, a place never reviewed).
 */
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { RatingDistribution } from '../../utils/domain/review';
import type { StoredListing } from '../../utils/domain/listing';
import { buildExport, type ExportFormat } from '../../utils/export/build';
import { CSV_COLUMNS } from '../../utils/export/columns';
import { newReviewJob, withReviewQueueKey, type ReviewJob } from '../../utils/reviews/records';
import { openStore, type Store } from '../../utils/store';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const RATING_COLUMNS = ['rating_1', 'rating_2', 'rating_3', 'rating_4', 'rating_5'];

const stored = (cid: string, collections: string[], o: Partial<StoredListing> = {}): StoredListing => ({
  ...makeListing(cid),
  firstSeen: 1,
  lastSeen: 1,
  collections,
  keywords: [],
  cells: [],
  ...o,
});

function doneJob(sweepId: string, place: StoredListing, updatedAt: number, distribution?: RatingDistribution): ReviewJob {
  return {
    ...newReviewJob(sweepId, place, place.url, 1),
    status: 'done',
    result: { end: 'ended', read: 3, added: 3, sortedNewest: true, ...(distribution ? { distribution } : {}) },
    updatedAt,
  };
}

/**
 * google:1 in two sweeps (each read a histogram; s2's is the later), google:3 read without one,
 * naver:2 read (Naver shows no stars), google:4 never reviewed. No review text is stored at all:
 * a place whose reviews all fell outside the date limit still has its histogram.
 */
async function seeded(): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'distribution-export' });
  await store.createSweep(makeSweep('s1'), [makeCell('s1', 'r0c0')]);
  await store.createSweep(makeSweep('s2'), [makeCell('s2', 'r0c0')]);
  const g1 = stored('1', ['s1', 's2']);
  const n2 = stored('2', ['s1'], { key: 'naver:2', provider: 'naver', providerId: '2', cid: null, url: 'https://map.naver.com/p/entry/place/2' });
  const g3 = stored('3', ['s1']);
  const g4 = stored('4', ['s1']);
  await store.transact(['listings', 'reviewQueue'], 'readwrite', async (tx) => {
    for (const l of [g1, n2, g3, g4]) await tx.objectStore('listings').put(l);
    const queue = tx.objectStore('reviewQueue');
    await queue.put(withReviewQueueKey(doneJob('s1', g1, 10, [1, 2, 3, 4, 5])));
    await queue.put(withReviewQueueKey(doneJob('s2', g1, 20, [1, 2, 3, 4, 6])));
    await queue.put(withReviewQueueKey(doneJob('s1', n2, 30)));
    await queue.put(withReviewQueueKey(doneJob('s1', g3, 30)));
  });
  return store;
}

async function exported(store: Store, format: ExportFormat, collection?: string) {
  const built = await buildExport(store, { collection, fileWords: ['x'] }, format, new Date());
  return new Blob(built.parts);
}

describe('the rating distribution in the places export', () => {
  it('comes right after reviews_collected, appended at the end', () => {
    const at = CSV_COLUMNS.indexOf('reviews_collected');
    expect(CSV_COLUMNS.slice(at + 1)).toEqual(RATING_COLUMNS);
  });

  it('CSV: the newest histogram kept for each place, empty where none was read', async () => {
    const store = await seeded();
    const text = await (await exported(store, 'csv')).text();
    const rows = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    const byKey = Object.fromEntries(rows.map((r) => [`${r.provider}:${r.provider_id}`, RATING_COLUMNS.map((c) => r[c])]));
    expect(byKey).toEqual({
      'google:1': ['1', '2', '3', '4', '6'],
      'naver:2': ['', '', '', '', ''],
      'google:3': ['', '', '', '', ''],
      'google:4': ['', '', '', '', ''],
    });
    // One sweep's export reads the place's newest histogram too: the place is the same place.
    const s1 = await (await exported(store, 'csv', 's1')).text();
    expect(s1).toContain(',1,2,3,4,6\r\n');
    store.close();
  });

  it('XLSX: numbers; JSON and GeoJSON: numbers, null where none was read', async () => {
    const store = await seeded();
    const book = XLSX.read(new Uint8Array(await (await exported(store, 'xlsx')).arrayBuffer()), { type: 'array' });
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.places!);
    const g1 = sheet.find((r) => r.provider_id === '1')!;
    expect(RATING_COLUMNS.map((c) => g1[c])).toEqual([1, 2, 3, 4, 6]);
    expect(RATING_COLUMNS.map((c) => sheet.find((r) => r.provider_id === '2')![c])).toEqual([undefined, undefined, undefined, undefined, undefined]);

    const json = JSON.parse(await (await exported(store, 'json')).text()) as Record<string, unknown>[];
    expect(RATING_COLUMNS.map((c) => json.find((r) => r.provider_id === '1')![c])).toEqual([1, 2, 3, 4, 6]);
    expect(RATING_COLUMNS.map((c) => json.find((r) => r.provider_id === '2')![c])).toEqual([null, null, null, null, null]);

    const geo = JSON.parse(await (await exported(store, 'geojson')).text()) as { features: { id: string; properties: Record<string, unknown> }[] };
    const feature = geo.features.find((f) => f.id === 'google:1')!;
    expect(RATING_COLUMNS.map((c) => feature.properties[c])).toEqual([1, 2, 3, 4, 6]);
    expect(Object.keys(feature.properties).slice(-6)).toEqual(['reviews_collected', ...RATING_COLUMNS]);
    store.close();
  });

  it('a store where no sweep ever queued reviews exports the columns empty', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'distribution-none' });
    await store.createSweep(makeSweep('s1'), [makeCell('s1', 'r0c0')]);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      await tx.objectStore('listings').put(stored('1', ['s1']));
    });
    const json = JSON.parse(await (await exported(store, 'json')).text()) as Record<string, unknown>[];
    expect(RATING_COLUMNS.map((c) => json[0]![c])).toEqual([null, null, null, null, null]);
    store.close();
  });
});
