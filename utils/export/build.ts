import type { ExportListing } from './columns';
import type { Store } from '../store';
import { contactsOf, hasContacts, sharedContactValues } from '../contacts/read';
import { withoutShared } from '../contacts/shared-values';
import { businessesByPlace, hasBusinesses } from '../match/read';
import { businessCsvChunks, businessJsonChunks, businessRowBatches, type BusinessRow } from './businesses';
import { csvChunks, exportFileName } from './csv';
import { geoJsonChunks } from './geojson';
import { jsonChunks } from './json';
import { XLSX_TYPE, xlsxBytes } from './xlsx';
import { readAhead } from './read-ahead';
import { hasReviews, reviewCountsOf, reviewRowBatches } from './reviews';
import { hasReviewJobs, storedDistributions } from '../reviews/distribution';
import type { ExportCell } from './cells';
import type { PlaceFilter } from '../config/settings';
import { activeFilter, type ActiveFilter } from './filtered';

export { readAhead };

/**
 * One export, wherever it runs (an extension page, or the offscreen document for long ones):
 * the listings of a scope read from the store batch by batch and turned into the file's
 * parts. No DOM and no interface text here, so the same code serves the popup, the dashboard
 * and the background's offscreen document.
 */
export type ExportFormat = 'csv' | 'xlsx' | 'json' | 'geojson' | 'businesses-csv' | 'businesses-json';

/** What a format is written from: the scope's places, and its Businesses rows (read on demand: only the formats that want them pay for them). */
interface ExportSource {
  places: AsyncIterable<ExportListing[]>;
  businesses(): AsyncIterable<BusinessRow[]>;
  /** Whether a linking run has linked any places: until then every place is a business of one, and the workbook has no Businesses sheet. */
  linked: boolean;
  /** The scope's reviews as rows (REVIEW_COLUMNS), read after the places; absent when none is stored. */
  reviews: (() => AsyncIterable<ExportCell[][]>) | null;
  /** The filter that cuts the places (and the reviews), or null for none. */
  filter: ActiveFilter | null;
  /** Places read and places written so far (a filter keeps some of those read). */
  counts(): { read: number; written: number };
}

interface FormatSpec {
  /** Write the file's parts, built batch by batch from what is read from the store, into `emit`. */
  write(source: ExportSource, emit: (part: BlobPart) => Promise<void>): Promise<void>;
  extension: string;
  type: string;
  /** The words the file's name ends with before the date (`businesses` for the Businesses export). */
  fileWord?: string;
}

/** Text formats: each batch's text is one part, emitted as soon as it is made (`filters`: the filter's line, for the formats that carry it). */
const fromChunks =
  <T>(rows: (s: ExportSource) => AsyncIterable<T[]>, chunks: (batches: AsyncIterable<T[]>, filters: string | null) => AsyncGenerator<string>) =>
  async (source: ExportSource, emit: (part: BlobPart) => Promise<void>) => {
    for await (const chunk of chunks(rows(source), source.filter?.description ?? null)) await emit(chunk);
  };

/** A filtered workbook's first sheet: its filters, what they kept of what was read, what they did not cut. */
function aboutRows(s: ExportSource): [string, string | number][] {
  if (!s.filter) return [];
  const { read, written } = s.counts();
  return [
    ['filters', s.filter.description],
    ['places', written],
    ['places_read', read],
    ['rule', 'a place is left out only for a field known to fail; fields not read yet never drop it'],
    ...(s.linked ? [['businesses', 'not filtered'] as [string, string]] : []),
    ...(s.reviews ? [['reviews', 'of the places that pass'] as [string, string]] : []),
  ];
}
const places = (s: ExportSource) => s.places;
const businesses = (s: ExportSource) => s.businesses();

const FORMATS: Record<ExportFormat, FormatSpec> = {
  csv: { write: fromChunks(places, (b) => csvChunks(b)), extension: 'csv', type: 'text/csv;charset=utf-8' },
  // The workbook has the places and, once places were linked, their businesses on a second sheet,
  // and once reviews were read, the reviews on a sheet of their own.
  xlsx: {
    write: async (s, emit) =>
      emit(
        (await xlsxBytes(
          s.places,
          undefined,
          s.linked ? s.businesses() : undefined,
          s.reviews ? s.reviews() : undefined,
          s.filter ? () => aboutRows(s) : undefined,
        )) as Uint8Array<ArrayBuffer>,
      ),
    extension: 'xlsx',
    type: XLSX_TYPE,
  },
  json: { write: fromChunks(places, jsonChunks), extension: 'json', type: 'application/json;charset=utf-8' },
  geojson: { write: fromChunks(places, geoJsonChunks), extension: 'geojson', type: 'application/geo+json;charset=utf-8' },
  // Not filtered (ExportScope.filter): a business joins places of several sites and sweeps.
  'businesses-csv': { write: fromChunks(businesses, (b) => businessCsvChunks(b)), extension: 'csv', type: 'text/csv;charset=utf-8', fileWord: 'businesses' },
  'businesses-json': {
    write: fromChunks(businesses, (b) => businessJsonChunks(b)),
    extension: 'json',
    type: 'application/json;charset=utf-8',
    fileWord: 'businesses',
  },
};

export const EXPORT_FORMATS = Object.keys(FORMATS) as ExportFormat[];

export function isExportFormat(v: unknown): v is ExportFormat {
  return typeof v === 'string' && v in FORMATS;
}

/**
 * What an export reads: one collection (a sweep's id or Browsing), or every place stored
 * (`collection` undefined), and the words its file is named after; with `filter` (the options'
 * filters at the moment of the export, issue 40), only the places that pass it, and the file says
 * which filters made it. The Businesses formats ignore it.
 */
export interface ExportScope {
  collection: string | undefined;
  fileWords: string[];
  filter?: PlaceFilter;
}

export const ALL_PLACES_WORDS = ['all-places'];

/** Places read so far, of how many (the count taken when the export started). */
export type ExportProgress = (done: number, total: number) => void;

/** Listings read per store transaction. */
export const EXPORT_BATCH = 1000;

export interface BuiltExport {
  parts: BlobPart[];
  fileName: string;
  type: string;
  places: number;
}

/** Where an export's parts go as they are made: a file being written, or a list of Blobs. */
export type ExportSink = (part: BlobPart) => Promise<void>;

/**
 * Read a scope out of the store in the chosen format, each part handed to `sink` as soon as it
 * is made (so a sink that writes to disk holds one batch at a time); the file's name and type.
 */
export async function writeExport(
  store: Store,
  scope: ExportScope,
  format: ExportFormat,
  now: Date,
  sink: ExportSink,
  onProgress?: ExportProgress,
  /** Listings per store read; tests pass a small one to cover many batches with few places. */
  batchSize = EXPORT_BATCH,
): Promise<Omit<BuiltExport, 'parts'>> {
  const spec = FORMATS[format];
  const total = await store.countListings(scope.collection);
  onProgress?.(0, total);
  // Places written (the file's rows; for Businesses, the places its rows were read from) and read.
  let places = 0;
  let read = 0;
  const filter = spec.fileWord ? null : activeFilter(scope.filter);
  // Most collections were never through the contacts pass or a linking run: their export reads nothing more.
  const withContacts = await hasContacts(store);
  // What many unrelated businesses' sites show (a builder's footer address): nobody's own, left out.
  const shared = withContacts ? await sharedContactValues(store) : null;
  const linked = await hasBusinesses(store);
  // One snapshot of the businesses for the whole file (read.ts): a run committing mid-export
  // never gives two places of one business two ids.
  const groups = linked ? await businessesByPlace(store) : null;
  const reviewed = await hasReviews(store);
  // A histogram may be kept for a place whose reviews all fell outside the date limit: asked of the jobs, not the reviews.
  const queuedReviews = await hasReviewJobs(store);
  async function* counted(): AsyncGenerator<ExportListing[]> {
    for await (const all of readAhead(store.iterateListings(batchSize, scope.collection))) {
      read += all.length;
      onProgress?.(read, Math.max(total, read));
      const batch = filter ? all.filter(filter.keep) : all;
      places += batch.length;
      if (batch.length === 0) continue;
      const contacts = withContacts ? await contactsOf(store, batch) : null;
      const reviews = reviewed
        ? await reviewCountsOf(
            store,
            batch.map((l) => l.key),
          )
        : null;
      const histograms = queuedReviews ? await storedDistributions(store, batch) : null;
      if (!contacts && !groups && !reviews?.size && !histograms?.size) {
        yield batch;
        continue;
      }
      yield batch.map((l) => {
        const business = groups?.get(l.key);
        const found = contacts?.get(l.key);
        const site = found?.findings && shared ? { ...found, findings: withoutShared(found.findings, shared) } : found;
        const collected = reviews?.get(l.key);
        const histogram = histograms?.get(l.key);
        return site || business || collected || histogram
          ? {
              ...l,
              ...(site ? { contacts: site } : {}),
              ...(business ? { businessId: business.id } : {}),
              ...(collected ? { reviewsCollected: collected } : {}),
              ...(histogram ? { ratingDistribution: histogram } : {}),
            }
          : l;
      });
    }
  }
  // The Businesses export counts the places it reads as the place export does; the workbook's
  // second sheet does not count them again (its places were counted by the first).
  const businessRows = () =>
    businessRowBatches(
      store,
      scope.collection,
      batchSize,
      spec.fileWord
        ? (n) => {
            places = n;
            onProgress?.(n, Math.max(total, n));
          }
        : undefined,
      groups ?? undefined,
    );
  await spec.write(
    {
      places: counted(),
      businesses: businessRows,
      linked,
      reviews: reviewed ? () => reviewRowBatches(store, scope.collection, filter) : null,
      filter,
      counts: () => ({ read, written: places }),
    },
    sink,
  );
  const words = spec.fileWord ? [...scope.fileWords, spec.fileWord] : scope.fileWords;
  return { fileName: exportFileName(words, now, spec.extension, filter?.slug), type: spec.type, places };
}

/**
 * Read a scope out of the store in the chosen format: the file's parts, name and type. Each
 * text part becomes a Blob at once: the browser keeps Blob data out of the page's heap, so the
 * page never holds the whole file as strings, only a batch.
 */
export async function buildExport(store: Store, scope: ExportScope, format: ExportFormat, now: Date, onProgress?: ExportProgress): Promise<BuiltExport> {
  const parts: BlobPart[] = [];
  const built = await writeExport(store, scope, format, now, async (part) => void parts.push(typeof part === 'string' ? new Blob([part]) : part), onProgress);
  return { parts, ...built };
}
