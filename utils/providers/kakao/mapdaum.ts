/**
 * map.daum answers (`search.map.kakao.com/mapsearch/map.daum`, naver-kakao-notes B4, and the 2026
 * `map.kakao.com/api/v1/mapsearch/map`, B4b, which answers the same shape): the JSON the search
 * page's list is built from, plain or as JSONP `callback({...})`. Read as hostile input:
 * every field is shape-checked, a record that fails is skipped with a reason (never half-read),
 * and nothing is evaluated (JSONP is unwrapped by text, not run).
 */
import type { ProviderPlace } from '../../domain/place';
import { inKorea, wcongnamulToWgs84 } from '../../geo/wcongnamul';
import { classifyKakaoResponse, type KakaoResponseInfo } from './block';
import { kakaoKey, parseConfirmId } from './ids';
import { placeUrl } from './urls';

export type MapDaumFraming = 'json' | 'jsonp';

export interface MapDaumSkip {
  index: number;
  reason: 'not-an-object' | 'no-confirmid' | 'no-name';
}

export interface MapDaumPage {
  kind: 'ok';
  framing: MapDaumFraming;
  /** `place_totalcount`: how many places the search matched (more than the cap lets you page to). */
  totalCount: number | null;
  /** `page_count` as the answer states it: about 25 on map.daum (B4), reachable results on the 2026 endpoint [~] (B4b). */
  pageCount: number | null;
  /** `page` as the answer states it. */
  page: number | null;
  /** Every record read, ads included (`sponsored`), in the answer's order. */
  places: ProviderPlace[];
  organic: number;
  ads: number;
  /** Records that were present but not readable. */
  skipped: MapDaumSkip[];
  /** Records whose coordinates came from WCONGNAMUL `x`/`y` (no usable `lat`/`lon`). */
  fromWcong: number;
}

export type MapDaumResult =
  | MapDaumPage
  | { kind: 'blocked'; reason: 'redirect-500' | 'html-instead-of-json' }
  | { kind: 'http-error'; status: number }
  /** 200 and not HTML, but not a map.daum answer either: the site changed. */
  | { kind: 'malformed'; reason: string };

/** A whole response: block signals first, then the body. */
export function readMapDaumResponse(r: KakaoResponseInfo): MapDaumResult {
  const verdict = classifyKakaoResponse(r);
  if (verdict.kind !== 'ok') return verdict;
  return parseMapDaumBody(r.body ?? '');
}

/** A JSONP wrapper: optional `/**\/`, a dotted identifier, `(`…`)`, optional `;`. */
const JSONP = /^\s*(?:\/\*\*\/\s*)?[A-Za-z_$][\w$.]*\s*\(([\s\S]*)\)\s*;?\s*$/;

export function parseMapDaumBody(text: string): MapDaumResult {
  const body = text.replace(/^\uFEFF/, '');
  let framing: MapDaumFraming = 'json';
  let json = body;
  if (!/^\s*[{[]/.test(body)) {
    const m = JSONP.exec(body);
    if (!m) return { kind: 'malformed', reason: 'neither JSON nor JSONP' };
    framing = 'jsonp';
    json = m[1]!;
  }
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return { kind: 'malformed', reason: 'invalid JSON' };
  }
  if (!isObject(data)) return { kind: 'malformed', reason: 'top level is not an object' };
  // An answer with neither the list nor its count is some other JSON (an error object, a new API).
  if (!('place' in data) && !('place_totalcount' in data)) return { kind: 'malformed', reason: 'no place[] and no place_totalcount' };
  const list = data.place ?? [];
  if (!Array.isArray(list)) return { kind: 'malformed', reason: 'place is not an array' };
  const places: ProviderPlace[] = [];
  const skipped: MapDaumSkip[] = [];
  let fromWcong = 0;
  list.forEach((raw: unknown, index) => {
    const read = readMapDaumPlace(raw);
    if ('reason' in read) skipped.push({ index, reason: read.reason });
    else {
      places.push(read.place);
      if (read.fromWcong) fromWcong++;
    }
  });
  const ads = places.filter((p) => p.sponsored).length;
  return {
    kind: 'ok',
    framing,
    totalCount: toCount(data.place_totalcount),
    pageCount: toCount(data.page_count),
    page: toCount(data.page),
    places,
    organic: places.length - ads,
    ads,
    skipped,
    fromWcong,
  };
}

/**
 * One `place[]` record. Falls back to the "new response" names one 2025–26 codebase reads
 * (`cid|docid|id`, `category|cate`) when `confirmid`/`cate_name_depth*` are missing [~].
 */
export function readMapDaumPlace(raw: unknown): { place: ProviderPlace; fromWcong: boolean } | { reason: MapDaumSkip['reason'] } {
  if (!isObject(raw)) return { reason: 'not-an-object' };
  const id = parseConfirmId(raw.confirmid) ?? parseConfirmId(raw.cid) ?? parseConfirmId(raw.docid) ?? parseConfirmId(raw.id);
  if (!id) return { reason: 'no-confirmid' };
  const name = text(raw.name);
  if (!name) return { reason: 'no-name' };
  const categoryPath = categoryPathOf(raw);
  const coords = coordinatesOf(raw);
  const rating = toRating(raw.rating_average) ?? toRating(raw.kplace_rating);
  const count = toCount(raw.rating_count) ?? toCount(raw.kplace_rating_count) ?? toCount(raw.reviewCount);
  // A 0 average with no ratings is "not rated", not a rating of 0.
  const rated = rating !== null && (rating > 0 || (count ?? 0) > 0);
  return {
    fromWcong: coords.fromWcong,
    place: {
      provider: 'kakao',
      providerId: id,
      key: kakaoKey(id),
      name,
      category: categoryPath.at(-1) ?? text(raw.last_cate_name),
      categoryPath,
      // place.ts: `address` is the jibun one, or the only address shown.
      address: text(raw.address) ?? text(raw.new_address),
      roadAddress: text(raw.new_address),
      phone: text(raw.tel),
      virtualPhone: null,
      website: homepageOf(raw.homepage) ?? homepageOf(raw.homePage),
      bookingUrl: null,
      rating: rated ? rating : null,
      reviews: rated ? count : null,
      lat: coords.lat,
      lng: coords.lng,
      url: placeUrl(id),
      sponsored: raw.sourceId === 'ad' || raw.source === 'ad',
      // `openoff_status` is not read as a closed mark: its meaning rests on one code excerpt
      // (../shared/naver-kakao-notes.md B4, [~]), and if it only says "outside its hours now" it
      // would mark every evening bar closed. No word from the site is better than a wrong one.
    },
  };
}

function categoryPathOf(raw: Record<string, unknown>): string[] {
  const path: string[] = [];
  for (let d = 1; d <= 5; d++) {
    const level = text(raw[`cate_name_depth${d}`]);
    if (!level) break;
    path.push(level);
  }
  if (path.length) return path;
  const joined = text(raw.category) ?? text(raw.cate);
  return joined
    ? joined
        .split('>')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** `lat`/`lon` (WGS84, newer answers) when they are in Korea; else `x`/`y` (WCONGNAMUL integers). */
function coordinatesOf(raw: Record<string, unknown>): { lat: number | null; lng: number | null; fromWcong: boolean } {
  const lat = toNumber(raw.lat);
  const lng = toNumber(raw.lon);
  if (lat !== null && lng !== null && inKorea({ lat, lng })) return { lat, lng, fromWcong: false };
  const x = toNumber(raw.x);
  const y = toNumber(raw.y);
  if (x !== null && y !== null) {
    const g = wcongnamulToWgs84({ x, y });
    if (g && inKorea(g)) return { lat: round7(g.lat), lng: round7(g.lng), fromWcong: true };
  }
  return { lat: null, lng: null, fromWcong: false };
}

/** An http(s) URL, or a bare host the page shows without a scheme; anything else (javascript:, junk) is dropped. */
function homepageOf(value: unknown): string | null {
  const t = text(value);
  if (!t) return null;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(t) ? t : /^[\w-]+(\.[\w-]+)+(\/|$)/.test(t) ? `http://${t}` : null;
  if (!candidate) return null;
  try {
    const u = new URL(candidate);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const t = value.replace(/\s+/g, ' ').trim();
  return t ? t : null;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function toCount(value: unknown): number | null {
  const n = toNumber(value);
  return n !== null && Number.isInteger(n) && n >= 0 ? n : null;
}

function toRating(value: unknown): number | null {
  const n = toNumber(value);
  return n !== null && n >= 0 && n <= 5 ? n : null;
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
