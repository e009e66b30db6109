/**
 * Naver Map URLs (map-pages-spec §2.1, naver-kakao-notes A1): the outer search page, the list
 * page that `iframe#searchIframe` loads, the canonical place link, and the three `c=` forms.
 * The list page takes the searched box explicitly (`bounds=minLng;minLat;maxLng;maxLat`), which
 * is why a sweep visits it rather than the outer page: the area a visit searched is then a fact
 * of the URL, not a guess from the map's canvas.
 */
import type { BBox, LatLng } from '../../geo/types';
import { normaliseNaverId } from './ids';

export const NAVER_MAP_ORIGIN = 'https://map.naver.com';
export const PCMAP_ORIGIN = 'https://pcmap.place.naver.com';
/** The list page's own value (S17); what it changes is unverified [?], so it is passed as seen. */
export const LIST_DISPLAY = 70;
/** List verticals seen in list-frame URLs (A1). `place` is the general one. */
export const LIST_VERTICALS = ['place', 'restaurant', 'hospital', 'accommodation', 'hairshop', 'beauty', 'attraction', 'shopping'] as const;
export type ListVertical = (typeof LIST_VERTICALS)[number];

/** `https://map.naver.com/p/entry/place/{id}`: the place link people share and the export shows. */
export function naverPlaceUrl(id: string): string {
  const digits = normaliseNaverId(id);
  if (!digits) throw new Error(`not a Naver place id: ${JSON.stringify(id)}`);
  return `${NAVER_MAP_ORIGIN}/p/entry/place/${digits}`;
}

/** The detail page `iframe#entryIframe` loads. `m.place`'s /place/ redirects to the right vertical; pcmap's is served as is. */
export function pcmapPlaceHomeUrl(id: string, vertical: string = 'place'): string {
  const digits = normaliseNaverId(id);
  if (!digits) throw new Error(`not a Naver place id: ${JSON.stringify(id)}`);
  return `${PCMAP_ORIGIN}/${encodeURIComponent(vertical)}/${digits}/home`;
}

/** A place's visitor reviews on its own page (../shared/map-pages-spec.md §5). */
export function pcmapVisitorReviewsUrl(id: string, vertical: string = 'place'): string {
  return pcmapPlaceHomeUrl(id, vertical).replace(/\/home$/, '/review/visitor');
}

/** The outer search page, `https://map.naver.com/p/search/{q}` (optionally `?c={zoom},0,0,0,dh`). */
export function naverSearchUrl(query: string, zoom?: number): string {
  const q = query.trim();
  if (!q) throw new Error('empty query');
  const base = `${NAVER_MAP_ORIGIN}/p/search/${encodeURIComponent(q)}`;
  return zoom === undefined ? base : `${base}?c=${zoom.toFixed(2)},0,0,0,dh`;
}

/** `minLng;minLat;maxLng;maxLat` with 7 decimals (the precision Naver's x/y strings carry). */
export function formatBounds(b: BBox): string {
  return [b.west, b.south, b.east, b.north].map((v) => v.toFixed(7)).join(';');
}

/** The inverse of formatBounds; null unless four finite numbers in order (min < max, in range). */
export function parseBounds(value: string | null | undefined): BBox | null {
  if (typeof value !== 'string') return null;
  const parts = value.split(';');
  if (parts.length !== 4) return null;
  const nums = parts.map((p) => (/^\s*-?\d+(\.\d+)?\s*$/.test(p) ? Number(p) : NaN));
  const [west, south, east, north] = nums as [number, number, number, number];
  if (!nums.every(Number.isFinite)) return null;
  if (!(west < east && south < north && Math.abs(south) <= 90 && Math.abs(north) <= 90 && Math.abs(west) <= 180 && Math.abs(east) <= 180)) return null;
  return { south, west, north, east };
}

export interface ListUrlInput {
  query: string;
  bounds: BBox;
  /** The search centre (x = lng, y = lat); default: the centre of `bounds`. Without x,y results are nationwide (A8). */
  centre?: LatLng;
  vertical?: ListVertical;
  /** `ts=` (ms); the live page stamps it, a sweep may leave it out. */
  ts?: number;
}

/**
 * `https://pcmap.place.naver.com/place/list?query=…&x=…&y=…&clientX=…&clientY=…&bounds=…&display=70…`:
 * the parameter set of the live iframe src (A1), with the box explicit.
 */
export function naverListUrl(input: ListUrlInput): string {
  const q = input.query.trim();
  if (!q) throw new Error('empty query');
  const b = input.bounds;
  if (!(b.west < b.east && b.south < b.north)) throw new Error('bounds must have west < east and south < north');
  const centre = input.centre ?? { lat: (b.south + b.north) / 2, lng: (b.west + b.east) / 2 };
  const x = centre.lng.toFixed(7);
  const y = centre.lat.toFixed(7);
  const params = new URLSearchParams({ query: q, x, y, clientX: x, clientY: y, bounds: formatBounds(b), display: String(LIST_DISPLAY) });
  if (input.ts !== undefined) params.set('ts', String(Math.trunc(input.ts)));
  params.set('additionalHeight', '76');
  params.set('locale', 'ko');
  params.set('mapUrl', `${NAVER_MAP_ORIGIN}/p/search/${encodeURIComponent(q)}`);
  return `${PCMAP_ORIGIN}/${input.vertical ?? 'place'}/list?${params.toString().replace(/%3B/gi, ';')}`;
}

export interface ListUrlParts {
  vertical: string;
  query: string;
  /** x,y: the search centre; null when absent or not numbers. */
  centre: LatLng | null;
  bounds: BBox | null;
  display: number | null;
  /** The replica's pager navigates with `page=`; the live page pages in place (GraphQL `start`). */
  page: number;
}

/** Reads a list-page URL (`pcmap.place.naver.com/{vertical}/list?…`, or `m.place…`); null when it is not one. */
export function parseListUrl(href: string): ListUrlParts | null {
  const url = placeSiteUrl(href);
  if (!url) return null;
  const m = /^\/([a-z]+)\/list\/?$/.exec(url.pathname);
  if (!m) return null;
  const query = (url.searchParams.get('query') ?? '').trim();
  if (!query) return null;
  const x = num(url.searchParams.get('x'));
  const y = num(url.searchParams.get('y'));
  const display = num(url.searchParams.get('display'));
  const page = num(url.searchParams.get('page'));
  return {
    vertical: m[1]!,
    query,
    centre: x !== null && y !== null && Math.abs(y) <= 90 && Math.abs(x) <= 180 ? { lat: y, lng: x } : null,
    bounds: parseBounds(url.searchParams.get('bounds')),
    display: display !== null && Number.isInteger(display) && display > 0 ? display : null,
    page: page !== null && Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query of an outer search URL (`/p/search/{q}[/place/{id}]`), or null. */
export function parseSearchQuery(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href, NAVER_MAP_ORIGIN);
  } catch {
    return null;
  }
  const m = /^\/p\/search\/([^/]+)/.exec(url.pathname);
  if (!m) return null;
  try {
    const q = decodeURIComponent(m[1]!.replace(/\+/g, ' ')).trim();
    return q || null;
  } catch {
    return null;
  }
}

export type CParam =
  /** `c=15.00,0,0,0,dh`: zoom only (the usual 2025–26 form). */
  | { form: 'zoom'; zoom: number }
  /** `c=14141300,4507203,15.00,0,0,0,dh`: EPSG:3857 metres, "구 형식" [~]. */
  | { form: 'metres'; zoom: number; centre: LatLng }
  /** `c=3zyj1J,2zX7SJ,15.00,0,0,0,dh`: opaque tokens, not decoded [?]; only the zoom is read. */
  | { form: 'token'; zoom: number; tokens: [string, string] };

/**
 * The `c=` parameter in its three forms (A1). The trailing `0,0,0,dh` is undocumented and not
 * checked beyond its presence; a zoom outside 1–22 means the value is not one of these forms.
 */
export function parseCParam(value: string | null | undefined): CParam | null {
  if (typeof value !== 'string') return null;
  const parts = value.split(',');
  const zoomOk = (z: number | null): z is number => z !== null && z >= 1 && z <= 22;
  if (parts.length === 5) {
    const zoom = num(parts[0]!);
    return zoomOk(zoom) ? { form: 'zoom', zoom } : null;
  }
  if (parts.length === 7) {
    const zoom = num(parts[2]!);
    if (!zoomOk(zoom)) return null;
    const mx = num(parts[0]!);
    const my = num(parts[1]!);
    if (mx !== null && my !== null) {
      const centre = fromWebMercatorMetres(mx, my);
      return centre ? { form: 'metres', zoom, centre } : null;
    }
    if (/^[0-9A-Za-z]{4,12}$/.test(parts[0]!) && /^[0-9A-Za-z]{4,12}$/.test(parts[1]!)) return { form: 'token', zoom, tokens: [parts[0]!, parts[1]!] };
  }
  return null;
}

const EARTH_RADIUS_M = 6378137;

/** EPSG:3857 metres to WGS84; null outside the projection's range. */
export function fromWebMercatorMetres(x: number, y: number): LatLng | null {
  const lng = (x / EARTH_RADIUS_M) * (180 / Math.PI);
  const lat = (2 * Math.atan(Math.exp(y / EARTH_RADIUS_M)) - Math.PI / 2) * (180 / Math.PI);
  return Math.abs(lng) <= 180 && Math.abs(lat) <= 85.06 ? { lat, lng } : null;
}

function num(value: string | null): number | null {
  if (value === null || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** pcmap's place pages: `/{vertical}/{id}` and its tabs (`/home`, `/review`, …); not `/…/list`. */
const PLACE_PATH = /^\/([a-z]+)\/(s?\d+)(?:\/[a-z-]+)*\/?$/;

/** The place id of a pcmap place page URL, or null (a list, anything else). */
export function placeIdOf(href: string): string | null {
  const url = placeSiteUrl(href);
  if (!url) return null;
  const m = PLACE_PATH.exec(url.pathname);
  if (!m || m[1] === 'list') return null;
  return normaliseNaverId(m[2]);
}

/** A URL of pcmap.place.naver.com or m.place.naver.com (any *.place.naver.com); null for any other or no URL. */
function placeSiteUrl(href: string): URL | null {
  try {
    const url = new URL(href);
    return /(^|\.)place\.naver\.com$/.test(url.hostname) ? url : null;
  } catch {
    return null;
  }
}
