import type { StoredListing } from '../../utils/listing/types';
import type { CollectionSummary } from '../../utils/dashboard/collections';
import { coverageReportCsv } from '../../utils/export/coverage-report';
import { csvChunks, exportFileName } from '../../utils/export/csv';
import { geoJsonChunks } from '../../utils/export/geojson';
import { jsonChunks } from '../../utils/export/json';
import type { Store } from '../../utils/store';
import type { Sweep } from '../../utils/sweep/types';
import { downloadChunks } from '../download';

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
export async function exportCollection(store: Store, collection: CollectionSummary, format: ExportFormat, now: Date): Promise<void> {
  const spec = FORMATS[format];
  const chunks: string[] = [];
  for await (const chunk of spec.chunks(store.iterateListings(1000, collection.id))) chunks.push(chunk);
  const keywords = collection.kind === 'sweep' ? collection.sweep.keywords : [collection.id];
  downloadChunks(chunks, exportFileName(keywords, now, spec.extension), spec.type);
}

/**
 * The sweep's coverage report (one row per cell: its verdict and what its search showed),
 * read from the store at the moment of the click: `mapsweep_cafe_2026-11-30.coverage.csv`.
 */
export async function exportCoverageReport(store: Store, sweep: Sweep, now: Date): Promise<void> {
  const cells = await store.listCells(sweep.id);
  downloadChunks([coverageReportCsv(cells)], exportFileName(sweep.keywords, now, 'coverage.csv'), 'text/csv;charset=utf-8');
}
