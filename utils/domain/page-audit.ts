import type { ErrorKind, PageKind } from './sweep';

/**
 * How one page compared with what was read from it:
 * - 'ok': results or a place, and at least MIN_EXTRACTED_SHARE of the organic cards were read;
 * - 'empty': the page itself said there are no results;
 * - 'nothing-read': cards on screen, nothing read (the extractor no longer fits the page);
 * - 'shortfall': some cards read, too few;
 * - 'not-recognised': neither a results list, a place, nor a "no results" message.
 */
export type AuditVerdict = 'ok' | 'empty' | 'nothing-read' | 'shortfall' | 'not-recognised';

/**
 * The coverage audit of one page: counts only, no page content beyond place keys. Stored
 * in the sweep's log as an 'audit' event.
 */
export interface PageAudit {
  pageKind: PageKind;
  cardsVisible: number;
  /** Organic listings read. */
  extracted: number;
  sponsored: number;
  /** Places in the page's own search responses, or null when none was seen. */
  networkItems: number | null;
  /** Network places that were also read from the page (null without network data). */
  networkMatched: number | null;
  /** The page's first organic results, in page order (keys). */
  firstKeys: string[];
  /**
   * How many of firstKeys the store already had before this page was committed. Filled in
   * by the store inside the commit transaction; absent for a page that was not committed.
   */
  firstKnown?: number;
  verdict: AuditVerdict;
  /** The network showed clearly more places than were read, though the cards looked fine. */
  networkShortfall: boolean;
  /**
   * Page-data records (the site's own JSON) dropped because they contradicted the DOM about
   * their place (name, ids, coordinates): forged, or the page changed. Absent on pages
   * audited before it was counted.
   */
  pageDataDropped?: number;
  /**
   * Organic listings with a field cut to the listing bounds (Listing.cut, utils/listing/bounds.ts):
   * a name, a category list or the like longer than any real one. Absent when none was.
   */
  listingsCut?: number;
}

/** What a provider's observation may add about page data (utils/listing/merge-fields.ts has the rule). */
export interface PageDataCounts {
  /** Page-data records dropped because they contradicted the DOM; see PageAudit. */
  pageDataDropped?: number;
}

/** One failed attempt at a cell, as the Health panel lists it. */
export interface FailedAttempt {
  sweepId: string;
  at: number;
  cellId: string | null;
  keyword: string | null;
  url: string | null;
  kind: ErrorKind;
  /** The HTTP status for kind 'http' (and 429 'blocked'), when known. */
  httpStatus: number | null;
  /** What became of the cell: retried later, set aside, or the sweep paused / stopped. */
  outcome: 'retry' | 'quarantined' | 'paused' | 'stopped';
  message: string;
}
