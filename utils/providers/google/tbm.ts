import type { Listing } from '../../domain/listing';
import { readPlaceArray } from './place-array';
import { at, parseXssiJson, XSSI_PREFIX } from './xssi';

/**
 * The body of the page's own `/search?tbm=map` requests (map-pages-spec §1.5).
 *
 * Bodies reach us from the page's JavaScript world, where other scripts can forge them, so
 * what comes out is never stored as is: it cross-checks the DOM's counts and ids, and fills
 * fields only of places the DOM showed, through joinPageData (page-data.ts).
 */

/** A place as a search response describes it; untrusted (see above), shape-checked. */
export type NetworkPlace = Listing;

export type TbmParse =
  | { blocked: true; reason: string }
  | {
      blocked: false;
      places: NetworkPlace[];
      /** Place arrays refused by the shape check. */
      dropped: number;
      /** `path` = data[0][1][…][14]; `tree` = the fallback walk found them. */
      via: 'path' | 'tree';
    };

const MAX_BODY = 16_000_000;
const TCH_TRAILER = /\/\*""\*\/\s*$/;

/**
 * Both framings: a direct request answers `)]}'\n[…]`; the in-page request (`tch=1`)
 * answers `{"c":0,"d":")]}'\n[…]"}/*""*\/`. Anything else is a captcha or block page.
 */
export function parseTbmBody(body: string): TbmParse {
  if (typeof body !== 'string') return { blocked: true, reason: 'body is not text' };
  if (body.length > MAX_BODY) return { blocked: true, reason: 'body is too large' };
  const data = unframe(body);
  if (data === undefined) return { blocked: true, reason: `body is not ${XSSI_PREFIX}-prefixed JSON` };
  return readResults(data);
}

function unframe(body: string): unknown {
  const text = body.trimStart();
  if (text.startsWith(XSSI_PREFIX)) return parseXssiJson(text);
  if (!text.startsWith('{')) return undefined;
  try {
    const wrapper = JSON.parse(text.replace(TCH_TRAILER, '')) as unknown;
    const d = wrapper !== null && typeof wrapper === 'object' ? (wrapper as { d?: unknown }).d : undefined;
    return typeof d === 'string' ? parseXssiJson(d) : undefined;
  } catch {
    return undefined;
  }
}

function readResults(data: unknown): TbmParse {
  const places: NetworkPlace[] = [];
  let dropped = 0;
  const accept = (p: unknown): void => {
    const r = readPlaceArray(p);
    if (r.ok) places.push(r.place);
    else dropped++;
  };

  const results = at(data, 0, 1);
  if (Array.isArray(results)) {
    // Element 0 describes the search itself (no [14]); so may others. Only P arrays count.
    const candidates = results.map((item) => at(item, 14)).filter((p) => Array.isArray(p));
    if (candidates.length > 0) {
      candidates.forEach(accept);
      return { blocked: false, places, dropped, via: 'path' };
    }
  }
  walk(data, accept);
  return { blocked: false, places, dropped, via: 'tree' };
}

const MAX_DEPTH = 64;
const MAX_NODES = 1_000_000;

/**
 * The fallback used by 2025–26 scrapers when the paths move: any array with a string at
 * [11] (name), a number at [9][2] (lat) and a string at [10] (feature id) is a place.
 * A place's own nested lists (e.g. "people also search") are not entered.
 */
function walk(root: unknown, onPlace: (p: unknown[]) => void): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const { value, depth } = stack.pop()!;
    if (!Array.isArray(value) || depth > MAX_DEPTH) continue;
    if (looksLikePlace(value)) {
      onPlace(value);
      continue;
    }
    for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1 });
  }
}

function looksLikePlace(a: unknown[]): boolean {
  return typeof a[11] === 'string' && typeof a[10] === 'string' && typeof at(a, 9, 2) === 'number';
}
