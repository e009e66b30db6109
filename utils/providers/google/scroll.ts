/**
 * Scrolling the results feed until Google has shown all it will (spec §1.3): results come
 * 20 per batch when the feed's own scroll reaches the bottom (scrolling the window does
 * nothing), up to a hard cap of about 120.
 */

/** What the feed shows right now; `cards` counts organic cards only (ads never reach the cap). */
export interface FeedState {
  cards: number;
  endOfList: boolean;
  loading: boolean;
}

export interface ScrollDeps {
  sleep(ms: number): Promise<void>;
  now(): number;
  /** In [0, 1), like Math.random. */
  random(): number;
  readState(): FeedState;
}

export interface ScrollOptions {
  /** Stop once this many organic cards are shown: Google's per-search cap. */
  cap: number;
  /** Stop when the card count has not grown for this long with no spinner showing. */
  stallMs: number;
  /** Never scroll longer than this, whatever the page does. */
  maxMs: number;
  /** Pause between scrolls, drawn uniformly from [min, max] ms. */
  pauseMs: readonly [number, number];
}

/** Google's hard cap on results per search. */
export const RESULTS_CAP = 120;

export const DEFAULT_SCROLL_OPTIONS: ScrollOptions = {
  cap: RESULTS_CAP,
  stallMs: 8000,
  maxMs: 90_000,
  pauseMs: [500, 1500],
};

export interface ScrollOutcome {
  /** 'stalled' also covers reaching maxMs: either way the list did not say it was done. */
  stopReason: 'end' | 'cap' | 'stalled';
  cards: number;
  scrolls: number;
  elapsedMs: number;
}

/** The element that scrolls; a real `Element` fits. */
export interface ScrollTarget {
  scrollTop: number;
  readonly scrollHeight: number;
}

/**
 * A spinner that never goes away must not hold the scroll until maxMs: after this many
 * stall periods the spinner no longer counts as progress.
 */
const SPINNER_GRACE = 2;
/** A second bound that holds even if the clock given does not move. */
const MAX_SCROLLS = 1000;

export async function scrollFeed(feed: ScrollTarget, deps: ScrollDeps, opts: ScrollOptions = DEFAULT_SCROLL_OPTIONS): Promise<ScrollOutcome> {
  const start = deps.now();
  let cards = -1;
  let lastGrowth = start;
  let scrolls = 0;
  const [minPause, maxPause] = opts.pauseMs[0] <= opts.pauseMs[1] ? opts.pauseMs : [opts.pauseMs[1], opts.pauseMs[0]];

  for (;;) {
    const state = deps.readState();
    const now = deps.now();
    const outcome = (stopReason: ScrollOutcome['stopReason']): ScrollOutcome => ({
      stopReason,
      cards: Math.max(state.cards, 0),
      scrolls,
      elapsedMs: now - start,
    });
    if (state.endOfList) return outcome('end');
    if (state.cards >= opts.cap) return outcome('cap');
    if (state.cards > cards) {
      cards = state.cards;
      lastGrowth = now;
    }
    const idle = now - lastGrowth;
    if (idle >= opts.stallMs && (!state.loading || idle >= SPINNER_GRACE * opts.stallMs)) return outcome('stalled');
    if (now - start >= opts.maxMs || scrolls >= MAX_SCROLLS) return outcome('stalled');

    feed.scrollTop = feed.scrollHeight;
    scrolls++;
    const raw = deps.random();
    const r = Number.isFinite(raw) ? Math.min(Math.max(raw, 0), 1) : 0.5;
    const pause = minPause + r * (maxPause - minPause);
    // The last pause ends at maxMs, so the bound holds to the millisecond.
    await deps.sleep(Math.max(0, Math.min(pause, opts.maxMs - (now - start))));
  }
}
