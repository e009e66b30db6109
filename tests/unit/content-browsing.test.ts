// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createBrowsingCollector } from '../../utils/content/browsing';
import type { Listing } from '../../utils/listing/types';
import { idsFromPair } from '../../utils/providers/google/ids';

function card(n: number, sponsored = false): string {
  const ids = idsFromPair(0x1234n, BigInt(1000 + n));
  const href = `https://www.google.com/maps/place/P${n}/data=!4m7!3m6!1s${ids.featureId}!8m2!3d37.5!4d127!16s%2Fg%2F1!19s${ids.placeId}`;
  const ad = sponsored ? '<span aria-label="Sponsored">Sponsored</span>' : '';
  return `<div role="article" aria-label="P${n}">${ad}<a aria-label="P${n}" href="${href}"></a></div>`;
}

/** A fake timer queue and clock: nothing runs until the test advances time. */
function harness() {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const sent: Listing[][] = [];
  let onChange: (() => void) | null = null;
  document.body.innerHTML = '<div role="feed"></div>';
  const feed = document.querySelector('[role="feed"]')!;
  const collector = createBrowsingCollector({
    doc: document,
    url: () => 'https://www.google.com/maps/search/cafe/@37.5,127,15z',
    now: () => now,
    send: (l) => sent.push(l),
    schedule: (fn, ms) => timers.push({ at: now + ms, fn }),
    observe: (_t, cb) => {
      onChange = cb;
      return { disconnect: () => (onChange = null) };
    },
  });
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > until) break;
      timers.shift();
      now = next.at;
      next.fn();
    }
    now = until;
  };
  const add = (html: string) => {
    feed.insertAdjacentHTML('beforeend', html);
    onChange?.();
  };
  return { collector, sent, advance, add };
}

describe('collect while browsing', () => {
  it('reads each card once, skips ads, and sends at most one batch per second', () => {
    const h = harness();
    h.collector.start();
    h.add(card(1) + card(2) + card(3, true));
    h.advance(250);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.map((l) => l.name)).toEqual(['P1', 'P2']);
    // More cards arrive quickly: they wait for the next one-second window.
    for (let i = 4; i < 24; i++) {
      h.add(card(i));
      h.advance(100);
    }
    const windows = h.sent.length;
    h.advance(2000);
    expect(h.sent.length - windows).toBeLessThanOrEqual(1);
    const names = h.sent.flat().map((l) => l.name);
    expect(names).toEqual(Array.from({ length: 22 }, (_, i) => `P${i < 2 ? i + 1 : i + 2}`));
    // Each card was read exactly once although the collector scanned many times.
    expect(h.collector.stats.cardsRead).toBe(23);
    expect(h.collector.stats.scans).toBeGreaterThan(3);
  });

  it('stops reading when switched off', () => {
    const h = harness();
    h.collector.start();
    h.collector.stop();
    h.add(card(1));
    h.advance(5000);
    expect(h.sent).toEqual([]);
  });
});
