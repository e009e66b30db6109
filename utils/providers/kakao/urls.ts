/**
 * Kakao Map URLs: the search page, the list's own search request, the place page.
 *
 * The list's search request is one of two endpoints that answer the same "map.daum" shape
 * (mapdaum.ts): the older `search.map.kakao.com/mapsearch/map.daum` (B4) and, in 2026, the
 * same-origin `map.kakao.com/api/v1/mapsearch/map` behind a gate token (B4b). Whichever the
 * page sends is read; neither is ever sent by the extension.
 *
 * How a cell's view is set (naver-kakao-notes B1, B4, B4b, B7):
 * - map.daum takes the searched rectangle itself: `rect={x1},{y1},{x2},{y2}` in WCONGNAMUL
 *   integers with `msFlag=S&mcheck=Y` [V]. That is what "현 지도 내 장소검색" (search within the
 *   current map) sends, so the page's own request URL is the proof of what was searched:
 *   `parseMapDaumUrl(request).rect`. Whether the 2026 endpoint carries the same `rect` is not
 *   known [?]: the same parameter is read there, in WCONGNAMUL or in degrees in the order of
 *   Kakao's public REST API (`rect=lng,lat,lng,lat`, `rectBoxOf`), and a request without it
 *   proves no box.
 * - The search page URL in the notes carries only `q` [V]. The share links of the live site also
 *   carry the map's centre and level, `urlX`/`urlY` (WCONGNAMUL) and `urlLevel`; that is NOT in
 *   the notes [?], so a sweep must check the rect the page then searched before it trusts it,
 *   and otherwise move the page's own map (the replica has a switch for both).
 * - Map levels: 1 (closest) … 14. Metres per pixel at a level are not in the notes either [?]:
 *   `metresPerPixel` assumes 0.25 m × 2^(level−1) (level 3 ≈ 1 m per px).
 */
import { paramNames } from '../../net/url-params';
import type { BBox } from '../../geo/types';
import { bboxToWcongRect, inKorea, type WcongPoint, type WcongRect, WCONG_PER_METRE, wcongnamulToWgs84, wgs84ToWcongnamul } from '../../geo/wcongnamul';

export const KAKAO_MAP_ORIGIN = 'https://map.kakao.com';
export const KAKAO_SEARCH_ORIGIN = 'https://search.map.kakao.com';
export const KAKAO_PLACE_ORIGIN = 'https://place.map.kakao.com';
export const MAP_DAUM_PATH = '/mapsearch/map.daum';
/** The 2026 same-origin search endpoint on map.kakao.com (B4b). */
export const MAP_SEARCH_PATH = '/api/v1/mapsearch/map';

/** Which of the two search endpoints a request went to (B4, B4b). */
export type KakaoSearchEndpoint = 'mapsearch' | 'map.daum';

/** Places per list page and per map.daum page (B3, B4). */
export const KAKAO_PAGE_SIZE = 15;
/** The web list stops after about 34 pages (B3: scrapers stop there; ≈ 500 places) [V, from code]. */
export const KAKAO_WEB_CAP_PAGES = 34;
/** Page links per pager block (`no1` … `no5`), then "next". */
export const KAKAO_PAGER_BLOCK = 5;
export const KAKAO_MIN_LEVEL = 1;
export const KAKAO_MAX_LEVEL = 14;

/** The map's centre in WCONGNAMUL and its level, as `urlX`/`urlY`/`urlLevel` carry them [?]. */
export interface KakaoView {
  x: number;
  y: number;
  level: number;
}

export function placeUrl(confirmId: string): string {
  return `${KAKAO_PLACE_ORIGIN}/${confirmId}`;
}

/** `https://map.kakao.com/?q={q}`, with `urlX/urlY/urlLevel` when a view is given [?]. */
export function searchPageUrl(query: string, view?: KakaoView | null): string {
  const params = new URLSearchParams();
  if (view) {
    params.set('urlX', String(Math.round(view.x)));
    params.set('urlY', String(Math.round(view.y)));
    params.set('urlLevel', String(view.level));
  }
  params.set('q', query);
  return `${KAKAO_MAP_ORIGIN}/?${params.toString()}`;
}

export interface SearchPageInfo {
  query: string | null;
  view: KakaoView | null;
}

/** The query and view of a map.kakao.com URL; null for any other host. */
export function parseSearchPageUrl(href: string): SearchPageInfo | null {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return null;
  }
  if (u.hostname !== 'map.kakao.com') return null;
  const q = u.searchParams.get('q');
  const x = toNumber(u.searchParams.get('urlX'));
  const y = toNumber(u.searchParams.get('urlY'));
  const level = toNumber(u.searchParams.get('urlLevel'));
  const view =
    x !== null && y !== null && level !== null && Number.isInteger(level) && level >= KAKAO_MIN_LEVEL && level <= KAKAO_MAX_LEVEL ? { x, y, level } : null;
  return { query: q?.trim() ? q : null, view };
}

export interface MapDaumRequest {
  endpoint: KakaoSearchEndpoint;
  query: string;
  /** 1-based. */
  page: number;
  /** `msFlag=S`: the page asked for a search within its map (B4, B7). */
  restricted: boolean;
  /**
   * `msFlag=A` and no parameter but those an everywhere search sends (EVERYWHERE_PARAMS): the
   * request's own word that it searched everywhere. A parameter not in that list may carry a box
   * under a name no source gives (B4b [?]), so a request with one says nothing either way.
   */
  everywhere: boolean;
  /** Parameters that are neither an everywhere search's (EVERYWHERE_PARAMS) nor a restricted one's (`rect`, `mcheck`): named in warnings, as one may carry a box. */
  unknownParams: readonly string[];
  /** Present: the search is restricted to it (`msFlag=S&mcheck=Y`); in WCONGNAMUL whichever form the page wrote. */
  rect: WcongRect | null;
  /** The box exactly as the request wrote it when it wrote degrees (`rect=lng,lat,lng,lat`); null for WCONGNAMUL. */
  degrees: BBox | null;
  /** Present: the answer is JSONP `callback({...})`. */
  callback: string | null;
  /** The sort the request asked for (`0`: accuracy, the page's default). */
  sort: string;
}

/** A search request URL (the replica's pages and the tests build them; the extension only reads them). */
export function mapDaumUrl(r: { query: string; page: number; rect?: WcongRect | null; callback?: string | null; endpoint?: KakaoSearchEndpoint }): string {
  const params = new URLSearchParams({ q: r.query, msFlag: r.rect ? 'S' : 'A', sort: '0', page: String(r.page) });
  if (r.rect) {
    params.set('rect', `${Math.floor(r.rect.x1)},${Math.floor(r.rect.y1)},${Math.ceil(r.rect.x2)},${Math.ceil(r.rect.y2)}`);
    params.set('mcheck', 'Y');
  }
  if (r.callback) params.set('callback', r.callback);
  return r.endpoint === 'mapsearch'
    ? `${KAKAO_MAP_ORIGIN}${MAP_SEARCH_PATH}?${params.toString()}`
    : `${KAKAO_SEARCH_ORIGIN}${MAP_DAUM_PATH}?${params.toString()}`;
}

/** Which search endpoint a URL is, or null for any other URL. */
export function searchEndpointOf(u: URL): KakaoSearchEndpoint | null {
  if (u.protocol !== 'https:') return null;
  if (u.hostname === 'map.kakao.com' && u.pathname === MAP_SEARCH_PATH) return 'mapsearch';
  if ((u.hostname === 'search.map.kakao.com' || u.hostname === 'search.map.daum.net') && u.pathname === MAP_DAUM_PATH) return 'map.daum';
  return null;
}

/** What an everywhere search sends (B4, B4b), JSONP's `callback` and jQuery's cache-busting `_`. */
const EVERYWHERE_PARAMS: ReadonlySet<string> = new Set(['q', 'msFlag', 'sort', 'page', 'callback', '_']);
/** What a search restricted to the map adds (B4, B7). */
const RESTRICTED_PARAMS: ReadonlySet<string> = new Set(['rect', 'mcheck']);

/** A search request's parameters (from the page's own request URL, either endpoint); null when it is not one. */
export function parseMapDaumUrl(href: string): MapDaumRequest | null {
  let u: URL;
  try {
    u = new URL(href, KAKAO_SEARCH_ORIGIN);
  } catch {
    return null;
  }
  const endpoint = searchEndpointOf(u);
  if (!endpoint) return null;
  const query = u.searchParams.get('q');
  if (!query) return null;
  const page = toNumber(u.searchParams.get('page') ?? '1');
  const restricted = u.searchParams.get('msFlag') === 'S';
  const written = restricted ? rectBoxOf(u.searchParams.get('rect')) : null;
  const callback = u.searchParams.get('callback');
  const names = paramNames(u.searchParams);
  return {
    endpoint,
    query,
    page: page !== null && Number.isInteger(page) && page >= 1 ? page : 1,
    restricted,
    everywhere: u.searchParams.get('msFlag') === 'A' && names.every((k) => EVERYWHERE_PARAMS.has(k)),
    unknownParams: names.filter((k) => !EVERYWHERE_PARAMS.has(k) && !RESTRICTED_PARAMS.has(k)),
    rect: written?.rect ?? null,
    degrees: written?.degrees ?? null,
    callback: callback && /^[A-Za-z_$][\w$.]*$/.test(callback) ? callback : null,
    sort: u.searchParams.get('sort') ?? '0',
  };
}

/**
 * A request's `rect` in either form the page may write [?]: WCONGNAMUL `x1,y1,x2,y2` (map.daum,
 * B4: hundreds of thousands of units over Korea), or degrees in the public REST API's order,
 * `lng,lat,lng,lat` (four values a degree can take: WCONGNAMUL never does). Degrees are kept as
 * written (`degrees`: the box the site was asked to search, not a grid rect around it) and
 * turned into the covering grid rect only to compare requests. Null unless a real rectangle.
 */
export function rectBoxOf(text: string | null): { rect: WcongRect; degrees: BBox | null } | null {
  const rect = parseRect(text);
  if (!rect) return null;
  const degrees = Math.abs(rect.x1) <= 180 && Math.abs(rect.x2) <= 180 && Math.abs(rect.y1) <= 90 && Math.abs(rect.y2) <= 90;
  if (!degrees) {
    // A grid rect under a metre across, or whose middle is not in Korea, is no map a Kakao page
    // showed (degrees in another order, lat,lng,…, read as grid units, say).
    const middle = wcongnamulToWgs84({ x: (rect.x1 + rect.x2) / 2, y: (rect.y1 + rect.y2) / 2 });
    const mapSized = rect.x2 - rect.x1 >= WCONG_PER_METRE && rect.y2 - rect.y1 >= WCONG_PER_METRE;
    return middle && inKorea(middle) && mapSized ? { rect, degrees: null } : null;
  }
  const box = { west: rect.x1, south: rect.y1, east: rect.x2, north: rect.y2 };
  const grid = bboxToWcongRect(box);
  return grid ? { rect: grid, degrees: box } : null;
}

/** `x1,y1,x2,y2`, in either corner order; null unless four finite numbers make a real rectangle. */
export function parseRect(text: string | null): WcongRect | null {
  if (!text) return null;
  const parts = text.split(',').map((s) => toNumber(s));
  if (parts.length !== 4 || parts.some((v) => v === null)) return null;
  const [a, b, c, d] = parts as number[];
  const rect = { x1: Math.min(a!, c!), y1: Math.min(b!, d!), x2: Math.max(a!, c!), y2: Math.max(b!, d!) };
  return rect.x2 > rect.x1 && rect.y2 > rect.y1 ? rect : null;
}

/** Ground metres per screen pixel at a level [?] (see the header). */
export function metresPerPixel(level: number): number {
  return 0.25 * 2 ** (level - 1);
}

/** The rect a view shows on a map canvas of this size in px. */
export function viewRect(view: KakaoView, canvas: { width: number; height: number }): WcongRect {
  const perPx = metresPerPixel(view.level) * WCONG_PER_METRE;
  const hw = (canvas.width / 2) * perPx;
  const hh = (canvas.height / 2) * perPx;
  return { x1: view.x - hw, y1: view.y - hh, x2: view.x + hw, y2: view.y + hh };
}

/** The closest-in view whose canvas covers the box (the box's centre in the middle); null off the grid. */
export function viewForBox(box: BBox, canvas: { width: number; height: number }): KakaoView | null {
  const rect = bboxToWcongRect(box);
  if (!rect) return null;
  const centre: WcongPoint = { x: (rect.x1 + rect.x2) / 2, y: (rect.y1 + rect.y2) / 2 };
  for (let level = KAKAO_MIN_LEVEL; level <= KAKAO_MAX_LEVEL; level++) {
    const shown = viewRect({ ...centre, level }, canvas);
    if (shown.x1 <= rect.x1 && shown.x2 >= rect.x2 && shown.y1 <= rect.y1 && shown.y2 >= rect.y2) return { ...centre, level };
  }
  return null;
}

/** The WCONGNAMUL centre of a WGS84 point as a view (for "open the map here"). */
export function viewAt(point: { lat: number; lng: number }, level: number): KakaoView | null {
  const w = wgs84ToWcongnamul(point);
  return w ? { x: w.x, y: w.y, level } : null;
}

function toNumber(s: string | null): number | null {
  if (s === null || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}
