// @vitest-environment happy-dom
/**
 * The Naver content script's wiring (utils/providers/naver/content.ts) with WXT's fake browser:
 * top-level it answers the background's `collect` and `nextPage` only; in a frame of the map it
 * answers nothing and collects while browsing (when the setting allows).
 */
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { WxtBrowser } from 'wxt/browser';
import { BROWSING_ENABLED_KEY } from '../../utils/config/storage-keys';
import type { Observation } from '../../utils/domain/sweep';
import { naverListUrl } from '../../utils/providers/naver/urls';
import { listPageHtml, placeHomeHtml } from '../replica/naver/pages';
import { naverPlaceOf } from '../replica/naver/data';
import { pcmapPlaceHomeUrl } from '../../utils/providers/naver/urls';
import { adsFor, naverSearch, pageOf } from '../replica/naver/search';
import { DEFAULT_NAVER_SWITCHES } from '../replica/naver/switches';
import { createWorld } from '../replica/world';
import { backgroundAnswersSweepTab } from '../helpers/background-answers';

const world = createWorld({ seed: 21, places: 8000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 5 });
const BOX = { south: 37.56, west: 126.968, north: 37.573, east: 126.988 };

/** Page 1 of a '카페' search, every card rendered (no lazy batches needed), into this test's document. */
function showListPage(): { url: string; keys: string[] } {
  const s = DEFAULT_NAVER_SWITCHES;
  const input = { query: '카페', bounds: BOX, centre: null };
  const outcome = naverSearch(world, input, s);
  const { items, pages } = pageOf(outcome.results, 1, s.pageSize);
  const html = listPageHtml({
    query: '카페',
    x: '126.9780000',
    y: '37.5665000',
    items,
    ads: adsFor(world, input, outcome, s),
    rendered: items.length,
    page: 1,
    pages,
    total: outcome.results.length,
    pageSize: s.pageSize,
    lazyBatch: s.lazyBatch,
    lazyDelayMs: 0,
    pagerWindow: s.pagerWindow,
    endMarker: s.endMarker,
    apolloHolds: s.apolloHolds,
    variant: s.domVariant,
    brokenCards: false,
  });
  const url = naverListUrl({ query: '카페', bounds: BOX });
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(url);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  document.body.innerHTML = doc.body.innerHTML; // scripts inserted this way do not run: the page stays as rendered
  return { url, keys: items.map((p) => `naver:${p.id}`) };
}

/** A pcmap place page (its home tab) at the top of this test's document. */
function showPlacePage(): ReturnType<typeof naverPlaceOf> {
  const place = naverPlaceOf(world.places[42]!);
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`${pcmapPlaceHomeUrl(place.id)}?entry=plt`);
  document.documentElement.innerHTML = new DOMParser().parseFromString(placeHomeHtml(place), 'text/html').documentElement.innerHTML;
  return place;
}

/** A fresh content script (its messaging allows one listener per name and module instance). */
async function start(win: Window): Promise<void> {
  vi.resetModules();
  const { startNaverContent } = await import('../../utils/providers/naver/content');
  startNaverContent(win, fakeBrowser as unknown as WxtBrowser);
}

async function deliver(type: string, data: unknown, sender: Record<string, unknown>): Promise<unknown> {
  const replies = await fakeBrowser.runtime.onMessage.trigger({ id: 1, type, data, timestamp: Date.now() }, sender, () => {});
  return replies.find((r) => r !== undefined);
}

const OPTIONS = { cap: 300, stallMs: 200, maxMs: 5000, settleMs: 1000, scrollPauseMs: 10, expectPage: 1 };

/** What the content script sends as browsing listings, acknowledged (the callback way of WXT's fake browser). */
function browsingSent(): unknown[] {
  const sent: unknown[] = [];
  fakeBrowser.runtime.onMessage.addListener(((message: { type?: string; data?: unknown }, _sender: unknown, sendResponse: (r: unknown) => void) => {
    if (message?.type !== 'browsingListings') return undefined;
    sent.push(...(message.data as unknown[]));
    sendResponse({ res: undefined });
    return true;
  }) as never);
  return sent;
}

/** How often the content script asked the background whether its tab is a sweep's. */
function sweepTabAsks(): () => number {
  let asks = 0;
  fakeBrowser.runtime.onMessage.addListener(((message: { type?: string }) => {
    if (message?.type === 'isSweepTab') asks++;
    return undefined;
  }) as never);
  return () => asks;
}

describe('Naver content script wiring', () => {
  it('top-level: collect and nextPage answered for the background only', async () => {
    const page = showListPage();
    await start(window);
    const background = { id: fakeBrowser.runtime.id };
    const reply = (await deliver('collect', OPTIONS, background)) as { res: Observation };
    expect(reply.res).toMatchObject({ url: page.url, pageKind: 'results', pager: { page: 1, more: true }, organicShown: 50 });
    expect(reply.res.listings.filter((l) => !l.sponsored).map((l) => l.key)).toEqual(page.keys);
    // A content script (a tab in its sender) or another extension is refused.
    for (const sender of [{ id: fakeBrowser.runtime.id, tab: { id: 4 }, url: 'https://example.com/' }, { id: 'another-extension' }]) {
      expect(((await deliver('collect', OPTIONS, sender)) as { err?: { message: string } }).err?.message).toMatch(/accepted only from MapSweep.s background/);
      expect(((await deliver('nextPage', undefined, sender)) as { err?: { message: string } }).err?.message).toMatch(
        /accepted only from MapSweep.s background/,
      );
    }
    let clicks = 0;
    document.addEventListener('click', (e) => {
      if ((e.target as Element).closest('div.zRM9F')) clicks++;
      e.preventDefault();
    });
    expect(await deliver('nextPage', undefined, background)).toEqual({ res: { clicked: true } });
    expect(clicks).toBe(1);
  });

  it('a frame of the map: answers no sweep message, and sends what the person sees as browsing listings', async () => {
    const page = showListPage();
    await fakeBrowser.storage.local.set({ [BROWSING_ENABLED_KEY]: true });
    const sent = browsingSent();
    backgroundAnswersSweepTab(fakeBrowser, false);
    // The same window, seen as a frame (its top is another window).
    const framed = new Proxy(window, {
      get(target, prop) {
        if (prop === 'top') return {};
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await start(framed);
    expect(await deliver('collect', OPTIONS, { id: fakeBrowser.runtime.id })).toBeUndefined();
    await vi.waitFor(() => expect(sent.length).toBeGreaterThanOrEqual(52), { timeout: 3000 });
    expect((sent as { key: string; sponsored: boolean }[]).filter((l) => !l.sponsored).map((l) => l.key)).toEqual(page.keys);
  });

  it('a place page in a tab a sweep drives never feeds browsing, even with the setting on and before it is asked to collect', async () => {
    fakeBrowser.reset();
    showPlacePage();
    await fakeBrowser.storage.local.set({ [BROWSING_ENABLED_KEY]: true });
    backgroundAnswersSweepTab(fakeBrowser, true);
    const sent = browsingSent();
    const asked = sweepTabAsks();
    vi.useFakeTimers();
    try {
      await start(window);
      await vi.waitFor(() => expect(asked()).toBe(1));
      // Past every scan and flush delay the collector has (virtual time: no waiting).
      await vi.advanceTimersByTimeAsync(10_000);
    } finally {
      vi.useRealTimers();
    }
    expect(sent).toEqual([]);
  });

  it("a pcmap list page at the top of a tab is a sweep's page, whatever the background says: never browsing (people open lists in the map)", async () => {
    fakeBrowser.reset();
    showListPage();
    await fakeBrowser.storage.local.set({ [BROWSING_ENABLED_KEY]: true });
    backgroundAnswersSweepTab(fakeBrowser, false);
    const sent = browsingSent();
    const asked = sweepTabAsks();
    vi.useFakeTimers();
    try {
      await start(window);
      await vi.advanceTimersByTimeAsync(10_000);
    } finally {
      vi.useRealTimers();
    }
    // Decided before asking: a browsing collector asks the background first (browsing-wiring.ts).
    expect(asked()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('a pcmap place page the person opened in a tab of its own (not a sweep tab) is collected while browsing', async () => {
    fakeBrowser.reset();
    const place = showPlacePage();
    await fakeBrowser.storage.local.set({ [BROWSING_ENABLED_KEY]: true });
    backgroundAnswersSweepTab(fakeBrowser, false);
    const sent = browsingSent();
    await start(window);
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 3000 });
    expect(sent[0]).toMatchObject({ key: `naver:${place.id}`, name: place.name });
  });
});
