import type { StoredListing } from '../../utils/listing/types';
import type { CollectionSummary } from '../../utils/dashboard/collections';
import { coverageReportCsv } from '../../utils/export/coverage-report';
import { csvChunks, exportFileName } from '../../utils/export/csv';
import { geoJsonChunks } from '../../utils/export/geojson';
import { jsonChunks } from '../../utils/export/json';
import type { Store } from '../../utils/store';
import type { Sweep } from '../../utils/sweep/types';
import { t } from '../../utils/i18n/t';
import { downloadChunks } from '../download';

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

export type ExportFormat = 'csv' | 'json' | 'geojson';

interface FormatSpec {
  chunks(batches: AsyncIterable<StoredListing[]>): AsyncGenerator<string>;
  extension: string;
  type: string;
}

const FORMATS: Record<ExportFormat, FormatSpec> = {
  csv: { chunks: csvChunks, extension: 'csv', type: 'text/csv;charset=utf-8' },
  json: { chunks: jsonChunks, extension: 'json', type: 'application/json;charset=utf-8' },
  geojson: { chunks: geoJsonChunks, extension: 'geojson', type: 'application/geo+json;charset=utf-8' },
};

export const EXPORT_FORMATS = Object.keys(FORMATS) as ExportFormat[];

/** Stream one collection out of the store in the chosen format and hand it to the browser as a file. */
export function exportCollection(store: Store, collection: CollectionSummary, format: ExportFormat, now: Date): Promise<void> {
  return exporting(async () => {
    const spec = FORMATS[format];
    const chunks: string[] = [];
    for await (const chunk of spec.chunks(store.iterateListings(1000, collection.id))) chunks.push(chunk);
    const keywords = collection.kind === 'sweep' ? collection.sweep.keywords : [collection.id];
    downloadChunks(chunks, exportFileName(keywords, now, spec.extension), spec.type);
  });
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
