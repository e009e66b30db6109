import type { ExportListing } from './columns';
import { COLUMN_READERS, CSV_COLUMNS } from './columns';
import { neutraliseCell } from './csv-safety';

/** UTF-8 byte order mark: without it Excel reads the file as ANSI and Korean text turns to mojibake. */
export const UTF8_BOM = '\uFEFF';

const NEWLINE = '\r\n';

/**
 * What makes a field need quotes: the separator, a quote, a line break, or a byte order mark
 * (which a reader would take for the start of a file). These are the rules Papa Parse's
 * `unparse` applied when it wrote our CSV (PapaParse 5: BAD_DELIMITERS, the delimiter, the
 * quote), kept byte for byte so files written before and after read the same; one regex test
 * per text cell instead of its per-cell regex replace and five indexOf scans, which were most
 * of a 100k export's time (tests/unit/export-csv-bytes.test.ts compares the two writers).
 */
const NEEDS_QUOTES = /[",\r\n\uFEFF]/;
const QUOTES = /"/g;

/** One text as a CSV field: quoted (quotes doubled) when it must be, else as it is. */
export function csvText(text: string): string {
  const last = text.length - 1;
  // A leading or trailing space is quoted too, so readers that trim fields keep it.
  if (last >= 0 && (NEEDS_QUOTES.test(text) || text.charCodeAt(0) === 32 || text.charCodeAt(last) === 32)) {
    return `"${text.replace(QUOTES, '""')}"`;
  }
  return text;
}

/**
 * One export cell as the CSV writes it: null (and a field an old record lacks) empty, numbers
 * as JavaScript prints them (never neutralised: `-5` is a number, not a formula), every other
 * value neutralised against formula injection and then quoted as needed.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return csvText(neutraliseCell(value));
  if (typeof value === 'number') return String(value);
  // Not a string or a number: only a record written by some older or broken code. The old
  // writer neutralised its text form, printed a Date as ISO time (an invalid one empty) and
  // any other value by its toString(); kept so that such a file still reads the same.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  const text = String(value);
  return csvText(neutraliseCell(text) === text ? String((value as { toString(): string }).toString()) : `'${text}`);
}

/** The header line (the column names need no quoting, but are put through the same rule). */
const HEADER = CSV_COLUMNS.map(csvText).join(',') + NEWLINE;

/** One listing's CSV line, its line break included, columns in CSV_COLUMNS order. */
export function csvLine(listing: ExportListing): string {
  let line = csvField(COLUMN_READERS[0]!(listing));
  for (let i = 1; i < COLUMN_READERS.length; i++) line += `,${csvField(COLUMN_READERS[i]!(listing))}`;
  return line + NEWLINE;
}

/**
 * The CSV as a stream of text chunks, one per batch of listings read from the store, so a
 * 100,000-place export never holds the store in memory twice: each batch becomes text and is
 * dropped. Rows are unique by place key because the listings store is keyed by it. The header
 * ends with a line break and so does every row: no empty row after the header of an empty
 * export, which every spreadsheet would show.
 */
export async function* csvChunks(batches: AsyncIterable<ExportListing[]>): AsyncGenerator<string> {
  yield UTF8_BOM + HEADER;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    let text = '';
    for (const listing of batch) text += csvLine(listing);
    yield text;
  }
}

/**
 * `mapsweep_cafe+clinic_2026-11-30.csv`: the keywords and the date, safe on every file system.
 * A filtered export's name carries its filter's slug (utils/filters filterFileWords) after the
 * keywords, never cut by them: `mapsweep_cafe_filtered-r4-noweb_2026-11-30.csv`.
 */
export function exportFileName(keywords: readonly string[], date: Date, extension = 'csv', tag = ''): string {
  const words = keywords
    .map((k) => k.trim().replace(/[\\/:*?"<>|\s]+/g, '-'))
    .filter(Boolean)
    .join('+')
    .slice(0, 80);
  const day = date.toISOString().slice(0, 10);
  const suffix = tag.trim().replace(/[\\/:*?"<>|\s]+/g, '-');
  return `mapsweep_${words || 'listings'}${suffix ? `_${suffix}` : ''}_${day}.${extension}`;
}
