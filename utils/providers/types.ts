/**
 * What a map provider is, as the sweep sees it: the one seam between the provider-neutral sweep
 * (planner, queue, store, driver) and a map site's own URLs and page facts. Each provider module
 * (utils/providers/{google,naver,kakao}) exports one; utils/providers/registry.ts picks it.
 *
 * Two ways a cell becomes a page: Google's (and Kakao's) search page shows a map view, and what
 * it searched is measured from the page's canvas (utils/coverage); Naver's list page takes the
 * box itself (`boundsSearch`), and what it searched is read back from the page.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import type { BBox, MapView, Viewport } from '../geo/types';
import type { PlannerOptions } from '../grid/types';
import type { Listing } from '../domain/listing';
import type { ProviderId } from '../domain/place';

export type { ProviderId } from '../domain/place';

/** A page that stops every search until the user acts, judged from the tab's URL. */
export type BlockedPageKind = 'captcha' | 'consent';

export interface MapProvider {
  id: ProviderId;
  /** For the popup and the exports. */
  displayName: string;
  /**
   * The site's own stable link to a place, for a listing stored without a usable link of its own
   * (the export's `url`, the dashboard), or null when its ids name none.
   */
  placeLink(l: Pick<Listing, 'providerId' | 'cid'>): string | null;
  /**
   * The country a phone written in national form (`02-123-4567`) is read in for its E.164 form
   * (utils/listing/phone.ts). Absent: a site listing places worldwide, whose national numbers are
   * read only in the country of the place's own address.
   */
  phoneRegion?: CountryCode;
  /**
   * A URL on the host whose page loads share one pacing lane (utils/queue/pacing.ts keys lanes by
   * host): loads on it are one stream, kept apart from other providers'.
   */
  laneUrl: string;
  /** True for a tab showing this provider's map (the popup picks the provider from the active tab). */
  ownsUrl(url: string): boolean;
  /** URL match patterns of this provider's map tabs (for tabs.query), as in the manifest. */
  tabPatterns: string[];
  /**
   * The registrable domains the site's own pages and links are on (its map pages, its consent and
   * block pages, its share links' service): a tab MapSweep drives through links it did not make
   * itself (a list's share links) may go to these and nowhere else (utils/browser/tab-guard.ts).
   */
  siteDomains: readonly string[];
  /**
   * The host permissions its sweeps and passes need (each one of the manifest's host_permissions):
   * the hosts they load and the frames and requests its readers see. Firefox lets the person grant
   * or withdraw hosts one by one (utils/browser/host-access.ts): a sweep on this site runs while
   * these are granted, whatever the other sites' are.
   */
  hostAccess: readonly string[];
  /**
   * URL patterns of the requests its pages make that a block may redirect (watched for block
   * redirects, utils/browser/block-redirects.ts); absent: `tabPatterns`. Within host_permissions.
   */
  requestPatterns?: string[];
  /** The page a worker window opens before its first search. */
  startUrl: string;
  /**
   * A provider whose list page takes the searched box explicitly (Naver's `bounds=`): the page
   * a cell's search loads for `bounds`, and the fixed canvas cells are planned on (the tab's
   * size does not change what such a page searches). The box the page really searched comes
   * back in the observation (`searched`) and is what the proof uses. Absent: the cell is
   * searched by a map view (`searchUrl`) and the view is measured (utils/coverage).
   */
  boundsSearch?: {
    url(keyword: string, bounds: BBox, lang?: string): string;
    viewport: Viewport;
    /**
     * The share of each side of the echoed box that is not trusted (a site may search a little
     * less than the box it echoes [?]): the box asked for is that much wider, and the proof is
     * the echoed box less that edge (utils/sweep/bounds-proof.ts).
     */
    untrustedEdge: number;
  };
  /**
   * A provider whose page reports the box it searched (Observation.searched) though the
   * cell is searched by a map view (Kakao: the `rect` of its own map.daum request). The proof is
   * that box less `untrustedEdge` of its size on each side (a site may search a little less than
   * it reports [?]); cells are planned on what this tab's searches covered (utils/sweep/reported-box.ts).
   */
  reportedBox?: { untrustedEdge: number };
  /**
   * Results per page of a paged list (Naver 50, Kakao 15); absent: one scrolled feed (Google).
   * Bounds how many pages one visit walks: `ceil(planner.cap / pageSize)`.
   */
  pageSize?: number;
  /**
   * How many of the page's own controls a visit may have to press before the list's first page
   * can be read (Kakao: "현 지도 내 장소검색", "장소 더보기", back to page 1). Each makes the site
   * search again, so each waits its turn in the host's pacing lane (PageDriver.firstPage).
   * Absent: the first page shows as loaded.
   */
  firstPageControls?: number;
  /**
   * How far a paged list's own count of matches (Observation.siteTotal) is believed when it says
   * the list cannot end before the crowded mark, so the visit may stop paging at once
   * (utils/sweep/site-total.ts): 'as-capped' — the provider's page already judges a count beyond
   * its list as capped (Kakao: utils/providers/kakao/observe.ts), so leaving early decides
   * nothing the last page would not; 'once-honest' — only once the sweep's own complete lists
   * showed the count honest (Naver, whose lists end by their pager). Absent: every page is read.
   */
  siteTotal?: 'as-capped' | 'once-honest';
  /** Start and deepest zoom, and the site's cap per search. */
  planner: Pick<PlannerOptions, 'startZoom' | 'maxZoom' | 'cap'>;
  /**
   * The page a cell's search loads, for the view that fits the cell, its results in `lang`
   * (the sweep's results language, a Google `hl` code; the site's default when not given).
   */
  searchUrl(keyword: string, view: MapView, lang?: string): string;
  /** Block and consent pages the content script never runs on. */
  blockedPageKind(url: string): BlockedPageKind | null;
  /** Its place pages, for the details pass (utils/details): what they add and where they are. */
  placePages: PlacePages;
  /** Where its places' reviews are read (the reviews pass, utils/reviews), when this version reads them there. */
  reviews?: ReviewPages;
  /** The query and the view a results page's URL shows (the judge checks they are the cell's). */
  parseSearchQuery(url: string): string | null;
  parseView(url: string): MapView | null;
}

/** A field a place page may give that a list leaves out (utils/details/needs.ts). */
export type DetailField = 'address' | 'phone' | 'website' | 'hours' | 'categories' | 'roadAddress' | 'lotAddress' | 'bookingUrl';

export interface ReviewPages {
  /** The pacing lane of the reviews' pages: one load, scroll or click at a time per host. */
  laneUrl: string;
  /** The page to load for a place's reviews, or null when its ids do not name one. */
  url(l: Pick<Listing, 'providerId' | 'cid'> & { featureId?: string | null }, lang?: string): string | null;
}

export interface PlacePages {
  /** What the site's place page gives beyond its list (its reader: the provider's place-details.ts). */
  fields: readonly DetailField[];
  /** Listing sources that mean "read from the site's complete record of the place": nothing left to add. */
  completeSources: readonly string[];
  /**
   * Fields a complete record may leave out altogether, so their absence there is not the site's
   * answer: still missing, still worth the place page (Google's list data has carried no hours
   * since November 2025, serpapi/public-roadmap#3180).
   */
  listMayOmit?: readonly DetailField[];
  /** The pacing lane of its place pages: their own host (one load at a time per host). */
  laneUrl: string;
  /** The place page to load for a listing of this site, or null when its ids do not name one. */
  url(l: Pick<Listing, 'providerId' | 'cid'> & { featureId?: string | null }, lang?: string): string | null;
}
