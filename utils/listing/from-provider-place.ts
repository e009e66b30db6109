/**
 * A Naver or Kakao place, as its extractor read it (utils/domain/place.ts), becomes the one
 * stored shape every provider shares (Listing). Google's extractor builds Listings itself
 * (utils/providers/google/fields.ts), because its ids come in three forms.
 *
 * `address` is what a person reads first: the road-name address when the site gives one, else
 * the lot-number address; both stay in their own fields. Every field is stamped with `source`,
 * and cut to the bounds (utils/listing/bounds.ts) here, where every Naver and Kakao reading —
 * sweep, collect while browsing, place details — becomes a Listing.
 */
import type { ProviderPlace } from '../domain/place';
import { boundListing } from './bounds';
import { stampSources } from './merge-fields';
import type { FieldSource, Listing } from '../domain/listing';
import { parseHoursText } from '../hours';

/** Words that say a place is closed (for now, for good, or on some day), in a piece the hours reader did not understand. */
const CLOSED_WORDS = /휴업|휴무|휴점|폐업|폐점|영업\s*중단|closed/i;

export function listingFromPlace(place: ProviderPlace, source: FieldSource): Listing {
  const otherPhones = place.virtualPhone && place.virtualPhone !== place.phone ? [place.virtualPhone] : [];
  const listing: Listing = {
    key: place.key,
    provider: place.provider,
    providerId: place.providerId,
    placeId: null,
    featureId: null,
    cid: null,
    name: place.name,
    category: place.category,
    address: place.roadAddress ?? place.address,
    phone: place.phone ?? place.virtualPhone,
    website: place.website,
    rating: place.rating,
    reviews: place.reviews,
    lat: place.lat,
    lng: place.lng,
    url: place.url,
    sponsored: place.sponsored,
    roadAddress: place.roadAddress,
    lotAddress: place.address,
    bookingUrl: place.bookingUrl,
  };
  // Broadest first on the place, main one first on the listing (Listing.categories).
  if (place.categoryPath.length > 0) listing.categories = [...place.categoryPath].reverse();
  if (place.phone && otherPhones.length > 0) listing.otherPhones = otherPhones;
  if (place.hoursText) {
    // The site's words stay as they are; the week only where they say it (a day not said is not in it).
    const week = parseHoursText(place.hoursText);
    listing.hours = place.hoursText;
    if (week.days.length > 0) listing.openingHours = week.days;
    // A week read with no closed word anywhere is the site's word that the place keeps its hours:
    // it clears an old closed mark (a place reopens). Words that read as no week, or a closed word
    // the reader did not understand ("내부 공사로 임시휴업"), say nothing of it.
    if (week.closed) listing.closed = week.closed;
    else if (week.days.length > 0 && !week.unparsed.some((u) => CLOSED_WORDS.test(u))) listing.closed = null;
  }
  return stampSources(boundListing(listing), source);
}
