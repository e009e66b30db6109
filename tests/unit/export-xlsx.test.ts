import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { listingCells } from '../../utils/export/cells';
import { CSV_COLUMNS } from '../../utils/export/columns';
import { csvChunks } from '../../utils/export/csv';
import { isIdColumn, xlsxBytes } from '../../utils/export/xlsx';
import type { StoredListing } from '../../utils/domain/listing';
import { inBatches, storedListing } from '../helpers/listings';

async function toCsv(all: StoredListing[], size: number): Promise<string[][]> {
  let text = '';
  for await (const chunk of csvChunks(inBatches(all, size))) text += chunk;
  return Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
}

/** Read the file back with SheetJS's own reader: the cell objects of the first sheet, row by row. */
function readSheet(bytes: Uint8Array): { name: string; cells: (XLSX.CellObject | undefined)[][] } {
  const book = XLSX.read(bytes, { type: 'array', dense: true });
  const name = book.SheetNames[0]!;
  const sheet = book.Sheets[name]!;
  const range = XLSX.utils.decode_range(sheet['!ref']!);
  const cells: (XLSX.CellObject | undefined)[][] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: (XLSX.CellObject | undefined)[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) row.push(sheet['!data']?.[r]?.[c]);
    cells.push(row);
  }
  return { name, cells };
}

/** What a cell shows as CSV text: numbers as JavaScript writes them, an empty cell as ''. */
const asCsvText = (cell: XLSX.CellObject | undefined) => (cell === undefined || cell.v === undefined ? '' : String(cell.v));

// Every kind of value the export meets: 20-digit CIDs, Korean text, formula starts, quotes,
// newlines, empty fields, phone numbers with a leading 0 or +, ratings, zero reviews.
const places: StoredListing[] = [
  storedListing(1, { name: '스타벅스 광화문점', address: '서울특별시 종로구 세종대로 167', category: '카페', phone: '02-1234-5678' }),
  storedListing(2, { cid: '18446744073709551615', key: 'google:18446744073709551615', phone: '+82 2-123-4567' }),
  storedListing(3, { name: '=HYPERLINK("http://x","click")', category: '+cmd', address: '-2+3', phone: '@SUM(A1)', website: '\tx' }),
  storedListing(4, { name: 'Bar "4", the\nbest', rating: null, reviews: 0, phone: '0212345678', website: 'https://example.com/?a=1,2' }),
  storedListing(5, { placeId: null, category: null, address: null, lat: 37.123456789, lng: 126.98765432 }),
  storedListing(6, {
    phoneE164: '+82212345678',
    otherPhones: ['02-555-0000', '010-1234-5678'],
    addressParts: { street: '세종대로 167', district: '종로구', city: '서울특별시', postalCode: '03154', region: null, countryCode: 'KR' },
    closed: 'temporarily',
  }),
  ...Array.from({ length: 30 }, (_, i) => storedListing(10 + i, { keywords: ['cafe', '카페', `k${i}`] })),
];

describe('XLSX export', () => {
  it('opens with the library reader, and every cell equals the CSV cell (same columns, rows and text)', async () => {
    const csv = await toCsv(places, 7);
    const bytes = await xlsxBytes(inBatches(places, 7));
    const { name, cells } = readSheet(bytes);
    expect(name).toBe('places');
    expect(cells.length).toBe(csv.length);
    expect(csv[0]).toEqual([...CSV_COLUMNS]);
    for (let r = 0; r < csv.length; r++) {
      expect(cells[r]!.length).toBe(CSV_COLUMNS.length);
      expect(cells[r]!.map(asCsvText), `row ${r}`).toEqual(csv[r]);
    }
  });

  it('writes ids (CID, place id, phone) as text cells with the text format, numbers as number cells', async () => {
    const { cells } = readSheet(await xlsxBytes(inBatches(places, 100)));
    const col = (name: string) => CSV_COLUMNS.indexOf(name as never);
    const long = cells[2]!;
    expect(long[col('cid')]).toMatchObject({ t: 's', v: '18446744073709551615' });
    // A leading + is neutralised exactly as in the CSV (the cells are the CSV's).
    expect(long[col('phone')]).toMatchObject({ t: 's', v: "'+82 2-123-4567" });
    expect(cells[4]![col('phone')]).toMatchObject({ t: 's', v: '0212345678' });
    // Postal codes keep their leading zero; E.164 numbers are text too.
    expect(cells[6]![col('postal_code')]).toMatchObject({ t: 's', v: '03154' });
    expect(cells[6]![col('phone_e164')]).toMatchObject({ t: 's' });
    for (const row of cells.slice(1)) {
      for (const c of CSV_COLUMNS.filter(isIdColumn)) {
        const cell = row[col(c)];
        if (cell !== undefined) expect(cell.t, `${c}`).toBe('s');
      }
      expect(row[col('lat')]?.t).toBe('n');
      expect(row[col('reviews')]?.t).toBe('n');
    }
    // The text number format `@` on id cells: an edit in Excel stays text too.
    expect(['cid', 'place_id', 'phone', 'phone_e164', 'other_phones', 'postal_code'].every(isIdColumn)).toBe(true);
    expect(isIdColumn('name') || isIdColumn('rating') || isIdColumn('lat')).toBe(false);
    const book = XLSX.read(await xlsxBytes(inBatches(places.slice(0, 1), 1)), { type: 'array', cellNF: true, dense: true });
    const first = book.Sheets.places!['!data']![1]!;
    expect(first[col('cid')]?.z).toBe('@');
    expect(first[col('place_id')]?.z).toBe('@');
  });

  it('keeps Korean text as UTF-8 in the workbook (no import step) and neutralises formula starts as the CSV does', async () => {
    const { cells } = readSheet(await xlsxBytes(inBatches(places, 3)));
    expect(cells[1]![1]!.v).toBe('스타벅스 광화문점');
    expect(cells[1]![2]!.v).toBe('카페');
    const evil = cells[3]!;
    expect(evil.slice(1, 6).map((c) => String(c?.v).startsWith("'"))).toEqual([true, true, true, true, true]);
    // No cell is a formula.
    for (const row of cells) for (const c of row) expect(c?.f).toBeUndefined();
  });

  it('builds its rows from the same row builder as the CSV, so a new column appears in both', () => {
    const one = storedListing(7);
    expect(listingCells(one).length).toBe(CSV_COLUMNS.length);
  });

  it('an empty collection is a header-only workbook', async () => {
    const { cells } = readSheet(await xlsxBytes(inBatches([], 10)));
    expect(cells.map((r) => r.map(asCsvText))).toEqual([[...CSV_COLUMNS]]);
  });
});
