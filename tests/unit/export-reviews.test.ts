/**
 * The reviews export (utils/export/reviews.ts): one row per review of the places in scope,
 * hostile text intact and neutralised as every CSV cell is, Korean intact behind the BOM.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Review } from '../../utils/domain/review';
import { REVIEW_COLUMNS, reviewsCsvChunks } from '../../utils/export/reviews';
import { buildExport } from '../../utils/export/build';
import { openStore } from '../../utils/store';
import { makeReview } from '../helpers/store-records';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const review = (placeKey: string, id: string, o: Partial<Review> = {}): Review =>
  makeReview(placeKey, id, { date: { said: '3주 전', iso: '2026-01-01', precision: 'week' }, ...o });

describe('the reviews CSV', () => {
  it('one row per review of the scope, hostile texts intact and neutralised', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'rx' });
    await store.createSweep(makeSweep('s1'), [makeCell('s1', 'r0c0')]);
    const stored = (cid: string, collections: string[]) => ({
      ...makeListing(cid, { name: `카페 ${cid}` }),
      firstSeen: 1,
      lastSeen: 1,
      collections,
      keywords: [],
      cells: [],
    });
    const hostile = '=HYPERLINK("http://x","y")\n<img src=x onerror=alert(1)>\u202E 👍 "quoted", done';
    await store.transact(['listings', 'reviews'], 'readwrite', async (tx) => {
      await tx.objectStore('listings').put(stored('1', ['s1']));
      await tx.objectStore('listings').put(stored('2', ['other']));
      await tx.objectStore('reviews').put(review('google:1', 'a', { text: hostile, ownerReply: { text: '+1 감사합니다', date: null } }));
      await tx.objectStore('reviews').put(review('google:1', 'b', { text: 'x'.repeat(10_000), date: null }));
      await tx.objectStore('reviews').put(review('google:2', 'c'));
    });
    let csv = '';
    for await (const chunk of reviewsCsvChunks(store, 's1')) csv += chunk;
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<Record<string, string>>(csv.slice(1), { header: true, skipEmptyLines: true }).data;
    expect(Object.keys(rows[0]!)).toEqual([...REVIEW_COLUMNS]);
    expect(rows.map((r) => r.review_id)).toEqual(['a', 'b']);
    expect(rows[0]).toMatchObject({
      place_name: '카페 1',
      text: `'${hostile}`,
      owner_reply: "'+1 감사합니다",
      date: '2026-01-01',
      date_precision: 'week',
      date_as_shown: '3주 전',
    });
    expect(rows[1]!.text).toHaveLength(10_000);

    // The places export says how many reviews each place has stored; none: empty.
    const built = await buildExport(store, { collection: undefined, fileWords: ['x'] }, 'csv', new Date());
    const places = Papa.parse<Record<string, string>>((await new Blob(built.parts).text()).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(Object.fromEntries(places.map((p) => [p.cid, p.reviews_collected]))).toEqual({ '1': '2', '2': '1' });

    // The workbook has the reviews on a sheet of their own, texts as string cells (never formulas).
    const XLSX = await import('@e965/xlsx');
    const xlsx = await buildExport(store, { collection: undefined, fileWords: ['x'] }, 'xlsx', new Date());
    const book = XLSX.read(new Uint8Array(await new Blob(xlsx.parts).arrayBuffer()), { type: 'array' });
    expect(book.SheetNames).toEqual(['places', 'reviews']);
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.reviews!);
    expect(sheet.map((r) => r.review_id)).toEqual(['a', 'b', 'c']);
    expect(sheet[0]!.text).toBe(hostile);
    expect(book.Sheets.reviews!.J2).toMatchObject({ t: 's' });
    store.close();
  });
});
