// @vitest-environment happy-dom
/**
 * Kakao's collect-while-browsing reader (utils/providers/kakao/content.ts) on the replica's search
 * and place pages, the MAIN-world hook's message checks, and the content script's wiring with
 * WXT's fake browser: sweep messages from the background only, and nothing ever clicked while
 * browsing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { WxtBrowser } from 'wxt/browser';
import { createKakaoBrowsingReader } from '../../utils/providers/kakao/content';
import { readPlacePage } from '../../utils/providers/kakao/place-page';
import { haversineMetres } from '../../utils/geo/distance';
import { KAKAO_HOOK_SOURCE, readKakaoHookMessage } from '../../utils/providers/kakao/network-hook';
import { viewForBox } from '../../utils/providers/kakao/urls';
import type { Observation } from '../../utils/domain/sweep';
import { kakaoPlacePageHtml } from '../replica/kakao/pages';
import { CANVAS, kw, openKakaoPage, type KakaoPageHarness } from '../helpers/kakao-content-harness';
import { measuredBox } from '../helpers/searched';

const CELL = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
const CELL_VIEW = viewForBox(CELL, CANVAS)!;

let open: KakaoPageHarness | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

describe('collect while browsing on Kakao', () => {
  it("reads the cards the person sees, with map.daum's coordinates, once each, and never clicks", async () => {
    open = openKakaoPage('cafe', CELL_VIEW, { previewCount: 15 });
    open.advance(1000);
    const sentBefore = open.sent.length;
    let clicks = 0;
    const count = () => clicks++;
    document.addEventListener('click', count, true);
    const reader = createKakaoBrowsingReader(open.network);
    const first = reader.readNew(document, open.env.url());
    expect(first.cards.filter((l) => !l.sponsored)).toHaveLength(15);
    for (const l of first.cards) {
      const k = kw.byConfirmId.get(l.providerId!)!;
      expect(haversineMetres({ lat: l.lat!, lng: l.lng! }, k)).toBeLessThan(0.01);
    }
    expect(reader.readNew(document, open.env.url()).cards).toEqual([]);
    // The reader touched nothing: the control is as the page left it, "더보기" still there, no request.
    expect((document.querySelector('#info\\.search\\.place\\.bounds') as HTMLInputElement).checked).toBe(false);
    expect(document.querySelector('#info\\.search\\.place\\.more')!.classList.contains('HIDDEN')).toBe(false);
    expect(open.sent.length).toBe(sentBefore);
    expect(clicks).toBe(0);
    document.removeEventListener('click', count, true);

    // The person presses "장소 더보기" (page 2 opens): the new cards are read, the old ones not again.
    (document.querySelector('#info\\.search\\.place\\.more') as HTMLElement).click();
    open.advance(1000);
    const second = reader.readNew(document, open.env.url());
    expect(second.cards.length).toBe(15);
    const firstKeys = new Set(first.cards.map((l) => l.key));
    expect(second.cards.some((l) => firstKeys.has(l.key))).toBe(false);
  });

  it('a card whose answer the hook has not copied yet waits a few scans, then is kept without coordinates', () => {
    open = openKakaoPage('cafe', CELL_VIEW);
    open.advance(1000);
    const reader = createKakaoBrowsingReader({ exchanges: () => [] });
    expect(reader.readNew(document, open.env.url()).cards).toEqual([]);
    reader.readNew(document, open.env.url());
    reader.readNew(document, open.env.url());
    const late = reader.readNew(document, open.env.url()).cards;
    expect(late.length).toBe(15);
    expect(late.every((l) => l.lat === null)).toBe(true);
  });

  it('reads the place page the person opened, once per URL', () => {
    const k = kw.places.find((p) => p.phone && p.homepage && p.rating !== null)!;
    const html = kakaoPlacePageHtml(k);
    document.head.innerHTML = /<head>([\s\S]*)<\/head>/.exec(html)![1]!;
    document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)![1]!;
    const url = `https://place.map.kakao.com/${k.confirmId}`;
    expect(readPlacePage(document, url)).toMatchObject({
      key: `kakao:${k.confirmId}`,
      name: k.name,
      category: k.categoryPath.at(-1),
      roadAddress: k.roadAddress,
      address: k.jibunAddress,
      phone: k.phone,
      rating: k.rating,
      url,
    });
    const reader = createKakaoBrowsingReader({ exchanges: () => [] });
    expect(reader.readNew(document, url).places).toHaveLength(1);
    expect(reader.readNew(document, url).places).toHaveLength(0);
    expect(readPlacePage(document, 'https://map.kakao.com/?q=cafe')).toBeNull();
  });
});

describe("the hook's messages", () => {
  const url = 'https://search.map.kakao.com/mapsearch/map.daum?q=cafe&msFlag=A&sort=0&page=1';
  it('takes only its exact shape', () => {
    expect(readKakaoHookMessage({ source: KAKAO_HOOK_SOURCE, phase: 'start', url })).toEqual({ source: KAKAO_HOOK_SOURCE, phase: 'start', url });
    const end = { source: KAKAO_HOOK_SOURCE, phase: 'end', url, outcome: 'body', status: 200, finalUrl: url, contentType: 'application/json', body: '{}' };
    expect(readKakaoHookMessage(end)).toEqual(end);
    for (const bad of [
      null,
      'x',
      { ...end, source: 'other' },
      { ...end, url: 'https://evil.example/mapsearch/map.daum?q=a' },
      { ...end, phase: 'done' },
      { ...end, outcome: 'maybe' },
      { ...end, body: 42 },
    ]) {
      expect(readKakaoHookMessage(bad)).toBeNull();
    }
    expect(readKakaoHookMessage({ ...end, status: -3 })!).toMatchObject({ status: null });
  });
});

async function deliver(type: string, data: unknown, sender: Record<string, unknown>): Promise<unknown> {
  const replies = await fakeBrowser.runtime.onMessage.trigger({ id: 1, type, data, timestamp: Date.now() }, sender, () => {});
  return replies.find((r) => r !== undefined);
}

describe('Kakao content script wiring', () => {
  it('answers collect and nextPage for the background only', async () => {
    open = openKakaoPage('cafe', CELL_VIEW, { boundsSearchDefault: true });
    open.advance(1000);
    const messages = [...open.messages];
    expect(messages.length).toBeGreaterThan(0);
    open.close();
    open = null;
    (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL('https://map.kakao.com/?q=cafe');
    // Nothing on the page may act on a click from here on (no fake network any more).
    let clicks = 0;
    const swallow = (e: Event) => {
      clicks++;
      e.stopPropagation();
      e.preventDefault();
    };
    document.addEventListener('click', swallow, true);
    // The browser's resource timing, as a PerformanceObserver hands it over (happy-dom lists no requests of its own).
    const observers: ((list: { getEntries(): unknown[] }) => void)[] = [];
    const realObserver = window.PerformanceObserver;
    window.PerformanceObserver = class {
      constructor(callback: (list: { getEntries(): unknown[] }) => void) {
        observers.push(callback);
      }
      observe() {}
    } as unknown as typeof PerformanceObserver;
    vi.resetModules();
    const { startKakaoContent } = await import('../../utils/providers/kakao/content');
    startKakaoContent(window, fakeBrowser as unknown as WxtBrowser);
    window.PerformanceObserver = realObserver;
    // The hook's copies arrive as window messages from this window; a forged one from elsewhere is dropped.
    for (const m of messages) window.dispatchEvent(new MessageEvent('message', { data: m, origin: window.location.origin, source: window }));
    const finished = messages
      .filter((m) => m.phase === 'end')
      .map((m, i) => ({ entryType: 'resource', initiatorType: 'xmlhttprequest', name: m.url, startTime: i, responseStatus: 200 }));
    for (const o of observers) o({ getEntries: () => finished });
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { ...messages.at(-1)!, url: messages.at(-1)!.url.replace('page=1', 'page=9') },
        origin: 'https://evil.example',
        source: window,
      }),
    );
    const background = { id: fakeBrowser.runtime.id };
    const options = { cap: 510, stallMs: 200, maxMs: 3000, settleMs: 300, scrollPauseMs: 0, expectPage: 1 };
    const reply = (await deliver('collect', options, background)) as { res: Observation };
    expect(reply.res.pageKind).toBe('results');
    expect(reply.res.organicShown).toBe(15);
    // Coordinates from the copies of the requests the browser lists; the box from the newest one's rect.
    expect(reply.res.listings.every((l) => l.lat !== null)).toBe(true);
    expect(measuredBox(reply.res)).not.toBeNull();
    expect(reply.res.pager).toEqual({ page: 1, more: true });
    for (const sender of [{ id: fakeBrowser.runtime.id, tab: { id: 4 }, url: 'https://example.com/' }, { id: 'another-extension' }]) {
      expect(((await deliver('collect', options, sender)) as { err?: { message: string } }).err?.message).toMatch(/accepted only from MapSweep.s background/);
      expect(((await deliver('nextPage', undefined, sender)) as { err?: { message: string } }).err?.message).toMatch(
        /accepted only from MapSweep.s background/,
      );
    }
    expect(clicks).toBe(0);
    // Page 1 in preview: the next control is "장소 더보기".
    expect(await deliver('nextPage', undefined, background)).toEqual({ res: { clicked: true } });
    expect(clicks).toBe(1);
    document.removeEventListener('click', swallow, true);
  });
});
