import type { StoredListing } from '../../utils/listing/types';
import type { CollectionSummary } from '../../utils/dashboard/collections';
import { csvChunks, exportFileName } from '../../utils/export/csv';
import { geoJsonChunks } from '../../utils/export/geojson';
import { jsonChunks } from '../../utils/export/json';
import type { Store } from '../../utils/store';
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
