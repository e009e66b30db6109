import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { COVERAGE_REPORT_COLUMNS, coverageReportCsv, coverageReportRow } from '../../utils/export/coverage-report';
import { UTF8_BOM } from '../../utils/export/csv';
import type { Cell } from '../../utils/domain/sweep';
import { makeCell } from './store-fixtures';
import { incompleteCoverage } from '../../utils/dashboard/incomplete';

const searched = (overrides: Partial<Cell> = {}): Cell =>
  makeCell('s', 'r0c0.2', {
    depth: 1,
    status: 'done',
    attempts: 2,
    bbox: { south: 37.5, west: 126.9, north: 37.51, east: 126.91 },
    result: {
      reason: 'end-of-list',
      searchedBox: { south: 37.499, west: 126.899, north: 37.512, east: 126.915 },
      organic: 57,
      newListings: 31,
      endOfList: true,
      capHit: false,
      zoomedOut: false,
      insideShare: 0.93,
    },
    ...overrides,
  });

const parse = (csv: string) => Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;

describe('coverage report rows', () => {
  it('puts every figure of a searched cell in its column', () => {
    expect(coverageReportRow(searched())).toEqual({
      cell_id: 's/0/r0c0.2',
      keyword: 'bakery',
      depth: 1,
      status: 'done',
      reason: 'end-of-list',
      south: 37.5,
      west: 126.9,
      north: 37.51,
      east: 126.91,
      organic: 57,
      new_listings: 31,
      end_of_list: 'true',
      cap_hit: 'false',
      zoomed_out: 'false',
      attempts: 2,
      last_error: '',
      searched_south: 37.499,
      searched_west: 126.899,
      searched_north: 37.512,
      searched_east: 126.915,
      dense_area: '',
      dense_area_places: '',
      dense_area_lat: '',
      dense_area_lng: '',
      dense_area_width_m: '',
      dense_area_height_m: '',
    });
  });

  it('leaves unknowns empty: no result for a cell never searched, no reason or box from an older version', () => {
    const pending = coverageReportRow(makeCell('s', 'r0c1'));
    for (const c of ['reason', 'organic', 'new_listings', 'end_of_list', 'cap_hit', 'zoomed_out', 'searched_south', 'searched_east'] as const) {
      expect(pending[c], c).toBe('');
    }
    expect(pending.status).toBe('pending');
    expect(pending.attempts).toBe(0);

    const old = searched();
    const { reason: _r, searchedBox: _b, ...olderResult } = old.result!;
    const row = coverageReportRow({ ...old, result: olderResult });
    expect(row.reason).toBe('');
    expect([row.searched_south, row.searched_west, row.searched_north, row.searched_east]).toEqual(['', '', '', '']);
    expect(row.organic).toBe(57);
    // A searchedBox of null (not measured) is also empty.
    expect(coverageReportRow(searched({ result: { ...old.result!, searchedBox: null } })).searched_north).toBe('');
  });

  it('writes the last error as kind and message', () => {
    const row = coverageReportRow(searched({ status: 'quarantined', lastError: { kind: 'timeout', message: 'no feed after 60 s', at: 5 } }));
    expect(row.last_error).toBe('timeout: no feed after 60 s');
  });
});

describe('coverage report CSV', () => {
  it('starts with the BOM and the header, one row per cell ordered by keyword then id, numbers intact', () => {
    const cells = [
      makeCell('s', 'r0c1', { keywordIndex: 1 }),
      searched(),
      makeCell('s', 'r0c0', { status: 'split', depth: 0, result: { ...searched().result!, reason: 'cap-hit', capHit: true, organic: 120 } }),
    ];
    const csv = coverageReportCsv(cells);
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    const rows = parse(csv);
    expect(rows[0]).toEqual([...COVERAGE_REPORT_COLUMNS]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['s/0/r0c0', 's/0/r0c0.2', 's/1/r0c1']);
    expect(rows[1]!.slice(3, 5)).toEqual(['split', 'cap-hit']);
    expect(rows[2]![COVERAGE_REPORT_COLUMNS.indexOf('searched_east')]).toBe('126.915');
    expect(rows[3]![1]).toBe('florist');
  });

  it('names the dense area of each saturated cell: touching cells share one, with its distinct places, centre and size', () => {
    const crowded = (path: string, west: number, reason: 'min-size' | 'zoomed-out-capped') =>
      searched({
        id: `s/0/${path}`,
        status: 'saturated',
        bbox: { south: 37.5, west, north: 37.5005, east: west + 0.0005 },
        result: { ...searched().result!, reason, organic: 120, capHit: true },
      });
    const cells = [crowded('r0c0', 127.0, 'min-size'), crowded('r0c1', 127.0005, 'zoomed-out-capped'), searched({ id: 's/0/r0c2' })];
    const places = [
      { key: 'k1', lat: 37.5002, lng: 127.0002, cells: [] },
      { key: 'k2', lat: 37.5002, lng: 127.0007, cells: [] },
      { key: 'k3', lat: 37.505, lng: 126.905, cells: [] },
    ];
    const { areas } = incompleteCoverage(cells, places)!;
    const rows = parse(coverageReportCsv(cells, areas));
    const col = (name: (typeof COVERAGE_REPORT_COLUMNS)[number]) => rows.slice(1).map((r) => r[COVERAGE_REPORT_COLUMNS.indexOf(name)]);
    expect(col('cell_id')).toEqual(['s/0/r0c0', 's/0/r0c1', 's/0/r0c2']);
    expect(col('dense_area')).toEqual(['1', '1', '']);
    expect(col('dense_area_places')).toEqual(['2', '2', '']);
    expect(col('dense_area_lat')).toEqual(['37.50025', '37.50025', '']);
    expect(col('dense_area_lng')).toEqual(['127.0005', '127.0005', '']);
    // 0.001° of longitude at 37.5° N is about 88 m; 0.0005° of latitude about 56 m.
    expect(col('dense_area_width_m').slice(0, 2)).toEqual(['88', '88']);
    expect(col('dense_area_height_m').slice(0, 2)).toEqual(['56', '56']);
  });

  it('neutralises formula starts in text (keywords are typed, error messages carry page text), keeps Korean and commas', () => {
    const evil = searched({
      keyword: '=HYPERLINK("http://x","y")',
      lastError: { kind: 'http', message: 'status 500, "bad"\nline', at: 1 },
    });
    const korean = makeCell('s', 'r1c0', { keyword: '카페, 베이커리', lastError: null });
    const rows = parse(coverageReportCsv([evil, korean]));
    expect(rows[1]![1]).toBe('\'=HYPERLINK("http://x","y")');
    expect(rows[1]![COVERAGE_REPORT_COLUMNS.indexOf('last_error')]).toBe('http: status 500, "bad"\nline');
    expect(rows[2]![1]).toBe('카페, 베이커리');
    // Every text column is neutralised, the cell id too.
    const id = searched({ id: '-1+1' });
    expect(parse(coverageReportCsv([id]))[1]![0]).toBe("'-1+1");
  });
});
