import type { DayHours, StoredListing } from '../domain/listing';
import type { RatingDistribution } from '../domain/review';
import type { ContactSite } from '../contacts/records';
import type { SocialNetwork } from '../contacts/types';
import { phoneToE164 } from '../listing/phone';
// `google_maps_url` is a column named for Google's CID link (kept for the spreadsheets that read it): it is Google's to build.
import { cidUrl } from '../providers/google/urls';
import { providerById } from '../providers/registry';
import { businessIdOf } from '../match/groups';

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
  // Issue 14: collect-while-browsing keeps the places of sponsored cards (the person saw them);
  // `yes` marks them, so a Browsing export never mixes ads in unmarked. Sweeps leave ads out.
  'sponsored',
  // Issue 23: from the business's own website (the contacts pass), empty until it was checked.
  'emails',
  'instagram',
  'facebook',
  'x',
  'youtube',
  'tiktok',
  'linkedin',
  'kakao_channel',
  'naver_blog',
  'naver_cafe',
  'naver_smartstore',
  'band',
  'contact_page',
  'contacts_checked_at',
  // Issue 24: the business the place is one listing of (utils/match/); a place linked to no
  // other site's listing is a business of one, with its own id.
  'business_id',
  // Issue 36: `yes` where the pin lies far outside the box the search listed the place from (the
  // page's own world put it there): kept as given, not to be trusted to place the business.
  'pin_doubted',
  // Issue 38: the reviews stored for the place (the reviews pass), empty when none are.
  'reviews_collected',
  // Issue 38: how many ratings gave 1 … 5 stars, from the site's own histogram as the reviews pass
  // last saw it (utils/reviews/distribution.ts); empty where it was not read (Naver shows no
  // stars, Kakao's pass is not written, a page whose rows did not add up).
  'rating_1',
  'rating_2',
  'rating_3',
  'rating_4',
  'rating_5',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];
export type ExportRow = Record<CsvColumn, string | number | null>;

/** A listing as an export reads it: with its website's contacts, when the pass has been there. */
export type ExportListing = StoredListing & {
  contacts?: ContactSite | null;
  businessId?: string;
  reviewsCollected?: number;
  ratingDistribution?: RatingDistribution;
};

/**
 * How each column's value is read from a listing: one named function per column (the type
 * makes every column appear exactly once), so the CSV writer can walk a listing's cells in
 * CSV_COLUMNS order without building a 35-key object per row first, and every format still
 * gets its values from this one table.
 */
const COLUMN_VALUES: { [C in CsvColumn]: (listing: ExportListing) => string | number | null } = {
  place_id: (l) => l.placeId,
  name: (l) => l.name,
  category: (l) => l.category,
  address: (l) => l.address,
  phone: (l) => l.phone,
  website: (l) => l.website,
  rating: (l) => l.rating,
  reviews: (l) => l.reviews,
  lat: (l) => l.lat,
  lng: (l) => l.lng,
  google_maps_url: (l) => (l.provider === 'google' && l.cid ? cidUrl(l.cid) : null),
  cid: (l) => l.cid,
  keywords: (l) => l.keywords.join('; '),
  first_seen: (l) => isoTime(l.firstSeen),
  last_seen: (l) => isoTime(l.lastSeen),
  categories: (l) => joined(l.categories ?? (l.category ? [l.category] : [])),
  street: (l) => l.addressParts?.street ?? null,
  district: (l) => l.addressParts?.district ?? null,
  city: (l) => l.addressParts?.city ?? null,
  postal_code: (l) => l.addressParts?.postalCode ?? null,
  region: (l) => l.addressParts?.region ?? null,
  country_code: (l) => l.addressParts?.countryCode ?? null,
  phone_e164: (l) => l.phoneE164 ?? null,
  other_phones: (l) => joined(otherPhonesOf(l)),
  hours: (l) => l.hours ?? null,
  opening_hours: (l) => openingHoursText(l.openingHours),
  price_level: (l) => l.priceLevel ?? null,
  closed: (l) => l.closed ?? null,
  sources: (l) => sourcesText(l.sources),
  provider: (l) => l.provider,
  // Listings are migrated to carry providerId (store v4); the CID stands in for any that were not.
  provider_id: (l) => l.providerId ?? l.cid,
  url: (l) => placeUrl(l),
  road_address: (l) => l.roadAddress ?? null,
  lot_address: (l) => l.lotAddress ?? null,
  booking_url: (l) => l.bookingUrl ?? null,
  sponsored: (l) => (l.sponsored ? 'yes' : null),
  emails: (l) => joined(l.contacts?.findings?.emails.map((e) => e.value)),
  instagram: (l) => social(l, 'instagram'),
  facebook: (l) => social(l, 'facebook'),
  x: (l) => social(l, 'x'),
  youtube: (l) => social(l, 'youtube'),
  tiktok: (l) => social(l, 'tiktok'),
  linkedin: (l) => social(l, 'linkedin'),
  kakao_channel: (l) => social(l, 'kakao_channel'),
  naver_blog: (l) => social(l, 'naver_blog'),
  naver_cafe: (l) => social(l, 'naver_cafe'),
  naver_smartstore: (l) => social(l, 'naver_smartstore'),
  band: (l) => social(l, 'band'),
  contact_page: (l) => l.contacts?.findings?.contactPage ?? null,
  contacts_checked_at: (l) => (typeof l.contacts?.checkedAt === 'number' ? isoTime(l.contacts.checkedAt) : null),
  business_id: (l) => l.businessId ?? businessIdOf([l.key]),
  pin_doubted: (l) => (l.pinDoubted ? 'yes' : null),
  reviews_collected: (l) => (l.reviewsCollected ? l.reviewsCollected : null),
  rating_1: (l) => l.ratingDistribution?.[0] ?? null,
  rating_2: (l) => l.ratingDistribution?.[1] ?? null,
  rating_3: (l) => l.ratingDistribution?.[2] ?? null,
  rating_4: (l) => l.ratingDistribution?.[3] ?? null,
  rating_5: (l) => l.ratingDistribution?.[4] ?? null,
};

function social(l: ExportListing, network: SocialNetwork): string | null {
  return l.contacts?.findings?.socials[network]?.value ?? null;
}

/**
 * The site's further numbers, then the numbers the business's own website shows that are none
 * of the listing's (compared in E.164, so `02-123-4567` and `+82 2-123-4567` are one number);
 * a website number that is no valid number is left out: page text holds many digit runs.
 */
export function otherPhonesOf(l: ExportListing): string[] {
  const own = l.otherPhones ?? [];
  const fromSite = l.contacts?.findings?.phones ?? [];
  if (fromSite.length === 0) return [...own];
  const region = providerById(l.provider)?.phoneRegion ?? (l.addressParts?.countryCode as Parameters<typeof phoneToE164>[1]) ?? undefined;
  const known = new Set([l.phoneE164, ...[l.phone, ...own].map((p) => (p ? phoneToE164(p, region) : null))].filter((p): p is string => !!p));
  const out = [...own];
  for (const p of fromSite) {
    const e164 = phoneToE164(p.value, region);
    if (!e164 || known.has(e164)) continue;
    known.add(e164);
    out.push(p.value);
  }
  return out;
}

let lastTime = Number.NaN;
let lastIso = '';

/** The last millisecond of year 9999: past it toISOString writes six-digit years. */
const ISO_FAST_MAX = 253_402_300_799_999;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, 2 of every row's cells: remembered for the next row (the places
 * of one cell's commit share its time) and, for whole milliseconds of years 1970–9999, computed
 * from the day number (civil-from-days, H. Hinnant) rather than through a Date object, which
 * was the export's costliest cell. Anything else (fractions, before 1970, invalid) goes to
 * toISOString itself, so it prints, or throws, exactly as before.
 */
export function isoTime(ms: number): string {
  if (ms === lastTime) return lastIso;
  let iso: string;
  if (Number.isInteger(ms) && ms >= 0 && ms <= ISO_FAST_MAX) {
    const days = Math.floor(ms / 86_400_000);
    const inDay = ms - days * 86_400_000;
    // Days since 1970-01-01 → year, month, day (proleptic Gregorian), eras of 400 years.
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const doe = z - era * 146_097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const month = mp < 10 ? mp + 3 : mp - 9;
    const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    const h = Math.floor(inDay / 3_600_000);
    const m = Math.floor((inDay % 3_600_000) / 60_000);
    const sec = Math.floor((inDay % 60_000) / 1000);
    const milli = inDay % 1000;
    iso = `${year}-${pad2(month)}-${pad2(day)}T${pad2(h)}:${pad2(m)}:${pad2(sec)}.${milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : milli}Z`;
  } else {
    iso = new Date(ms).toISOString();
  }
  lastTime = ms;
  lastIso = iso;
  return iso;
}

/** The same functions in column order. */
export const COLUMN_READERS: readonly ((listing: ExportListing) => string | number | null)[] = CSV_COLUMNS.map((c) => COLUMN_VALUES[c]);

export function listingToRow(listing: ExportListing): ExportRow {
  const row = {} as ExportRow;
  for (const column of CSV_COLUMNS) row[column] = COLUMN_VALUES[column](listing);
  return row;
}

/**
 * The listing's own link when it is http(s) (it was read from the page: a `javascript:` link is
 * no place's address), else its site's own link to the place, else nothing.
 */
export function placeUrl(listing: StoredListing): string | null {
  if (/^https?:\/\//i.test(listing.url)) return listing.url;
  return providerById(listing.provider)?.placeLink(listing) ?? null;
}

/** Lists in one cell, `; `-separated (the separator `keywords` uses). */
function joined(list: readonly string[] | undefined): string | null {
  return list && list.length > 0 ? list.join('; ') : null;
}

const DAY_CODES = ['', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/**
 * The structured week in OpenStreetMap's `opening_hours` syntax (`Mo 07:00-20:30; Su off`),
 * which spreadsheets keep as text and many tools parse. A day the week does not give, or gives
 * only in words that are neither times nor closed, is written `unknown`: in this syntax a day left
 * out reads as closed, which nobody said.
 */
export function openingHoursText(week: readonly DayHours[] | null | undefined): string | null {
  if (!week || week.length === 0) return null;
  const said = new Map<number, string | null>();
  for (const d of week) {
    if (!(d.day >= 1 && d.day <= 7) || said.has(d.day)) continue;
    if (d.intervals.length > 0) said.set(d.day, d.intervals.map((i) => `${i.open}-${i.close}`).join(','));
    else said.set(d.day, CLOSED_WORDS.test(d.text) ? 'off' : null);
  }
  const parts = [1, 2, 3, 4, 5, 6, 7].filter((day) => said.get(day)).map((day) => `${DAY_CODES[day]} ${said.get(day)}`);
  if (parts.length === 0) return null;
  const unknown = [1, 2, 3, 4, 5, 6, 7].filter((day) => !said.get(day)).map((day) => DAY_CODES[day]);
  return [...parts, ...(unknown.length > 0 ? [`${unknown.join(',')} unknown`] : [])].join('; ');
}

/** Words that say a day is closed, in the languages the sites use (휴무, 휴진 at clinics, 휴관, 휴일, 쉼). */
const CLOSED_WORDS = /closed|off\b|κλειστό|휴무|휴업|휴진|휴관|휴일|쉼|geschlossen|fermé/i;

/** `address=page-data; phone=card`: where each known field came from. */
function sourcesText(sources: StoredListing['sources']): string | null {
  const parts = Object.entries(sources ?? {}).map(([field, source]) => `${field}=${source}`);
  return parts.length > 0 ? parts.join('; ') : null;
}
