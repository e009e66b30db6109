import Papa from 'papaparse';
import type { Cell } from '../domain/sweep';
import type { DenseArea } from '../coverage/dense-areas';
import { UTF8_BOM } from './csv';
import { neutraliseCell } from './csv-safety';

/**
 * One row per cell of a sweep: where it is, what its last search showed and why the planner
 * decided what it did. This is the evidence behind "every place in the area": a reader can
 * check each cell's verdict and the box the search really covered without the extension.
 */
export const COVERAGE_REPORT_COLUMNS = [
  'cell_id',
  'keyword',
  'depth',
  'status',
  'reason',
  'south',
  'west',
  'north',
  'east',
  'organic',
  'new_listings',
  'end_of_list',
  'cap_hit',
  'zoomed_out',
  'attempts',
  'last_error',
  'searched_south',
  'searched_west',
  'searched_north',
  'searched_east',
  // The area of touching saturated and unresolved cells this cell belongs to (utils/coverage/
  // dense-areas.ts): its number (1 = the one with the most places), its distinct places, its
  // centre and size. Empty for every other cell.
  'dense_area',
  'dense_area_places',
  'dense_area_lat',
  'dense_area_lng',
  'dense_area_width_m',
  'dense_area_height_m',
] as const;

export type CoverageReportColumn = (typeof COVERAGE_REPORT_COLUMNS)[number];
export type CoverageReportRow = Record<CoverageReportColumn, string | number>;

/**
 * Empty, not 0 or false, where nothing is known: a cell never searched has no result, a cell
 * of an older version has no reason and no searched box. Reasons and statuses stay the stored
 * codes (`end-of-list`, `saturated`) so the file can be filtered by machine in any language.
 */
export function coverageReportRow(cell: Cell, area: { number: number; area: DenseArea } | null = null): CoverageReportRow {
  const r = cell.result;
  const box = r?.searchedBox ?? null;
  const flag = (v: boolean | undefined) => (v === undefined ? '' : v ? 'true' : 'false');
  return {
    cell_id: cell.id,
    keyword: cell.keyword,
    depth: cell.depth,
    status: cell.status,
    reason: r?.reason ?? '',
    south: cell.bbox.south,
    west: cell.bbox.west,
    north: cell.bbox.north,
    east: cell.bbox.east,
    organic: r ? r.organic : '',
    new_listings: r ? r.newListings : '',
    end_of_list: flag(r?.endOfList),
    cap_hit: flag(r?.capHit),
    zoomed_out: flag(r?.zoomedOut),
    attempts: cell.attempts,
    last_error: cell.lastError ? `${cell.lastError.kind}: ${cell.lastError.message}` : '',
    searched_south: box ? box.south : '',
    searched_west: box ? box.west : '',
    searched_north: box ? box.north : '',
    searched_east: box ? box.east : '',
    dense_area: area ? area.number : '',
    dense_area_places: area ? area.area.places : '',
    dense_area_lat: area ? Number(area.area.centre.lat.toFixed(6)) : '',
    dense_area_lng: area ? Number(area.area.centre.lng.toFixed(6)) : '',
    dense_area_width_m: area ? Math.round(area.area.widthM) : '',
    dense_area_height_m: area ? Math.round(area.area.heightM) : '',
  };
}

/**
 * The whole report as one CSV text: UTF-8 BOM (Excel reads the Korean keywords right), CRLF,
 * papaparse's quoting, and every text cell neutralised against formula injection (keywords
 * are typed by the user, error messages carry page text). Cells are ordered by keyword, then
 * id, so the file is the same whatever order the store returns them in. `areas`: the sweep's
 * dense areas (utils/dashboard/incomplete.ts), numbered in their order. A sweep holds at most
 * its cell limit (thousands), so one string is small.
 */
export function coverageReportCsv(cells: readonly Cell[], areas: readonly DenseArea[] = []): string {
  const sorted = [...cells].sort((a, b) => a.keywordIndex - b.keywordIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const areaOf = new Map<string, { number: number; area: DenseArea }>();
  areas.forEach((area, i) => {
    for (const id of area.cellIds) areaOf.set(id, { number: i + 1, area });
  });
  const data = sorted.map((cell) => {
    const row = coverageReportRow(cell, areaOf.get(cell.id) ?? null);
    return COVERAGE_REPORT_COLUMNS.map((c) => {
      const v = row[c];
      return typeof v === 'number' ? v : neutraliseCell(v);
    });
  });
  return `${UTF8_BOM + Papa.unparse({ fields: [...COVERAGE_REPORT_COLUMNS], data }, { newline: '\r\n' })}\r\n`;
}
