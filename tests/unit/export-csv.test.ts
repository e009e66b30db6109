import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvChunks, exportFileName, UTF8_BOM } from '../../utils/export/csv';
import { CSV_COLUMNS } from '../../utils/export/columns';
import { neutraliseCell } from '../../utils/export/csv-safety';
import type { StoredListing } from '../../utils/domain/listing';
import { inBatches, storedListing } from '../helpers/listings';

const listing = storedListing;

async function toCsv(all: StoredListing[], size = 3): Promise<string> {
  let text = '';
  for await (const chunk of csvChunks(inBatches(all, size))) text += chunk;
  return text;
}

describe('CSV export', () => {
  it('starts with a UTF-8 BOM and the stable header, keeps Korean text intact', async () => {
    const text = await toCsv([listing(1, { name: '스타벅스 광화문점', address: '서울특별시 종로구 세종대로 167' })]);
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    const bytes = new TextEncoder().encode(text);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true });
    expect(parsed.data[0]).toEqual([...CSV_COLUMNS]);
    expect(parsed.data[1]![1]).toBe('스타벅스 광화문점');
    expect(parsed.data[1]![3]).toBe('서울특별시 종로구 세종대로 167');
  });

  it('neutralises formula starts in every text cell but keeps numbers as numbers', async () => {
    const evil = listing(2, {
      name: '=HYPERLINK("http://x","click")',
      category: '+cmd',
      address: '-2+3',
      phone: '@SUM(A1)',
      website: '\tx',
      rating: 3.9,
      reviews: 0,
    });
    const parsed = Papa.parse<string[]>((await toCsv([evil])).slice(1), { skipEmptyLines: true });
    const row = parsed.data[1]!;
    for (const cell of row.slice(1, 6)) expect(cell.startsWith("'")).toBe(true);
    expect(row[6]).toBe('3.9');
    expect(row[7]).toBe('0');
  });

  it('round-trips quotes, commas and newlines inside fields, one row per place across batches', async () => {
    const all = Array.from({ length: 10 }, (_, i) => listing(i, { name: `Bar "${i}", the\nbest` }));
    const parsed = Papa.parse<string[]>((await toCsv(all, 4)).slice(1), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.length).toBe(11);
    expect(parsed.data.slice(1).map((r) => r[1])).toEqual(all.map((l) => l.name));
    expect(new Set(parsed.data.slice(1).map((r) => r[0])).size).toBe(10);
    expect(parsed.data[1]![10]).toBe(`https://www.google.com/maps?cid=${all[0]!.cid}`);
  });

  it('leaves ordinary text alone', () => {
    expect(neutraliseCell('Cafe Mono')).toBe('Cafe Mono');
    expect(neutraliseCell('010-1234-5678')).toBe('010-1234-5678');
    expect(neutraliseCell('-5')).toBe("'-5");
  });

  it('names the file after the keywords and the date', () => {
    expect(exportFileName(['cafe', '치과 의원', 'a/b'], new Date(Date.UTC(2026, 10, 30)))).toBe('mapsweep_cafe+치과-의원+a-b_2026-11-30.csv');
  });
});
