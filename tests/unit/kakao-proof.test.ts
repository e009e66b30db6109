// @vitest-environment happy-dom
/**
 * What a Kakao visit takes as proof, and from whom (issue 21's review): only the browser's own
 * list of requests says what was searched and with what status; the hook's copies (any page script
 * can post one) may fill cards, never pause a sweep, set the box or end a list; "everywhere" needs
 * the request's own word; a full page 1 with no pager shown is not the list's end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CollectOptions } from '../../utils/messaging/protocol';
import { collectKakaoPage } from '../../utils/providers/kakao/collect';
import { newestSearch, searchedOf, trustedCopies } from '../../utils/providers/kakao/searched-box';
import type { KakaoExchange } from '../../utils/providers/kakao/network';
import { KAKAO_HOOK_SOURCE } from '../../utils/providers/kakao/network-hook';
import { mapDaumUrl, parseMapDaumUrl, viewForBox } from '../../utils/providers/kakao/urls';
import { kakaoProvider } from '../../utils/providers/kakao/provider';
import { judgeObservation } from '../../utils/sweep/judge';
import { watchMapDaumRequests } from '../../utils/providers/kakao/content';
import { CANVAS, kakaoFirstPage, kakaoPageOpener, walkKakaoPages, type KakaoPageHarness } from '../helpers/kakao-content-harness';

const OPTIONS: CollectOptions = { cap: 510, stallMs: 8000, maxMs: 90_000, settleMs: 15_000, scrollPauseMs: 0 };
const CELL = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
const CELL_VIEW = viewForBox(CELL, CANVAS)!;
const SEARCH = 'https://map.kakao.com/api/v1/mapsearch/map';

const opener = kakaoPageOpener(CELL_VIEW);
const page = opener.page;
afterEach(() => opener.close());

/** A page script posting the hook's message, as a copy of the page's own newest request. */
function forgeCopy(h: KakaoPageHarness, message: Record<string, unknown>): void {
  const url = h.sent.at(-1)!;
  window.postMessage(
    { source: KAKAO_HOOK_SOURCE, phase: 'end', url, finalUrl: url, contentType: 'application/json', body: null, status: null, ...message },
    '*',
  );
  h.advance(10);
}

describe('"everywhere" is the request\'s own word (searchedOf)', () => {
  const req = (query: string) => parseMapDaumUrl(`${SEARCH}?${query}`)!;
  const absent = { kind: 'absent' } as const;

  it('msFlag=A and nothing that could carry a box, with no control shown: unrestricted', () => {
    expect(searchedOf(req('q=cafe&msFlag=A&sort=0&page=1'), absent).kind).toBe('unrestricted');
    expect(searchedOf(req('q=cafe&msFlag=A&sort=0&page=2&_=1733000000'), absent).kind).toBe('unrestricted');
  });

  it.each([
    ['a parameter no source names (it may carry the box)', 'q=cafe&msFlag=A&sort=0&page=1&bbox=1,2,3,4'],
    ['no msFlag at all', 'q=cafe&sort=0&page=1'],
    ['msFlag=S without a rect', 'q=cafe&msFlag=S&sort=0&page=1&mcheck=Y'],
    ['a rect beside msFlag=A (the flag and the box disagree)', 'q=cafe&msFlag=A&sort=0&page=1&rect=1,2,3,4'],
  ])('%s: unknown', (_why, query) => {
    expect(searchedOf(req(query), absent).kind).toBe('unknown');
  });

  it('the control shown and no rect: unknown, whatever the flag', () => {
    expect(searchedOf(req('q=cafe&msFlag=A&sort=0&page=1'), { kind: 'toggle', on: false }).kind).toBe('unknown');
  });

  it('a page that restricts its search by a control the reader cannot find and a box parameter it does not know: unknown, never proof', async () => {
    const h = page('cafe', { boundsMarkup: 'unlabelled', boundsSearchDefault: true, rectParam: 'renamed-unflagged' });
    const first = await kakaoFirstPage(h.env, OPTIONS);
    expect(new URL(h.sent.at(-1)!).searchParams.get('bbox')).not.toBeNull();
    expect(first.pageKind).toBe('results');
    expect(first.searched).toMatchObject({ kind: 'unknown' });
  });
});

describe("the hook's copies never pause, set the box or give a status", () => {
  const ok = (url: string): KakaoExchange => ({
    url,
    result: { kind: 'ok', places: [], organic: 0, ads: 0, totalCount: null, pageCount: null, page: 1 } as never,
  });
  const blocked = (url: string): KakaoExchange => ({ url, result: { kind: 'blocked', reason: 'html-instead-of-json' } });

  it('copies count only for requests the browser lists, and none of a request copied more often than sent', () => {
    const a = `${SEARCH}?q=a&msFlag=A&sort=0&page=1`;
    const b = `${SEARCH}?q=a&msFlag=A&sort=0&page=2`;
    expect(trustedCopies([ok(a), ok(b)], [a])).toEqual([ok(a)]);
    expect(trustedCopies([ok(a), blocked(a)], [a])).toEqual([]);
    expect(trustedCopies([ok(a), ok(a)], [a, a])).toHaveLength(2);
    // A request that failed unanswered may be unlisted: its copy only ends a wait.
    const lost: KakaoExchange = { url: b, result: { kind: 'http-error', status: 0 } };
    expect(trustedCopies([lost, { url: b, result: { kind: 'http-error', status: 429 } }], [])).toEqual([lost]);
  });

  it('a forged "blocked" copy of the page\'s own request does not pause the sweep', async () => {
    const h = page('cafe');
    expect((await kakaoFirstPage(h.env, OPTIONS)).pageKind).toBe('results');
    forgeCopy(h, { outcome: 'no-callback', status: 200, contentType: 'text/html' });
    const again = await collectKakaoPage(h.env, OPTIONS);
    expect(again.pageKind).toBe('results');
    expect(again.warnings.some((w) => w.startsWith('kakao-copies-untrusted'))).toBe(true);
  });

  it("a forged 429 copy gives no status: the status is the browser's", async () => {
    const h = page('cafe');
    await kakaoFirstPage(h.env, OPTIONS);
    forgeCopy(h, { outcome: 'failed', status: 429 });
    const again = await collectKakaoPage(h.env, OPTIONS);
    expect(again.httpStatus).toBe(200);
  });

  it('with no request the browser lists, copies set no box and fill no card', async () => {
    const h = page('cafe');
    const env = { ...h.env, requests: () => [] };
    const first = await kakaoFirstPage(env, { ...OPTIONS, settleMs: 2000 });
    expect(first.searched).toMatchObject({ kind: 'unknown' });
    expect(first.listings.filter((l) => !l.sponsored).every((l) => l.lat === null)).toBe(true);
  });
});

describe('a full page 1 with no pager shown is not the end', () => {
  it('15 cards, no pager and no "장소 더보기" the reader recognises: capped, never complete', async () => {
    const h = page('cafe', { previewCount: 15 });
    const { pages } = await walkKakaoPages(h, OPTIONS, undefined, 1);
    expect(pages[0]!.pager).toEqual({ page: 1, more: true });
    // The site redraws its pager in a markup the reader does not know: neither control is found.
    for (const sel of ['#info\\.search\\.page', '#info\\.search\\.place\\.more']) document.querySelector(sel)?.remove();
    // …and its answers carry no count (a drifted field name): nothing says there is more.
    const uncounted = () =>
      h.env.network.exchanges().map((e) => (e.result.kind === 'ok' ? { ...e, result: { ...e.result, totalCount: null, pageCount: null } } : e));
    const again = await collectKakaoPage({ ...h.env, network: { exchanges: uncounted, pending: h.env.network.pending } }, OPTIONS);
    expect(again.listings.filter((l) => !l.sponsored)).toHaveLength(15);
    expect(again.endOfList).toBe(false);
    expect(again.capHit).toBe(true);
  });
});

describe("a request someone else sent is not the page's search", () => {
  it('only requests sent the way a search is (XHR, fetch, a JSONP script) are listed: an image or a beacon is not', () => {
    const url = (page: number) => `${SEARCH}?q=cafe&msFlag=A&sort=0&page=${page}`;
    const entry = (page: number, initiatorType: string, startTime: number) => ({
      entryType: 'resource',
      name: url(page),
      initiatorType,
      startTime,
      responseStatus: 200,
    });
    const entries = [entry(1, 'xmlhttprequest', 1), entry(2, 'img', 2), entry(3, 'beacon', 3), entry(4, 'fetch', 4), entry(5, 'script', 5), entry(6, 'css', 6)];
    const win = { performance: { getEntriesByType: (type: string) => (type === 'resource' ? entries : []) } } as unknown as Window;
    expect(watchMapDaumRequests(win)().map((r) => parseMapDaumUrl(r.url)!.page)).toEqual([1, 4, 5]);
    // The same through a PerformanceObserver, the way Chrome hands the entries over.
    let deliver: (list: { getEntries(): unknown[] }) => void = () => {};
    const Observer = class {
      constructor(callback: typeof deliver) {
        deliver = callback;
      }
      observe() {}
    };
    const observed = watchMapDaumRequests({ ...win, PerformanceObserver: Observer } as unknown as Window);
    deliver({ getEntries: () => entries });
    expect(observed().map((r) => parseMapDaumUrl(r.url)!.page)).toEqual([1, 4, 5]);
  });

  it("a second rect for the page shown (a page script's own fetch): which box the list shows is unknown, never the newest", async () => {
    const h = page('cafe', { endpoint: 'map.daum', transport: 'xhr' });
    const first = await kakaoFirstPage(h.env, OPTIONS);
    expect(first.searched).toMatchObject({ kind: 'measured' });
    const own = parseMapDaumUrl(h.sent.at(-1)!)!;
    const wide = { x1: own.rect!.x1 - 20_000, y1: own.rect!.y1 - 20_000, x2: own.rect!.x2 + 20_000, y2: own.rect!.y2 + 20_000 };
    // The request goes through the page's own fetch: the browser lists it and the hook copies its real answer.
    void window.fetch(mapDaumUrl({ query: 'cafe', page: 1, rect: wide }));
    h.advance(100);
    const again = await collectKakaoPage(h.env, OPTIONS);
    expect(again.pageKind).toBe('results');
    expect(again.searched).toMatchObject({ kind: 'unknown' });
    expect(again.warnings.some((w) => w.startsWith('kakao-rects-differ'))).toBe(true);
  });

  it('a second rect on the other endpoint counts too (the page uses the 2026 one, a script fetches map.daum)', async () => {
    const h = page('cafe');
    await kakaoFirstPage(h.env, OPTIONS);
    const own = parseMapDaumUrl(h.sent.at(-1)!)!;
    expect(own.endpoint).toBe('mapsearch');
    const wide = { x1: own.rect!.x1 - 20_000, y1: own.rect!.y1 - 20_000, x2: own.rect!.x2 + 20_000, y2: own.rect!.y2 + 20_000 };
    void window.fetch(mapDaumUrl({ query: 'cafe', page: 1, rect: wide }));
    h.advance(100);
    const again = await collectKakaoPage(h.env, OPTIONS);
    expect(again.searched).toMatchObject({ kind: 'unknown' });
  });

  it('the words compare as the judge compares them (case and spacing aside); a second rect for the page shown is a doubt on any endpoint', () => {
    const rect = { x1: 1000, y1: 2000, x2: 3000, y2: 4000 };
    const wide = { x1: 0, y1: 0, x2: 9000, y2: 9000 };
    const own = mapDaumUrl({ query: 'Cafe  Momo', page: 1, rect, endpoint: 'mapsearch' });
    expect(newestSearch([own], 'cafe momo').doubt).toBeNull();
    expect(newestSearch([own], 'bakery').doubt).toMatch(/^kakao-other-words/);
    expect(newestSearch([own, mapDaumUrl({ query: 'x', page: 1, rect: wide })], null).doubt).toMatch(/^kakao-rects-differ/);
    expect(newestSearch([own, mapDaumUrl({ query: 'Cafe  Momo', page: 2, rect: wide, endpoint: 'mapsearch' })], null).doubt).toBeNull();
  });

  it("a newest request for other words than the page's is not this page's search, whatever its box", async () => {
    const h = page('cafe', { endpoint: 'map.daum', transport: 'xhr' });
    await kakaoFirstPage(h.env, OPTIONS);
    const own = parseMapDaumUrl(h.sent.at(-1)!)!;
    void window.fetch(mapDaumUrl({ query: 'bakery', page: 1, rect: own.rect }));
    h.advance(100);
    const again = await collectKakaoPage(h.env, OPTIONS);
    expect(again.searched).toMatchObject({ kind: 'unknown', why: expect.stringContaining('"bakery"') });
  });
});

describe('a count in any copy of a listed request may only add work', () => {
  it('a copy posted twice spoils the places of that request, not its count: a short last page with more counted is capped', async () => {
    const h = page('cafe');
    const { pages } = await walkKakaoPages(h, OPTIONS);
    const last = pages.at(-1)!;
    expect(last.endOfList).toBe(true);
    const shown = last.listings.filter((l) => !l.sponsored).length;
    expect(shown).toBeLessThan(15);
    // The site's answers count more than its list goes to (a list that ends sooner than its count) …
    const counted = () => h.env.network.exchanges().map((e) => (e.result.kind === 'ok' ? { ...e, result: { ...e.result, totalCount: 1000 } } : e));
    // … and a page script posts one more copy of each request: none of their copies fills a card.
    for (const url of new Set(h.sent))
      window.postMessage(
        { source: KAKAO_HOOK_SOURCE, phase: 'end', url, finalUrl: url, outcome: 'body', status: 200, contentType: 'application/json', body: '{}' },
        '*',
      );
    h.advance(10);
    const again = await collectKakaoPage(
      { ...h.env, network: { exchanges: counted, pending: h.env.network.pending } },
      { ...OPTIONS, expectPage: last.pager!.page },
    );
    expect(again.warnings.some((w) => w.startsWith('kakao-copies-untrusted'))).toBe(true);
    expect(again.endOfList).toBe(false);
    expect(again.capHit).toBe(true);
  });
});

describe('an answer that cannot be read beside cards that were', () => {
  it('is retried, never taken as the page changed: the answer is a copy, page content', async () => {
    const h = page('cafe');
    await kakaoFirstPage(h.env, OPTIONS);
    const unreadable = () =>
      h.env.network.exchanges().map((e) => (e.result.kind === 'ok' ? { ...e, result: { kind: 'malformed' as const, reason: 'test: not JSON' } } : e));
    const obs = await collectKakaoPage({ ...h.env, network: { exchanges: unreadable, pending: h.env.network.pending } }, OPTIONS);
    expect(obs.pageKind).toBe('unknown');
    expect(obs.unproven).toMatch(/^kakao-answer-unreadable/);
    expect(obs.listings.length).toBeGreaterThan(0);
    const judged = judgeObservation(
      obs,
      { bbox: CELL, keyword: 'cafe' },
      { lat: (CELL.south + CELL.north) / 2, lng: (CELL.west + CELL.east) / 2, zoom: 16 },
      0,
      kakaoProvider,
    );
    expect(judged).toMatchObject({ verdict: 'failed', error: { kind: 'navigation' } });
    expect(judged.verdict === 'failed' && judged.error.message).toContain('kakao-answer-unreadable');
  });
});
