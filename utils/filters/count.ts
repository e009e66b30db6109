/**
 * How many stored places pass a filter: the popup's and the dashboard's "312 of 1,204 places
 * pass the filters", told before anything is spent. Read batch by batch through the store's
 * own iterator (each batch its own short transaction), so a 100,000-place collection is never
 * held at once; the store comes in as a parameter (this layer sits below it).
 */
import type { PlaceFilter } from '../config/settings';
import type { StoredListing } from '../domain/listing';
import { judgePlace, type FilterContext } from './decide';

/** What countPassing reads: `Store.iterateListings`. */
export interface ListingSource {
  iterateListings(batchSize: number, collection?: string): AsyncIterable<StoredListing[]>;
}

export interface PassingCount {
  /** Places in the scope. */
  total: number;
  /** Of them, the places that pass (unknown fields included: they are not failures). */
  passing: number;
  /** Of the passing, those with a field the filter asks about that nobody has read yet. */
  unknown: number;
}

/** Places read per transaction. */
export const COUNT_BATCH = 1000;

/** Count a collection's places (`collection` undefined: every place stored) against `filter`. */
export async function countPassing(
  store: ListingSource,
  collection: string | undefined,
  filter: PlaceFilter,
  ctx?: FilterContext,
  batchSize = COUNT_BATCH,
): Promise<PassingCount> {
  const out: PassingCount = { total: 0, passing: 0, unknown: 0 };
  for await (const batch of store.iterateListings(batchSize, collection)) {
    for (const l of batch) {
      out.total += 1;
      const verdict = judgePlace(l, filter, ctx).result;
      if (verdict === 'fail') continue;
      out.passing += 1;
      if (verdict === 'unknown') out.unknown += 1;
    }
  }
  return out;
}
