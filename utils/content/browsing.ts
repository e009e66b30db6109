import type { Listing } from '../listing/types';
import { extractPlacePanel, findCards, readCard } from '../providers/google';

/**
 * Collect while browsing: what the person sees on Google Maps (result cards as they scroll,
 * sponsored ones too, flagged, and place panels they open) is kept, without ever navigating,
 * scrolling or clicking for them. Sweeps keep leaving ads out (each place appears in its own
 * organic results there).
 *
 * Cost on the page: a MutationObserver only schedules a scan; a scan reads only cards not read
 * before (cards stay in the DOM as the feed grows), and found listings go to the background
 * in one message per second at most.
 */
export interface BrowsingEnv {
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

/** Hosts whose links are ad clicks or ad redirects, never a business's website. */
const AD_HOSTS = /(^|\.)(googleadservices\.com|doubleclick\.net|googlesyndication\.com)$/i;
const GOOGLE_HOST = /(^|\.)google\.[a-z.]+$/i;

/**
 * An ad card's listing with its website only when that is the business's own site: an
 * ad-click link (`/aclk`, googleadservices, doubleclick) is never stored as the website.
 * (readCard already unwraps `/aclk?…&adurl=` to the advertised site when the link carries one.)
 */
export function withoutAdLink(listing: Listing): Listing {
  const site = listing.website;
  if (site === null || !isAdLink(site)) return listing;
  const out: Listing = { ...listing, website: null };
  if (listing.sources?.website !== undefined) {
    const sources = { ...listing.sources };
    delete sources.website;
    out.sources = sources;
  }
  return out;
}

function isAdLink(href: string): boolean {
  try {
    const u = new URL(href, 'https://www.google.com');
    if (AD_HOSTS.test(u.hostname)) return true;
    if (GOOGLE_HOST.test(u.hostname) && (u.pathname === '/aclk' || u.pathname.startsWith('/pagead/'))) return true;
    return /[?&](?:gclid|gclsrc|dclid)=/i.test(u.search);
  } catch {
    return true;
  }
}

export function createBrowsingCollector(env: BrowsingEnv): BrowsingCollector {
  const read = new WeakSet<Element>();
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
  let lastPanelUrl: string | null = null;

  function scan() {
    scanQueued = false;
    if (!observer) return; // switched off while a scan was queued
    const started = env.now();
    stats.scans++;
    const feed = env.doc.querySelector('[role="feed"]');
    if (feed) {
      for (const card of findCards(feed)) {
        if (read.has(card)) continue;
        const listing = readCard(card);
        // A card still being filled in (no link yet) is read again on the next change.
        if (typeof listing === 'string') continue;
        read.add(card);
        stats.cardsRead++;
        keep(listing.sponsored ? withoutAdLink(listing) : listing);
      }
    }
    const url = env.url();
    if (url.includes('/maps/place/') && url !== lastPanelUrl) {
      // null while the panel still shows the previous place (its heading and label disagree).
      const place = extractPlacePanel(env.doc, url);
      if (place) {
        lastPanelUrl = url;
        keep(place);
      }
    }
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
    let answer: Promise<void> | void;
    try {
      answer = env.send(batch);
    } catch {
      return notSaved();
    }
    if (answer) answer.then(saved, notSaved);
    else saved();
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
