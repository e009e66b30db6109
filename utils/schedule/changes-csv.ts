import Papa from 'papaparse';
import { neutraliseCell } from '../export/csv-safety';
import { UTF8_BOM } from '../export/csv';
// `google_maps_url` is a column named for Google's CID link, as in the listings export: it is Google's to build.
import { cidUrl } from '../providers/google/urls';
import type { ChangeRecord } from '../domain/saved-search';

/**
 * The columns of a changes export: stable English identifiers like the listings export. A
 * changed place gives one row per changed field; a new or gone place one row, field empty.
 */
export const CHANGE_COLUMNS = [
  'change',
  'field',
  'before',
  'after',
  'name',
  'address',
  'phone',
  'rating',
  'google_maps_url',
  'cid',
  'run_id',
  'recorded_at',
] as const;

export type ChangeColumn = (typeof CHANGE_COLUMNS)[number];
export type ChangeRow = Record<ChangeColumn, string | number | null>;

export function changeRows(change: ChangeRecord): ChangeRow[] {
  const cid = /^google:(\d{1,20})$/.exec(change.key)?.[1] ?? null;
  const base = {
    change: change.kind,
    name: change.fields.name,
    address: change.fields.address,
    phone: change.fields.phone,
    rating: change.fields.rating,
    google_maps_url: cid === null ? null : cidUrl(cid),
    cid,
    run_id: change.runId,
    recorded_at: new Date(change.at).toISOString(),
  };
  if (change.kind !== 'changed' || change.diff.length === 0) return [{ ...base, field: null, before: null, after: null }];
  return change.diff.map((d) => ({ ...base, field: d.field, before: d.before, after: d.after }));
}

/**
 * The changes as CSV text (UTF-8 with BOM, CRLF), every text cell neutralised against
 * spreadsheet formulas: names and addresses come from the page.
 */
export function changesCsv(changes: readonly ChangeRecord[]): string {
  const data = changes.flatMap(changeRows).map((row) =>
    CHANGE_COLUMNS.map((column) => {
      const value = row[column];
      if (value === null) return '';
      return typeof value === 'number' ? value : neutraliseCell(value);
    }),
  );
  return `${UTF8_BOM + Papa.unparse({ fields: [...CHANGE_COLUMNS], data }, { newline: '\r\n' })}\r\n`;
}
