import type { Listing, StoredListing } from '../listing/types';
import { betterAddress, usableText } from '../listing/field-quality';
import { keyFromCid } from '../providers/google/ids';

/** How many cell ids a listing remembers (newest kept): for explaining coverage, not for logic. */
export const MAX_CELLS_PER_LISTING = 20;

/** Where and when a batch of listings was found. */
export interface FoundContext {
  now: number;
  /** A sweep id, or 'browsing'. */
  collection: string;
  keyword: string | null;
  cellId: string | null;
}

const NULLABLE_TEXT = ['placeId', 'featureId', 'category', 'address', 'phone', 'website'] as const;
const NULLABLE_NUMBER = ['rating', 'reviews', 'lat', 'lng'] as const;

/**
 * Why a listing cannot be stored, or null if it can. Listings come from page content, so
 * the store checks the shape once more instead of trusting the extractor.
 */
export function listingProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const l = value as Record<string, unknown>;
  if (l.provider !== 'google') return `unknown provider ${JSON.stringify(l.provider)}`;
  if (typeof l.cid !== 'string' || !/^\d{1,20}$/.test(l.cid)) return `cid ${JSON.stringify(l.cid)} is not a decimal id`;
  if (l.key !== keyFromCid(l.cid)) return `key ${JSON.stringify(l.key)} does not match cid ${l.cid}`;
  if (typeof l.name !== 'string') return 'name is not text';
  if (typeof l.url !== 'string') return 'url is not text';
  if (typeof l.sponsored !== 'boolean') return 'sponsored is not a boolean';
  for (const f of NULLABLE_TEXT) {
    if (l[f] !== null && typeof l[f] !== 'string') return `${f} is neither text nor null`;
  }
  for (const f of NULLABLE_NUMBER) {
    const v = l[f];
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return `${f} is neither a finite number nor null`;
  }
  return null;
}

/**
 * One listing per key, organic only. A sponsored card repeats a place an ad paid for (its
 * website is an ad-click link), so it is kept only as far as the same place also appears
 * organically, and then the organic card's fields are used. Copies of one organic place are
 * folded together in order (a later non-null value wins, a null never erases).
 */
export function organicByKey(listings: readonly Listing[]): Listing[] {
  const byKey = new Map<string, Listing>();
  for (const l of listings) {
    if (l.sponsored) continue;
    const seen = byKey.get(l.key);
    byKey.set(l.key, seen ? mergeFields(seen, l) : { ...l });
  }
  return [...byKey.values()];
}

/**
 * The stored form of a found listing: a new key starts its history at `now`; a known key
 * keeps firstSeen, gains what it did not know, and records the collection, keyword and cell
 * once each.
 */
export function mergeListing(existing: StoredListing | undefined, found: Listing, ctx: FoundContext): StoredListing {
  if (!existing) {
    return {
      ...mergeFields(undefined, found),
      firstSeen: ctx.now,
      lastSeen: ctx.now,
      collections: [ctx.collection],
      keywords: ctx.keyword === null ? [] : [ctx.keyword],
      cells: ctx.cellId === null ? [] : [ctx.cellId],
    };
  }
  return {
    ...mergeFields(existing, found),
    firstSeen: existing.firstSeen,
    lastSeen: Math.max(existing.lastSeen, ctx.now),
    collections: addOnce(existing.collections, ctx.collection),
    keywords: ctx.keyword === null ? existing.keywords : addOnce(existing.keywords, ctx.keyword),
    cells: ctx.cellId === null ? existing.cells : addOnce(existing.cells, ctx.cellId).slice(-MAX_CELLS_PER_LISTING),
  };
}

/**
 * The Listing fields of `base` updated by `next`: a known value is replaced, never erased,
 * and never by a worse one (hours text as a category or address, a street fragment for a
 * full address).
 */
function mergeFields(base: Listing | undefined, next: Listing): Listing {
  const merged: Listing = {
    key: base?.key ?? next.key,
    provider: base?.provider ?? next.provider,
    cid: base?.cid ?? next.cid,
    placeId: next.placeId ?? base?.placeId ?? null,
    featureId: next.featureId ?? base?.featureId ?? null,
    name: next.name !== '' ? next.name : (base?.name ?? ''),
    // Hours text ("Open ⋅ Closes 10 pm", "영업 중") is never a category or an address, and a
    // card's street fragment never replaces a panel's full address (see field-quality.ts).
    category: usableText(next.category) ?? usableText(base?.category) ?? null,
    address: betterAddress(base?.address ?? null, next.address),
    phone: next.phone ?? base?.phone ?? null,
    website: next.website ?? base?.website ?? null,
    rating: next.rating ?? base?.rating ?? null,
    reviews: next.reviews ?? base?.reviews ?? null,
    ...coordinates(base, next),
    url: next.url !== '' ? next.url : (base?.url ?? ''),
    // Only organic places are stored.
    sponsored: false,
  };
  return merged;
}

/** A coordinate pair is taken whole: half of a new pair beside half of an old one is no place. */
function coordinates(base: Listing | undefined, next: Listing): { lat: number | null; lng: number | null } {
  if (next.lat !== null && next.lng !== null) return { lat: next.lat, lng: next.lng };
  if (base && base.lat !== null && base.lng !== null) return { lat: base.lat, lng: base.lng };
  return { lat: null, lng: null };
}

function addOnce(list: readonly string[], item: string): string[] {
  return list.includes(item) ? [...list] : [...list, item];
}
