import type { ProviderId } from './place';

/** Which map site a listing came from. */
export type Provider = ProviderId;

/**
 * One business as extracted from a map page. Fields the page did not show are `null`
 * (never guessed): an absent website is a meaningful signal to the user.
 */
export interface Listing {
  /**
   * The dedup key: `{provider}:{providerId}`. On Google that is `google:{cid}`: every Google id
   * form (feature id `0x…:0x…`, CID, ChIJ place_id) carries the CID, so every form a page shows
   * maps to this one key.
   */
  key: string;
  provider: Provider;
  /**
   * The provider's canonical id, as exported (`provider_id`): Google's CID (unsigned decimal),
   * Naver's place id (digits), Kakao's confirmid (digits).
   */
  providerId: string;
  /** Google only: ChIJ place_id when derivable (feature id known), else null. */
  placeId: string | null;
  /** Google only: feature id `0x…:0x…` when known. */
  featureId: string | null;
  /** Google only: the unsigned decimal CID (= providerId); null for other providers. */
  cid: string | null;
  name: string;
  category: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  rating: number | null;
  reviews: number | null;
  lat: number | null;
  lng: number | null;
  /** A URL that opens the place: `https://www.google.com/maps?cid={cid}` or the card href. */
  url: string;
  /** Sponsored cards repeat an organic place; they are flagged and never counted as organic results. */
  sponsored: boolean;

  // Fields below are optional: only page data (the site's own JSON, see
  // utils/listing/merge-fields.ts for the trust rule) gives them, and listings stored before
  // they existed, or built by code that does not know them, simply lack them.

  /** Every category the site gives, main one first (`category` is the first). */
  categories?: string[];
  /** The address's parts where the site gives them; `address` stays the full text as the site formats it. */
  addressParts?: AddressParts | null;
  /** `phone` in E.164 (`+302102616578`): as the site gave it, else read from `phone` where it is stored (utils/listing/phone.ts). */
  phoneE164?: string | null;
  /** Further numbers the site lists for the place (display form), beyond `phone`. */
  otherPhones?: string[];
  /** Weekly opening hours as the site words them, Monday first: `Monday: 7 AM–8:30 PM; …; Sunday: Closed`. */
  hours?: string | null;
  /** The same, structured, where the site's data gives hours and minutes. */
  openingHours?: DayHours[] | null;
  /** Price level as the site shows it (`€€`, `₩₩`). */
  priceLevel?: string | null;
  /**
   * Whether the site marks the place closed for good or for now; null when the site gave an
   * open status that says neither; absent when no status was seen at all.
   */
  closed?: 'permanently' | 'temporarily' | null;
  /** The road-name address (도로명 주소) where the site gives it apart from `address` (Naver, Kakao). */
  roadAddress?: string | null;
  /** The lot-number address (지번 주소) where the site gives it apart from `address` (Naver, Kakao). */
  lotAddress?: string | null;
  /** A booking link the site lists for the place (Naver 예약). */
  bookingUrl?: string | null;
  /** Where each known field's value came from (fields that are null have no entry). */
  sources?: FieldSources;
  /**
   * The pin lies far outside the box the search listed the place from: the page's own world
   * (its data, a script) put it there, not the search. Kept as the page gave it, never used to
   * drop the place from the area, and replaced by the next pin that is not doubted.
   */
  pinDoubted?: true;
  /**
   * Fields a reading of this place had to cut to the bounds (utils/listing/bounds.ts): a text
   * shortened (it ends in "…"), a list shortened, a link too long to keep dropped. Absent when
   * nothing was cut.
   */
  cut?: BoundedField[];
}

/** From the site's structured address (Google `P[183][1]`); any part may be missing. */
export interface AddressParts {
  street: string | null;
  /** Borough or district. */
  district: string | null;
  city: string | null;
  postalCode: string | null;
  /** State or province. */
  region: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | null;
}

/** One day of a week's hours. */
export interface DayHours {
  /** ISO weekday, 1 = Monday … 7 = Sunday. */
  day: number;
  /** The day's name in the results language (`Monday`, `Σάββατο`). */
  dayName: string;
  /** The site's own wording (`7 AM–8:30 PM`, `Closed`). */
  text: string;
  /** `HH:MM` 24-hour times; empty when closed all day. A close before the open ends after midnight. */
  intervals: Array<{ open: string; close: string }>;
}

/**
 * Where a value came from: a result card, the place panel, or page data (the site's own
 * JSON: search responses copied from the page's world, or the place page's state).
 */
export type FieldSource = 'card' | 'panel' | 'page-data';

/** Fields whose origin is recorded. */
export const SOURCED_FIELDS = [
  'category',
  'categories',
  'address',
  'addressParts',
  'phone',
  'phoneE164',
  'otherPhones',
  'website',
  'rating',
  'reviews',
  'hours',
  'openingHours',
  'priceLevel',
  'closed',
  'roadAddress',
  'lotAddress',
  'bookingUrl',
] as const;
export type SourcedField = (typeof SOURCED_FIELDS)[number];
export type FieldSources = Partial<Record<SourcedField, FieldSource>>;

/** A listing as stored: the extracted fields plus where and when it was found. */
export interface StoredListing extends Listing {
  firstSeen: number;
  lastSeen: number;
  /** Sweep ids (and 'browsing') that found it. */
  collections: string[];
  keywords: string[];
  /** Cell ids that found it (capped, newest kept; for explaining coverage, not for logic). */
  cells: string[];
}

/** The fields boundListing may cut; a listing names the ones it cut in `cut`. */
export const BOUNDED_FIELDS = [
  'name',
  'category',
  'categories',
  'address',
  'addressParts',
  'roadAddress',
  'lotAddress',
  'phone',
  'phoneE164',
  'otherPhones',
  'website',
  'bookingUrl',
  'priceLevel',
  'hours',
  'openingHours',
] as const satisfies readonly (keyof Listing)[];
export type BoundedField = (typeof BOUNDED_FIELDS)[number];
