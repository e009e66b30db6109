import { BOUNDED_FIELDS } from '../domain/listing';
import { overBounds } from '../listing/bounds';
import type { Listing, StoredListing } from '../domain/listing';
import { mergeListingFields } from '../listing/merge-fields';
import { withPhoneE164 } from '../listing/phone';
import { PROVIDERS, providerById } from '../providers/registry';
import { placeKey, type ProviderId } from '../domain/place';

/*
 * Trust rule (stated in full in utils/listing/merge-fields.ts): values read from the page's
 * own data (its search responses and its app state) are page content like the DOM's text.
 * They reach this merge only after shape checks, and only for a place the DOM showed on
 * that page; one that contradicted the DOM was dropped (and counted) before. Here every
 * source is merged by one rule: the more complete value wins, never merely the later one.
 */

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
  const identity = identityProblem(l);
  if (identity) return identity;
  if (typeof l.name !== 'string') return 'name is not text';
  if (typeof l.url !== 'string') return 'url is not text';
  if (typeof l.sponsored !== 'boolean') return 'sponsored is not a boolean';
  if (l.pinDoubted !== undefined && l.pinDoubted !== true) return 'pinDoubted is neither true nor absent';
  for (const f of NULLABLE_TEXT) {
    if (l[f] !== null && typeof l[f] !== 'string') return `${f} is neither text nor null`;
  }
  for (const f of NULLABLE_NUMBER) {
    const v = l[f];
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return `${f} is neither a finite number nor null`;
  }
  const details = detailsProblem(l);
  if (details) return details;
  // The bounds every reading was cut to where it became a Listing (utils/listing/bounds.ts).
  const over = overBounds(l as unknown as Listing);
  return over.length > 0 ? `${over.join(', ')} beyond the listing bounds` : null;
}

/** The registry's sites, the one list of them: a site added there has its listings stored. */
const PROVIDER_IDS: ReadonlySet<unknown> = new Set<ProviderId>(PROVIDERS.map((p) => p.id));
const DECIMAL_ID = /^\d{1,20}$/;

/**
 * The key must be the one the provider's id gives, so two readings of one place always meet
 * under one key. Google: the CID (decimal), which is also providerId, key `google:{cid}`.
 * Naver and Kakao: the place id / confirmid (digits), key `{provider}:{providerId}`, no CID.
 */
function identityProblem(l: Record<string, unknown>): string | null {
  if (!PROVIDER_IDS.has(l.provider)) return `unknown provider ${JSON.stringify(l.provider)}`;
  const provider = l.provider as ProviderId;
  if (provider === 'google') {
    if (typeof l.cid !== 'string' || !DECIMAL_ID.test(l.cid)) return `cid ${JSON.stringify(l.cid)} is not a decimal id`;
    if (l.key !== placeKey('google', l.cid)) return `key ${JSON.stringify(l.key)} does not match cid ${l.cid}`;
    if (l.providerId !== l.cid) return `providerId ${JSON.stringify(l.providerId)} is not the cid ${l.cid}`;
    return null;
  }
  if (typeof l.providerId !== 'string' || !DECIMAL_ID.test(l.providerId)) return `providerId ${JSON.stringify(l.providerId)} is not a ${provider} id`;
  if (l.key !== placeKey(provider, l.providerId)) return `key ${JSON.stringify(l.key)} does not match ${provider} id ${l.providerId}`;
  if (l.cid !== null) return `a ${provider} place has no cid (got ${JSON.stringify(l.cid)})`;
  return null;
}

const OPTIONAL_TEXT = ['phoneE164', 'hours', 'priceLevel', 'roadAddress', 'lotAddress', 'bookingUrl'] as const;
const SOURCE_VALUES = new Set(['card', 'panel', 'page-data']);
const BOUNDED: ReadonlySet<unknown> = new Set(BOUNDED_FIELDS);

/** The optional page-data fields (Listing): absent is fine, present must have its shape. */
function detailsProblem(l: Record<string, unknown>): string | null {
  for (const f of OPTIONAL_TEXT) {
    if (l[f] !== undefined && l[f] !== null && typeof l[f] !== 'string') return `${f} is neither text nor null`;
  }
  for (const f of ['categories', 'otherPhones'] as const) {
    const v = l[f];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) return `${f} is not a list of text`;
  }
  if (l.cut !== undefined && !(Array.isArray(l.cut) && l.cut.every((x) => BOUNDED.has(x)))) return 'cut is not a list of bounded fields';
  if (l.closed !== undefined && l.closed !== null && l.closed !== 'permanently' && l.closed !== 'temporarily')
    return 'closed is not permanently/temporarily/null';
  const parts = l.addressParts;
  if (parts !== undefined && parts !== null) {
    if (typeof parts !== 'object' || Array.isArray(parts)) return 'addressParts is not an object';
    for (const v of Object.values(parts)) if (v !== null && typeof v !== 'string') return 'addressParts holds something other than text';
  }
  const hours = l.openingHours;
  if (hours !== undefined && hours !== null) {
    if (!Array.isArray(hours)) return 'openingHours is not a week';
    for (const d of hours as unknown[]) {
      const day = d as Record<string, unknown> | null;
      if (!day || typeof day.day !== 'number' || typeof day.text !== 'string' || typeof day.dayName !== 'string' || !Array.isArray(day.intervals)) {
        return 'openingHours holds a malformed day';
      }
    }
  }
  const sources = l.sources;
  if (sources !== undefined) {
    if (typeof sources !== 'object' || sources === null || Array.isArray(sources)) return 'sources is not an object';
    for (const v of Object.values(sources)) if (!SOURCE_VALUES.has(v as string)) return `unknown source ${JSON.stringify(v)}`;
  }
  return null;
}

/**
 * One listing per key, organic only. A sponsored card repeats a place an ad paid for (its
 * website is an ad-click link), so it is kept only as far as the same place also appears
 * organically, and then the organic card's fields are used. Copies of one organic place are
 * folded together field by field (the more complete value wins, a null never erases).
 */
export function organicByKey(listings: readonly Listing[]): Listing[] {
  return listingsByKey(listings.filter((l) => !l.sponsored));
}

/**
 * Another browser's reading of a place this browser already holds, as the merge should take
 * it: no name and no links of its own, so the stored ones stay (mergeListingFields keeps the
 * stored name and link where a reading has none), and its other fields compete by the field rule.
 */
export function secondHandReading(l: Listing): Listing {
  return { ...l, name: '', url: '', placeId: null, featureId: null };
}

/**
 * The stored form of a found listing: a new key starts its history at `now`; a known key
 * keeps firstSeen, gains what it did not know, and records the collection, keyword and cell
 * once each.
 */
export function mergeListing(existing: StoredListing | undefined, reading: Listing, ctx: FoundContext): StoredListing {
  // Every reading of every site is stored through here: its phone's E.164 form is read here once,
  // in the region its site declares (a site listing places worldwide: the address's country).
  const found = withPhoneE164(reading, providerById(reading.provider)?.phoneRegion);
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
 * One listing per key, ads kept (collect while browsing, issue 14): what the person saw,
 * sponsored places included, flagged `sponsored: true` unless an organic copy of the same
 * place is in the batch (then it is an ordinary result, see mergeListingFields). Sweeps do not
 * use this: their counts and coverage are organic results only (organicByKey).
 */
export function listingsByKey(listings: readonly Listing[]): Listing[] {
  const byKey = new Map<string, Listing>();
  for (const l of listings) {
    const seen = byKey.get(l.key);
    byKey.set(l.key, seen ? mergeFields(seen, l) : { ...l });
  }
  return [...byKey.values()];
}

/** See utils/listing/merge-fields.ts: more complete wins, a null never erases. */
const mergeFields = mergeListingFields;

function addOnce(list: readonly string[], item: string): string[] {
  return list.includes(item) ? [...list] : [...list, item];
}
