import type { StoredListing } from '../listing/types';
import { listingToRow, type ExportRow } from './columns';

/**
 * One place as JSON and GeoJSON exports carry it: the CSV's stable English identifiers, so a
 * script written against one format reads the others, with JSON's own types where CSV has
 * none (keywords stay a list). No formula neutralisation: JSON is not opened by spreadsheets,
 * and a JSON consumer must get back exactly the text the page showed.
 */
export type ExportRecord = Omit<ExportRow, 'keywords'> & { keywords: string[] };

export function listingToRecord(listing: StoredListing): ExportRecord {
  return { ...listingToRow(listing), keywords: [...listing.keywords] };
}

/**
 * A JSON array of export records, as a stream of text chunks, one per batch of listings read
 * from the store (like csvChunks): a 100,000-place export never holds the store twice.
 */
export async function* jsonChunks(batches: AsyncIterable<StoredListing[]>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const items = batch.map((listing) => JSON.stringify(listingToRecord(listing))).join(',\n');
    yield (first ? '\n' : ',\n') + items;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
