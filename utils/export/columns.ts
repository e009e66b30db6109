import type { DayHours, StoredListing } from '../listing/types';
import { cidUrl } from '../providers/google/urls';

/**
 * The export's columns: stable English identifiers (they are an interface for the user's
 * spreadsheets and scripts), in this order. Numbers stay numbers; only text is neutralised.
 * New columns are only ever appended, so a script that reads columns by position keeps working;
 * `address` is the full address (the site's own formatting) where the page data gave it.
 */
export const CSV_COLUMNS = [
  'place_id',
  'name',
  'category',
  'address',
  'phone',
  'website',
  'rating',
  'reviews',
  'lat',
  'lng',
  'google_maps_url',
  'cid',
  'keywords',
  'first_seen',
  'last_seen',
  // Issue 16: from the site's own data (Listing's optional fields); empty when not given.
  'categories',
  'street',
  'district',
  'city',
  'postal_code',
  'region',
  'country_code',
  'phone_e164',
  'other_phones',
  'hours',
  'opening_hours',
  'price_level',
  'closed',
  'sources',
  // Issue 11: provider-neutral identity and the Korean sites' fields. One export may mix
  // providers (the Browsing collection); Google-only columns above (place_id,
  // google_maps_url, cid) stay empty for Naver and Kakao places.
  'provider',
  'provider_id',
  /** The place on its own site (Google's card link or CID link, Naver's or Kakao's place page). */
  'url',
  'road_address',
  'lot_address',
  'booking_url',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];
export type ExportRow = Record<CsvColumn, string | number | null>;

export function listingToRow(listing: StoredListing): ExportRow {
  return {
    place_id: listing.placeId,
    name: listing.name,
    category: listing.category,
    address: listing.address,
    phone: listing.phone,
    website: listing.website,
    rating: listing.rating,
    reviews: listing.reviews,
    lat: listing.lat,
    lng: listing.lng,
    google_maps_url: listing.provider === 'google' && listing.cid ? cidUrl(listing.cid) : null,
    cid: listing.cid,
    keywords: listing.keywords.join('; '),
    first_seen: new Date(listing.firstSeen).toISOString(),
    last_seen: new Date(listing.lastSeen).toISOString(),
    categories: joined(listing.categories ?? (listing.category ? [listing.category] : [])),
    street: listing.addressParts?.street ?? null,
    district: listing.addressParts?.district ?? null,
    city: listing.addressParts?.city ?? null,
    postal_code: listing.addressParts?.postalCode ?? null,
    region: listing.addressParts?.region ?? null,
    country_code: listing.addressParts?.countryCode ?? null,
    phone_e164: listing.phoneE164 ?? null,
    other_phones: joined(listing.otherPhones),
    hours: listing.hours ?? null,
    opening_hours: openingHoursText(listing.openingHours),
    price_level: listing.priceLevel ?? null,
    closed: listing.closed ?? null,
    sources: sourcesText(listing.sources),
    provider: listing.provider,
    // Listings are migrated to carry providerId (store v4); the CID stands in for any that were not.
    provider_id: listing.providerId ?? listing.cid,
    url: placeUrl(listing),
    road_address: listing.roadAddress ?? null,
    lot_address: listing.lotAddress ?? null,
    booking_url: listing.bookingUrl ?? null,
  };
}

/**
 * The listing's own link when it is http(s) (it was read from the page: a `javascript:` link is
 * no place's address), else Google's CID link for a Google place, else nothing.
 */
function placeUrl(listing: StoredListing): string | null {
  if (/^https?:\/\//i.test(listing.url)) return listing.url;
  return listing.provider === 'google' && listing.cid ? cidUrl(listing.cid) : null;
}

/** Lists in one cell, `; `-separated (the separator `keywords` uses). */
function joined(list: readonly string[] | undefined): string | null {
  return list && list.length > 0 ? list.join('; ') : null;
}

const DAY_CODES = ['', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/**
 * The structured week in OpenStreetMap's `opening_hours` syntax (`Mo 07:00-20:30; Su off`),
 * which spreadsheets keep as text and many tools parse; a day without times (the site's
 * wording only) is left out rather than guessed.
 */
export function openingHoursText(week: readonly DayHours[] | null | undefined): string | null {
  if (!week || week.length === 0) return null;
  const days = week
    .filter((d) => d.day >= 1 && d.day <= 7)
    .map((d) => {
      if (d.intervals.length > 0) return `${DAY_CODES[d.day]} ${d.intervals.map((i) => `${i.open}-${i.close}`).join(',')}`;
      return /closed|κλειστό|휴무|휴업|geschlossen|fermé/i.test(d.text) ? `${DAY_CODES[d.day]} off` : null;
    })
    .filter((d): d is string => d !== null);
  return days.length > 0 ? days.join('; ') : null;
}

/** `address=page-data; phone=card`: where each known field came from. */
function sourcesText(sources: StoredListing['sources']): string | null {
  const parts = Object.entries(sources ?? {}).map(([field, source]) => `${field}=${source}`);
  return parts.length > 0 ? parts.join('; ') : null;
}
