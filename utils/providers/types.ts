/**
 * What a map provider is, as the sweep sees it: the one seam between the provider-neutral sweep
 * (planner, queue, store, driver) and a map site's own URLs and page facts. Each provider module
 * (utils/providers/{google,naver,kakao}) exports one; utils/providers/registry.ts picks it.
 *
 * Only Google is wired into the sweep so far. Naver's and Kakao's page readers and replicas
 * exist (utils/providers/naver, utils/providers/kakao) and will implement this next.
 */
import type { MapView } from '../geo/types';
import type { PlannerOptions } from '../grid/types';
import type { ProviderId } from './place';

export type { ProviderId } from './place';

/** A page that stops every search until the user acts, judged from the tab's URL. */
export type BlockedPageKind = 'captcha' | 'consent';

export interface MapProvider {
  id: ProviderId;
  /** For the popup and the exports. */
  displayName: string;
  /**
   * A URL on the host whose page loads share one pacing lane (utils/sweep/pacing.ts keys lanes by
   * host): loads on it are one stream, kept apart from other providers'.
   */
  laneUrl: string;
  /** True for a tab showing this provider's map (the popup picks the provider from the active tab). */
  ownsUrl(url: string): boolean;
  /** Start and deepest zoom, and the site's cap per search. */
  planner: Pick<PlannerOptions, 'startZoom' | 'maxZoom' | 'cap'>;
  /**
   * The page a cell's search loads, for the view that fits the cell, its results in `lang`
   * (the sweep's results language, a Google `hl` code; the site's default when not given).
   */
  searchUrl(keyword: string, view: MapView, lang?: string): string;
  /** Block and consent pages the content script never runs on. */
  blockedPageKind(url: string): BlockedPageKind | null;
  /** The query and the view a results page's URL shows (the judge checks they are the cell's). */
  parseSearchQuery(url: string): string | null;
  parseView(url: string): MapView | null;
}
