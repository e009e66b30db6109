/**
 * The Naver sweep collection (utils/content/collect-naver.ts) on the replica's own pages: a
 * happy-dom Browser whose network is the replica's request handler (tests/replica/naver/server.ts,
 * in-process), with the pages' own script running, so the lazy list grows only because the
 * container is scrolled and the pager's links navigate to `&page=N` as in Chromium. Ground truth
 * comes from the replica's world (naverSearch), never from the extractor.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Browser, type BrowserPage } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import type { BBox } from '../../utils/geo/types';
import type { CollectOptions } from '../../utils/messaging/protocol';
import { collectNaverPage, pageMarkOf, pressNextPage, type PageMark } from '../../utils/content/collect-naver';
import { naverListUrl } from '../../utils/providers/naver/urls';
import { PAGE_MAX, PAGE_SIZE } from '../../utils/providers/naver/observe';
import type { Observation } from '../../utils/sweep/types';
import type { NaverReplicaPlace } from '../replica/naver/data';
import { listPageHtml } from '../replica/naver/pages';
import { adsFor, naverSearch, pageOf } from '../replica/naver/search';
import { createNaverHandler } from '../replica/naver/server';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverDomVariant, type NaverSwitches } from '../replica/naver/switches';
import { createWorld } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });
/** The centre's 2 km box: crowded for '카페' (more than 300 matches). */
const CENTRE: BBox = { south: 37.557, west: 126.966, north: 37.576, east: 126.99 };

const OPTIONS: CollectOptions = { cap: 300, stallMs: 250, maxMs: 8000, settleMs: 2000, scrollPauseMs: 20 };
/** Replica switches for these tests: quick lazy batches. */
const FAST: Partial<NaverSwitches> = { lazyDelayMs: 10 };

/** A box around the centre scaled by `f`, and how many '카페' the replica lists for it. */
function box(f: number): BBox {
  const h = ((CENTRE.north - CENTRE.south) / 2) * f;
  const w = ((CENTRE.east - CENTRE.west) / 2) * f;
  const lat = (CENTRE.north + CENTRE.south) / 2;
  const lng = (CENTRE.east + CENTRE.west) / 2;
  return { south: lat - h, north: lat + h, west: lng - w, east: lng + w };
}
function results(query: string, bounds: BBox, over: Partial<NaverSwitches> = {}): NaverReplicaPlace[] {
  return naverSearch(world, { query, bounds, centre: null }, mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, over)).results;
}
/** The first box (growing) whose '카페' search lists between `min` and `max` places. */
function boxWith(min: number, max: number): BBox {
  for (let f = 0.01; f <= 1; f += 0.01) {
    const n = results('카페', box(f)).length;
    if (n >= min && n <= max) return box(f);
  }
  throw new Error(`no box lists ${min}–${max} cafés`);
}
/** Three pages: 101–149 places. */
const MID = boxWith(101, 149);

const browsers: Browser[] = [];
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
});

interface Site {
  page: BrowserPage;
  /** HTTP status of the last document the replica answered. */
  lastStatus(): number | null;
  goto(url: string): Promise<void>;
  /** After a click that navigates: wait for the new document. */
  settle(): Promise<void>;
  doc(): Document;
}

/** A happy-dom browser tab whose every request is answered by the replica's handler, in-process. */
function site(over: Partial<NaverSwitches> = {}, rewrite?: (url: URL, html: string) => string): Site {
  const handler = createNaverHandler(world, { switches: { ...FAST, ...over } });
  let lastStatus: number | null = null;
  const browser = new Browser({
    settings: {
      enableJavaScriptEvaluation: true,
      suppressInsecureJavaScriptEnvironmentWarning: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      navigation: { disableChildFrameNavigation: true },
      fetch: {
        interceptor: {
          beforeAsyncRequest: async ({ request, window }) => {
            const url = new URL(request.url);
            const answer = await serve(handler, url);
            lastStatus = answer.status;
            const body = rewrite ? rewrite(url, answer.body) : answer.body;
            return new window.Response(body, { status: answer.status, headers: answer.headers });
          },
        },
      },
    },
  });
  browsers.push(browser);
  const page = browser.newPage();
  return {
    page,
    lastStatus: () => lastStatus,
    async goto(url) {
      await page.goto(url);
      await page.waitUntilComplete();
    },
    async settle() {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 20));
        await page.waitUntilComplete();
      }
    },
    doc: () => page.mainFrame.window.document as unknown as Document,
  };
}

async function serve(handler: ReturnType<typeof createNaverHandler>, url: URL): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  let status = 0;
  let headers: Record<string, string> = {};
  let body = '';
  const req = { method: 'GET', url: url.pathname + url.search, headers: { host: url.host } } as unknown as IncomingMessage;
  const res = {
    writeHead(s: number, h: Record<string, string>) {
      status = s;
      headers = h;
    },
    write(b: string) {
      body += b;
    },
    end(b?: string) {
      body += b ?? '';
    },
  } as unknown as ServerResponse;
  await handler.handle(req, res);
  return { status, headers, body };
}

/** The collection as the content script runs it, on the tab's current document, in real time. */
function collect(s: Site, options: Partial<CollectOptions> = {}, previous: PageMark | null = null): Promise<Observation> {
  const win = s.page.mainFrame.window;
  return collectNaverPage(
    {
      doc: win.document as unknown as Document,
      url: () => win.location.href,
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      random: Math.random,
      httpStatus: s.lastStatus,
      hidden: () => false,
      previous,
    },
    { ...OPTIONS, ...options },
  );
}

const organic = (o: Observation) => o.listings.filter((l) => !l.sponsored);
const ids = (ps: readonly NaverReplicaPlace[]) => ps.map((p) => `naver:${p.id}`);

/** Every page of one search, as the driver does it: collect, press next, collect the next page. */
async function sweep(s: Site, query: string, bounds: BBox): Promise<Observation[]> {
  await s.goto(naverListUrl({ query, bounds }));
  const pages: Observation[] = [];
  let previous: PageMark | null = null;
  for (let n = 1; n <= PAGE_MAX + 1; n++) {
    const o = await collect(s, { expectPage: n }, previous);
    pages.push(o);
    previous = pageMarkOf(o);
    if (!o.pager?.more) break;
    expect(pressNextPage(s.doc())).toEqual({ clicked: true });
    await s.settle();
  }
  return pages;
}

describe('collect a Naver list page: every replica variant, every page', () => {
  const variants: NaverDomVariant[] = ['restaurant', 'place', 'renamed'];
  const markers: NaverSwitches['endMarker'][] = ['next-disabled', 'no-next'];
  const holds: NaverSwitches['apolloHolds'][] = ['page', 'rendered'];
  const truth = results('카페', MID);
  const truthPages = [1, 2, 3].map((n) => pageOf(truth, n, PAGE_SIZE).items);
  const truthAds = adsFor(world, { query: '카페', bounds: MID, centre: null }, { results: truth, matched: truth.length, searchedBox: MID }, DEFAULT_NAVER_SWITCHES);

  for (const domVariant of variants)
    for (const endMarker of markers)
      for (const apolloHolds of holds) {
        it(`${domVariant}, ${endMarker}, state holds ${apolloHolds}: three pages, each fully scrolled, read to the last card`, async () => {
          expect(truth.length).toBeGreaterThan(2 * PAGE_SIZE);
          expect(truthAds.length).toBe(2);
          const s = site({ domVariant, endMarker, apolloHolds });
          const pages = await sweep(s, '카페', MID);
          expect(pages.map((p) => p.pager)).toEqual([
            { page: 1, more: true },
            { page: 2, more: true },
            { page: 3, more: false },
          ]);
          pages.forEach((p, i) => {
            expect(p.pageKind).toBe('results');
            // Lazy batches came in only by scrolling: 10 rendered at load, every item of the page at the end.
            expect(ids(truthPages[i]!)).toEqual(organic(p).map((l) => l.key));
            expect(p.organicShown).toBe(truthPages[i]!.length);
            expect(p.searchedBounds).toEqual(expect.objectContaining({ south: expect.closeTo(MID.south, 6), east: expect.closeTo(MID.east, 6) }));
            expect(p.capHit).toBe(false);
            expect(p.endOfList).toBe(i === 2);
            expect(p.warnings.filter((w) => /expected page|still growing/.test(w))).toEqual([]);
          });
          // Ads on page 1 only, flagged, never organic.
          expect(pages[0]!.listings.filter((l) => l.sponsored).map((l) => l.key)).toEqual(ids(truthAds));
          expect(pages[0]!.cardsVisible).toBe(PAGE_SIZE + 2);
          expect(pages[1]!.listings.some((l) => l.sponsored)).toBe(false);
          // Fields: from the Apollo state where it holds the item, else from the card alone.
          for (const [i, p] of pages.entries()) {
            const truthById = new Map(truthPages[i]!.map((t) => [`naver:${t.id}`, t]));
            organic(p).forEach((l, rank) => {
              const t = truthById.get(l.key)!;
              expect(l.name).toBe(t.name);
              const fromState = apolloHolds === 'page' || rank < DEFAULT_NAVER_SWITCHES.firstRender;
              if (fromState) {
                expect(l.lat).toBeCloseTo(Number(t.y), 6);
                expect(l.lng).toBeCloseTo(Number(t.x), 6);
                expect(l.roadAddress).not.toBeNull();
                expect(l.sources?.roadAddress).toBe('page-data');
              } else {
                // The card alone: name, category, score; never an address or a position made up.
                expect(l.lat).toBeNull();
                expect(l.address).toBeNull();
                expect(Object.values(l.sources ?? {}).every((v) => v === 'card')).toBe(true);
              }
            });
          }
          // The last page offers no next page: nothing is clicked.
          expect(pressNextPage(s.doc())).toEqual({ clicked: false });
        });
      }
});

describe('collect a Naver list page: what the page says about itself', () => {
  it('a crowded search: six full pages, the last one capped', async () => {
    expect(results('카페', CENTRE).length).toBe(PAGE_MAX * PAGE_SIZE);
    const s = site({ ads: 0 });
    const pages = await sweep(s, '카페', CENTRE);
    expect(pages).toHaveLength(PAGE_MAX);
    expect(pages.map((p) => organic(p).length)).toEqual(Array(PAGE_MAX).fill(PAGE_SIZE));
    expect(pages.slice(0, -1).every((p) => p.pager?.more === true && !p.capHit && !p.endOfList)).toBe(true);
    const last = pages.at(-1)!;
    expect(last).toMatchObject({ capHit: true, endOfList: false, stopReason: 'cap', pager: { page: PAGE_MAX, more: false } });
    expect(new Set(pages.flatMap((p) => organic(p).map((l) => l.key))).size).toBe(PAGE_MAX * PAGE_SIZE);
  });

  it('a short list: one page, no scrolling needed beyond the stall, complete', async () => {
    const small = boxWith(3, 9);
    const truth = results('카페', small);
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: small }));
    const o = await collect(s, { expectPage: 1 });
    expect(o).toMatchObject({ pageKind: 'results', endOfList: true, capHit: false, pager: { page: 1, more: false }, organicShown: truth.length });
    expect(organic(o).map((l) => l.key)).toEqual(ids(truth));
  });

  it('no results: the page says so; the searched box is still reported', async () => {
    const s = site();
    const bounds = box(0.5);
    await s.goto(naverListUrl({ query: '존재하지않는검색어', bounds }));
    const o = await collect(s, { expectPage: 1 });
    expect(o).toMatchObject({ pageKind: 'no-results', listings: [], cardsVisible: 0, endOfList: false, capHit: false });
    expect(o.pager).toBeUndefined();
    expect(o.searchedBounds?.north).toBeCloseTo(bounds.north, 6);
  });

  for (const blockStatus of [429, 200] as const) {
    it(`the block page (HTTP ${blockStatus}) is a captcha, decided at once`, async () => {
      const s = site({ blockAfter: 0, blockStatus });
      await s.goto(naverListUrl({ query: '카페', bounds: MID }));
      const started = Date.now();
      const o = await collect(s, { expectPage: 1, settleMs: 5000 });
      expect(Date.now() - started).toBeLessThan(1500);
      expect(o).toMatchObject({ pageKind: 'captcha', listings: [], endOfList: false, httpStatus: blockStatus });
      expect(o.warnings.join(' ')).toMatch(/naver block/);
    });
  }

  it('broken cards (no ids, no names): every card shown, none read — the page is unreadable, not empty', async () => {
    const s = site({ brokenCards: true });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const o = await collect(s, { expectPage: 1 });
    expect(o.pageKind).toBe('unknown');
    expect(o.organicShown).toBe(PAGE_SIZE);
    expect(organic(o)).toHaveLength(0);
    expect(o.endOfList).toBe(false);
  });

  it('some cards unreadable: organicShown counts them, listings do not', async () => {
    // Three cards of page 1 lose their place link and name as the replica serves them.
    let broken = 0;
    const s = site({ apolloHolds: 'rendered' }, (url, html) => {
      if (!url.pathname.endsWith('/list')) return html;
      return html.replace(/<a href="\/restaurant\/\d+\?entry=pll" role="button" class="tzwk0"><div class="bSoi3"><div class="place_bluelink N_KDL"><span class="TYaxT">[^<]*<\/span>/g, (m) =>
        broken++ < 5 && broken > 2 ? '<a href="#" role="button" class="tzwk0"><div class="bSoi3"><div class="place_bluelink N_KDL"><span class="TYaxT"></span>' : m,
      );
    });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const o = await collect(s, { expectPage: 1 });
    expect(o.pageKind).toBe('results');
    expect(o.organicShown).toBe(PAGE_SIZE);
    expect(organic(o)).toHaveLength(PAGE_SIZE - 3);
    expect(o.warnings.join(' ')).toMatch(/3 of 50 organic cards shown could not be read/);
  });

  it('a navigating next click (the replica): the new document is read as page 2, its URL says page=2', async () => {
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const first = await collect(s, { expectPage: 1 });
    expect(pressNextPage(s.doc())).toEqual({ clicked: true });
    await s.settle();
    const second = await collect(s, { expectPage: 2 }, pageMarkOf(first));
    expect(second.pager).toEqual({ page: 2, more: true });
    expect(second.url).toMatch(/[?&]page=2\b/);
    expect(organic(second).map((l) => l.key)).toEqual(ids(pageOf(results('카페', MID), 2, PAGE_SIZE).items));
  });

  it('expectPage on a page that never comes: the observation says which page it read, with a warning', async () => {
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const started = Date.now();
    const o = await collect(s, { expectPage: 2, settleMs: 600 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(o.pager?.page).toBe(1);
    expect(o.warnings.join(' ')).toMatch(/expected page 2, the page shows page 1/);
  });
});

describe('the live pager re-renders in place', () => {
  /**
   * The live page does not navigate: the next click re-queries and re-renders the list in the
   * same document. Simulated on the replica's page: the click is taken before the replica's own
   * handler, the pager is re-marked first, and only 400 ms later are the cards swapped for page
   * 2's (the order in which a React re-render may show them [?]).
   */
  function liveRender(s: Site, nextHtml: string, pagerFirstMs: number, cardsAfterMs: number) {
    const doc = s.doc();
    const win = s.page.mainFrame.window;
    const next = new win.DOMParser().parseFromString(nextHtml, 'text/html');
    doc.addEventListener(
      'click',
      (e) => {
        const a = (e.target as Element).closest('a[data-replica-page]');
        if (!a) return;
        e.preventDefault();
        e.stopImmediatePropagation();
        if (a.getAttribute('aria-disabled') === 'true') return;
        win.setTimeout(() => {
          doc.querySelector('div.zRM9F')!.innerHTML = next.querySelector('div.zRM9F')!.innerHTML;
        }, pagerFirstMs);
        win.setTimeout(() => {
          doc.querySelector('#_pcmap_list_scroll_container ul')!.innerHTML = next.querySelector('#_pcmap_list_scroll_container ul')!.innerHTML;
        }, cardsAfterMs);
      },
      true,
    );
  }

  function page2Html(): string {
    const truth = results('카페', MID);
    const { items, pages } = pageOf(truth, 2, PAGE_SIZE);
    const s = DEFAULT_NAVER_SWITCHES;
    return listPageHtml({
      query: '카페', x: '126.9780000', y: '37.5665000', items, ads: [], rendered: items.length, page: 2, pages, total: truth.length,
      pageSize: s.pageSize, lazyBatch: s.lazyBatch, lazyDelayMs: 0, pagerWindow: s.pagerWindow, endMarker: s.endMarker, apolloHolds: s.apolloHolds, variant: s.domVariant, brokenCards: false,
    });
  }

  it('waits for page 2 to be marked and for its cards, never reading page 1 twice', async () => {
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const first = await collect(s, { expectPage: 1 });
    liveRender(s, page2Html(), 100, 500);
    const url = s.page.mainFrame.window.location.href;
    expect(pressNextPage(s.doc())).toEqual({ clicked: true });
    const second = await collect(s, { expectPage: 2 }, pageMarkOf(first));
    expect(s.page.mainFrame.window.location.href).toBe(url); // no navigation
    expect(second.pager).toEqual({ page: 2, more: true });
    const truth2 = ids(pageOf(results('카페', MID), 2, PAGE_SIZE).items);
    expect(organic(second).map((l) => l.key)).toEqual(truth2);
    expect(organic(second).some((l) => organic(first).some((f) => f.key === l.key))).toBe(false);
  });

  it('without the previous page mark, a pager re-marked early is all it has to go on (the mark is what prevents the stale read)', async () => {
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    await collect(s, { expectPage: 1 });
    liveRender(s, page2Html(), 50, 900);
    pressNextPage(s.doc());
    await new Promise((r) => setTimeout(r, 120));
    const stale = await collect(s, { expectPage: 2, stallMs: 100 });
    // Marked page 2, but the cards are still page 1's: exactly what the mark guards against.
    expect(stale.pager?.page).toBe(2);
    expect(organic(stale)[0]!.key).toBe(ids(results('카페', MID))[0]);
  });
});
