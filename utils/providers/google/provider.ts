import { DEFAULT_MAX_SEARCH_ZOOM, DEFAULT_START_ZOOM, RESULT_CAP } from '../../grid/options';
import type { MapProvider } from '../types';
import { GOOGLE_MAPS_PATTERNS, isGoogleMapsUrl } from './hosts';
import { blockedPageKind, GOOGLE_ORIGIN, parseSearchQuery, parseView, searchUrl } from './urls';

/** Google Maps behind the provider seam (utils/providers/types.ts). */
export const googleProvider: MapProvider = {
  id: 'google',
  displayName: 'Google Maps',
  laneUrl: `${GOOGLE_ORIGIN}/maps/`,
  // A user's map tab may be on any of Google's domains (www.google.co.kr/maps, …): browsing is
  // collected there, and a sweep started from it plans on its view. The sweep itself loads
  // www.google.com (searchUrl, startUrl), one host and so one pacing lane.
  ownsUrl: isGoogleMapsUrl,
  tabPatterns: [...GOOGLE_MAPS_PATTERNS],
  startUrl: `${GOOGLE_ORIGIN}/maps`,
  planner: { startZoom: DEFAULT_START_ZOOM, maxZoom: DEFAULT_MAX_SEARCH_ZOOM, cap: RESULT_CAP },
  searchUrl: (keyword, view, lang) => searchUrl(keyword, view, lang),
  blockedPageKind,
  parseSearchQuery,
  parseView,
};
