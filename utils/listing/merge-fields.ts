import { BOUNDED_FIELDS } from '../domain/listing';
import { betterAddress, usableText } from './field-quality';
import { SOURCED_FIELDS, type FieldSource, type FieldSources, type Listing, type SourcedField } from '../domain/listing';

/**
 * Folding what several readings said about one place into one listing, field by field.
 *
 * Trust rule for page data (the site's own JSON: search responses copied out of the page's
 * JavaScript world by the MAIN-world hook, or the place page's APP_INITIALIZATION_STATE):
 * it is page content, as trustworthy as the DOM's text and no more. It may fill listing
 * fields once it passed the same shape checks and sanitising as DOM text (the valibot
 * schemas in utils/providers/google/place-schema.ts), and only for a place id the DOM
 * also showed on that page (utils/providers/google/page-data.ts). It never starts, stops or
 * judges a sweep: the judge and the audit count what the DOM showed. A page-data value that
 * contradicts the DOM for the same place (name, ids, coordinates beyond a small tolerance)
 * is dropped, the whole record with it, and counted in the page audit (`pageDataDropped`).
 *
 * Which value wins: the more complete one, whichever came first (a card's "Eakou 74"
 * never replaces "Eakou 74, Ilion 131 22, Greece"; a phone without its E.164 never replaces
 * the same number with it). Only when neither says more than the other (a different value:
 * the place changed) does the newer reading win. A null never erases a known value.
 *
 * Identity (key, provider, providerId, cid) is the stored record's: one key is one place. A
 * place stays flagged sponsored only while every reading of it was an ad: one organic
 * sighting shows it is an ordinary result, and an ad for it later does not undo that.
 */

/** `listing` with `source` recorded for each of its known (non-null, non-empty) sourced fields. */
export function stampSources(listing: Listing, source: FieldSource): Listing {
  const sources: FieldSources = { ...listing.sources };
  for (const field of SOURCED_FIELDS) {
    if (known(listing[field])) sources[field] = source;
  }
  return Object.keys(sources).length > 0 ? { ...listing, sources } : listing;
}

function known(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

/**
 * The fields of `base` updated by `next` (see the rule above). Optional fields appear in
 * the result only when one side has them, so listings that never had them keep their shape.
 */
export function mergeListingFields(base: Listing | undefined, next: Listing): Listing {
  const merged: Listing = {
    key: base?.key ?? next.key,
    provider: base?.provider ?? next.provider,
    // A record stored before providerId existed (not migrated yet) has its CID for it.
    providerId: base?.providerId ?? base?.cid ?? next.providerId,
    cid: base?.cid ?? next.cid,
    placeId: next.placeId ?? base?.placeId ?? null,
    featureId: next.featureId ?? base?.featureId ?? null,
    name: next.name !== '' ? next.name : (base?.name ?? ''),
    category: null,
    address: null,
    phone: null,
    website: null,
    rating: null,
    reviews: null,
    ...coordinates(base, next),
    url: next.url !== '' ? next.url : (base?.url ?? ''),
    sponsored: base ? base.sponsored && next.sponsored : next.sponsored,
  };
  const sources: FieldSources = {};
  /** Copy `fields` from the side chosen, with their recorded origin. */
  const take = (from: Listing | undefined, ...fields: SourcedField[]): void => {
    for (const f of fields) {
      const value = from?.[f];
      if (value === undefined) continue;
      (merged as unknown as Record<string, unknown>)[f] = value;
      const src = from?.sources?.[f];
      if (src && known(value)) sources[f] = src;
    }
  };
  const pick = (f: SourcedField): void => take(known(next[f]) ? next : base, f);

  // Hours text ("Open ⋅ Closes 10 pm", "영업 중") is never a category or an address.
  take(usableText(next.category) !== null ? next : usableText(base?.category) !== null ? base : undefined, 'category');
  take(longerList(base?.categories, next.categories) === 'base' ? base : next, 'categories');

  // The parts describe the address they came with: they travel together.
  const address = betterAddress(base?.address ?? null, next.address);
  const addressFrom = address === null ? undefined : address === usableText(next.address) ? next : base;
  take(addressFrom, 'address');
  take(addressFrom?.addressParts ? addressFrom : known(next.addressParts) ? next : base, 'addressParts');
  // Road-name and lot-number addresses (Naver, Kakao) each by the same rule as the address.
  takeAddress(base, next, 'roadAddress', take);
  takeAddress(base, next, 'lotAddress', take);

  // A phone and its E.164 form travel together, as do the other numbers listed with them.
  take(betterPhone(base, next), 'phone', 'phoneE164', 'otherPhones');
  // An ad's link (even unwrapped from the ad server) is the advertiser's landing page, often
  // with tracking parameters: it never replaces a website an organic reading gave.
  const adOverOrganic = next.sponsored && base !== undefined && !base.sponsored;
  take(adOverOrganic && known(base.website) ? base : known(next.website) ? next : base, 'website');
  pick('rating');
  pick('reviews');
  take(hoursScore(next) >= hoursScore(base) && hoursScore(next) > 0 ? next : base, 'hours', 'openingHours');
  pick('priceLevel');
  pick('bookingUrl');
  // `closed: null` is a reading ("open"), not an unknown: it does replace an old "temporarily".
  take(next.closed !== undefined ? next : base, 'closed');

  if (Object.keys(sources).length > 0) merged.sources = sources;
  // Every reading is cut to the same bounds, so a field one reading had to cut stays marked.
  const cut = BOUNDED_FIELDS.filter((f) => base?.cut?.includes(f) || next.cut?.includes(f));
  if (cut.length > 0) merged.cut = cut;
  return merged;
}

/** The side whose `field` (an address) says more, by betterAddress; nothing when neither knows it. */
function takeAddress(
  base: Listing | undefined,
  next: Listing,
  field: 'roadAddress' | 'lotAddress',
  take: (from: Listing | undefined, ...fields: SourcedField[]) => void,
): void {
  const better = betterAddress(base?.[field] ?? null, next[field] ?? null);
  if (better === null) {
    // Neither side has a usable value: keep a present null (a reading that showed none) as it was.
    take(next[field] !== undefined ? next : base, field);
    return;
  }
  take(better === usableText(next[field]) ? next : base, field);
}

/** Which list says more: one holding every item of the other and more; else the newer. */
function longerList(a: readonly string[] | undefined, b: readonly string[] | undefined): 'base' | 'next' {
  if (!b || b.length === 0) return 'base';
  if (!a || a.length === 0) return 'next';
  if (a.length > b.length && b.every((x) => a.includes(x))) return 'base';
  return 'next';
}

/**
 * The side whose phone to keep: a side without one never wins; the same number (by its
 * digits, a local form being the tail of the international one) is kept from the side that
 * knows more about it (E.164, further numbers), and from the stored side when both know as
 * much: the value is the same, so a later card must not take its source from the page data
 * that gave it; a different number is the newer reading.
 */
function betterPhone(base: Listing | undefined, next: Listing): Listing | undefined {
  if (!next.phone) return base?.phone ? base : next;
  if (!base?.phone) return next;
  if (!sameNumber(base, next)) return next;
  return phoneScore(base) >= phoneScore(next) ? base : next;
}

function phoneScore(l: Listing): number {
  return (l.phoneE164 ? 2 : 0) + (l.otherPhones && l.otherPhones.length > 0 ? 1 : 0);
}

/** Shortest significant tail compared: local numbers are at least 7 digits. */
const MIN_DIGITS = 7;

function sameNumber(a: Listing, b: Listing): boolean {
  const da = digits(a.phoneE164 ?? a.phone);
  const db = digits(b.phoneE164 ?? b.phone);
  const la = digits(a.phone);
  const lb = digits(b.phone);
  const tailMatch = (x: string, y: string): boolean =>
    x.length >= MIN_DIGITS && y.length >= MIN_DIGITS && (x.endsWith(y.replace(/^0+/, '')) || y.endsWith(x.replace(/^0+/, '')));
  return tailMatch(da, db) || tailMatch(la, lb) || tailMatch(da, lb) || tailMatch(la, db);
}

function digits(text: string | null | undefined): string {
  return (text ?? '').replace(/\D/g, '');
}

function hoursScore(l: Listing | undefined): number {
  return (l?.hours ? 1 : 0) + (l?.openingHours && l.openingHours.length > 0 ? 2 : 0);
}

/**
 * A coordinate pair is taken whole: half of a new pair beside half of an old one is no place.
 * A doubted pin (Listing.pinDoubted) never replaces one that is not, and stays marked.
 */
function coordinates(base: Listing | undefined, next: Listing): { lat: number | null; lng: number | null; pinDoubted?: true } {
  const has = (l: Listing | undefined): l is Listing & { lat: number; lng: number } => !!l && l.lat !== null && l.lng !== null;
  const pin = (l: Listing & { lat: number; lng: number }) => ({ lat: l.lat, lng: l.lng, ...(l.pinDoubted ? { pinDoubted: true as const } : {}) });
  if (has(next) && !(next.pinDoubted && has(base) && !base.pinDoubted)) return pin(next);
  if (has(base)) return pin(base);
  return { lat: null, lng: null };
}
