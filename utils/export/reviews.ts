/**
 * The reviews export (issue 38): one row per review of the places in scope, with the same CSV
 * rules as the places (BOM for Excel, formula cells neutralised, quoting): review text is page
 * content and hostile. Read batch by batch: a collection's places, then each batch's reviews.
 */
import type { Review } from '../domain/review';
import type { StoredListing } from '../domain/listing';
import type { Store } from '../store';
import type { ExportCell } from './cells';
import { csvField, csvText, UTF8_BOM } from './csv';

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

const NEWLINE = '\r\n';

function rowOf(r: Review, place: StoredListing | undefined): ExportCell[] {
  return [
    r.placeKey,
    r.provider,
    place?.name ?? null,
    r.reviewId,
    r.idFromSite ? 'yes' : 'no',
    r.rating,
    r.date?.iso ?? null,
    r.date?.precision ?? null,
    r.date?.said ?? null,
    r.text,
    r.translation,
    r.lang,
    r.ownerReply?.text ?? null,
    r.ownerReply?.date?.iso ?? null,
    r.photos,
    r.author,
    new Date(r.readAt).toISOString(),
  ];
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

/** The scope's reviews as rows in REVIEW_COLUMNS order, one batch per batch of places (`collection`: a sweep id, 'browsing', or every place). */
export async function* reviewRowBatches(store: Store, collection?: string): AsyncGenerator<ExportCell[][]> {
  for await (const batch of store.iterateListings(500, collection)) {
    const byPlace = await reviewsOf(
      store,
      batch.map((l) => l.key),
    );
    const rows = batch.flatMap((place) => (byPlace.get(place.key) ?? []).map((r) => rowOf(r, place)));
    if (rows.length > 0) yield rows;
  }
}

/** The CSV as text chunks, one per batch of places. */
export async function* reviewsCsvChunks(store: Store, collection?: string): AsyncGenerator<string> {
  yield UTF8_BOM + REVIEW_COLUMNS.map(csvText).join(',') + NEWLINE;
  for await (const rows of reviewRowBatches(store, collection)) yield rows.map((row) => row.map(csvField).join(',') + NEWLINE).join('');
}
