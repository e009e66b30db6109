/**
 * Kakao Map behind the provider seam (utils/providers/types.ts).
 *
 * How a cell is searched (naver-kakao-notes B1, B3, B4, B7): the search page
 * `map.kakao.com/?urlX&urlY&urlLevel&q=` opens the map at the cell's view [?]; the visit
 * (utils/providers/kakao/collect.ts) ticks "현 지도 내 장소검색" (found by what it says) so the page's
 * own search request (the 2026 mapsearch endpoint or the older map.daum, B4b) carries the map's
 * `rect`, presses "장소 더보기" and walks the pager page by page. What was searched is the rect of
 * that request, read back from the page (Observation.searched), never the view asked for here;
 * a list is complete when it ends before the web cap on a page the cap could not have cut.
 *
 * Levels and zooms: view.ts (level ≈ 20 − zoom in Korea, rounded to the wider level).
 */
import type { MapProvider } from '../types';
import { isKakaoBlockUrl } from './block';
import { parseConfirmId } from './ids';
import { KAKAO_MAP_ORIGIN, KAKAO_PAGE_SIZE, KAKAO_PLACE_ORIGIN, KAKAO_WEB_CAP_PAGES, parseSearchPageUrl, placeUrl, searchPageUrl } from './urls';
import { kakaoViewOf, mapViewOf } from './view';

/** Results one search lists at most: the web list's ~34 pages of 15 (B3). */
export const KAKAO_RESULT_CAP = KAKAO_WEB_CAP_PAGES * KAKAO_PAGE_SIZE;

/**
 * The initial grid: zoom 13 ≈ level 7 (8 m per px, a ~5 × 6 km map right of the panel). The cap
 * is four times Google's, so cells start finer than Google's zoom 12 only by one step: a city
 * keyword still splits, a rare one is often done in one search.
 */
export const KAKAO_START_ZOOM = 13;
/** Level 1 (0.25 m per px [?]) is Kakao's closest; zoom 19 maps to it in Korea (view.ts). */
export const KAKAO_MAX_ZOOM = 19;

/**
 * The share of each side of the rect a search reports that the proof does not rely on: whether
 * map.daum lists the whole rect or a little less is not known [?] (the replica's rectMode
 * 'inset' searches 5% less a side). A cell must lie inside the rect less 10% a side; the closing
 * audit's shifted searches are what would catch a site searching even less.
 */
export const KAKAO_UNTRUSTED_EDGE = 0.1;

const OWN_HOSTS = new Set(['map.kakao.com', 'place.map.kakao.com']);

export const kakaoProvider: MapProvider = {
  id: 'kakao',
  displayName: '카카오맵 (Kakao Map)',
  placeLink(l) {
    const id = parseConfirmId(l.providerId);
    return id ? placeUrl(id) : null;
  },
  // Every place it lists is in Korea, and its pages show phones in national form.
  phoneRegion: 'KR',
  // Page loads and page turns go to map.kakao.com (each turn's map.daum request with it): one lane.
  laneUrl: `${KAKAO_MAP_ORIGIN}/`,
  ownsUrl: (url) => {
    try {
      const u = new URL(url);
      return u.protocol === 'https:' && OWN_HOSTS.has(u.hostname);
    } catch {
      return false;
    }
  },
  tabPatterns: ['https://map.kakao.com/*', 'https://place.map.kakao.com/*'],
  siteDomains: ['kakao.com', 'kko.to'],
  // The page's own search requests (map.kakao.com's 2026 mapsearch, search.map.kakao.com's map.daum):
  // a block answers them with a 302 to kakao.com/500.ko.html (B6).
  requestPatterns: ['https://map.kakao.com/*', 'https://search.map.kakao.com/*', 'https://place.map.kakao.com/*'],
  // The map, its search answers (read back for their rect) and the place pages.
  hostAccess: ['https://map.kakao.com/*', 'https://search.map.kakao.com/*', 'https://place.map.kakao.com/*'],
  startUrl: `${KAKAO_MAP_ORIGIN}/`,
  siteTotal: 'as-capped',
  pageSize: KAKAO_PAGE_SIZE,
  // "현 지도 내 장소검색" ticked, "장소 더보기" pressed, back to page 1 (utils/providers/kakao/collect.ts).
  firstPageControls: 3,
  reportedBox: { untrustedEdge: KAKAO_UNTRUSTED_EDGE },
  planner: { startZoom: KAKAO_START_ZOOM, maxZoom: KAKAO_MAX_ZOOM, cap: KAKAO_RESULT_CAP },
  /** Kakao has no results-language parameter: `lang` is ignored (the site answers in Korean). */
  searchUrl: (keyword, view) => searchPageUrl(keyword, kakaoViewOf(view)),
  // The 302 target of a block (B6); the content script never runs there.
  blockedPageKind: (url) => (isKakaoBlockUrl(url) ? 'captcha' : null),
  placePages: {
    // The place page's contact, homepage, both addresses and the week's hours.
    fields: ['phone', 'website', 'roadAddress', 'lotAddress', 'hours'],
    completeSources: ['panel'],
    // Place pages are on place.map.kakao.com, not the search lane's map.kakao.com.
    laneUrl: `${KAKAO_PLACE_ORIGIN}/`,
    url: (l) => placeUrl(l.providerId),
  },
  // Reviews are the place page's 후기 tab (kakao/reviews.ts): the same page, the same lane.
  reviews: {
    laneUrl: `${KAKAO_PLACE_ORIGIN}/`,
    url: (l) => {
      const id = parseConfirmId(l.providerId);
      return id ? placeUrl(id) : null; // not a Kakao place id
    },
  },
  parseSearchQuery: (url) => parseSearchPageUrl(url)?.query ?? null,
  parseView: (url) => {
    const view = parseSearchPageUrl(url)?.view;
    return view ? mapViewOf(view) : null;
  },
};
