/**
 * The providers the sweep can drive, by id and by the URL a tab shows. A sweep record from
 * before providers existed has no `provider` and is Google's.
 */
import { googleProvider } from './google/provider';
import { naverProvider } from './naver/provider';
import { kakaoProvider } from './kakao/provider';
import type { Listing } from '../domain/listing';
import type { BlockedPageKind, MapProvider, ProviderId } from './types';
import type { FilterContext } from '../filters';

export const PROVIDERS: readonly MapProvider[] = [googleProvider, naverProvider, kakaoProvider];

/** The provider of a sweep (or of anything that names one); unknown ids are refused, never guessed. */
export function providerFor(id: ProviderId | undefined): MapProvider {
  const found = PROVIDERS.find((p) => p.id === (id ?? 'google'));
  if (!found) throw new Error(`MapSweep cannot sweep ${String(id)} yet.`);
  return found;
}

/** The provider of this id, or null for one this version does not know (a record from elsewhere). */
export function providerById(id: ProviderId): MapProvider | null {
  return PROVIDERS.find((p) => p.id === id) ?? null;
}

/** The provider whose map a tab shows, or null. */
export function providerOfUrl(url: string | undefined): MapProvider | null {
  if (!url) return null;
  return PROVIDERS.find((p) => p.ownsUrl(url)) ?? null;
}

/** A block or consent page of any provider, from a tab's URL (the content script never runs there). */
export function blockedPageKindOf(url: string): BlockedPageKind | null {
  for (const p of PROVIDERS) {
    const kind = p.blockedPageKind(url);
    if (kind) return kind;
  }
  return null;
}

/** The page of a listing's reviews (its provider's reviews.url), or null when its site's reviews are not read by this version. */
export function reviewsPageUrl(l: Pick<Listing, 'provider' | 'providerId' | 'cid'> & { featureId?: string | null }, lang?: string): string | null {
  if (!/^\d{1,20}$/.test(l.providerId)) return null;
  return providerById(l.provider)?.reviews?.url(l, lang) ?? null;
}

/**
 * The place page of a listing (its provider's placePages.url), or null when its ids do not name
 * one or its site is not one this version knows (a record from elsewhere).
 */
export function placePageUrl(l: Pick<Listing, 'provider' | 'providerId' | 'cid'> & { featureId?: string | null }, lang?: string): string | null {
  if (!/^\d{1,20}$/.test(l.providerId)) return null;
  return providerById(l.provider)?.placePages.url(l, lang) ?? null;
}

/**
 * The filters' rules about the sites (utils/filters): a null website or phone read from a site's
 * complete record of the place (MapProvider.placePages.completeSources) is the site's "none", so a
 * has-website or has-phone filter may rule on it; anywhere else it is unknown. And where a site's
 * place page lists categories, a place whose list was not read yet is unknown to a category it misses.
 */
export const SITE_FILTER_CONTEXT: FilterContext = {
  completeSources: (provider) => providerById(provider)?.placePages.completeSources ?? ['panel'],
  pageListsCategories: (provider) => providerById(provider)?.placePages.fields.includes('categories') ?? false,
};
