/**
 * Naver Map behind the provider seam (utils/providers/types.ts).
 *
 * A cell is searched on the list page that `iframe#searchIframe` shows
 * (`pcmap.place.naver.com/place/list?…&bounds=…`), loaded in the worker tab by itself: it takes
 * the searched box explicitly, which public tools rely on to tile an area (naver-kakao-notes
 * A8), so what a visit searched is a fact of the page's own URL, read back by the content
 * script, rather than a guess from a canvas. Whether Naver honours the box exactly, lists a
 * margin beyond it, or ignores it is not known [?]: the judge checks it on every capped list
 * (utils/sweep/bounds-proof.ts). The list is paged (50 a page, 6 pages, about 300 a search).
 */
import type { Viewport } from '../../geo/types';
import { DEFAULT_START_ZOOM } from '../../grid/options';
import type { MapProvider } from '../types';
import { PAGE_SIZE, SEARCH_CAP } from './observe';
import {
  NAVER_MAP_ORIGIN,
  PCMAP_ORIGIN,
  naverListUrl,
  naverPlaceUrl,
  naverSearchUrl,
  parseListUrl,
  parseSearchQuery,
  pcmapPlaceHomeUrl,
  pcmapVisitorReviewsUrl,
} from './urls';

/**
 * The box shape cells are planned on: what a list page searches does not depend on the tab, so
 * a fixed shape keeps the plan the same in every window. Square-ish like the map beside the list.
 */
export const NAVER_PLANNING_VIEWPORT: Viewport = { width: 1024, height: 768, panelWidth: 0 };

/**
 * The cap the planner works with: lower than the documented one on purpose. Naver's cap is
 * "about 300" (6 pages of 50, A4) and not confirmed to the unit; a list cut by a cap of 280
 * ends like any short list, and would pass for complete under a cap of 300. So a list of
 * CROWDED_FROM − CAP_MARGIN (245) or more is split whatever its end showed: a few more searches in
 * crowded areas, against no chance of taking a capped list for a whole one (the replica's
 * `resultCap` switch tests 280 and 330).
 */
export const CROWDED_FROM = Math.round(SEARCH_CAP * (5 / 6));

const HOSTS = new Set(['map.naver.com', 'pcmap.place.naver.com']);

export const naverProvider: MapProvider = {
  id: 'naver',
  displayName: '네이버 지도 (Naver Map)',
  placeLink(l) {
    try {
      return naverPlaceUrl(l.providerId);
    } catch {
      return null; // not a Naver place id
    }
  },
  // Every place it lists is in Korea, and its pages show phones in national form.
  phoneRegion: 'KR',
  // Every list page and every page of its pager is a request to pcmap: one stream there.
  laneUrl: `${PCMAP_ORIGIN}/`,
  ownsUrl: (url) => {
    try {
      const u = new URL(url);
      return u.protocol === 'https:' && HOSTS.has(u.hostname);
    } catch {
      return false;
    }
  },
  tabPatterns: ['https://map.naver.com/*', 'https://pcmap.place.naver.com/*'],
  siteDomains: ['naver.com', 'naver.me'],
  // The outer map page, and pcmap's list and place pages its frames load (where the readers run).
  hostAccess: ['https://map.naver.com/*', 'https://pcmap.place.naver.com/*'],
  startUrl: `${NAVER_MAP_ORIGIN}/p`,
  // Deepest: a box about 150 m wide; denser than that is saturated, and reported.
  planner: { startZoom: DEFAULT_START_ZOOM, maxZoom: 20, cap: CROWDED_FROM },
  siteTotal: 'once-honest',
  pageSize: PAGE_SIZE,
  searchUrl: (keyword, view) => naverSearchUrl(keyword, view.zoom),
  boundsSearch: {
    // Naver's list is Korean whatever the interface; `locale=ko` is what the live iframe sends.
    url: (keyword, bounds) => naverListUrl({ query: keyword, bounds }),
    viewport: NAVER_PLANNING_VIEWPORT,
    // Whether the list searches all of the box its URL echoes is not known [?] (A8): the inner
    // tenth of each side is what proves a cell, as on Kakao (utils/providers/kakao/provider.ts).
    untrustedEdge: 0.1,
  },
  // The block page keeps the list's URL (A7): it is recognised by its text, in the content script.
  blockedPageKind: () => null,
  placePages: {
    // PlaceDetailBase (road and lot addresses, phone) and placeDetail (homepage, booking, the week's hours).
    fields: ['phone', 'website', 'roadAddress', 'lotAddress', 'bookingUrl', 'hours'],
    // Naver's list answers are page-data too, and they lack the homepage: only the place page is complete.
    completeSources: [],
    laneUrl: `${PCMAP_ORIGIN}/`,
    url(l) {
      try {
        return pcmapPlaceHomeUrl(l.providerId);
      } catch {
        return null; // not a Naver place id
      }
    },
  },
  // Visitor reviews on the place's own page (pcmap), the place pages' lane.
  reviews: {
    laneUrl: `${PCMAP_ORIGIN}/`,
    url(l) {
      try {
        return pcmapVisitorReviewsUrl(l.providerId);
      } catch {
        return null; // not a Naver place id
      }
    },
  },
  parseSearchQuery: (url) => parseListUrl(url)?.query ?? parseSearchQuery(url),
  // The outer page's URL carries a zoom at most (`c=15.00,0,0,0,dh`), never the centre.
  parseView: () => null,
};
