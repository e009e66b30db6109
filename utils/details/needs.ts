/**
 * Which listings a place page can complete. Pure.
 *
 * Only fields the site's place page gives count (MapProvider.placePages.fields): a listing that
 * has them all, or that was already read from a complete record of the site (its
 * `placePages.completeSources`), costs no page load. Its nulls are then the site's own answer
 * ("no phone"), not a card that left the phone out, and a place page would say the same. Which
 * page that is: the registry's placePageUrl.
 */
import type { Listing } from '../domain/listing';
import type { ProviderId } from '../domain/place';
import { providerById, providerFor } from '../providers/registry';
import type { DetailField } from '../providers/types';

export type { DetailField } from '../providers/types';

/** Each site's place pages (MapProvider.placePages); null for a site this version does not know (a record from elsewhere: nothing to add). */
const pagesOf = (provider: ProviderId) => providerById(provider)?.placePages ?? null;

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
  return (pagesOf(l.provider)?.fields ?? []).filter((f) => isMissing(l, f));
}

/**
 * Whether the listing's place page is worth one page load. Sponsored-only places are not. One
 * read from a complete record is, only for a field such a record may leave out altogether
 * (`listMayOmit`): a field the list no longer carries is missing, not the site's "none".
 */
export function needsDetails(l: Listing): boolean {
  if (l.sponsored) return false;
  const pages = pagesOf(l.provider);
  const missing = missingFields(l);
  const complete = pages?.completeSources ?? [];
  if (complete.length > 0 && Object.values(l.sources ?? {}).some((s) => complete.includes(s))) {
    return missing.some((f) => pages?.listMayOmit?.includes(f));
  }
  return missing.length > 0;
}

/** The pacing lane of a provider's place pages: their own host (one load at a time per host). */
export function detailsLaneUrl(provider: ProviderId): string {
  return providerFor(provider).placePages.laneUrl;
}

/** Fields `after` knows that `before` did not, or says more about (for the log and the report). */
export function filledFields(before: Listing, after: Listing): DetailField[] {
  return (pagesOf(after.provider)?.fields ?? []).filter((f) => isMissing(before, f) && !isMissing(after, f));
}
