import { BOUNDED_FIELDS, type BoundedField, type Listing } from '../domain/listing';

/**
 * How big a listing's fields may be (issue 22). Page content is hostile and sometimes just
 * odd: a place with 200 categories or a 20,000-character name must neither fill the store nor
 * make it refuse the cell the place was found in. Every reading is cut to these bounds where a
 * provider's place becomes a Listing (boundListing: utils/listing/from-provider-place.ts for
 * Naver and Kakao, utils/providers/google/fields.ts makeListing for Google), and the store
 * checks the same bounds (overBounds, utils/store/listing-merge.ts), so a reading that passed
 * through here is never refused for its size.
 *
 * Lengths are JavaScript string lengths (UTF-16 code units): what the store and exports hold.
 */
export const TEXT_BOUNDS = {
  name: 300,
  category: 200,
  address: 500,
  phone: 64,
  url: 2048,
  id: 64,
  /** A price level (`€€`, `₩₩₩`, `$10–20`). */
  price: 32,
  /** One day's hours text, a day's name, or an open-status line. */
  hours: 200,
  /** The week's hours as one text (`Monday: 7 AM–8:30 PM; …`): seven days of `hours`. */
  week: 7 * 200,
} as const;

/** How many items a listing's lists may hold. Google's place data gives at most 20 categories. */
export const LIST_BOUNDS = {
  categories: 20,
  otherPhones: 10,
  /** Days of a week. */
  openingHours: 7,
  /** Opening intervals in one day. */
  intervals: 8,
} as const;

/** Marks the end of a text that was cut, so a person reading it sees it is not whole. */
export const CUT_MARK = '…';

/**
 * `text` in at most `max` code units: unchanged when it fits, else cut at a character
 * boundary (never between the halves of a surrogate pair) and ended with CUT_MARK.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - CUT_MARK.length);
  // A high surrogate as the last kept unit would be half a character (an emoji, a rare Hanja).
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end).trimEnd() + CUT_MARK;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * `listing` within the bounds, naming in `cut` every field that had to be cut (a long text
 * shortened, a list shortened or an item in it shortened, a link too long to be a link
 * dropped). A listing already within them comes back as it was (the same object).
 *
 * Links are dropped, not shortened: half a URL opens something else. The place's own `url`
 * and its ids are built from checked ids, never from free page text, so they are not here.
 */
export function boundListing(listing: Listing): Listing {
  const cut = new Set<BoundedField>(listing.cut ?? []);
  const out: Listing = { ...listing };
  const set = <K extends BoundedField>(field: K, value: Listing[K]): void => {
    if (value === listing[field]) return;
    out[field] = value;
    cut.add(field);
  };
  const text = (value: string | null, max: number): string | null => (value === null ? null : cutText(value, max));
  const optionalText = (value: string | null | undefined, max: number): string | null | undefined => (typeof value === 'string' ? cutText(value, max) : value);
  const link = (value: string | null | undefined): string | null | undefined => (typeof value === 'string' && value.length > TEXT_BOUNDS.url ? null : value);

  set('name', cutText(listing.name, TEXT_BOUNDS.name));
  set('category', text(listing.category, TEXT_BOUNDS.category));
  set('address', text(listing.address, TEXT_BOUNDS.address));
  set('phone', text(listing.phone, TEXT_BOUNDS.phone));
  set('website', link(listing.website) ?? null);
  set('roadAddress', optionalText(listing.roadAddress, TEXT_BOUNDS.address));
  set('lotAddress', optionalText(listing.lotAddress, TEXT_BOUNDS.address));
  set('phoneE164', optionalText(listing.phoneE164, TEXT_BOUNDS.phone));
  set('priceLevel', optionalText(listing.priceLevel, TEXT_BOUNDS.price));
  set('hours', optionalText(listing.hours, TEXT_BOUNDS.week));
  set('bookingUrl', link(listing.bookingUrl));
  set('categories', boundedList(listing.categories, LIST_BOUNDS.categories, TEXT_BOUNDS.category));
  set('otherPhones', boundedList(listing.otherPhones, LIST_BOUNDS.otherPhones, TEXT_BOUNDS.phone));
  set('addressParts', boundedParts(listing.addressParts));
  set('openingHours', boundedWeek(listing.openingHours));

  if (cut.size === (listing.cut?.length ?? 0)) return listing;
  out.cut = BOUNDED_FIELDS.filter((f) => cut.has(f));
  return out;
}

/**
 * The fields of `listing` beyond the bounds, in BOUNDED_FIELDS order: what boundListing would
 * cut. Empty for every listing boundListing returned. Expects the field types already checked.
 */
export function overBounds(listing: Listing): BoundedField[] {
  const bounded = boundListing({ ...listing, cut: [] });
  return bounded.cut ?? [];
}

/** `list` with at most `count` items of at most `max` code units each; the same array when it fits. */
function boundedList(list: string[] | undefined, count: number, max: number): string[] | undefined {
  if (!list) return list;
  const kept = list.slice(0, count).map((s) => cutText(s, max));
  return kept.length === list.length && kept.every((s, i) => s === list[i]) ? list : kept;
}

function boundedParts(parts: Listing['addressParts']): Listing['addressParts'] {
  if (!parts) return parts;
  const entries = Object.entries(parts).map(([k, v]) => [k, typeof v === 'string' ? cutText(v, TEXT_BOUNDS.address) : v] as const);
  return entries.every(([k, v]) => v === parts[k as keyof typeof parts]) ? parts : (Object.fromEntries(entries) as typeof parts);
}

function boundedWeek(week: Listing['openingHours']): Listing['openingHours'] {
  if (!week) return week;
  const kept = week.slice(0, LIST_BOUNDS.openingHours).map((d) => {
    const day = {
      ...d,
      dayName: cutText(d.dayName, TEXT_BOUNDS.hours),
      text: cutText(d.text, TEXT_BOUNDS.hours),
      intervals: d.intervals.slice(0, LIST_BOUNDS.intervals),
    };
    return day.dayName === d.dayName && day.text === d.text && day.intervals.length === d.intervals.length ? d : day;
  });
  return kept.length === week.length && kept.every((d, i) => d === week[i]) ? week : kept;
}
