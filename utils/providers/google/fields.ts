import type { FieldSource, Listing } from '../../domain/listing';
import { boundListing, TEXT_BOUNDS } from '../../listing/bounds';
import { stampSources } from '../../listing/merge-fields';
import { cidUrl } from './urls';

/**
 * Field bounds and the one place a Google `Listing` is assembled, so DOM cards, the place
 * panel and network items all produce the same shape.
 */

/**
 * Longest value kept per field: the listing bounds (utils/listing/bounds.ts). Longer DOM text
 * is cut, longer network strings are refused.
 */
export const TEXT_LIMITS = TEXT_BOUNDS;

/** Ids as `resolveIds` / `parsePlaceUrl` give them once they agree. */
export interface ResolvedIds {
  key: string;
  cid: string;
  featureId: string | null;
  placeId: string | null;
}

export type ListingFields = Pick<Listing, 'name' | 'category' | 'address' | 'phone' | 'website' | 'rating' | 'reviews' | 'lat' | 'lng' | 'sponsored'> &
  Partial<Omit<Listing, 'key' | 'provider' | 'providerId' | 'placeId' | 'featureId' | 'cid' | 'url' | 'sources'>>;

/** `source`: where these values were read, recorded per known field (see Listing.sources). */
export function makeListing(ids: ResolvedIds, fields: ListingFields, source?: FieldSource): Listing {
  const listing: Listing = {
    key: ids.key,
    provider: 'google',
    providerId: ids.cid,
    placeId: ids.placeId,
    featureId: ids.featureId,
    cid: ids.cid,
    url: cidUrl(ids.cid),
    ...fields,
  };
  // Cut to the listing bounds here, where every Google reading becomes a Listing.
  const bounded = boundListing(listing);
  return source ? stampSources(bounded, source) : bounded;
}

/** A pin only when both coordinates are finite and on the globe (a forged href can say anything). */
export function checkPin(lat: unknown, lng: unknown): { lat: number; lng: number } | null {
  if (typeof lat !== 'number' || typeof lng !== 'number') return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

const GOOGLE_HOST = /(^|\.)google\.[a-z.]+$/i;
// Ad clicks also go through the ad server's own host (`www.googleadservices.com/pagead/aclk?…&adurl=`).
const AD_HOST = /(^|\.)googleadservices\.com$/i;
const isAdClick = (url: URL): boolean =>
  (GOOGLE_HOST.test(url.hostname) && url.pathname === '/aclk') || (AD_HOST.test(url.hostname) && url.pathname === '/pagead/aclk');
const isRedirect = (url: URL): boolean => (GOOGLE_HOST.test(url.hostname) && url.pathname === '/url') || isAdClick(url);

/**
 * A link target made usable: Google's `/url?q=<real>` redirect is unwrapped, an ad's
 * `/aclk?…&adurl=<real>` too when it carries one (they usually do not: the ad link is then
 * dropped); anything that is not http(s) in the end is refused.
 */
export function unwrapLink(href: string | null | undefined, base = 'https://www.google.com'): string | null {
  if (!href) return null;
  const url = parseUrl(href.trim(), base);
  if (!url) return null;
  if (!isRedirect(url)) return httpOnly(url);
  const target = isAdClick(url) ? url.searchParams.get('adurl') : (url.searchParams.get('q') ?? url.searchParams.get('url'));
  const inner = target ? parseUrl(target) : null;
  // One level only: a redirect to a redirect is not a website.
  return inner && !isRedirect(inner) ? httpOnly(inner) : null;
}

function parseUrl(text: string, base?: string): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

function httpOnly(url: URL): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return url.href.length <= TEXT_LIMITS.url ? url.href : null;
}
