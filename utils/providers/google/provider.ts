import { DEFAULT_MAX_SEARCH_ZOOM, DEFAULT_START_ZOOM, RESULT_CAP } from '../../grid/options';
import type { MapProvider } from '../types';
import { blockedPageKind, GOOGLE_ORIGIN, parseSearchQuery, parseView, searchUrl } from './urls';

/** Google Maps behind the provider seam (utils/providers/types.ts). */
export const googleProvider: MapProvider = {
  id: 'google',
  displayName: 'Google Maps',
  laneUrl: `${GOOGLE_ORIGIN}/maps/`,
  ownsUrl: (url) => {
    try {
      const u = new URL(url);
      return u.hostname === 'www.google.com' && (u.pathname === '/maps' || u.pathname.startsWith('/maps/'));
    } catch {
      return false;
    }
  },
  tabPatterns: ['https://www.google.com/maps/*'],
  startUrl: `${GOOGLE_ORIGIN}/maps`,
  planner: { startZoom: DEFAULT_START_ZOOM, maxZoom: DEFAULT_MAX_SEARCH_ZOOM, cap: RESULT_CAP },
  searchUrl: (keyword, view, lang) => searchUrl(keyword, view, lang),
  blockedPageKind,
  parseSearchQuery,
  parseView,
};
