import type { CellObject, WorkSheet } from '@e965/xlsx';
import type { ExportListing } from './columns';
import { listingCells, type ExportCell } from './cells';
import { BUSINESS_COLUMNS, businessCells, type BusinessRow } from './businesses';
import { CSV_COLUMNS } from './columns';
import { REVIEW_COLUMNS } from './reviews';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Columns whose text is an identifier, a postal code or a number to dial, never a quantity: besides being
 * string cells (as every text is), they get the text number format `@`, so a cell edited in
 * Excel stays text too. A 20-digit CID kept as a number would lose its last digits.
 */
export function isIdColumn(column: string): boolean {
  return /(^|_)(id|cid)$|phone|postal/.test(column) || CONTACT_TEXT_COLUMNS.has(column);
}

/** The contacts pass's columns: addresses and links, text whatever Excel would make of them. */
const CONTACT_TEXT_COLUMNS = new Set<string>(CSV_COLUMNS.slice(CSV_COLUMNS.indexOf('emails'), CSV_COLUMNS.indexOf('contacts_checked_at') + 1));

/** Excel's limit on one cell's text; longer text makes Excel call the file corrupt. */
const MAX_CELL_TEXT = 32_767;

function cellOf(value: string | number | null, text: boolean): CellObject | undefined {
  if (value === null) return undefined;
  if (typeof value === 'number' && !text) return Number.isFinite(value) ? { t: 'n', v: value } : undefined;
  const v = String(value).slice(0, MAX_CELL_TEXT);
  return text ? { t: 's', v, z: '@' } : { t: 's', v };
}

/**
 * The export as one `.xlsx` workbook (sheet "places"): the same columns, header and cells as
 * the CSV (utils/export/cells.ts), every text a string cell (UTF-8 XML: Korean opens as is,
 * no import step), numbers as numbers, ids as text. Listings are read batch by batch; each
 * batch becomes cells and is dropped, so the store's objects are not held beside the sheet.
 * The ZIP itself is written at the end (the format's sheet XML is one part), by SheetJS.
 * The library is loaded on first use: the popup does not pay for it until someone exports XLSX.
 */
export async function xlsxBytes(
  batches: AsyncIterable<ExportListing[]>,
  onRows?: (rows: number) => void,
  /** The Businesses sheet's rows (issue 24), read after the places; absent, the workbook has the places sheet alone. */
  businesses?: AsyncIterable<BusinessRow[]>,
  /** The Reviews sheet's rows (issue 38, REVIEW_COLUMNS); absent when no review is stored. */
  reviews?: AsyncIterable<ExportCell[][]>,
  /**
   * A first sheet, `about`, of name–value rows (a filtered export's filters, issue 40), asked for
   * once the places are read (so it may count them); absent, the workbook starts with the places.
   */
  about?: () => readonly (readonly [string, string | number])[],
): Promise<Uint8Array> {
  const XLSX = await import('@e965/xlsx');
  const places = sheetRows(CSV_COLUMNS);
  for await (const batch of batches) {
    for (const listing of batch) places.add(listingCells(listing));
    onRows?.(places.data.length - 1);
  }
  const book = XLSX.utils.book_new();
  if (about) XLSX.utils.book_append_sheet(book, aboutSheet(XLSX, about()), 'about');
  XLSX.utils.book_append_sheet(book, places.sheet(XLSX), 'places');
  if (businesses) {
    const rows = sheetRows(BUSINESS_COLUMNS);
    for await (const batch of businesses) for (const row of batch) rows.add(businessCells(row));
    XLSX.utils.book_append_sheet(book, rows.sheet(XLSX), 'businesses');
  }
  if (reviews) {
    const rows = sheetRows(REVIEW_COLUMNS);
    for await (const batch of reviews) for (const row of batch) rows.add(row);
    XLSX.utils.book_append_sheet(book, rows.sheet(XLSX), 'reviews');
  }
  const out = XLSX.write(book, { type: 'array', bookType: 'xlsx', compression: true, dense: true } as never) as ArrayBuffer;
  return new Uint8Array(out);
}

/** A sheet being filled: the header, then each row's cells made cell objects as they come (ids as text). */
function sheetRows(columns: readonly string[]) {
  const text = columns.map((c) => isIdColumn(c));
  const data: CellObject[][] = [columns.map((c) => ({ t: 's', v: c }) as CellObject)];
  return {
    data,
    add: (cells: readonly ExportCell[]) => void data.push(cells.map((v, i) => cellOf(v, text[i]!)) as CellObject[]),
    sheet: (XLSX: typeof import('@e965/xlsx')): WorkSheet => ({
      '!data': data,
      '!ref': XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: data.length - 1, c: columns.length - 1 } }),
      '!cols': columns.map((c) => ({ wch: isIdColumn(c) ? 24 : /name|address/.test(c) ? 36 : 14 })),
    }),
  };
}

/** The about sheet: one name and its value per row, every value text or a number, nothing a formula. */
function aboutSheet(XLSX: typeof import('@e965/xlsx'), rows: readonly (readonly [string, string | number])[]): WorkSheet {
  const data: CellObject[][] = rows.map(([name, value]) => [
    { t: 's', v: name },
    typeof value === 'number' ? { t: 'n', v: value } : { t: 's', v: value.slice(0, MAX_CELL_TEXT) },
  ]);
  return {
    '!data': data,
    '!ref': XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(0, data.length - 1), c: 1 } }),
    '!cols': [{ wch: 16 }, { wch: 80 }],
  };
}
