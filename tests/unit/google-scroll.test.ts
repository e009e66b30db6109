import { describe, expect, it } from 'vitest';
import { DEFAULT_SCROLL_OPTIONS, scrollFeed, type FeedState, type ScrollDeps } from '../../utils/providers/google/scroll';

/**
 * A fake feed on a fake clock. Like Google's: reaching the bottom starts loading the next
 * batch (spinner showing), which lands `loadMs` later; `grow` overrides that model.
 */
function fakeFeed(opts: {
  total: number;
  batch?: number;
  loadMs?: number;
  showsEnd?: boolean;
  grow?: (t: number) => FeedState;
  clockMoves?: boolean;
  random?: () => number;
}) {
  const batch = opts.batch ?? 20;
  const loadMs = opts.loadMs ?? 1000;
  let t = 1_000_000;
  const started = t;
  let cards = Math.min(batch, opts.total);
  let pendingUntil: number | null = null;
  let scrolledToBottom = 0;
  const pauses: number[] = [];

  const el = {
    get scrollHeight() {
      return cards * 100;
    },
    get scrollTop() {
      return 0;
    },
    set scrollTop(v: number) {
      if (v >= cards * 100) scrolledToBottom++;
      if (v >= cards * 100 && pendingUntil === null && cards < opts.total) pendingUntil = t + loadMs;
    },
  };

  let seed = 42;
  const deps: ScrollDeps = {
    now: () => t,
    sleep: async (ms) => {
      pauses.push(ms);
      if (opts.clockMoves !== false) t += ms;
    },
    random:
      opts.random ??
      (() => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      }),
    readState: () => {
      if (opts.grow) return opts.grow(t - started);
      if (pendingUntil !== null && t >= pendingUntil) {
        cards = Math.min(opts.total, cards + batch);
        pendingUntil = null;
      }
      return { cards, endOfList: !!opts.showsEnd && cards >= opts.total, loading: pendingUntil !== null };
    },
  };
  return { el, deps, pauses, scrolledToBottom: () => scrolledToBottom };
}

const { stallMs, maxMs } = DEFAULT_SCROLL_OPTIONS;

describe('scrollFeed', () => {
  it("stops at the end text, having scrolled the feed's own bottom with 0.5–1.5 s pauses", async () => {
    const f = fakeFeed({ total: 57, showsEnd: true });
    const out = await scrollFeed(f.el, f.deps);
    expect(out.stopReason).toBe('end');
    expect(out.cards).toBe(57);
    expect(f.scrolledToBottom()).toBe(out.scrolls);
    expect(out.scrolls).toBeGreaterThan(0);
    for (const p of f.pauses) {
      expect(p).toBeGreaterThanOrEqual(500);
      expect(p).toBeLessThanOrEqual(1500);
    }
  });

  it('stops at the cap of 120 organic cards even though more would load', async () => {
    const f = fakeFeed({ total: 400 });
    const out = await scrollFeed(f.el, f.deps);
    expect([out.stopReason, out.cards]).toEqual(['cap', 120]);
  });

  it('stops as stalled when the list stops growing without an end text', async () => {
    const f = fakeFeed({ total: 45, showsEnd: false });
    const out = await scrollFeed(f.el, f.deps);
    expect([out.stopReason, out.cards]).toEqual(['stalled', 45]);
    // The last batch landed within 3 s of the start; stall is declared within one pause after stallMs.
    expect(out.elapsedMs).toBeGreaterThanOrEqual(stallMs);
    expect(out.elapsedMs).toBeLessThanOrEqual(3000 + stallMs + 1500);
  });

  it('waits for a slow batch while the spinner shows, instead of stalling', async () => {
    const f = fakeFeed({ total: 60, loadMs: stallMs + 2000, showsEnd: true });
    const out = await scrollFeed(f.el, f.deps);
    expect([out.stopReason, out.cards]).toEqual(['end', 60]);
  });

  it('does not let a spinner that never resolves hold it until maxMs', async () => {
    const f = fakeFeed({ total: 0, grow: () => ({ cards: 20, endOfList: false, loading: true }) });
    const out = await scrollFeed(f.el, f.deps);
    expect(out.stopReason).toBe('stalled');
    expect(out.elapsedMs).toBeGreaterThanOrEqual(2 * stallMs);
    expect(out.elapsedMs).toBeLessThan(maxMs);
  });

  it('never runs past maxMs, even when the list keeps trickling in', async () => {
    // One more card every 5 s: never a stall, never the cap, never the end.
    const f = fakeFeed({ total: 0, grow: (ms) => ({ cards: 1 + Math.floor(ms / 5000), endOfList: false, loading: false }) });
    const out = await scrollFeed(f.el, f.deps);
    expect(out.stopReason).toBe('stalled');
    expect(out.elapsedMs).toBe(maxMs);
  });

  it('terminates even with a clock that never moves', async () => {
    const f = fakeFeed({ total: 0, clockMoves: false, grow: () => ({ cards: 3, endOfList: false, loading: true }) });
    const out = await scrollFeed(f.el, f.deps);
    expect(out.stopReason).toBe('stalled');
  });

  it('keeps pauses in range whatever random() returns', async () => {
    for (const value of [5, -3, Number.NaN, 1]) {
      const f = fakeFeed({ total: 45, random: () => value });
      await scrollFeed(f.el, f.deps);
      for (const p of f.pauses.slice(0, -1)) {
        expect(p).toBeGreaterThanOrEqual(500);
        expect(p).toBeLessThanOrEqual(1500);
      }
    }
  });

  it('stops for the right reason within its bounds (seeded runs)', async () => {
    let seed = 9;
    const next = (): number => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let run = 0; run < 60; run++) {
      const total = Math.floor(next() * 200);
      const loadMs = Math.floor(next() * 12_000);
      const showsEnd = next() < 0.5;
      const f = fakeFeed({ total, loadMs, showsEnd });
      const out = await scrollFeed(f.el, f.deps);
      expect(out.elapsedMs).toBeLessThanOrEqual(maxMs);
      if (out.stopReason === 'cap') expect(out.cards).toBeGreaterThanOrEqual(120);
      if (out.stopReason === 'end') expect(showsEnd && out.cards === total).toBe(true);
      // Stopping early is only allowed for a reason: with the end text shown and under the cap, it must be 'end'.
      if (showsEnd && total < 120) expect(out.stopReason).toBe('end');
      if (total >= 120) expect(out.stopReason).toBe('cap');
    }
  });
});
