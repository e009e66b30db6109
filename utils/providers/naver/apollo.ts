/**
 * `window.__APOLLO_STATE__`, the Apollo cache Naver's pages embed (naver-kakao-notes A3, A6):
 * on a list page the ranked items of the search, on a place page the place's `PlaceDetailBase`.
 *
 * The content script runs in an isolated world and cannot read the page's `window`, so the state
 * is read from the page's own `<script>` text: found by its assignment, cut at its matching brace,
 * and parsed as JSON (never evaluated).
 */
import type { ProviderPlace } from '../../domain/place';
import { buildPlace, cleanText, isRecord, joinJibunAddress, joinRoadAddress, TEXT_LIMITS } from './fields';
import { normaliseNaverId } from './ids';

export type ApolloState = Record<string, unknown>;

const ASSIGNMENT = /window\.__APOLLO_STATE__\s*=\s*/g;
/** A list page's state is ~200 kB (the 2025 capture); far more is not a state we should parse. */
const MAX_STATE_CHARS = 5_000_000;

/** The state object in a page's HTML or script text; null when absent or not valid JSON. */
export function apolloStateFromText(text: string): ApolloState | null {
  if (typeof text !== 'string') return null;
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(text); m; m = ASSIGNMENT.exec(text)) {
    const start = m.index + m[0].length;
    if (text[start] !== '{') continue;
    const end = matchingBrace(text, start);
    if (end < 0 || end - start > MAX_STATE_CHARS) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (isRecord(value)) return value;
    } catch {
      // Not JSON (a page that builds the state in code): try the next assignment, if any.
    }
  }
  return null;
}

/** The state from a document's inline scripts. */
export function apolloStateFromDocument(doc: Document): ApolloState | null {
  for (const script of doc.querySelectorAll('script:not([src])')) {
    const text = script.textContent ?? '';
    if (!text.includes('__APOLLO_STATE__')) continue;
    const state = apolloStateFromText(text);
    if (state) return state;
  }
  return null;
}

/** Index of the `}` closing the object opened at `start`, skipping braces inside JSON strings; -1 if unbalanced. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && --depth === 0) return i;
  }
  return -1;
}

export interface ListStateRead {
  /** Organic places in rank order (the root query's `items[].__ref` order), one per id. */
  places: ProviderPlace[];
  /** Ad items (`…AdSummary`, `adId`, `adDescription`), flagged sponsored. */
  ads: ProviderPlace[];
  /** `total` of the list query when the state gives one. */
  total: number | null;
  /** The list query's `display` argument (items a page holds, as the page asked for them), when its field name gives one. */
  display: number | null;
  /** Items the state holds that could not be read (no id or no name). */
  unreadable: number;
  warnings: string[];
}

/** Cache keys of list items, by vertical (A3): `RestaurantListSummary:{id}:{id}`, `PlaceSummary:{id}`, …. */
const ITEM_KEY = /^([A-Za-z]*(?:ListSummary|Summary|BusinessesItem|AdSummary)):/;
/** Root fields that hold a ranked list: `restaurantList(…)`, `places(…)`, `placeList(…)`, `businesses(…)`, `hospitals(…)`, …. */
const LIST_FIELD = /^(restaurantList|placeList|places|businesses|hospitals|hairshopList|nailshops|accommodations|attractions|beautyList|nxPlaces)\(/;
const AD_FIELD = /^adBusinesses\(/;

/**
 * The places of a list page's state. Order comes from the root list query; items present in the
 * cache but referenced by no list (a partial state) are kept after them, in cache order, with a warning.
 */
export function placesFromListState(state: ApolloState): ListStateRead {
  const root = isRecord(state.ROOT_QUERY) ? state.ROOT_QUERY : {};
  const ordered: string[] = [];
  const adRefs = new Set<string>();
  let total: number | null = null;
  let display: number | null = null;
  for (const [field, value] of Object.entries(root)) {
    const isAd = AD_FIELD.test(field);
    if (!isAd && !LIST_FIELD.test(field)) continue;
    const list = listOf(value);
    if (!list) continue;
    if (!isAd && total === null && typeof list.total === 'number' && Number.isSafeInteger(list.total) && list.total >= 0) total = list.total;
    if (!isAd && display === null) display = displayArg(field);
    for (const ref of list.refs) {
      if (isAd) adRefs.add(ref);
      else if (!ordered.includes(ref)) ordered.push(ref);
    }
  }
  const referenced = new Set([...ordered, ...adRefs]);
  const loose = Object.keys(state).filter((k) => ITEM_KEY.test(k) && !referenced.has(k));
  const warnings: string[] = [];
  if (loose.length > 0 && ordered.length > 0) warnings.push(`${loose.length} list items in the Apollo state are referenced by no list query.`);

  const places: ProviderPlace[] = [];
  const ads: ProviderPlace[] = [];
  const seen = new Set<string>();
  const seenAds = new Set<string>();
  let unreadable = 0;
  for (const ref of [...ordered, ...adRefs, ...loose]) {
    const item = state[ref];
    if (!isRecord(item)) {
      unreadable++;
      continue;
    }
    const typename = typeof item.__typename === 'string' ? item.__typename : (ITEM_KEY.exec(ref)?.[1] ?? '');
    const read = placeFromListItem(item, adRefs.has(ref) || /AdSummary$/.test(typename));
    if (typeof read === 'string') {
      unreadable++;
      continue;
    }
    if (read.sponsored) {
      if (!seenAds.has(read.key)) ads.push(read);
      seenAds.add(read.key);
    } else if (!seen.has(read.key)) {
      seen.add(read.key);
      places.push(read);
    }
  }
  if (unreadable > 0) warnings.push(`${unreadable} list items in the Apollo state had no readable id or name.`);
  return { places, ads, total, display, unreadable, warnings };
}

/** `display` of a root field's arguments, `restaurantList({"input":{…,"display":50,…}})`; null when they do not parse or say none. */
function displayArg(field: string): number | null {
  const open = field.indexOf('(');
  if (open < 0 || !field.endsWith(')')) return null;
  try {
    const args: unknown = JSON.parse(field.slice(open + 1, -1));
    const input = isRecord(args) && isRecord(args.input) ? args.input : args;
    const display = isRecord(input) ? input.display : undefined;
    return typeof display === 'number' && Number.isSafeInteger(display) && display > 0 ? display : null;
  } catch {
    return null;
  }
}

/** `{items: [{__ref}]}` or `{businesses: {total, items}}` (placeList) → refs and total. */
function listOf(value: unknown): { refs: string[]; total: unknown } | null {
  if (!isRecord(value)) return null;
  const inner = isRecord(value.businesses) ? value.businesses : value;
  if (!Array.isArray(inner.items)) return null;
  const refs = inner.items.map((it) => (isRecord(it) && typeof it.__ref === 'string' ? it.__ref : null)).filter((r): r is string => r !== null);
  return { refs, total: inner.total };
}

/**
 * One list item, as the Apollo cache and the GraphQL list answers both shape it (A3, A6):
 * `id, name, category, x, y, roadAddress, address, commonAddress|fullAddress, phone, virtualPhone,
 * visitorReviewCount, visitorReviewScore, bookingUrl, adId, businessHours`.
 */
export function placeFromListItem(item: Record<string, unknown>, forceAd = false): ProviderPlace | 'no-id' | 'no-name' {
  const common = cleanText(item.commonAddress, TEXT_LIMITS.address);
  const full = cleanText(item.fullAddress, TEXT_LIMITS.address);
  const road = cleanText(item.roadAddress, TEXT_LIMITS.address);
  const jibun = cleanText(item.address, TEXT_LIMITS.address);
  const category = typeof item.category === 'string' ? [item.category] : Array.isArray(item.category) ? item.category : [];
  return buildPlace({
    id: item.id,
    name: item.name,
    categoryPath: category,
    roadAddress: joinRoadAddress(common, road),
    address: joinJibunAddress(common, jibun) ?? full,
    phone: item.phone,
    virtualPhone: item.virtualPhone,
    website: item.homePage ?? item.homepage,
    bookingUrl: item.bookingUrl ?? item.naverBookingUrl,
    rating: item.visitorReviewScore,
    reviews: item.visitorReviewCount,
    x: item.x,
    y: item.y,
    sponsored: forceAd || hasValue(item.adId) || hasValue(item.adDescription),
    // The week in words (the 2025 list capture); `newBusinessHours` is only the status of the moment.
    hours: item.businessHours,
  });
}

function hasValue(v: unknown): boolean {
  return (typeof v === 'string' && v.trim().length > 0) || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * The place of a place page's state (A6; the 2026 capture): `PlaceDetailBase:{id}` for the fields,
 * the root `placeDetail(…)` for the homepage (`homepages.repr`) and booking (`naverBooking(…).naverBookingUrl`).
 * `id` picks the place when given (the page URL's id); otherwise the state must hold exactly one.
 */
export function placeFromDetailState(state: ApolloState, id?: string): ProviderPlace | null {
  const bases = Object.keys(state).filter((k) => k.startsWith('PlaceDetailBase:'));
  const wanted = id ? normaliseNaverId(id) : null;
  const key = wanted ? bases.find((k) => k === `PlaceDetailBase:${wanted}`) : bases.length === 1 ? bases[0] : undefined;
  const base = key ? state[key] : null;
  if (!isRecord(base)) return null;
  const detail = detailRoot(state, base.id);
  const coordinate = isRecord(base.coordinate) ? base.coordinate : {};
  const hideScore = isRecord(base.reviewSettings) && base.reviewSettings.showVisitorReviewScore === false;
  const read = buildPlace({
    id: base.id,
    name: base.name,
    categoryPath: typeof base.category === 'string' ? [base.category] : [],
    roadAddress: cleanText(base.roadAddress, TEXT_LIMITS.address),
    address: cleanText(base.address, TEXT_LIMITS.address),
    phone: base.phone,
    virtualPhone: base.virtualPhone,
    website: homepageOf(detail),
    bookingUrl: bookingOf(detail) ?? base.naverBookingUrl,
    rating: hideScore ? null : base.visitorReviewsScore,
    reviews: base.visitorReviewsTotal,
    x: coordinate.x,
    y: coordinate.y,
    sponsored: false,
    hours: weekOf(detail),
  });
  return typeof read === 'string' ? null : read;
}

/**
 * The week the place page's state gives (`newBusinessHours(…)[0].businessHours[]`, the 2026
 * capture): one line a day in the words the hours reader reads ("수 16:00~24:00", or the day's own
 * note: "일(5/31) 정기휴무 (매달 5번째 일요일)"), joined; null when it gives none. The status of the
 * moment (`businessStatusDescription`) is not the week and is left out.
 */
function weekOf(detail: Record<string, unknown> | null): string | null {
  const field = detail ? Object.keys(detail).find((k) => k.startsWith('newBusinessHours')) : undefined;
  const list = field ? detail![field] : null;
  const first = Array.isArray(list) && isRecord(list[0]) ? list[0] : null;
  const days = first && Array.isArray(first.businessHours) ? first.businessHours : [];
  const lines: string[] = [];
  for (const d of days.slice(0, 14)) {
    if (!isRecord(d) || typeof d.day !== 'string') continue;
    const span = isRecord(d.businessHours) ? d.businessHours : null;
    const times = span && typeof span.start === 'string' && typeof span.end === 'string' ? `${span.start}~${span.end}` : null;
    // Its breaks (`breakHours`, [] in the capture; each assumed `{start, end}` like its hours [?]):
    // a break that cannot be read leaves the day out (unknown), never open through it.
    const breaks = Array.isArray(d.breakHours) ? d.breakHours : [];
    const read = breaks.map((b) => (isRecord(b) && typeof b.start === 'string' && typeof b.end === 'string' ? `브레이크타임 ${b.start}~${b.end}` : null));
    if (read.includes(null)) continue;
    const note = typeof d.description === 'string' ? d.description : null;
    const said = [times, ...(times ? read : []), note].filter((t): t is string => !!t).join(' ');
    if (said) lines.push(`${d.day} ${said}`);
  }
  return lines.length > 0 ? lines.join(' | ').slice(0, 2000) : null;
}

/** `ROOT_QUERY["placeDetail({…"id":"{id}"…})"]`, whose `base.__ref` is this place. */
function detailRoot(state: ApolloState, id: unknown): Record<string, unknown> | null {
  const root = isRecord(state.ROOT_QUERY) ? state.ROOT_QUERY : {};
  for (const [field, value] of Object.entries(root)) {
    if (!field.startsWith('placeDetail(') || !isRecord(value)) continue;
    if (isRecord(value.base) && value.base.__ref === `PlaceDetailBase:${String(id)}`) return value;
  }
  return null;
}

/** `homepages.repr`: a URL string, or an object with `url` (both shapes are handled; the capture has null). */
function homepageOf(detail: Record<string, unknown> | null): unknown {
  const hp = detail && isRecord(detail.homepages) ? detail.homepages : null;
  if (!hp) return null;
  if (typeof hp.repr === 'string') return hp.repr;
  if (isRecord(hp.repr) && typeof hp.repr.url === 'string') return hp.repr.url;
  return null;
}

function bookingOf(detail: Record<string, unknown> | null): unknown {
  if (!detail) return null;
  for (const [field, value] of Object.entries(detail)) {
    if (field.startsWith('naverBooking') && isRecord(value) && typeof value.naverBookingUrl === 'string') return value.naverBookingUrl;
  }
  return null;
}
