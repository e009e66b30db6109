/**
 * The reviews export (issue 38): one row per review of the places in scope, as CSV with the same
 * rules as the places (BOM for Excel, formula cells neutralised, quoting: review text is page
 * content and hostile), as the workbook's reviews sheet, or as JSON. Read batch by batch: a
 * collection's places, then each batch's reviews.
 */
import type { Review } from '../domain/review';
import type { StoredListing } from '../domain/listing';
import type { Store } from '../store';
import type { ExportCell } from './cells';
import type { PlaceFilter } from '../config/settings';
import { csvField, csvText, exportFileName, UTF8_BOM } from './csv';
import { activeFilter, type ActiveFilter } from './filtered';
import { jsonArrayChunks, jsonWithFilters } from './json';

/** New columns are only ever appended. */
export const REVIEW_COLUMNS = [
  'place_key',
  'site',
  'place_name',
  'review_id',
  'id_from_site',
  'rating',
  'date',
  'date_precision',
  'date_as_shown',
  'text',
  'translation',
  'language',
  'owner_reply',
  'owner_reply_date',
  'photos',
  'author',
  'read_at',
] as const;

export type ReviewColumn = (typeof REVIEW_COLUMNS)[number];

/**
 * One review as the exports carry it, keyed by REVIEW_COLUMNS: JSON's own types (the id's origin
 * a boolean, stars and photos numbers, null where nothing is known), text exactly as the page
 * showed it. The CSV and the workbook write the same values as cells (`reviewCells`).
 */
export interface ReviewExportRecord extends Record<ReviewColumn, string | number | boolean | null> {
  id_from_site: boolean;
  rating: number | null;
  photos: number;
}

const NEWLINE = '\r\n';

export function reviewRecord(r: Review, place: StoredListing | undefined): ReviewExportRecord {
  return {
    place_key: r.placeKey,
    site: r.provider,
    place_name: place?.name ?? null,
    review_id: r.reviewId,
    id_from_site: r.idFromSite,
    rating: r.rating,
    date: r.date?.iso ?? null,
    date_precision: r.date?.precision ?? null,
    date_as_shown: r.date?.said ?? null,
    text: r.text,
    translation: r.translation,
    language: r.lang,
    owner_reply: r.ownerReply?.text ?? null,
    owner_reply_date: r.ownerReply?.date?.iso ?? null,
    photos: r.photos,
    author: r.author,
    read_at: new Date(r.readAt).toISOString(),
  };
}

/** A record's cells in REVIEW_COLUMNS order, as the spreadsheets have them (`yes`/`no` for the flag). */
function reviewCells(record: ReviewExportRecord): ExportCell[] {
  return REVIEW_COLUMNS.map((c) => {
    const v = record[c];
    return typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;
  });
}

/** Whether any review is stored: most stores have none, and their exports read nothing more. */
export async function hasReviews(store: Store): Promise<boolean> {
  return store.transact(['reviews'], 'readonly', async (tx) => (await tx.objectStore('reviews').count()) > 0);
}

/** How many reviews are stored for each of these places (the places export's `reviews_collected`). */
export async function reviewCountsOf(store: Store, keys: readonly string[]): Promise<Map<string, number>> {
  return store.transact(['reviews'], 'readonly', async (tx) => {
    const index = tx.objectStore('reviews').index('byPlace');
    const counts = await Promise.all(keys.map((k) => index.count(k)));
    return new Map(keys.map((k, i) => [k, counts[i]!] as const).filter(([, n]) => n > 0));
  });
}

/** A place's reviews, newest first (undated last). */
async function reviewsOf(store: Store, keys: readonly string[]): Promise<Map<string, Review[]>> {
  const out = new Map<string, Review[]>();
  await store.transact(['reviews'], 'readonly', async (tx) => {
    const index = tx.objectStore('reviews').index('byPlace');
    for (const key of keys) {
      const rows = await index.getAll(key);
      if (rows.length > 0)
        out.set(
          key,
          rows.sort((a, b) => (b.date?.iso ?? '').localeCompare(a.date?.iso ?? '')),
        );
    }
  });
  return out;
}

/**
 * The scope's reviews as records, one batch per batch of places (`collection`: a sweep id,
 * 'browsing', or every place); with a filter, only the reviews of the places that pass it.
 */
export async function* reviewRecordBatches(store: Store, collection?: string, filter?: ActiveFilter | null): AsyncGenerator<ReviewExportRecord[]> {
  for await (const read of store.iterateListings(500, collection)) {
    const batch = filter ? read.filter(filter.keep) : read;
    if (batch.length === 0) continue;
    const byPlace = await reviewsOf(
      store,
      batch.map((l) => l.key),
    );
    const records = batch.flatMap((place) => (byPlace.get(place.key) ?? []).map((r) => reviewRecord(r, place)));
    if (records.length > 0) yield records;
  }
}

/** The scope's reviews as rows in REVIEW_COLUMNS order (the CSV and the workbook's sheet). */
export async function* reviewRowBatches(store: Store, collection?: string, filter?: ActiveFilter | null): AsyncGenerator<ExportCell[][]> {
  for await (const records of reviewRecordBatches(store, collection, filter)) yield records.map(reviewCells);
}

/** The CSV as text chunks, one per batch of places. */
export async function* reviewsCsvChunks(store: Store, collection?: string, filter?: ActiveFilter | null): AsyncGenerator<string> {
  yield UTF8_BOM + REVIEW_COLUMNS.map(csvText).join(',') + NEWLINE;
  for await (const rows of reviewRowBatches(store, collection, filter)) yield rows.map((row) => row.map(csvField).join(',') + NEWLINE).join('');
}

/**
 * The same reviews as one JSON array of records (the places JSON's form: no header object, the
 * columns' names as keys); filtered, `{"filters": "…", "reviews": [ … ]}` as the places JSON is.
 * No formula neutralisation: JSON is not opened by spreadsheets, and a script must get back the
 * very text the page showed.
 */
export function reviewsJsonChunks(store: Store, collection?: string, filter?: ActiveFilter | null): AsyncGenerator<string> {
  const array = jsonArrayChunks(reviewRecordBatches(store, collection, filter), (record) => record);
  return filter ? jsonWithFilters(filter.description, 'reviews', array) : array;
}

export type ReviewsFormat = 'csv' | 'json';

const REVIEWS_FORMATS: Record<
  ReviewsFormat,
  { chunks: (store: Store, collection?: string, filter?: ActiveFilter | null) => AsyncGenerator<string>; extension: string; type: string }
> = {
  csv: { chunks: reviewsCsvChunks, extension: 'csv', type: 'text/csv;charset=utf-8' },
  json: { chunks: reviewsJsonChunks, extension: 'json', type: 'application/json;charset=utf-8' },
};

/**
 * A scope's reviews file, for any page that saves it (the popup's reviews panel, the dashboard):
 * `mapsweep_cafe+reviews_2026-12-01.json`. Each text chunk becomes a Blob at once, as the places
 * export's do (build.ts): the page holds one batch as strings, never the whole file. With the
 * filter of the moment (`scope.filter`), the reviews of the places that pass, the name ending
 * with the filter's slug.
 */
export async function buildReviewsExport(
  store: Store,
  scope: { collection: string | undefined; fileWords: readonly string[]; filter?: PlaceFilter },
  format: ReviewsFormat,
  now: Date,
): Promise<{ parts: BlobPart[]; fileName: string; type: string }> {
  const spec = REVIEWS_FORMATS[format];
  const filter = activeFilter(scope.filter);
  const parts: BlobPart[] = [];
  for await (const chunk of spec.chunks(store, scope.collection, filter)) parts.push(new Blob([chunk]));
  return { parts, fileName: exportFileName([...scope.fileWords, 'reviews'], now, spec.extension, filter?.slug), type: spec.type };
}
