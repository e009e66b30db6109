/**
 * A PageDriver that answers from the replica's own search semantics in-process (no browser):
 * the same ranking, viewport, cap and zoom-out the replica server uses. It lets the real
 * driver, planner, queue and store run whole sweeps in milliseconds, for tests and the bench.
 *
 * By default the pages are perfect (every card read, no end text at the cap). The options
 * below give it the replica's imperfections, one at a time or together, so the planner's
 * tests see them (issue 10 §2). Results pages are described by the content script's own
 * buildObservation, so the cap margin and limited-view rules are the shipped ones.
 */
import type { PageDriver } from '../../utils/browser/page-driver';
import type { Viewport } from '../../utils/geo/types';
import type { Listing } from '../../utils/domain/listing';
import { keyFromCid } from '../../utils/providers/google/ids';
import { buildObservation } from '../../utils/providers/google/observe';
import { cidUrl, parseSearchQuery, parseView } from '../../utils/providers/google/urls';
import type { Observation } from '../../utils/domain/sweep';
import { RESULT_CAP, searchPlaces, type SearchSwitches } from '../replica/search';
import type { ReplicaPlace, World } from '../replica/world';

export interface SimOptions {
  /**
   * The panel width the page's DOM shows (what the content script measures), when it differs
   * from what the site leaves out of its searches (`switches.panelWidth`): a site whose search
   * box no rule the extension knows would predict.
   */
  drawnPanelWidth?: number;
  viewport: Viewport;
  switches: SearchSwitches;
  /** Fraction of page loads that answer HTTP 500, drawn from `random`. */
  errorRate?: number;
  random?: () => number;
  /** URLs (by substring) that always fail. */
  alwaysFail?: (url: string) => boolean;
  /**
   * Transient unreadable cards: the first time the sweep's pages show a place, its card is
   * unread with this probability (drawn from `random`): counted in cardsVisible, missing from
   * the listings, as a card that had not finished rendering. Shown again (the cell's
   * re-search, or a child cell's search), it is read. Keyed by place, not by URL, because a
   * re-search of a cell need not load the same URL (the view follows the calibration).
   * Default 0.
   */
  unreadableRate?: number;
  /**
   * Persistent unreadable cards: the card of `place` at `rank` (0-based) on `url` is never read,
   * on any visit (a card shape the extractor does not know). Default: none.
   */
  unreadableAlways?: (url: string, place: ReplicaPlace, rank: number) => boolean;
  /**
   * Show the end text after the 120th result too, as the replica's page script does
   * (client/search-page.js finishes when `shown >= LIST_CAP`). Default false: at the cap the
   * list just stops, without the end text.
   */
  endAtCap?: boolean;
}

export interface SimPageDriver extends PageDriver {
  readonly loads: number;
}

export function listingOf(place: ReplicaPlace): Listing {
  return {
    key: keyFromCid(place.cid),
    provider: 'google',
    providerId: place.cid,
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

/**
 * The URL after the page settled: the real site (and the replica's script) writes the view it
 * ended on back into `@lat,lng,zoomz`, which is where the content script reads finalView.
 */
function withView(url: string, view: { lat: number; lng: number; zoom: number }): string {
  return url.replace(/\/@[^/?#]*z/, `/@${view.lat},${view.lng},${view.zoom}z`);
}

export function createSimPageDriver(world: World, opts: SimOptions): SimPageDriver {
  const pages = new Map<number, { url: string; status: number }>();
  /** Places some page has shown already (for `unreadableRate`). */
  const shownBefore = new Set<string>();
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
        // As the content script measures it: the window's CSS size and the panel the page draws.
        canvas: {
          width: opts.viewport.width,
          height: opts.viewport.height,
          panelRight: opts.drawnPanelWidth ?? opts.switches.panelWidth ?? opts.viewport.panelWidth,
        },
      };
      if (page.status !== 200) {
        return { ...base, pageKind: 'unknown', listings: [], cardsVisible: 0, endOfList: false, capHit: false, finalView: null, stopReason: 'not-a-feed' };
      }
      const query = parseSearchQuery(page.url)!;
      const view = parseView(page.url)!;
      const out = searchPlaces(world, query, view, opts.viewport, opts.switches);
      // Signed out, a card's star label carries no review count (spec §1.2); searchPlaces
      // already trims a generic query to the limited view's handful.
      const shown = out.results.map((p) => (opts.switches.signedIn ? listingOf(p) : { ...listingOf(p), reviews: null }));
      const draw = opts.random ?? Math.random;
      const rate = opts.unreadableRate ?? 0;
      const unread = out.results.map((p, rank) => {
        const firstShown = !shownBefore.has(p.cid);
        shownBefore.add(p.cid);
        return opts.unreadableAlways?.(page.url, p, rank) === true || (rate > 0 && firstShown && rate > draw());
      });
      const listings = shown.filter((_, i) => !unread[i]);
      if (shown.length === 0) {
        return {
          ...base,
          pageKind: 'no-results',
          listings,
          cardsVisible: 0,
          endOfList: false,
          capHit: false,
          finalView: out.finalView,
          stopReason: 'not-a-feed',
        };
      }
      if (shown.length === 1) {
        return { ...base, pageKind: 'place', listings, cardsVisible: 1, endOfList: false, capHit: false, finalView: out.finalView, stopReason: 'not-a-feed' };
      }
      const endOfList = shown.length < RESULT_CAP || opts.endAtCap === true;
      const observation = buildObservation({
        url: withView(page.url, out.finalView),
        pageKind: 'results',
        feed: { feed: null, cardsVisible: shown.length, listings, endOfList, loading: false, warnings: [] },
        scroll: { stopReason: endOfList ? 'end' : 'cap', cards: shown.length, scrolls: Math.ceil(shown.length / 20), elapsedMs: 0 },
        elapsedMs: 0,
      });
      return { ...observation, httpStatus: page.status, canvas: base.canvas };
    },
    async viewport() {
      return opts.viewport;
    },
    async exists() {
      return true;
    },
  };
}
