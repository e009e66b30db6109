/**
 * A PageDriver that answers from the replica's own search semantics in-process (no browser):
 * the same ranking, viewport, cap and zoom-out the replica server uses. It lets the real
 * driver, planner, queue and store run whole sweeps in milliseconds, for tests and the bench.
 */
import type { PageDriver } from '../../utils/browser/page-driver';
import type { Viewport } from '../../utils/geo/types';
import type { Listing } from '../../utils/listing/types';
import { keyFromCid } from '../../utils/providers/google/ids';
import { cidUrl, parseSearchQuery, parseView } from '../../utils/providers/google/urls';
import type { Observation } from '../../utils/sweep/types';
import { RESULT_CAP, searchPlaces, type SearchSwitches } from '../replica/search';
import type { ReplicaPlace, World } from '../replica/world';

export interface SimOptions {
  viewport: Viewport;
  switches: SearchSwitches;
  /** Fraction of page loads that answer HTTP 500, drawn from `random`. */
  errorRate?: number;
  random?: () => number;
  /** URLs (by substring) that always fail. */
  alwaysFail?: (url: string) => boolean;
}

export interface SimPageDriver extends PageDriver {
  readonly loads: number;
}

export function listingOf(place: ReplicaPlace): Listing {
  return {
    key: keyFromCid(place.cid),
    provider: 'google',
    placeId: place.placeId,
    featureId: place.featureId,
    cid: place.cid,
    name: place.name,
    category: place.categories[0] ?? null,
    address: place.fullAddress,
    phone: place.phone?.display ?? null,
    website: place.website,
    rating: place.rating,
    reviews: place.reviewCount,
    lat: place.lat,
    lng: place.lng,
    url: cidUrl(place.cid),
    sponsored: false,
  };
}

export function createSimPageDriver(world: World, opts: SimOptions): SimPageDriver {
  const pages = new Map<number, { url: string; status: number }>();
  let loads = 0;
  return {
    get loads() {
      return loads;
    },
    async load(tabId, url) {
      loads++;
      const fail = opts.alwaysFail?.(url) || (opts.errorRate ?? 0) > (opts.random ?? Math.random)();
      pages.set(tabId, { url, status: fail ? 500 : 200 });
      return { url };
    },
    async collect(tabId): Promise<Observation> {
      const page = pages.get(tabId);
      if (!page) throw new Error('nothing loaded');
      const base: Omit<Observation, 'pageKind' | 'listings' | 'cardsVisible' | 'endOfList' | 'capHit' | 'finalView' | 'stopReason'> = {
        url: page.url,
        networkItems: null,
        networkKeys: [],
        elapsedMs: 0,
        warnings: [],
        httpStatus: page.status,
      };
      if (page.status !== 200) {
        return { ...base, pageKind: 'unknown', listings: [], cardsVisible: 0, endOfList: false, capHit: false, finalView: null, stopReason: 'not-a-feed' };
      }
      const query = parseSearchQuery(page.url)!;
      const view = parseView(page.url)!;
      const out = searchPlaces(world, query, view, opts.viewport, opts.switches);
      const listings = out.results.map(listingOf);
      if (listings.length === 0) {
        return { ...base, pageKind: 'no-results', listings, cardsVisible: 0, endOfList: false, capHit: false, finalView: view, stopReason: 'not-a-feed' };
      }
      if (listings.length === 1) {
        return { ...base, pageKind: 'place', listings, cardsVisible: 1, endOfList: false, capHit: false, finalView: view, stopReason: 'not-a-feed' };
      }
      const capHit = listings.length >= RESULT_CAP;
      return {
        ...base,
        pageKind: 'results',
        listings,
        cardsVisible: listings.length,
        endOfList: !capHit,
        capHit,
        finalView: out.finalView,
        stopReason: capHit ? 'cap' : 'end',
      };
    },
    async viewport() {
      return opts.viewport;
    },
    async exists() {
      return true;
    },
  };
}
