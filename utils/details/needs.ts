/**
 * Which listings a place page can complete, and which page that is. Pure.
 *
 * Only fields the place page gives count (DETAIL_FIELDS): a listing that has them all, or
 * that was already read from a complete record of the site (Google's own search answers or
 * place state, a place panel: `page-data` / `panel` sources on Google, `panel` on Kakao),
 * costs no page load. Its nulls are then the site's own answer ("no phone"), not a card that
 * left the phone out, and a place page would say the same.
 */
import type { Listing } from '../listing/types';
import type { ProviderId } from '../providers/place';
import { cidUrl } from '../providers/google/urls';
import { pcmapPlaceHomeUrl } from '../providers/naver/urls';
import { placeUrl } from '../providers/kakao/urls';

export type DetailField = 'address' | 'phone' | 'website' | 'hours' | 'categories' | 'roadAddress' | 'lotAddress' | 'bookingUrl';

/** What each site's place page gives beyond its list (see the readers in utils/details/content-*.ts). */
export const DETAIL_FIELDS: Readonly<Record<ProviderId, readonly DetailField[]>> = {
  // The panel (address, phone, website) and APP_INITIALIZATION_STATE (full address and its parts, categories, hours).
  google: ['address', 'phone', 'website', 'hours', 'categories'],
  // PlaceDetailBase (road and lot addresses, phone) and placeDetail (homepage, booking).
  naver: ['phone', 'website', 'roadAddress', 'lotAddress', 'bookingUrl'],
  // The place page's contact, homepage and both addresses.
  kakao: ['phone', 'website', 'roadAddress', 'lotAddress'],
};

/** Sources that mean "read from the site's complete record of the place" (see above). */
const COMPLETE_SOURCES: Readonly<Record<ProviderId, readonly string[]>> = {
  google: ['page-data', 'panel'],
  // Naver's list answers are page-data too, and they lack the homepage: only the place page is complete.
  naver: [],
  kakao: ['panel'],
};

function blank(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Whether `field` is missing from `l`, as far as a place page could tell. */
export function isMissing(l: Listing, field: DetailField): boolean {
  switch (field) {
    case 'address':
      // A card's address is the short street part; only a full record gives the parts.
      return blank(l.address) || l.addressParts === undefined || l.addressParts === null;
    case 'hours':
      return blank(l.hours) && blank(l.openingHours);
    default:
      return blank(l[field]);
  }
}

/** The detail fields `l` lacks (empty when a place page has nothing to add). */
export function missingFields(l: Listing): DetailField[] {
  return (DETAIL_FIELDS[l.provider] ?? []).filter((f) => isMissing(l, f));
}

/** Whether the listing's place page is worth one page load. Sponsored-only places are not. */
export function needsDetails(l: Listing): boolean {
  if (l.sponsored) return false;
  const complete = COMPLETE_SOURCES[l.provider] ?? [];
  if (complete.length > 0 && Object.values(l.sources ?? {}).some((s) => complete.includes(s))) return false;
  return missingFields(l).length > 0;
}

/**
 * The place page to load for `l`, or null when its ids do not name one. Google's page is
 * asked in the sweep's results language (`hl`), like its searches.
 *
 * Google: `/maps/place/data=!4m2!3m1!1s{featureId}` when the feature id is known (result cards'
 * links carry it), else `/maps?cid={cid}`. The first form is under `/maps/`, where the content
 * script runs (entrypoints/google-maps.content.ts matches `https://www.google.com/maps/*`); the
 * CID form is not, and is answered only once the site has navigated to the place URL.
 */
export function placePageUrl(l: Pick<Listing, 'provider' | 'providerId' | 'cid'> & { featureId?: string | null }, lang?: string): string | null {
  if (!/^\d{1,20}$/.test(l.providerId)) return null;
  switch (l.provider) {
    case 'google': {
      const hl = lang ? `hl=${encodeURIComponent(lang)}` : '';
      if (l.featureId && FEATURE_ID.test(l.featureId)) return `https://www.google.com/maps/place/data=!4m2!3m1!1s${l.featureId.toLowerCase()}${hl ? `?${hl}` : ''}`;
      const cid = l.cid ?? l.providerId;
      return hl ? `${cidUrl(cid)}&${hl}` : cidUrl(cid);
    }
    case 'naver':
      try {
        return pcmapPlaceHomeUrl(l.providerId);
      } catch {
        return null; // not a Naver place id
      }
    case 'kakao':
      return placeUrl(l.providerId);
    default:
      return null;
  }
}

const FEATURE_ID = /^0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16}$/i;

/**
 * The pacing lane of a provider's place pages: their own host (Kakao's place pages are on
 * place.map.kakao.com, not the search lane's map.kakao.com). One load at a time per host.
 */
export function detailsLaneUrl(provider: ProviderId): string {
  return PLACE_ORIGINS[provider] ?? PLACE_ORIGINS.google;
}

const PLACE_ORIGINS: Readonly<Record<ProviderId, string>> = {
  google: 'https://www.google.com/maps/',
  naver: 'https://pcmap.place.naver.com/',
  kakao: 'https://place.map.kakao.com/',
};

/** Fields `after` knows that `before` did not, or says more about (for the log and the report). */
export function filledFields(before: Listing, after: Listing): DetailField[] {
  return (DETAIL_FIELDS[after.provider] ?? []).filter((f) => isMissing(before, f) && !isMissing(after, f));
}
