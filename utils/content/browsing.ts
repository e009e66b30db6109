import type { Listing } from '../listing/types';
import { extractPlacePanel, findCards, readCard } from '../providers/google';

/**
 * Collect while browsing: what the person sees on Google Maps (result cards as they scroll,
 * place panels they open) is kept, without ever navigating, scrolling or clicking for them.
 *
 * Cost on the page: a MutationObserver only schedules a scan; a scan reads only cards not read
 * before (cards stay in the DOM as the feed grows), and found listings go to the background
 * in one message per second at most.
 */
export interface BrowsingEnv {
  doc: Document;
  url(): string;
  now(): number;
  send(listings: Listing[]): void;
  schedule(fn: () => void, ms: number): unknown;
  observe(target: Node, onChange: () => void): { disconnect(): void };
}

export interface BrowsingStats {
  scans: number;
  cardsRead: number;
  /** Milliseconds spent reading cards and panels, all scans together. */
  extractMs: number;
  sent: number;
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

export function createBrowsingCollector(env: BrowsingEnv): BrowsingCollector {
  const read = new WeakSet<Element>();
  const pending = new Map<string, Listing>();
  const stats: BrowsingStats = { scans: 0, cardsRead: 0, extractMs: 0, sent: 0 };
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
        if (!listing.sponsored) pending.set(listing.key, listing);
      }
    }
    const url = env.url();
    if (url.includes('/maps/place/') && url !== lastPanelUrl) {
      // null while the panel still shows the previous place (its heading and label disagree).
      const place = extractPlacePanel(env.doc, url);
      if (place) {
        lastPanelUrl = url;
        pending.set(place.key, place);
      }
    }
    stats.extractMs += env.now() - started;
    if (pending.size > 0) queueFlush();
  }

  function queueFlush() {
    if (flushQueued) return;
    flushQueued = true;
    const wait = Math.max(0, lastFlush + FLUSH_EVERY_MS - env.now());
    env.schedule(flush, wait);
  }

  function flush() {
    flushQueued = false;
    if (!observer || pending.size === 0) return;
    lastFlush = env.now();
    const batch = [...pending.values()];
    pending.clear();
    stats.sent += batch.length;
    env.send(batch);
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
    },
  };
}
