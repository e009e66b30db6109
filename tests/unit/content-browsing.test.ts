// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { browsingAllowed, createBrowsingCollector } from '../../utils/content/browsing';
import { createGoogleBrowsingReader } from '../../utils/providers/google/content';
import type { Listing } from '../../utils/domain/listing';
import { idsFromPair } from '../../utils/providers/google/ids';

function card(n: number, sponsored = false): string {
  const ids = idsFromPair(0x1234n, BigInt(1000 + n));
  const href = `https://www.google.com/maps/place/P${n}/data=!4m7!3m6!1s${ids.featureId}!8m2!3d37.5!4d127!16s%2Fg%2F1!19s${ids.placeId}`;
  const ad = sponsored ? '<span aria-label="Sponsored">Sponsored</span>' : '';
  return `<div role="article" aria-label="P${n}">${ad}<a aria-label="P${n}" href="${href}"></a></div>`;
}

/** A fake timer queue and clock: nothing runs until the test advances time. */
function harness(answer?: (batch: Listing[]) => Promise<void>) {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const sent: Listing[][] = [];
  let onChange: (() => void) | null = null;
  document.body.innerHTML = '<div role="feed"></div>';
  const feed = document.querySelector('[role="feed"]')!;
  const collector = createBrowsingCollector({
    reader: createGoogleBrowsingReader(),
    doc: document,
    url: () => 'https://www.google.com/maps/search/cafe/@37.5,127,15z',
    now: () => now,
    send: (l) => {
      sent.push(l);
      return answer?.(l);
    },
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
  it('reads each card once, keeps ads flagged, and sends at most one batch per second', () => {
    const h = harness();
    h.collector.start();
    h.add(card(1) + card(2) + card(3, true));
    h.advance(250);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.map((l) => [l.name, l.sponsored])).toEqual([
      ['P1', false],
      ['P2', false],
      ['P3', true],
    ]);
    // More cards arrive quickly: they wait for the next one-second window.
    for (let i = 4; i < 24; i++) {
      h.add(card(i));
      h.advance(100);
    }
    const windows = h.sent.length;
    h.advance(2000);
    expect(h.sent.length - windows).toBeLessThanOrEqual(1);
    const names = h.sent.flat().map((l) => l.name);
    expect(names).toEqual(Array.from({ length: 23 }, (_, i) => `P${i + 1}`));
    // Each card was read exactly once although the collector scanned many times.
    expect(h.collector.stats.cardsRead).toBe(23);
    expect(h.collector.stats.scans).toBeGreaterThan(3);
  });

  it('keeps sponsored places flagged, never with an ad-click link as the website; an organic card of the same place wins', () => {
    const h = harness();
    h.collector.start();
    const ids = (n: number) => idsFromPair(0x1234n, BigInt(1000 + n));
    const href = (n: number, ad: boolean) =>
      `https://www.google.com/maps/place/P${n}/data=!4m${ad ? 8 : 7}!3m${ad ? 7 : 6}!1s${ids(n).featureId}!8m2!3d37.5!4d127${ad ? '!10e5' : ''}!16s%2Fg%2F1!19s${ids(n).placeId}`;
    const adCard = (n: number, label: string, site: string) =>
      `<div role="article" aria-label="P${n}"><h1 aria-label="${label}"><span class="jHLihd">${label}</span></h1>` +
      `<a aria-label="P${n}" href="${href(n, true)}"></a><a data-value="Website" aria-label="Website" href="${site}">Website</a></div>`;
    const organic = (n: number, site: string) =>
      `<div role="article" aria-label="P${n}"><a aria-label="P${n}" href="${href(n, false)}"></a><a data-value="Website" aria-label="Website" href="${site}">Website</a></div>`;
    h.add(
      // An /aclk link without its target, one through googleadservices, one with the advertised site.
      adCard(1, 'Sponsored', '/aclk?sa=L&ai=DChsSEwj&gclid=EAIaIQob&sig=AOD64_x&rct=j') +
        adCard(2, '광고', 'https://www.googleadservices.com/pagead/aclk?sa=L&ai=DChcSEwj&sig=AOD64_y') +
        adCard(3, 'Sponsorisé', `/aclk?sa=L&ai=x&sig=y&adurl=${encodeURIComponent('https://cafe-three.example/')}`) +
        adCard(4, 'スポンサー', 'https://ad.doubleclick.net/ddm/clk/123;abc'),
    );
    h.advance(1100);
    const first = h.sent.flat();
    expect(first.map((l) => [l.name, l.sponsored, l.website])).toEqual([
      ['P1', true, null],
      ['P2', true, null],
      ['P3', true, 'https://cafe-three.example/'],
      ['P4', true, null],
    ]);
    for (const l of first) expect(JSON.stringify(l)).not.toMatch(/aclk|googleadservices|doubleclick/);
    // The same business then shown as an organic result: sent as organic, with its own site.
    h.add(organic(1, 'https://cafe-one.example/'));
    h.advance(1100);
    expect(h.sent.at(-1)!.map((l) => [l.name, l.sponsored, l.website])).toEqual([['P1', false, 'https://cafe-one.example/']]);
    // An ad for a place already seen organically adds nothing.
    const before = h.sent.length;
    h.add(adCard(1, 'Sponsored', '/aclk?sa=L&ai=z&sig=w'));
    h.advance(1100);
    expect(h.sent.length).toBe(before);
    // Within one batch, organic beats sponsored whatever the order on the page.
    h.add(adCard(5, 'Sponsored', '/aclk?sa=L&ai=q&sig=r') + organic(5, 'https://five.example/'));
    h.advance(1100);
    expect(h.sent.at(-1)!.map((l) => [l.name, l.sponsored])).toEqual([['P5', false]]);
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

describe('collect while browsing: acknowledged batches and private windows', () => {
  const flushMicrotasks = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('a batch the background did not save is kept, counted and sent again; read only once acknowledged', async () => {
    let failNext = true;
    const h = harness(async () => {
      if (failNext) {
        failNext = false;
        throw new Error('QuotaExceededError');
      }
    });
    h.collector.start();
    h.add(card(1) + card(2));
    h.advance(250);
    await flushMicrotasks();
    expect(h.sent).toHaveLength(1);
    expect(h.collector.stats).toMatchObject({ sent: 0, failed: 1, unsaved: 2 });

    // A card read while the failed batch waits joins the retry.
    h.add(card(3));
    h.advance(1000);
    await flushMicrotasks();
    expect(h.sent).toHaveLength(1); // still backing off (2 s)
    h.advance(1500);
    await flushMicrotasks();
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.map((l) => l.name).sort()).toEqual(['P1', 'P2', 'P3']);
    expect(h.collector.stats).toMatchObject({ sent: 3, failed: 1, unsaved: 0 });
    // Acknowledged: never sent again.
    h.advance(10_000);
    await flushMicrotasks();
    expect(h.sent).toHaveLength(2);
  });

  it('sends one batch at a time: the next waits for the answer', async () => {
    const answers: (() => void)[] = [];
    const h = harness(() => new Promise<void>((resolve) => answers.push(resolve)));
    h.collector.start();
    h.add(card(1));
    h.advance(250);
    h.add(card(2));
    h.advance(3000);
    expect(h.sent).toHaveLength(1);
    answers[0]!();
    await flushMicrotasks();
    h.advance(1000);
    expect(h.sent.map((b) => b.map((l) => l.name))).toEqual([['P1'], ['P2']]);
  });

  it('skips incognito tabs unless the user opted in, and sweep pages always', () => {
    const base = { enabled: true, sweepPage: false, incognito: false, allowIncognito: false };
    expect(browsingAllowed(base)).toBe(true);
    expect(browsingAllowed({ ...base, incognito: true })).toBe(false);
    expect(browsingAllowed({ ...base, incognito: true, allowIncognito: true })).toBe(true);
    expect(browsingAllowed({ ...base, enabled: false, allowIncognito: true })).toBe(false);
    expect(browsingAllowed({ ...base, sweepPage: true })).toBe(false);
  });
});
