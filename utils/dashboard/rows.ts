import type { Provider, StoredListing } from '../domain/listing';
import { providerById } from '../providers/registry';

/**
 * One place as the dashboard keeps it in memory: only what the table shows and the map draws,
 * so 100,000 places fit comfortably (the store's listings also carry ids, cell lists, …).
 */
export type ListingRow = Pick<
  StoredListing,
  'key' | 'provider' | 'cid' | 'name' | 'category' | 'address' | 'phone' | 'website' | 'rating' | 'reviews' | 'lat' | 'lng' | 'lastSeen'
> & {
  /** The page that opens the place on its own site (http(s) only), or null when none is known. */
  url: string | null;
};

export function toRow(l: StoredListing): ListingRow {
  return {
    key: l.key,
    provider: l.provider,
    url: placeUrl(l),
    cid: l.cid,
    name: l.name,
    category: l.category,
    address: l.address,
    phone: l.phone,
    website: l.website,
    rating: l.rating,
    reviews: l.reviews,
    lat: l.lat,
    lng: l.lng,
    lastSeen: l.lastSeen,
  };
}

/** The sites' own names: proper names, the same in every language of the UI. */
export const PROVIDER_NAMES: Readonly<Record<Provider, string>> = { google: 'Google', naver: 'Naver', kakao: 'Kakao' };

/**
 * Where the place opens: the listing's own URL (the card's href or the provider's place page)
 * when it is http(s). The URL came from page content, so anything else (`javascript:`) is
 * refused; a listing stored without one opens by its site's own link (MapProvider.placeLink).
 */
export function placeUrl(l: Pick<StoredListing, 'provider' | 'providerId' | 'cid' | 'url'>): string | null {
  const own = safeHttpUrl(l.url);
  if (own) return own;
  return providerById(l.provider)?.placeLink(l) ?? null;
}

export const SORT_KEYS = ['name', 'category', 'address', 'phone', 'website', 'rating', 'reviews', 'lastSeen'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';
export interface SortSpec {
  key: SortKey;
  direction: SortDirection;
}

/**
 * Row indices in the order of `sort` (or as loaded when null). Empty values go last in both
 * directions: a user sorting by rating wants rated places first either way. Ties keep the
 * load order, so the order is the same every time.
 *
 * Text is compared by lower-cased code points rather than a collator: 100,000 collator
 * comparisons take seconds, and code-point order is already dictionary order for Hangul
 * syllables (가 < 나 < 다) and for unaccented Latin.
 */
export function sortOrder(rows: readonly ListingRow[], sort: SortSpec | null): Uint32Array {
  const order = new Uint32Array(rows.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  if (!sort) return order;
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keys = rows.map((row) => sortValue(row, sort.key));
  return order.sort((a, b) => {
    const ka = keys[a] ?? null;
    const kb = keys[b] ?? null;
    if (ka === null || kb === null) return ka === kb ? a - b : ka === null ? 1 : -1;
    if (ka < kb) return -sign;
    if (ka > kb) return sign;
    return a - b;
  });
}

function sortValue(row: ListingRow, key: SortKey): string | number | null {
  const value = row[key];
  if (typeof value === 'string') return value.trim() === '' ? null : value.toLowerCase();
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export interface PreparedQuery {
  text: string;
  /** The query's digits when it looks like a phone number: "02 123" finds "02-1234-5678". */
  digits: string | null;
}

const PHONE_LIKE = /^[\d\s\-+().]+$/;

export function prepareQuery(query: string): PreparedQuery | null {
  const text = query.trim().toLowerCase();
  if (text === '') return null;
  const digits = PHONE_LIKE.test(text) ? text.replace(/\D/g, '') : '';
  return { text, digits: digits.length >= 2 ? digits : null };
}

/** A case-insensitive substring of the name, address, category or phone. */
export function matchesQuery(row: ListingRow, q: PreparedQuery): boolean {
  if (row.name.toLowerCase().includes(q.text)) return true;
  if (row.address?.toLowerCase().includes(q.text)) return true;
  if (row.category?.toLowerCase().includes(q.text)) return true;
  if (row.phone === null) return false;
  if (row.phone.toLowerCase().includes(q.text)) return true;
  return q.digits !== null && row.phone.replace(/\D/g, '').includes(q.digits);
}

/** The indices of `order` whose rows match `query`, in the same order. */
export function filterOrder(rows: readonly ListingRow[], order: Uint32Array, query: string): Uint32Array {
  const q = prepareQuery(query);
  if (!q) return order;
  return order.filter((i) => {
    const row = rows[i];
    return row !== undefined && matchesQuery(row, q);
  });
}

/** Numbers read best biggest first (top rated, most reviewed, newest); text A to Z. */
function firstDirection(key: SortKey): SortDirection {
  return key === 'rating' || key === 'reviews' || key === 'lastSeen' ? 'desc' : 'asc';
}

/** Clicking a column: a new column sorts its natural way, the same one flips, a third click restores load order. */
export function nextSort(current: SortSpec | null, key: SortKey): SortSpec | null {
  if (!current || current.key !== key) return { key, direction: firstDirection(key) };
  if (current.direction === firstDirection(key)) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return null;
}

/** A page-supplied website as a link target only if it is http(s): never `javascript:` or `data:`. */
export function safeHttpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
