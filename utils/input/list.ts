/**
 * A place list, read whole (issue 40): pasted text or a file's text, one place per line, or a
 * CSV whose column the person names. Nothing is started from here: the result is what the
 * person confirms (places, share links to open, bad lines with their line numbers and reasons),
 * or a refusal with its reason and nothing read.
 *
 *   text ──limits (refused whole)──▶ plain lines | CSV column ──readLine──▶ places (one per key,
 *   the first line kept) · shares (one per link) · bad lines
 *
 * When no column is named and the first line is a CSV header (two or more fields, none a
 * place), the answer is 'choose-column' with the header's names and the column that looks like
 * links, never a guess at which column was meant.
 */
import type { ProviderId } from '../domain/place';
import { csvRows, delimiterOf, fieldsOf } from './csv';
import { DEFAULT_LIST_LIMITS, type ListLimits, lineCount, oversize, shownText } from './limits';
import { readLine } from './line';
import type { LineVerdict, ListedPlace, ListedShare } from './types';

export interface PlaceListOptions {
  /** The CSV column holding the links or ids (its header name). Absent: one entry per line. */
  column?: string | null;
  /** The CSV column naming each row's site (`google`, `naver`, `kakao`), for rows of bare ids. Absent: a column named `site` or `provider`, if any. */
  siteColumn?: string | null;
  limits?: ListLimits;
}

export interface BadLine {
  /** 1-based line of the input (a CSV row: the line it starts on). */
  line: number;
  /** The entry as written, at most 200 characters, control and direction characters replaced. */
  text: string;
  reason: string;
}

export type PlaceListResult =
  | {
      status: 'read';
      /** Unique by key, in the order of the list; each with the line it was first named on. */
      places: (ListedPlace & { line: number })[];
      /** Unique by link, to be opened; each with its line. */
      shares: (ListedShare & { line: number })[];
      bad: BadLine[];
      /** Entries naming a place (or share link) an earlier line named already. */
      duplicates: number;
      /** Lines of the input, blank ones included. */
      lines: number;
      /** Entries read: lines (or rows) neither blank nor `#` comments, a header not counted. */
      entries: number;
      /** The CSV column read, or null for one entry per line. */
      column: string | null;
      siteColumn: string | null;
      /** A one-column list's first line taken as its column's name (`url`, `link`, …), or null. */
      header: string | null;
    }
  | { status: 'refused'; reason: string }
  | {
      status: 'choose-column';
      reason: string;
      /** The header's names, in order. */
      columns: string[];
      /** The column whose first rows hold the most places or share links, or null when none does. */
      suggested: string | null;
    };

/** A one-column file's header, when its name says it is one: it is skipped, and said so. */
const HEADER_WORD = /^(?:urls?|links?|places?|place[ _](?:url|link|id)s?|google_maps_url|maps?[ _]?(?:url|link)s?|key|id|provider_id|링크|장소)$/i;
/** What a first line that is a list entry (not a header) starts with. */
const ENTRY_START = /^(?:[a-z][a-z0-9+.-]*:|[a-z0-9-]+\.[a-z0-9.-]+(?:[/?#]|$)|\d)/i;
const SUGGEST_ROWS = 50;

export function parsePlaceList(input: string, options: PlaceListOptions = {}): PlaceListResult {
  if (typeof input !== 'string') return { status: 'refused', reason: 'the list is not text' };
  const tooBig = oversize(input, options.limits ?? DEFAULT_LIST_LIMITS);
  if (tooBig) return { status: 'refused', reason: tooBig };
  const text = input.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const lineTotal = lineCount(text);
  const firstAt = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const first = firstAt === -1 ? '' : lines[firstAt]!.trim();
  const column = options.column?.trim() || null;

  if (column === null) {
    const delimiter = delimiterOf(first);
    const fields = fieldsOf(first, delimiter).map((f) => f.trim());
    const looksLikeHeader = fields.length >= 2 && !ENTRY_START.test(first) && fields.every((f) => readLine(f).kind === 'bad');
    if (looksLikeHeader) {
      return {
        status: 'choose-column',
        reason: `the list looks like a table with the columns ${fields.map((f) => JSON.stringify(f)).join(', ')}: choose the column that holds the links or ids`,
        columns: fields,
        suggested: suggestColumn(text, delimiter, fields),
      };
    }
    const header = firstAt !== -1 && HEADER_WORD.test(first) ? first : null;
    return collect(plainEntries(lines, lineTotal, header ? firstAt : -1), { lines: lineTotal, column: null, siteColumn: null, header });
  }
  return readColumn(text, lineTotal, column, options.siteColumn?.trim() || null);
}

interface Entry {
  line: number;
  value: string;
  site: ProviderId | null;
  /** Set when the entry is bad before it is read (a broken CSV row, an unknown site). */
  error: string | null;
}

function* plainEntries(lines: string[], total: number, headerAt: number): Generator<Entry> {
  for (let i = 0; i < total; i++) {
    if (i === headerAt) continue;
    let value = lines[i]!.trim();
    if (value === '' || value.startsWith('#')) continue;
    // A one-column spreadsheet quotes a link with commas in it (Google's `@lat,lng,zoom`).
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/""/g, '"').trim();
    yield { line: i + 1, value, site: null, error: null };
  }
}

function readColumn(text: string, lineTotal: number, column: string, siteColumnGiven: string | null): PlaceListResult {
  const firstLine = text.split('\n', 64).find((l) => l.trim() !== '') ?? '';
  const delimiter = delimiterOf(firstLine);
  const rows = csvRows(text, delimiter);
  const headerAt = rows.findIndex((r) => r.cells.some((c) => c.trim() !== ''));
  const names = headerAt === -1 ? [] : rows[headerAt]!.cells.map((c) => c.trim());
  const valueAt = columnIndex(names, column);
  if (valueAt === -1) return noColumn(text, delimiter, names, column);
  let siteAt = -1;
  if (siteColumnGiven) {
    siteAt = columnIndex(names, siteColumnGiven);
    if (siteAt === -1) return noColumn(text, delimiter, names, siteColumnGiven);
  } else {
    siteAt = names.findIndex((n, i) => i !== valueAt && /^(?:site|provider)$/i.test(n));
  }
  function* entries(): Generator<Entry> {
    for (const row of rows.slice(headerAt + 1)) {
      if (row.cells.every((c) => c.trim() === '')) continue;
      const value = (row.cells[valueAt] ?? '').trim();
      if (row.error) {
        yield { line: row.line, value: row.cells.join(delimiter), site: null, error: row.error };
        continue;
      }
      if (value === '' || value.startsWith('#')) continue;
      const siteCell = siteAt === -1 ? '' : (row.cells[siteAt] ?? '').trim();
      const site = siteCell ? siteOf(siteCell) : null;
      const error = siteCell && !site ? `the row's site ${JSON.stringify(siteCell.slice(0, 40))} is not google, naver or kakao` : null;
      yield { line: row.line, value, site, error };
    }
  }
  return collect(entries(), { lines: lineTotal, column: names[valueAt]!, siteColumn: siteAt === -1 ? null : names[siteAt]!, header: null });
}

function collect(entries: Iterable<Entry>, about: { lines: number; column: string | null; siteColumn: string | null; header: string | null }): PlaceListResult {
  const places: (ListedPlace & { line: number })[] = [];
  const shares: (ListedShare & { line: number })[] = [];
  const bad: BadLine[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let read = 0;
  for (const e of entries) {
    read++;
    const verdict: LineVerdict = e.error ? { kind: 'bad', reason: e.error } : readLine(e.value, e.site);
    if (verdict.kind === 'bad') {
      bad.push({ line: e.line, text: shownText(e.value), reason: verdict.reason });
      continue;
    }
    const id = verdict.kind === 'place' ? verdict.place.key : verdict.share.url;
    if (seen.has(id)) {
      duplicates++;
      continue;
    }
    seen.add(id);
    if (verdict.kind === 'place') places.push({ ...verdict.place, line: e.line });
    else shares.push({ ...verdict.share, line: e.line });
  }
  return {
    status: 'read',
    places,
    shares,
    bad,
    duplicates,
    lines: about.lines,
    entries: read,
    column: about.column,
    siteColumn: about.siteColumn,
    header: about.header,
  };
}

/** A header name as written, else the same name in another case; -1 when none. */
function columnIndex(names: string[], wanted: string): number {
  const exact = names.indexOf(wanted);
  return exact !== -1 ? exact : names.findIndex((n) => n.toLowerCase() === wanted.toLowerCase());
}

function noColumn(text: string, delimiter: string, names: string[], column: string): PlaceListResult {
  const listed = names.length ? `; the columns are ${names.map((n) => JSON.stringify(n)).join(', ')}` : '; the list has no header line';
  return {
    status: 'choose-column',
    reason: `there is no column named ${JSON.stringify(column)}${listed}`,
    columns: names,
    suggested: suggestColumn(text, delimiter, names),
  };
}

/** The column whose first SUGGEST_ROWS rows hold the most entries that read as places or share links. */
function suggestColumn(text: string, delimiter: string, names: string[]): string | null {
  const firstLines = text.split('\n', 4 * SUGGEST_ROWS + 1).join('\n');
  const rows = csvRows(firstLines, delimiter).filter((r) => r.cells.some((c) => c.trim() !== ''));
  const hits = names.map((_, i) => rows.slice(1, SUGGEST_ROWS + 1).filter((r) => readLine((r.cells[i] ?? '').trim()).kind !== 'bad').length);
  const best = Math.max(0, ...hits);
  return best > 0 ? names[hits.indexOf(best)]! : null;
}

/** A row's site cell: `google`, `Naver`, `Kakao Map`, `네이버 지도`, `카카오맵`, `구글` … */
export function siteOf(cell: string): ProviderId | null {
  const s = cell.trim().toLowerCase();
  if (s.startsWith('google') || s.startsWith('구글')) return 'google';
  if (s.startsWith('naver') || s.startsWith('네이버')) return 'naver';
  if (s.startsWith('kakao') || s.startsWith('카카오') || s.startsWith('daum') || s.startsWith('다음')) return 'kakao';
  return null;
}
