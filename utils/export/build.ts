import type { ExportListing } from './columns';
import type { Store } from '../store';
import { contactsOf, hasContacts } from '../contacts/queue';
import { csvChunks, exportFileName } from './csv';
import { geoJsonChunks } from './geojson';
import { jsonChunks } from './json';
import { XLSX_TYPE, xlsxBytes } from './xlsx';

/**
 * One export, wherever it runs (an extension page, or the offscreen document for long ones):
 * the listings of a scope read from the store batch by batch and turned into the file's
 * parts. No DOM and no interface text here, so the same code serves the popup, the dashboard
 * and the background's offscreen document.
 */
export type ExportFormat = 'csv' | 'xlsx' | 'json' | 'geojson';

interface FormatSpec {
  /** Write the file's parts, built batch by batch from the listings read from the store, into `emit`. */
  write(batches: AsyncIterable<ExportListing[]>, emit: (part: BlobPart) => Promise<void>): Promise<void>;
  extension: string;
  type: string;
}

/** Text formats: each batch's text is one part, emitted as soon as it is made. */
const fromChunks = (chunks: (batches: AsyncIterable<ExportListing[]>) => AsyncGenerator<string>) => async (batches: AsyncIterable<ExportListing[]>, emit: (part: BlobPart) => Promise<void>) => {
  for await (const chunk of chunks(batches)) await emit(chunk);
};

const FORMATS: Record<ExportFormat, FormatSpec> = {
  csv: { write: fromChunks(csvChunks), extension: 'csv', type: 'text/csv;charset=utf-8' },
  xlsx: { write: async (batches, emit) => emit((await xlsxBytes(batches)) as Uint8Array<ArrayBuffer>), extension: 'xlsx', type: XLSX_TYPE },
  json: { write: fromChunks(jsonChunks), extension: 'json', type: 'application/json;charset=utf-8' },
  geojson: { write: fromChunks(geoJsonChunks), extension: 'geojson', type: 'application/geo+json;charset=utf-8' },
};

export const EXPORT_FORMATS = Object.keys(FORMATS) as ExportFormat[];

export function isExportFormat(v: unknown): v is ExportFormat {
  return typeof v === 'string' && v in FORMATS;
}

/**
 * What an export reads: one collection (a sweep's id or Browsing), or every place stored
 * (`collection` undefined), and the words its file is named after.
 */
export interface ExportScope {
  collection: string | undefined;
  fileWords: string[];
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

/**
 * The next batch's read is started before this one is handed on: the database reads (in
 * Chromium, IndexedDB's backend runs outside the page's thread) while the page turns the batch
 * into text, instead of the two taking turns. At most two batches are held, so memory still
 * does not grow with the collection.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | null = it.next();
  try {
    for (;;) {
      const result: IteratorResult<T> = await pending;
      pending = null;
      if (result.done) return;
      pending = it.next();
      yield result.value;
    }
  } finally {
    // The consumer stopped early (or failed): let the read under way settle, then close the source.
    if (pending) {
      const last = await pending.catch(() => null);
      if (last && !last.done) await it.return?.();
    }
  }
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
  let places = 0;
  // Most collections were never through the contacts pass: their export reads nothing more.
  const withContacts = await hasContacts(store);
  async function* counted(): AsyncGenerator<ExportListing[]> {
    for await (const batch of readAhead(store.iterateListings(batchSize, scope.collection))) {
      places += batch.length;
      onProgress?.(places, Math.max(total, places));
      if (!withContacts) {
        yield batch;
        continue;
      }
      const contacts = await contactsOf(store, batch);
      yield batch.map((l) => (contacts.has(l.key) ? { ...l, contacts: contacts.get(l.key) } : l));
    }
  }
  await spec.write(counted(), sink);
  return { fileName: exportFileName(scope.fileWords, now, spec.extension), type: spec.type, places };
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
