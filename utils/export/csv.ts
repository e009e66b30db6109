import Papa from 'papaparse';
import type { StoredListing } from '../listing/types';
import { CSV_COLUMNS, listingToRow } from './columns';
import { neutraliseCell } from './csv-safety';

/** UTF-8 byte order mark: without it Excel reads the file as ANSI and Korean text turns to mojibake. */
export const UTF8_BOM = '\uFEFF';

/**
 * The CSV as a stream of text chunks, one per batch of listings read from the store, so a
 * 100,000-place export never holds the store in memory twice: each batch becomes text and is
 * dropped. Rows are unique by place key because the listings store is keyed by it.
 */
export async function* csvChunks(batches: AsyncIterable<StoredListing[]>): AsyncGenerator<string> {
  // Papa ends a header without rows with the newline itself: adding another would leave an
  // empty second row in every spreadsheet that opens the file.
  const header = Papa.unparse({ fields: [...CSV_COLUMNS], data: [] }, { newline: '\r\n' });
  yield UTF8_BOM + (header.endsWith('\r\n') ? header : header + '\r\n');
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const data = batch.map((listing) => {
      const row = listingToRow(listing);
      return CSV_COLUMNS.map((column) => {
        const value = row[column];
        if (value === null) return '';
        return typeof value === 'number' ? value : neutraliseCell(value);
      });
    });
    yield Papa.unparse({ fields: [...CSV_COLUMNS], data }, { header: false, newline: '\r\n' }) + '\r\n';
  }
}

/** `mapsweep_cafe+clinic_2026-11-30.csv`: the keywords and the date, safe on every file system. */
export function exportFileName(keywords: string[], date: Date, extension = 'csv'): string {
  const words = keywords
    .map((k) => k.trim().replace(/[\\/:*?"<>|\s]+/g, '-'))
    .filter(Boolean)
    .join('+')
    .slice(0, 80);
  const day = date.toISOString().slice(0, 10);
  return `mapsweep_${words || 'listings'}_${day}.${extension}`;
}
