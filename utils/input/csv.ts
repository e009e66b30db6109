/**
 * A place list given as CSV (a spreadsheet's export, MapSweep's own CSV): its rows with the
 * line each starts on, read by papaparse. A cell may hold line breaks inside quotes, so a row's
 * line is counted from where papaparse says the row began, not from its index.
 */
import Papa from 'papaparse';

export interface CsvRow {
  /** 1-based line of the text the row starts on. */
  line: number;
  cells: string[];
  /** Why the row cannot be trusted (a quote never closed), or null. */
  error: string | null;
}

const DELIMITERS = [',', '\t', ';', '|'];

/** The delimiter of a header line (`,` when it has none of the usual ones). */
export function delimiterOf(headerLine: string): string {
  const guessed = Papa.parse<string[]>(headerLine, { preview: 1, delimitersToGuess: DELIMITERS }).meta.delimiter;
  return DELIMITERS.includes(guessed) ? guessed : ',';
}

/** The fields of one line, as the CSV reads them. */
export function fieldsOf(line: string, delimiter: string): string[] {
  return Papa.parse<string[]>(line, { preview: 1, delimiter, newline: '\n' }).data[0] ?? [];
}

/** Every row of a text whose line ends are `\n`, with its line number. */
export function csvRows(text: string, delimiter: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    skipEmptyLines: false,
    step(result) {
      const error = result.errors.some((e) => e.code === 'MissingQuotes') ? 'a quote (") opened in this row is never closed' : null;
      rows.push({ line, cells: result.data, error });
      const end = result.meta.cursor;
      for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line++;
      start = end;
    },
  });
  return rows;
}
