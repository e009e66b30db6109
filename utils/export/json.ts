import type { DayHours } from '../domain/listing';
import { listingToRow, otherPhonesOf, type ExportListing, type ExportRow } from './columns';

/**
 * One place as JSON and GeoJSON exports carry it: the CSV's stable English identifiers, so a
 * script written against one format reads the others, with JSON's own types where CSV has
 * none (keywords stay a list). No formula neutralisation: JSON is not opened by spreadsheets,
 * and a JSON consumer must get back exactly the text the page showed.
 */
export type ExportRecord = Omit<ExportRow, 'keywords' | 'categories' | 'other_phones' | 'opening_hours' | 'emails'> & {
  keywords: string[];
  categories: string[];
  other_phones: string[];
  /** The business's e-mail addresses from its own website (the contacts pass). */
  emails: string[];
  /** The structured week (Listing.openingHours), or null. */
  opening_hours: DayHours[] | null;
};

export function listingToRecord(listing: ExportListing): ExportRecord {
  return {
    ...listingToRow(listing),
    keywords: [...listing.keywords],
    categories: [...(listing.categories ?? (listing.category ? [listing.category] : []))],
    other_phones: otherPhonesOf(listing),
    emails: (listing.contacts?.findings?.emails ?? []).map((e) => e.value),
    opening_hours: listing.openingHours ? listing.openingHours.map((d) => ({ ...d, intervals: d.intervals.map((i) => ({ ...i })) })) : null,
  };
}

/**
 * A JSON array of export records, as a stream of text chunks, one per batch of listings read
 * from the store (like csvChunks): a 100,000-place export never holds the store twice. A filtered
 * export (`filters`: utils/filters describeFilter) is `{"filters": "…", "places": [ … ]}` instead.
 */
export function jsonChunks(batches: AsyncIterable<ExportListing[]>, filters?: string | null): AsyncGenerator<string> {
  const array = jsonArrayChunks(batches, listingToRecord);
  return filters ? jsonWithFilters(filters, 'places', array) : array;
}

/**
 * An array's chunks wrapped in an object that names the filters that made it:
 * `{"filters": "rating ≥ 4", "<member>": [ … ]}` (the places and the reviews exports).
 */
export async function* jsonWithFilters(filters: string, member: string, array: AsyncIterable<string>): AsyncGenerator<string> {
  yield `{"filters":${JSON.stringify(filters)},${JSON.stringify(member)}:`;
  yield* array;
  yield '}\n';
}

/**
 * Any export's rows as one JSON array, streamed: one text chunk per non-empty batch, each item
 * on a line of its own, so the file is the same whatever the batch size. Every JSON export
 * (places, businesses, reviews) is written by this one writer.
 */
export async function* jsonArrayChunks<T>(batches: AsyncIterable<T[]>, toJson: (item: T) => unknown): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const items = batch.map((item) => JSON.stringify(toJson(item))).join(',\n');
    yield (first ? '\n' : ',\n') + items;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
