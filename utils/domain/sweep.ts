import type { Area, BBox, MapView } from '../geo/types';
import type { Listing } from './listing';
import type { MeasuredCanvas, SweepAudit } from './coverage';
import type { ProviderId } from './place';

/** What kind of page the content script found. */
export type PageKind =
  | 'results' // a results feed (div[role=feed])
  | 'place' // a single place panel (single-result redirect, or an opened place)
  | 'no-results' // the page itself says "Google Maps can't find …"
  | 'captcha' // /sorry/ page or captcha form
  | 'consent' // consent.google.com interstitial
  | 'unknown'; // none of the above: page changed, or not loaded

/**
 * Everything the content script saw on one search page. The sweep driver decides from
 * this alone; it is also what tells "no results" from "extractor broken".
 */
export interface Observation {
  url: string;
  pageKind: PageKind;
  /** Result cards present in the DOM (organic + sponsored), counted from stable hooks only. */
  cardsVisible: number;
  /** Listings extracted (sponsored ones flagged). */
  listings: Listing[];
  /** Places seen in the page's own /search?tbm=map responses (shape-checked), or null if none seen. */
  networkItems: number | null;
  /** Keys (google:{cid}) seen in network responses, for cross-checking the DOM. */
  networkKeys: string[];
  /** The page showed the end-of-list text. */
  endOfList: boolean;
  /** Organic results reached the site's cap (120). */
  capHit: boolean;
  /**
   * Organic cards the page showed, read or not (cards minus sponsored cards). The judge
   * compares it with the organic listings read: an unread organic card is a lost place.
   * Absent on observations built without a DOM (then: cardsVisible − sponsored listings).
   */
  organicShown?: number;
  /**
   * Why the page looks like Google's signed-out "limited view" (spec §1.2: rating labels
   * without review counts, a handful of results, a banner), or null/absent when it does not.
   */
  limitedView?: 'counts-missing' | 'short-list' | 'banner' | null;
  /** The view the page ended on (the site may zoom out on its own when the area is sparse). */
  finalView: MapView | null;
  elapsedMs: number;
  /** HTTP status of the page's own navigation (Navigation Timing `responseStatus`), when the browser tells it. */
  httpStatus?: number | null;
  /** Why scrolling stopped: 'end', 'cap', 'stalled' (no growth within the bound), 'not-a-feed'. */
  stopReason: 'end' | 'cap' | 'stalled' | 'not-a-feed';
  /** Non-fatal notes (e.g. fields unreadable on some cards). */
  warnings: string[];
  /**
   * On an 'unknown' page: the collector recognised a list and read its cards, but could not
   * prove it whole, and says why with a tag (e.g. `naver-list-short: …`, `kakao-wrong-page: …`).
   * The judge retries such a page; cards on an 'unknown' page without it are a page the extractor
   * no longer fits (utils/domain/readability.ts).
   */
  unproven?: string;
  /** The map canvas the page laid out (CSS px) and its results panel's edge, measured by the content script; null/absent when unknown. */
  canvas?: MeasuredCanvas | null;
  /**
   * Lists shown a page at a time (Naver, Kakao): which page this observation read (1-based) and
   * whether the page's own pager offers another. Absent: the observation is the whole list
   * (Google's feed, a no-results page, a single place).
   */
  pager?: { page: number; more: boolean };
  /**
   * What the page's own search covered, read from the page itself (Naver: the list URL's
   * `bounds`; Kakao: the `rect` of the page's search request). Absent: the provider's searched
   * area is measured otherwise (Google's canvas).
   */
  searched?: SearchedBox;
  /**
   * How many places the page's own data says its search matched (Kakao: `place_totalcount`;
   * Naver: the list query's `total`), or null when it did not say. Page content: the driver
   * believes it only as far as the sweep's complete lists showed it honest (utils/sweep/site-total.ts).
   * Absent: the site gives no count (Google).
   */
  siteTotal?: number | null;
}

/**
 * What a search proved about where it looked, for pages that say it (Observation.searched). A
 * tagged value, not a nullable box: "the page did not say" and "the page searched everywhere" are
 * different facts, and only the first two kinds can ever prove a cell (utils/sweep/driver.ts).
 */
export type SearchedBox =
  /** The box the page surely searched, and where that was read (e.g. "list URL bounds"). */
  | { kind: 'measured'; box: BBox; source: string }
  /** The site's own evidence that it listed matches everywhere, not restricted to any box. */
  | { kind: 'unrestricted'; evidence: string }
  /** What the page searched could not be read: never proof of anything. */
  | { kind: 'unknown'; why: string };

export type CellStatus =
  | 'pending' // waiting to be searched (or to be retried once nextAttemptAt passes)
  | 'leased' // a worker holds it until leaseUntil; after that it is simply available again
  | 'done' // searched, its listings committed
  | 'split' // too crowded: replaced by its children
  | 'saturated' // still crowded at the minimum cell size: results kept, reported to the user
  | 'quarantined' // failed maxAttempts times; "retry failed" puts it back
  | 'outside'; // wholly outside the polygon: never searched

export interface Cell {
  /** `{sweepId}/{keywordIndex}/{path}` where path is "r{row}c{col}" then ".{child}" per split. */
  id: string;
  sweepId: string;
  keyword: string;
  keywordIndex: number;
  bbox: BBox;
  /** 0 for the initial tiling, +1 per split. */
  depth: number;
  /** Zoom levels added to the cell's fit when searched (PlannedCell.zoomOffset); absent = 0. */
  zoomOffset?: number;
  /** 'audit': a re-search of a done cell's ground at an offset (utils/coverage/audit.ts), never split. */
  role?: 'audit';
  /** For an audit cell: the done cell it checks. */
  auditOf?: string;
  /** Metres from the sweep's origin view (the user's map when it started): nearer cells are leased first. */
  distance: number;
  parentId: string | null;
  status: CellStatus;
  /** Epoch ms; meaningful while status is 'leased'. */
  leaseUntil: number;
  /** Who holds the lease (worker tab id), for diagnostics. */
  leaseHolder: string | null;
  attempts: number;
  /** Epoch ms before which a failed cell is not retried (backoff). */
  nextAttemptAt: number;
  lastError: CellError | null;
  /** Summary of the last observation (not the listings). */
  result: CellResult | null;
  /**
   * Times the closing audit opened the cell again after it was settled (absent: never). A team
   * sweep (utils/team) compares it with the database's settlement: one of an older generation is stale.
   */
  reopened?: number;
}

/** Error kinds choose the path: retry, pause the sweep, or stop it. */
export type ErrorKind =
  | 'timeout' // retry with backoff
  | 'http' // retry with backoff
  | 'navigation' // retry with backoff
  | 'blocked' // captcha: pause the whole sweep, not a retry
  | 'consent' // consent page: pause, the user answers it
  | 'extractor' // cards visible, nothing extracted: stop the sweep
  | 'limited' // signed-out "limited view" (a handful of results per search): pause, the user signs in
  | 'internal';

export interface CellError {
  kind: ErrorKind;
  message: string;
  at: number;
  url?: string;
  /** For a page refused because organic cards went unread: how many (the next attempt compares). */
  unreadCards?: number;
  /** The page did not show what it searched (the next visit of the cell, if the same, settles it unresolved). */
  unknownSearch?: true;
}

export interface CellResult {
  /** Why the planner decided what it did (kept on the cell, shown in the dashboard and the coverage report). Absent on cells of older versions. */
  reason?: CellDecisionReason;
  /** The box this search provably covered (the measured view under the calibrated geometry), or null when it could not be measured. */
  searchedBox?: BBox | null;
  /** The view that searched it and the calibration key of its canvas: the audit re-checks the proof with what it learns. */
  view?: MapView;
  canvasKey?: string;
  organic: number;
  newListings: number;
  endOfList: boolean;
  capHit: boolean;
  zoomedOut: boolean;
  insideShare: number;
  /** The page's own count of matches (Observation.siteTotal), kept so later cells can tell whether the site's counts are honest. Absent: no count. */
  siteTotal?: number | null;
}

export type SweepStatus =
  | 'running'
  | 'paused' // by the user, by a browser restart, or by a captcha/consent (see pauseReason)
  | 'stopped' // by the user
  | 'failed' // extractor broken: "the map page changed"
  | 'finished';

export interface SweepSettings {
  /** Minimum delay between page loads on one host, ms. */
  delayMs: number;
  /** Random extra delay 0..jitterMs. */
  jitterMs: number;
  cellTimeoutMs: number;
  /** Mean pause between two scrolls of the results feed (drawn from 0.5×–1.5× of it). */
  scrollPauseMs: number;
  maxAttempts: number;
  workers: number;
  /** Run in a dedicated window instead of the user's tab. */
  dedicatedWindow: boolean;
  maxCells: number;
  /**
   * Language of the results (Google's `hl`: categories, addresses, labels), one of
   * RESULT_LANGUAGES (settings.ts). Absent on sweeps from before the option: English.
   */
  lang?: string;
  /** After the sweep, open each place's page for what its list data lacked (utils/details). Absent on older sweeps: off. */
  placeDetails?: boolean;
}

export interface Sweep {
  id: string;
  /** The map site swept (utils/providers/registry.ts); absent on sweeps from before providers: Google. */
  provider?: ProviderId;
  createdAt: number;
  area: Area;
  keywords: string[];
  settings: SweepSettings;
  status: SweepStatus;
  pauseReason: 'user' | 'captcha' | 'consent' | 'restart' | 'quota' | 'signed-out' | 'team' | 'host-access' | null;
  /** The problem that paused or failed the sweep (captcha, extractor broken, disk full), shown to the user. */
  problem: CellError | null;
  /** The user's map view when the sweep started (near-the-view-first ordering). */
  origin: MapView | null;
  /** The audit of its own work before Finished (utils/coverage/audit.ts); absent until the first round. */
  audit?: SweepAudit;
  counters: SweepCounters;
  /** Why listings were refused (counters.listingsRefused): the first few distinct reasons; each refusal is logged. Absent until one is. */
  refusedReasons?: string[];
  lastNewListingAt: number | null;
  updatedAt: number;
}

export interface SweepCounters {
  cellsKnown: number;
  cellsDone: number;
  cellsSplit: number;
  cellsSaturated: number;
  /** Of the saturated cells, those that could not be proven for another reason than crowding (e.g. the site zoomed out and still hit the cap). Absent on older sweeps. */
  cellsUnresolved?: number;
  cellsQuarantined: number;
  cellsOutside: number;
  listingsNew: number;
  listingsSeen: number;
  /** Listings the store refused while committing the rest of their cell (issue 22). Absent until one is. */
  listingsRefused?: number;
  /**
   * Cells settled in a row as 'search-unknown' (the page did not show what it searched), since
   * the last cell a page proved. One more stops the sweep (utils/sweep/driver.ts); a proven cell
   * and Retry set it back to 0. Absent: 0.
   */
  unknownSearchStreak?: number;
  pageLoads: number;
  errors: number;
}

/**
 * Why, in a word the UI can show and translate:
 * done — 'no-results', 'single-result', 'end-of-list' ('site-zoomed-out' and 'results-outside' were
 *   "done" verdicts of older versions, kept so their cells still read);
 * split — 'cap-hit', 'no-end-marker', 'zoomed-out-capped', 'view-not-covering';
 * saturated (not split; its results are kept and the cell is reported) — 'min-size', 'cell-cap',
 *   and, as "unresolved", 'zoomed-out-capped', 'view-not-covering', 'search-unknown'.
 */
export type CellDecisionReason =
  | 'no-results'
  | 'single-result'
  | 'site-zoomed-out'
  | 'results-outside'
  | 'end-of-list'
  | 'cap-hit'
  | 'no-end-marker'
  | 'min-size'
  | 'cell-cap'
  // saturated as "unresolved": not crowded at the minimum size, but no search could prove the cell complete
  | 'zoomed-out-capped' // the site zoomed out by itself and the wider list hit the cap
  | 'view-not-covering' // the page's measured view never covered the whole cell
  | 'search-unknown' // the page did not show what it searched, twice (utils/sweep/driver.ts)
  | 'audit';

/** What a visit records of a block page the content script cannot run on (captcha, consent): its kind, and nothing read. */
export function blockObservation(url: string, kind: 'captcha' | 'consent'): Observation {
  return {
    url,
    pageKind: kind,
    cardsVisible: 0,
    listings: [],
    networkItems: null,
    networkKeys: [],
    endOfList: false,
    capHit: false,
    finalView: null,
    elapsedMs: 0,
    stopReason: 'not-a-feed',
    warnings: [],
  };
}
