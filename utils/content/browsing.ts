import type { Listing } from '../domain/listing';

/**
 * Collect while browsing: what the person sees on a map site (result cards as they scroll,
 * sponsored ones too, flagged, and places they open) is kept, without ever navigating,
 * scrolling or clicking for them. Sweeps keep leaving ads out (each place appears in its own
 * organic results there).
 *
 * The collector is provider-neutral: a provider's `BrowsingReader` says what is new on the page
 * (Google: utils/providers/google/content.ts; Naver: utils/providers/naver/content.ts). The collector
 * schedules scans, keeps organic over sponsored, batches, acknowledges and retries.
 *
 * Cost on the page: a MutationObserver only schedules a scan; a scan reads only cards not read
 * before (the reader remembers them), and found listings go to the background in one message
 * per second at most.
 */

/** What a scan found new on the page. */
export interface BrowsingReading {
  /** Result cards not read before (sponsored ones flagged). Counted in `stats.cardsRead`. */
  cards: Listing[];
  /** A place the person opened (a panel, a place page), or none; not counted as a card. */
  places: Listing[];
}

/**
 * A provider's reader. Stateful: each call returns only what is new since the previous calls
 * (cards it has not read, a place other than the last one it returned). A card still being
 * filled in is simply not returned yet, and read again on a later call. Must never click,
 * scroll or navigate.
 */
export interface BrowsingReader {
  readNew(doc: Document, url: string): BrowsingReading;
}

export interface BrowsingEnv {
  /** What is new on this provider's page. */
  reader: BrowsingReader;
  doc: Document;
  url(): string;
  now(): number;
  /**
   * Hand a batch to the background. Resolves once the background has committed it (or
   * decided to skip it); rejects when it was not saved. A void return counts as acknowledged.
   */
  send(listings: Listing[]): Promise<void> | void;
  schedule(fn: () => void, ms: number): unknown;
  observe(target: Node, onChange: () => void): { disconnect(): void };
}

export interface BrowsingStats {
  scans: number;
  cardsRead: number;
  /** Milliseconds spent reading cards and panels, all scans together. */
  extractMs: number;
  /** Listings the background acknowledged. */
  sent: number;
  /** Batches the background did not save; each was kept and sent again. */
  failed: number;
  /** Listings waiting for a retry after a failed commit (0 once a retry went through). */
  unsaved: number;
}

/**
 * Whether this tab collects while browsing. Incognito tabs only when the user opted in: a
 * private window is private, so by default nothing seen there is kept. A page a sweep loaded
 * is the sweep's, never "browsing".
 */
export function browsingAllowed(s: { enabled: boolean; sweepPage: boolean; incognito: boolean; allowIncognito: boolean }): boolean {
  return s.enabled && !s.sweepPage && (!s.incognito || s.allowIncognito);
}

export interface BrowsingCollector {
  start(): void;
  stop(): void;
  /** Read what is new now (also what the observer triggers). */
  scan(): void;
  readonly stats: BrowsingStats;
}

const FLUSH_EVERY_MS = 1000;
const SCAN_DELAY_MS = 200;
/** After a failed commit, wait 2 s, 4 s, … up to a minute before sending again. */
const RETRY_BASE_MS = 2000;
const RETRY_MAX_MS = 60_000;

export function createBrowsingCollector(env: BrowsingEnv): BrowsingCollector {
  const pending = new Map<string, Listing>();
  // Places this page showed as organic cards: a later ad card of the same place adds nothing.
  const organicKeys = new Set<string>();
  const stats: BrowsingStats = { scans: 0, cardsRead: 0, extractMs: 0, sent: 0, failed: 0, unsaved: 0 };
  // One batch at a time: the next waits for this one's answer, so a failed batch is merged
  // back under newer readings instead of racing them.
  let inFlight = false;
  let failStreak = 0;
  // Bumped by stop(): an answer to a batch sent before it is ignored.
  let generation = 0;
  let observer: { disconnect(): void } | null = null;
  let scanQueued = false;
  let flushQueued = false;
  let lastFlush = Number.NEGATIVE_INFINITY;

  function scan() {
    scanQueued = false;
    if (!observer) return; // switched off while a scan was queued
    const started = env.now();
    stats.scans++;
    const found = env.reader.readNew(env.doc, env.url());
    stats.cardsRead += found.cards.length;
    for (const listing of found.cards) keep(listing);
    for (const listing of found.places) keep(listing);
    stats.extractMs += env.now() - started;
    if (pending.size > 0) queueFlush();
  }

  /**
   * Everything the person saw is kept, sponsored cards too (flagged `sponsored: true`). An
   * organic reading of a place is never replaced by its ad: the same business shown both ways
   * stays organic (an organic card's fields describe the place, not the advertisement).
   */
  function keep(listing: Listing) {
    if (!listing.sponsored) organicKeys.add(listing.key);
    else if (organicKeys.has(listing.key)) return;
    pending.set(listing.key, listing);
  }

  function queueFlush(minWaitMs = 0) {
    if (flushQueued || inFlight) return;
    flushQueued = true;
    const wait = Math.max(minWaitMs, lastFlush + FLUSH_EVERY_MS - env.now());
    env.schedule(flush, wait);
  }

  /**
   * Send what is pending. The batch leaves `pending` only for the time it is in flight: if the
   * background does not acknowledge it, its listings go back (a newer reading of the same
   * place, read meanwhile, is kept instead) and are sent again after a backoff. The cards
   * stay marked as read (they need not be read again: their listings are kept here).
   */
  function flush() {
    flushQueued = false;
    if (!observer || pending.size === 0 || inFlight) return;
    lastFlush = env.now();
    const batch = [...pending.values()];
    pending.clear();
    inFlight = true;
    const sentIn = generation;
    const saved = () => {
      if (sentIn !== generation) return;
      inFlight = false;
      failStreak = 0;
      stats.sent += batch.length;
      stats.unsaved = 0;
      if (pending.size > 0) queueFlush();
    };
    const notSaved = () => {
      if (sentIn !== generation) return;
      inFlight = false;
      stats.failed += 1;
      for (const l of batch) if (!pending.has(l.key)) pending.set(l.key, l);
      stats.unsaved = pending.size;
      failStreak += 1;
      queueFlush(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failStreak - 1)));
    };
    let answer: Promise<void> | undefined;
    try {
      answer = env.send(batch) ?? undefined;
    } catch {
      return notSaved();
    }
    if (answer === undefined) saved();
    else answer.then(saved, notSaved);
  }

  function queueScan() {
    if (scanQueued) return;
    scanQueued = true;
    env.schedule(scan, SCAN_DELAY_MS);
  }

  return {
    stats,
    scan,
    start() {
      if (observer) return;
      observer = env.observe(env.doc, queueScan);
      queueScan();
    },
    stop() {
      observer?.disconnect();
      observer = null;
      pending.clear();
      generation += 1;
      inFlight = false;
      stats.unsaved = 0;
    },
  };
}
