import { COLUMN_READERS, type ExportListing } from './columns';
import { neutraliseCell } from './csv-safety';

/**
 * One listing as the spreadsheet exports write it, column by column in CSV_COLUMNS order:
 * the column readers' values (utils/export/columns.ts), numbers kept as numbers, text
 * neutralised against formula injection, null as an empty cell. This is exactly what
 * csvChunks writes per row, so a column appended to CSV_COLUMNS and its reader appears in the
 * CSV and the XLSX alike (tests/unit/export-xlsx.test.ts compares the two files cell by cell).
 */
export type ExportCell = string | number | null;

export function listingCells(listing: ExportListing): ExportCell[] {
  return COLUMN_READERS.map((read) => {
    const value = read(listing);
    if (value === null || value === undefined) return null;
    return typeof value === 'number' ? value : neutraliseCell(String(value));
  });
}
