import type { StoredListing } from '../../utils/listing/types';
import type { CollectionSummary } from '../../utils/dashboard/collections';
import { coverageReportCsv } from '../../utils/export/coverage-report';
import { csvChunks, exportFileName } from '../../utils/export/csv';
import { geoJsonChunks } from '../../utils/export/geojson';
import { jsonChunks } from '../../utils/export/json';
import { XLSX_TYPE, xlsxBytes } from '../../utils/export/xlsx';
import type { Store } from '../../utils/store';
import type { Sweep } from '../../utils/sweep/types';
import { t } from '../../utils/i18n/t';
import { downloadChunks, downloadParts } from '../download';

/**
 * What a failed export tells the user (popup and dashboard): it failed, nothing was
 * downloaded, and why. Never a silent click.
 */
export function exportFailureText(e: unknown): string {
  const reason = e instanceof Error ? e.message : String(e);
  return t('exportFailed', reason) || `The export failed, nothing was downloaded: ${reason}`;
}

/** An export that failed; its message is already the user's text (exportFailureText). */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  constructor(cause: unknown) {
    super(exportFailureText(cause), { cause });
  }
}

/** Run an export; any failure comes out as an ExportError with the user's message. */
async function exporting(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    throw e instanceof ExportError ? e : new ExportError(e);
  }
}

export type ExportFormat = 'csv' | 'xlsx' | 'json' | 'geojson';

interface FormatSpec {
  /** The file's parts, built batch by batch from the listings read from the store. */
  parts(batches: AsyncIterable<StoredListing[]>): Promise<BlobPart[]>;
  extension: string;
  type: string;
}

const fromChunks = (chunks: (batches: AsyncIterable<StoredListing[]>) => AsyncGenerator<string>) => async (batches: AsyncIterable<StoredListing[]>) => {
  const parts: BlobPart[] = [];
  for await (const chunk of chunks(batches)) parts.push(chunk);
  return parts;
};

const FORMATS: Record<ExportFormat, FormatSpec> = {
  csv: { parts: fromChunks(csvChunks), extension: 'csv', type: 'text/csv;charset=utf-8' },
  xlsx: { parts: async (batches) => [(await xlsxBytes(batches)) as Uint8Array<ArrayBuffer>], extension: 'xlsx', type: XLSX_TYPE },
  json: { parts: fromChunks(jsonChunks), extension: 'json', type: 'application/json;charset=utf-8' },
  geojson: { parts: fromChunks(geoJsonChunks), extension: 'geojson', type: 'application/geo+json;charset=utf-8' },
};

export const EXPORT_FORMATS = Object.keys(FORMATS) as ExportFormat[];

/**
 * What an export reads: one collection (a sweep's id or Browsing), or every place stored
 * (`collection` undefined), and the words its file is named after.
 */
export interface ExportScope {
  collection: string | undefined;
  fileWords: string[];
}

export const ALL_PLACES_WORDS = ['all-places'];

export function scopeOf(collection: CollectionSummary): ExportScope {
  return { collection: collection.id, fileWords: collection.kind === 'sweep' ? collection.sweep.keywords : [collection.id] };
}

/** Places read so far, of how many (the count taken when the export started). */
export type ExportProgress = (done: number, total: number) => void;

/** The listings of a scope, batch by batch, counting what has been read. */
async function* counted(store: Store, scope: ExportScope, total: number, onProgress?: ExportProgress): AsyncGenerator<StoredListing[]> {
  let done = 0;
  for await (const batch of store.iterateListings(EXPORT_BATCH, scope.collection)) {
    done += batch.length;
    onProgress?.(done, Math.max(total, done));
    yield batch;
  }
}

/** Listings read per store transaction. */
export const EXPORT_BATCH = 1000;

export interface BuiltExport {
  parts: BlobPart[];
  fileName: string;
  type: string;
  places: number;
}

/** Read a scope out of the store in the chosen format: the file's parts, name and type. */
export async function buildExport(store: Store, scope: ExportScope, format: ExportFormat, now: Date, onProgress?: ExportProgress): Promise<BuiltExport> {
  const spec = FORMATS[format];
  const total = await store.countListings(scope.collection);
  onProgress?.(0, total);
  let places = 0;
  const parts = await spec.parts(
    (async function* () {
      for await (const batch of counted(store, scope, total, onProgress)) {
        places += batch.length;
        yield batch;
      }
    })(),
  );
  return { parts, fileName: exportFileName(scope.fileWords, now, spec.extension), type: spec.type, places };
}

/** Export a scope and hand it to the browser as a file; any failure is an ExportError with the user's text. */
export function exportScope(store: Store, scope: ExportScope, format: ExportFormat, now: Date, onProgress?: ExportProgress): Promise<void> {
  return exporting(async () => {
    const built = await buildExport(store, scope, format, now, onProgress);
    downloadParts(built.parts, built.fileName, built.type);
  });
}

/** Stream one collection out of the store in the chosen format and hand it to the browser as a file. */
export function exportCollection(store: Store, collection: CollectionSummary, format: ExportFormat, now: Date, onProgress?: ExportProgress): Promise<void> {
  return exportScope(store, scopeOf(collection), format, now, onProgress);
}

/**
 * The sweep's coverage report (one row per cell: its verdict and what its search showed),
 * read from the store at the moment of the click: `mapsweep_cafe_2026-11-30.coverage.csv`.
 */
export function exportCoverageReport(store: Store, sweep: Sweep, now: Date): Promise<void> {
  return exporting(async () => {
    const cells = await store.listCells(sweep.id);
    downloadChunks([coverageReportCsv(cells)], exportFileName(sweep.keywords, now, 'coverage.csv'), 'text/csv;charset=utf-8');
  });
}
