/**
 * The JSON answers Naver's own pages fetch: allSearch on map.naver.com (A5; 20 per page) and the
 * pcmap GraphQL list (A6; a JSON array of `{data: {businesses|restaurants|places: {total, items}}}`).
 * An extension reads these as the page receives them (2026: both need the page's nCaptcha token,
 * so issuing fresh calls would be refused); these functions only parse.
 */
import type { BBox } from '../../geo/types';
import type { ProviderPlace } from '../../domain/place';
import { placeFromListItem } from './apollo';
import { type NaverBlock, detectNaverBlock } from './block';
import { buildPlace, cleanText, isRecord, TEXT_LIMITS } from './fields';

export interface JsonListRead {
  kind: 'ok' | 'blocked' | 'malformed';
  block: NaverBlock | null;
  places: ProviderPlace[];
  ads: ProviderPlace[];
  /** totalCount / total as the answer states it. */
  total: number | null;
  /** allSearch's `page`. */
  page: number | null;
  /** allSearch's `boundary`: `[minLng, maxLat, maxLng, minLat]` in the 2026 capture (A9 corrects the spec's order). */
  boundary: BBox | null;
  unreadable: number;
  warnings: string[];
}

const EMPTY: Omit<JsonListRead, 'kind'> = { block: null, places: [], ads: [], total: null, page: null, boundary: null, unreadable: 0, warnings: [] };

/**
 * A body as text or already parsed. Chrome shows a JSON URL opened directly inside `<pre>`
 * (A5, DevTools note), so a body starting with `<` is unwrapped from its `<pre>` first.
 */
export function parseJsonBody(body: unknown): { json: unknown; text: string } | null {
  if (typeof body !== 'string') return body === undefined ? null : { json: body, text: '' };
  let text = body.trim();
  if (text.startsWith('<')) {
    const pre = /<pre[^>]*>([\s\S]*?)<\/pre>/i.exec(text);
    if (!pre) return { json: undefined, text };
    text = pre[1]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  try {
    return { json: JSON.parse(text), text };
  } catch {
    return { json: undefined, text };
  }
}

/** `GET map.naver.com/p/api/search/allSearch?…` → the place list of one page. */
export function parseAllSearch(body: unknown, status: number | null = null): JsonListRead {
  const parsed = parseJsonBody(body);
  const block = detectNaverBlock({ status, text: parsed?.text ?? '', json: parsed?.json });
  if (block) return { ...EMPTY, kind: 'blocked', block };
  const json = parsed?.json;
  const place = isRecord(json) && isRecord(json.result) ? json.result.place : undefined;
  if (isRecord(json) && isRecord(json.result) && (place === null || place === undefined)) {
    // An answer with no place section: the query matched no place (an address or bus answer instead).
    return { ...EMPTY, kind: 'ok', total: 0 };
  }
  if (!isRecord(place) || !Array.isArray(place.list)) return { ...EMPTY, kind: 'malformed', warnings: ['allSearch answer has no result.place.list'] };
  const { places, ads, unreadable } = tallyItems(newTally(), place.list, placeFromAllSearchItem);
  const warnings = unreadable > 0 ? [`${unreadable} of ${place.list.length} allSearch items had no readable id or name.`] : [];
  return {
    kind: 'ok',
    block: null,
    places,
    ads,
    total: intOf(place.totalCount),
    page: intOf(place.page),
    boundary: boundaryOf(place.boundary),
    unreadable,
    warnings,
  };
}

/**
 * One allSearch item (A5; the 2026-02-15 capture). `category` is the path (`["음식점","태국음식"]`);
 * `address` the jibun form, `roadAddress` the road form, both whole. Visitor reviews: `placeReviewCount`
 * [?]: allSearch carries `reviewCount` and `placeReviewCount` with no labels; the older v5 code names
 * the second the visitor (방문자) count, and it is the one read here. allSearch shows no score.
 */
export function placeFromAllSearchItem(item: Record<string, unknown>): ProviderPlace | 'no-id' | 'no-name' {
  return buildPlace({
    id: item.id,
    name: item.name ?? item.display,
    categoryPath: Array.isArray(item.category) ? item.category : typeof item.category === 'string' ? item.category.split('>') : [],
    address: cleanText(item.address, TEXT_LIMITS.address),
    roadAddress: cleanText(item.roadAddress, TEXT_LIMITS.address),
    phone: item.tel || item.telDisplay,
    virtualPhone: item.virtualTel,
    website: item.homePage,
    bookingUrl: item.naverBookingUrl,
    rating: null,
    reviews: item.placeReviewCount,
    x: item.x,
    y: item.y,
    sponsored: typeof item.adId === 'string' && item.adId.length > 0,
  });
}

interface ItemTally {
  places: ProviderPlace[];
  ads: ProviderPlace[];
  /** Keys kept so far, organic or sponsored: an item is kept once. */
  seen: Set<string>;
  /** Items that are no record, or give no place (no id or name). */
  unreadable: number;
}

function newTally(): ItemTally {
  return { places: [], ads: [], seen: new Set(), unreadable: 0 };
}

/** Reads each item into the tally's places or ads (by `sponsored`), skipping keys already kept. */
function tallyItems(tally: ItemTally, items: unknown[], read: (item: Record<string, unknown>) => ProviderPlace | string): ItemTally {
  for (const item of items) {
    const place = isRecord(item) ? read(item) : 'no-id';
    if (typeof place === 'string') {
      tally.unreadable++;
      continue;
    }
    if (tally.seen.has(place.key)) continue;
    tally.seen.add(place.key);
    (place.sponsored ? tally.ads : tally.places).push(place);
  }
  return tally;
}

/** `[minLng, maxLat, maxLng, minLat]` strings → BBox; the order is checked, not assumed (min < max). */
function boundaryOf(value: unknown): BBox | null {
  if (!Array.isArray(value) || value.length !== 4) return null;
  const n = value.map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : typeof v === 'number' ? v : NaN));
  if (!n.every(Number.isFinite)) return null;
  const [west, a, east, b] = n as [number, number, number, number];
  const south = Math.min(a, b);
  const north = Math.max(a, b);
  return west < east && south < north ? { south, west, north, east } : null;
}

function intOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** GraphQL list roots (A6): `businesses`, `restaurants`, `places`, possibly under `restaurants.businesses`. */
const GRAPHQL_ROOTS = ['businesses', 'restaurants', 'places', 'hospitals', 'accommodations'];

/**
 * A `pcmap-api.place.naver.com/graphql` answer: a JSON array (one entry per operation) or one object.
 * Every list found is read; items carry the list-item shape (apollo.ts `placeFromListItem`).
 */
export function parseGraphqlList(body: unknown, status: number | null = null): JsonListRead {
  const parsed = parseJsonBody(body);
  // GraphQL answers 405/429 without an nCaptcha token (A6, rankfree): both are a block, not a cell failure.
  const block = detectNaverBlock({ status: status === 405 ? 429 : status, text: parsed?.text ?? '', json: parsed?.json });
  if (block) return { ...EMPTY, kind: 'blocked', block };
  const json = parsed?.json;
  const answers = Array.isArray(json) ? json : [json];
  let found = false;
  let total: number | null = null;
  const tally = newTally();
  for (const answer of answers) {
    const data = isRecord(answer) && isRecord(answer.data) ? answer.data : null;
    if (!data) continue;
    for (const root of GRAPHQL_ROOTS) {
      let list = data[root];
      if (isRecord(list) && isRecord(list.businesses)) list = list.businesses;
      if (!isRecord(list) || !Array.isArray(list.items)) continue;
      found = true;
      total ??= intOf(list.total);
      tallyItems(tally, list.items, placeFromListItem);
    }
  }
  const { places, ads, unreadable } = tally;
  if (!found) return { ...EMPTY, kind: 'malformed', warnings: ['GraphQL answer holds no list (data.businesses / data.restaurants / data.places)'] };
  return { ...EMPTY, kind: 'ok', places, ads, total, unreadable, warnings: unreadable ? [`${unreadable} GraphQL items had no readable id or name.`] : [] };
}
