import type { StoredListing } from '../listing/types';
import { cidUrl } from '../providers/google/urls';

/**
 * The export's columns: stable English identifiers (they are an interface for the user's
 * spreadsheets and scripts), in this order. Numbers stay numbers; only text is neutralised.
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
    google_maps_url: cidUrl(listing.cid),
    cid: listing.cid,
    keywords: listing.keywords.join('; '),
    first_seen: new Date(listing.firstSeen).toISOString(),
    last_seen: new Date(listing.lastSeen).toISOString(),
  };
}
