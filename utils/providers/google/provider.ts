import { DEFAULT_MAX_SEARCH_ZOOM, DEFAULT_START_ZOOM, RESULT_CAP } from '../../grid/options';
import type { MapProvider } from '../types';
import { GOOGLE_DOMAINS, GOOGLE_MAPS_PATTERNS, isGoogleMapsUrl } from './hosts';
import { blockedPageKind, cidUrl, GOOGLE_ORIGIN, parseSearchQuery, parseView, searchUrl } from './urls';

/** A feature id as result cards' links carry it (`0x…:0x…`). */
const FEATURE_ID = /^0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16}$/i;

/** Google Maps behind the provider seam (utils/providers/types.ts). */
export const googleProvider: MapProvider = {
  id: 'google',
  displayName: 'Google Maps',
  placeLink: (l) => (l.cid ? cidUrl(l.cid) : null),
  laneUrl: `${GOOGLE_ORIGIN}/maps/`,
  // A user's map tab may be on any of Google's domains (www.google.co.kr/maps, …): browsing is
  // collected there, and a sweep started from it plans on its view. The sweep itself loads
  // www.google.com (searchUrl, startUrl), one host and so one pacing lane.
  ownsUrl: isGoogleMapsUrl,
  tabPatterns: [...GOOGLE_MAPS_PATTERNS],
  siteDomains: [...GOOGLE_DOMAINS, 'goo.gl'],
  // Its sweeps and passes load www.google.com only (the person's own tab may be on any domain).
  hostAccess: [`${GOOGLE_ORIGIN}/maps/*`],
  startUrl: `${GOOGLE_ORIGIN}/maps`,
  planner: { startZoom: DEFAULT_START_ZOOM, maxZoom: DEFAULT_MAX_SEARCH_ZOOM, cap: RESULT_CAP },
  searchUrl: (keyword, view, lang) => searchUrl(keyword, view, lang),
  blockedPageKind,
  placePages: {
    // The panel (address, phone, website) and APP_INITIALIZATION_STATE (full address and its parts, categories, hours).
    fields: ['address', 'phone', 'website', 'hours', 'categories'],
    completeSources: ['page-data', 'panel'],
    // Its list's data (tbm=map) no longer carries hours: a record without them is missing them.
    // (Its panel is read without the place page too, when a person browses: no sign the page was read.)
    listMayOmit: ['hours'],
    laneUrl: `${GOOGLE_ORIGIN}/maps/`,
    /**
     * Asked in the sweep's results language (`hl`), like its searches:
     * `/maps/place/data=!4m2!3m1!1s{featureId}` when the feature id is known (result cards' links
     * carry it), else `/maps?cid={cid}`. The first form is under `/maps/`, where the content script
     * runs (entrypoints/google-maps.content.ts); the CID form is answered only once the site has
     * navigated to the place URL.
     */
    url(l, lang) {
      const hl = lang ? `hl=${encodeURIComponent(lang)}` : '';
      if (l.featureId && FEATURE_ID.test(l.featureId)) return `${GOOGLE_ORIGIN}/maps/place/data=!4m2!3m1!1s${l.featureId.toLowerCase()}${hl ? `?${hl}` : ''}`;
      const cid = l.cid ?? l.providerId;
      return hl ? `${cidUrl(cid)}&${hl}` : cidUrl(cid);
    },
  },
  // The reviews are a tab of the place page (../shared/map-pages-spec.md §5): the same page, the same lane.
  reviews: {
    laneUrl: `${GOOGLE_ORIGIN}/maps/`,
    url: (l, lang) => googleProvider.placePages.url(l, lang),
  },
  parseSearchQuery,
  parseView,
};
