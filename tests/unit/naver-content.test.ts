/**
 * The Naver sweep collection (utils/providers/naver/collect.ts) on the replica's own pages: a
 * happy-dom Browser whose network is the replica's request handler (tests/replica/naver/server.ts,
 * in-process), with the pages' own script running, so the lazy list grows only because the
 * container is scrolled and the pager's links navigate to `&page=N` as in Chromium. Ground truth
 * comes from the replica's world (naverSearch), never from the extractor.
 *
 * The tab is tests/helpers/naver-replica-tab.ts (cross-origin requests held to CORS as Chromium
 * holds them, as the in-process sweep's pages are). Each document gets the pcmap hook (network-hook.ts, installed on its window as the MAIN-world script would be)
 * and the content script's listener (naver/content.ts), unless the test turns them off.
 */
import { Window as HappyWindow } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import type { BBox } from '../../utils/geo/types';
import type { CollectOptions } from '../../utils/messaging/protocol';
import { collectNaverPage } from '../../utils/providers/naver/collect';
import { pageMarkOf, pressNextPage, type PageMark } from '../../utils/providers/naver/page-turns';
import { NAVER_HOOK_SOURCE } from '../../utils/providers/naver/network-hook';
import { createBrowsingCollector } from '../../utils/content/browsing';
import { createNaverBrowsingReader } from '../../utils/providers/naver/content';
import type { Listing } from '../../utils/domain/listing';
import { naverListUrl } from '../../utils/providers/naver/urls';
import { PAGE_MAX, PAGE_SIZE } from '../../utils/providers/naver/observe';
import type { PageDataCounts } from '../../utils/domain/page-audit';
import type { Observation } from '../../utils/domain/sweep';
import { naverPlaceOf, type NaverReplicaPlace } from '../replica/naver/data';
import { graphqlListAnswer, listPageHtml } from '../replica/naver/pages';
import { adsFor, naverSearch, pageOf } from '../replica/naver/search';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverDomVariant, type NaverSwitches } from '../replica/naver/switches';
import { createWorld } from '../replica/world';
import { measuredBox } from '../helpers/searched';
import { openNaverTab, type NaverTab, type NaverTabOptions } from '../helpers/naver-replica-tab';

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

const tabs: NaverTab[] = [];
const windows: HappyWindow[] = [];
afterAll(async () => {
  await Promise.all(tabs.map((t) => t.close()));
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

type Site = NaverTab;

/** A happy-dom browser tab whose every request is answered by the replica's handler, in-process (naver-replica-tab.ts). */
function site(over: Partial<NaverSwitches> = {}, rewriteOrOptions?: NaverTabOptions['rewrite'] | Pick<NaverTabOptions, 'rewrite' | 'hook'>): Site {
  const opts = typeof rewriteOrOptions === 'function' ? { rewrite: rewriteOrOptions } : (rewriteOrOptions ?? {});
  const tab = openNaverTab(world, { ...opts, switches: { ...FAST, ...over } });
  tabs.push(tab);
  return {
    ...tab,
    // After a click that navigates: the page's own timers run a few turns before the new document is whole.
    async settle() {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 20));
        await tab.settle();
      }
    },
  };
}

/** The collection as the content script runs it, on the tab's current document, in real time. */
/** A Naver observation, with its count of page data dropped. */
type NaverObservation = Observation & PageDataCounts;

function collect(s: Site, options: Partial<CollectOptions> = {}, previous: PageMark | null = null): Promise<NaverObservation> {
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
      pageData: s.pageData(),
    },
    { ...OPTIONS, ...options },
  );
}

const organic = (o: Observation) => o.listings.filter((l) => !l.sponsored);
const ids = (ps: readonly NaverReplicaPlace[]) => ps.map((p) => `naver:${p.id}`);

/** Every page of one search, as the driver does it: collect, press next, collect the next page. */
async function sweep(s: Site, query: string, bounds: BBox): Promise<NaverObservation[]> {
  await s.goto(naverListUrl({ query, bounds }));
  const pages: NaverObservation[] = [];
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
  const truthAds = adsFor(
    world,
    { query: '카페', bounds: MID, centre: null },
    { results: truth, matched: truth.length, searchedBox: MID },
    DEFAULT_NAVER_SWITCHES,
  );

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
            expect(measuredBox(p)).toEqual(expect.objectContaining({ south: expect.closeTo(MID.south, 6), east: expect.closeTo(MID.east, 6) }));
            expect(p.capHit).toBe(false);
            expect(p.endOfList).toBe(i === 2);
            expect(p.warnings.filter((w) => /expected page|still growing/.test(w))).toEqual([]);
          });
          // Ads on page 1 only, flagged, never organic.
          expect(pages[0]!.listings.filter((l) => l.sponsored).map((l) => l.key)).toEqual(ids(truthAds));
          expect(pages[0]!.cardsVisible).toBe(PAGE_SIZE + 2);
          expect(pages[1]!.listings.some((l) => l.sponsored)).toBe(false);
          // Fields: from the Apollo state where it holds the item, else from the card filled from the
          // page's own GraphQL answers (the hook's copies): every listing has the replica's truth.
          for (const [i, p] of pages.entries()) {
            const truthById = new Map(truthPages[i]!.map((t) => [`naver:${t.id}`, t]));
            organic(p).forEach((l, rank) => {
              const t = truthById.get(l.key)!;
              expect(l.name).toBe(t.name);
              expect(l.lat).toBeCloseTo(Number(t.y), 6);
              expect(l.lng).toBeCloseTo(Number(t.x), 6);
              expect(l.roadAddress).toBe(t.roadAddress);
              expect(l.lotAddress).toBe(t.jibunAddress);
              expect(l.address).toBe(t.roadAddress);
              expect(l.phone).toBe(t.phone ?? t.virtualPhone);
              expect(l.bookingUrl).toBe(t.bookingUrl);
              expect(l.reviews).toBe(t.visitorReviewCount);
              expect(l.sources?.roadAddress).toBe('page-data');
              const fromState = apolloHolds === 'page' || rank < DEFAULT_NAVER_SWITCHES.firstRender;
              if (fromState) expect(Object.values(l.sources ?? {}).every((v) => v === 'page-data')).toBe(true);
              // The card's own fields stay the card's (renamed classes: the card shows no category the reader finds).
              else expect(l.sources?.category).toBe(domVariant === 'renamed' ? 'page-data' : 'card');
            });
            expect(p.warnings.filter((w) => /naver-page-data|naver-unlocated/.test(w))).toEqual([]);
            expect(p.pageDataDropped ?? 0).toBe(0);
          }
          // The lazy batches came from the page's own GraphQL calls (preflighted, credentialed) only when the state holds the rendered items.
          const gql = s.log.filter((r) => r.url === 'https://pcmap-api.place.naver.com/graphql');
          if (apolloHolds === 'page') expect(gql).toEqual([]);
          else {
            expect(gql.filter((r) => r.method === 'POST').length).toBe(
              pages.reduce((n, p) => n + Math.ceil((organic(p).length - DEFAULT_NAVER_SWITCHES.firstRender) / DEFAULT_NAVER_SWITCHES.lazyBatch), 0),
            );
            expect(gql.every((r) => (r.method === 'POST' ? r.status === 200 : r.method === 'OPTIONS' && r.status === 204))).toBe(true);
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
    // The page's own count (the Apollo state's list total), on every page: what lets a sweep leave a crowded list early.
    expect(pages.map((p) => p.siteTotal)).toEqual(Array(PAGE_MAX).fill(PAGE_MAX * PAGE_SIZE));
  });

  it('a short list: one page, no scrolling needed beyond the stall, complete', async () => {
    const small = boxWith(3, 9);
    const truth = results('카페', small);
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: small }));
    const o = await collect(s, { expectPage: 1 });
    expect(o).toMatchObject({
      pageKind: 'results',
      endOfList: true,
      capHit: false,
      pager: { page: 1, more: false },
      organicShown: truth.length,
      siteTotal: truth.length,
    });
    expect(organic(o).map((l) => l.key)).toEqual(ids(truth));
  });

  it('no results: the page says so; the searched box is still reported', async () => {
    const s = site();
    const bounds = box(0.5);
    await s.goto(naverListUrl({ query: '존재하지않는검색어', bounds }));
    const o = await collect(s, { expectPage: 1 });
    expect(o).toMatchObject({ pageKind: 'no-results', listings: [], cardsVisible: 0, endOfList: false, capHit: false });
    expect(o.pager).toBeUndefined();
    expect(measuredBox(o)?.north).toBeCloseTo(bounds.north, 6);
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
      return html.replace(
        /<a href="\/restaurant\/\d+\?entry=pll" role="button" class="tzwk0"><div class="bSoi3"><div class="place_bluelink N_KDL"><span class="TYaxT">[^<]*<\/span>/g,
        (m) =>
          broken++ < 5 && broken > 2
            ? '<a href="#" role="button" class="tzwk0"><div class="bSoi3"><div class="place_bluelink N_KDL"><span class="TYaxT"></span>'
            : m,
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

  it('expectPage on a page that never comes: nothing is read as that page, and the first warning says which page showed', async () => {
    const s = site();
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const started = Date.now();
    const o = await collect(s, { expectPage: 2, settleMs: 600 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(o).toMatchObject({ pageKind: 'unknown', endOfList: false, capHit: false });
    expect(o.pager).toBeUndefined();
    expect(o.warnings[0]).toMatch(/^naver-wrong-page: expected page 2, the page shows page 1/);
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
      query: '카페',
      x: '126.9780000',
      y: '37.5665000',
      items,
      ads: [],
      rendered: items.length,
      page: 2,
      pages,
      total: truth.length,
      pageSize: s.pageSize,
      lazyBatch: s.lazyBatch,
      lazyDelayMs: 0,
      pagerWindow: s.pagerWindow,
      endMarker: s.endMarker,
      apolloHolds: s.apolloHolds,
      variant: s.domVariant,
      brokenCards: false,
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

describe("the page's own GraphQL answers (the pcmap hook): page content, never more", () => {
  const GQL = 'https://pcmap-api.place.naver.com/graphql';
  const truth = results('카페', MID);
  const page1 = pageOf(truth, 1, PAGE_SIZE).items;
  const lazy = page1.slice(DEFAULT_NAVER_SWITCHES.firstRender);
  /** A world place no '카페' search of MID lists. */
  const stranger = naverPlaceOf(world.places.find((p) => !truth.some((t) => t.place.index === p.index))!);
  const answer = (items: readonly NaverReplicaPlace[], edit: (item: Record<string, unknown>, i: number) => void = () => {}) => {
    const a = graphqlListAnswer(items, truth.length) as [{ data: { businesses: { items: Record<string, unknown>[] } } }];
    a[0].data.businesses.items.forEach(edit);
    return JSON.stringify(a);
  };
  const envelope = (body: string, extra: Record<string, unknown> = {}) => ({
    source: NAVER_HOOK_SOURCE,
    kind: 'graphql',
    url: GQL,
    status: 200,
    finalUrl: GQL,
    contentType: 'application/json',
    body,
    ...extra,
  });
  /** What the sweep judges by: none of it may depend on page data. */
  const judged = (o: NaverObservation) => ({
    pageKind: o.pageKind,
    cardsVisible: o.cardsVisible,
    organicShown: o.organicShown,
    endOfList: o.endOfList,
    capHit: o.capHit,
    pager: o.pager,
    stopReason: o.stopReason,
    networkItems: o.networkItems,
    keys: o.listings.map((l) => `${l.key}|${l.sponsored}`),
  });
  const byKey = (o: NaverObservation) => new Map(o.listings.filter((l) => !l.sponsored).map((l) => [l.key, l]));

  async function clean(): Promise<NaverObservation> {
    const s = site({ apolloHolds: 'rendered' });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    return collect(s, { expectPage: 1 });
  }

  it('without the hook the lazy cards are read from the card alone: no position, no address, nothing made up', async () => {
    const s = site({ apolloHolds: 'rendered' }, { hook: false });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const o = await collect(s, { expectPage: 1 });
    expect(organic(o).map((l) => l.key)).toEqual(ids(page1));
    const lazyKeys = new Set(ids(lazy));
    for (const l of organic(o)) {
      if (!lazyKeys.has(l.key)) continue;
      expect(l.lat).toBeNull();
      expect(l.address).toBeNull();
      expect(Object.values(l.sources ?? {}).every((v) => v === 'card')).toBe(true);
    }
    expect(judged(o)).toEqual(judged(await clean()));
  });

  it('forged messages (another window, another origin, a wrong envelope, a contradicting name, ids never shown, a bad item) change nothing the sweep judges and are counted', async () => {
    const reference = await clean();
    const s = site({ apolloHolds: 'rendered' });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const win = s.page.mainFrame.window;
    const origin = win.location.origin;
    const liar = lazy[7]!;
    // A copy that names the place otherwise and puts it elsewhere, one for a place this page never shows, and one with a bad field.
    const forged = answer([liar, stranger, lazy[8]!], (item, i) => {
      if (i === 0) Object.assign(item, { name: '가짜 이름', x: '127.5000000', y: '37.0000000', roadAddress: '가짜로 1' });
      if (i === 2) item.x = { evil: true };
    });
    const other = new HappyWindow({ url: 'https://evil.example/' });
    windows.push(other);
    const post = (data: unknown, init: { origin?: string; source?: unknown } = {}) =>
      win.dispatchEvent(
        new win.MessageEvent('message', { data, origin: init.origin ?? origin, source: (init.source === undefined ? win : init.source) as never }),
      );
    post(envelope(forged), { source: other }); // another window
    post(envelope(forged), { source: null }); // no window
    post(envelope(forged), { origin: 'https://evil.example' }); // another origin
    post({ ...envelope(forged), extra: 1 }); // not the envelope
    post(envelope(forged, { body: 42 })); // a body that is no text
    post(envelope(forged, { url: 'https://evil.example/graphql' })); // not the page's API
    post({ source: 'someone-else', body: forged }); // not ours at all: not counted
    win.postMessage(envelope(forged), origin); // the exact envelope, from this window: read, and checked item by item
    await new Promise((r) => setTimeout(r, 20));
    const o = await collect(s, { expectPage: 1 });

    expect(judged(o)).toEqual(judged(reference));
    const got = byKey(o);
    const want = byKey(reference);
    // The liar's place: its copies disagree, so neither is believed; read from its card alone.
    const l = got.get(`naver:${liar.id}`)!;
    expect(l.name).toBe(liar.name);
    expect(l.lat).toBeNull();
    expect(l.roadAddress).toBeNull();
    // The bad item was refused; the page's own copy filled that card.
    expect(got.get(`naver:${lazy[8]!.id}`)).toEqual(want.get(`naver:${lazy[8]!.id}`));
    // Every other place exactly as in a clean visit; the stranger was never added.
    for (const [key, listing] of want) if (key !== l.key) expect(got.get(key)).toEqual(listing);
    expect(got.has(`naver:${stranger.id}`)).toBe(false);
    expect(o.pageDataDropped).toBe(1);
    const w = o.warnings.join('\n');
    expect(w).toMatch(/naver-page-data-refused: 6 message/);
    expect(w).toMatch(/naver-page-data-dropped: page data dropped for 1 place\(s\): it contradicts the page \(1 conflict\)/);
    expect(w).toMatch(/naver-page-data-conflict: 1 place/);
    expect(w).toMatch(/naver-page-data-unused: 1 place/);
    expect(w).toMatch(/naver-page-data-items-refused: 1 item/);
    expect(w).toMatch(/naver-unlocated: 1 of 50 places/);
  });

  it('a copy whose name contradicts the card is dropped and counted; one that agrees fills only the card of its id', async () => {
    // The content script's listener without the hook: only the messages posted here arrive.
    const s = site({ apolloHolds: 'rendered' }, { hook: 'listener' });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const win = s.page.mainFrame.window;
    const [liar, honest, shownInState] = [lazy[3]!, lazy[4]!, page1[0]!];
    win.postMessage(
      envelope(
        answer([liar, honest, shownInState, stranger], (item, i) => {
          if (i === 0) item.name = `${liar.name} 2호점`;
          if (i === 2) Object.assign(item, { roadAddress: '가짜로 9', x: '127.1000000' });
        }),
      ),
      win.location.origin,
    );
    await new Promise((r) => setTimeout(r, 20));
    const o = await collect(s, { expectPage: 1 });
    const got = byKey(o);
    expect(got.get(`naver:${liar.id}`)).toMatchObject({ name: liar.name, lat: null, roadAddress: null });
    expect(got.get(`naver:${honest.id}`)).toMatchObject({
      name: honest.name,
      lat: Number(honest.y),
      lng: Number(honest.x),
      roadAddress: honest.roadAddress,
      lotAddress: honest.jibunAddress,
    });
    expect(got.get(`naver:${honest.id}`)!.sources).toMatchObject({ roadAddress: 'page-data', lotAddress: 'page-data', category: 'card' });
    // A place the embedded state describes keeps the state's fields.
    expect(got.get(`naver:${shownInState.id}`)).toMatchObject({ roadAddress: shownInState.roadAddress, lng: Number(shownInState.x) });
    // The other lazy cards had no answer: card alone.
    expect(organic(o).filter((x) => x.lat === null).length).toBe(lazy.length - 1);
    expect(got.has(`naver:${stranger.id}`)).toBe(false);
    expect(o.pageDataDropped).toBe(1);
    expect(o.warnings.join('\n')).toMatch(/page data dropped for 1 place\(s\): it contradicts the page \(1 name\)/);
    expect(o.warnings.join('\n')).toMatch(/naver-page-data-unused: 1 place/);
  });

  for (const hook of [true, 'listener'] as const)
    it(
      hook === true
        ? "collect while browsing: the lazy cards the person scrolls to get their fields from the page's answers"
        : 'collect while browsing with no answer ever coming: each lazy card waits a moment, then is read from the card alone',
      async () => {
        const s = site({ apolloHolds: 'rendered' }, { hook });
        await s.goto(naverListUrl({ query: '카페', bounds: MID }));
        const win = s.page.mainFrame.window;
        const doc = s.doc();
        const sent: Listing[][] = [];
        const data = s.pageData()!;
        let scan = () => {};
        const collector = createBrowsingCollector({
          reader: createNaverBrowsingReader({ pageData: data, now: () => Date.now(), later: (ms) => win.setTimeout(() => scan(), ms) }),
          doc,
          url: () => win.location.href,
          now: () => Date.now(),
          send: (l) => {
            sent.push(l);
          },
          schedule: (fn, ms) => win.setTimeout(fn, ms),
          observe: (target, onChange) => {
            const observer = new win.MutationObserver(onChange);
            observer.observe(target as never, { childList: true, subtree: true });
            return observer;
          },
        });
        scan = () => collector.scan();
        collector.start();
        // The person scrolls the list to its end, batch after batch.
        const container = doc.getElementById('_pcmap_list_scroll_container')!;
        for (let i = 0; i < 8; i++) {
          container.dispatchEvent(new win.Event('scroll') as unknown as Event);
          await new Promise((r) => setTimeout(r, 80));
        }
        // Long enough for the last batch's wait (BROWSING_PAGE_DATA_WAIT_MS) and the collector's once-a-second send.
        await new Promise((r) => setTimeout(r, hook === true ? 1500 : 3200));
        collector.stop();
        const all = new Map(
          sent
            .flat()
            .filter((l) => !l.sponsored)
            .map((l) => [l.key, l]),
        );
        expect([...all.keys()].sort()).toEqual(ids(page1).sort());
        page1.forEach((t, rank) => {
          const l = all.get(`naver:${t.id}`)!;
          if (hook === true || rank < DEFAULT_NAVER_SWITCHES.firstRender) {
            expect(l.lat).toBeCloseTo(Number(t.y), 6);
            expect(l.roadAddress).toBe(t.roadAddress);
            expect(l.sources?.roadAddress).toBe('page-data');
          } else {
            expect(l.lat).toBeNull();
            expect(l.roadAddress).toBeNull();
          }
        });
      },
    );
});

/**
 * Issue 21: a list is complete only when the page says so and its own counts agree. Each case is
 * a replica switch (tests/replica/naver/switches.ts) the product must pass with no setting changed:
 * complete lists still complete, the rest come out 'unknown' with a tagged first warning, never done.
 */
describe("complete only on the page's own evidence (issue 21)", () => {
  const truth = results('카페', MID);
  const truthPages = [1, 2, 3].map((n) => pageOf(truth, n, PAGE_SIZE).items);
  /** One page: more than a lazy batch or two, fewer than a page holds. */
  const ONE_PAGE = boxWith(31, 49);
  const notProven = (o: NaverObservation, tag: string) => {
    expect(o).toMatchObject({ pageKind: 'unknown', endOfList: false, capHit: false });
    expect(o.pager).toBeUndefined();
    expect(o.warnings[0]).toMatch(new RegExp(`^${tag}: `));
  };

  for (const over of [{ pagerMarkup: 'buttons' }, { pagerMarkup: 'buttons', endMarker: 'no-next', domVariant: 'renamed' }] as Partial<NaverSwitches>[])
    it(`a pager of <button>s named for people (${JSON.stringify(over)}): every page turned, the last one ends the list`, async () => {
      const s = site(over);
      const pages = await sweep(s, '카페', MID);
      expect(pages.map((p) => p.pager)).toEqual([
        { page: 1, more: true },
        { page: 2, more: true },
        { page: 3, more: false },
      ]);
      pages.forEach((p, i) => {
        expect(organic(p).map((l) => l.key)).toEqual(ids(truthPages[i]!));
      });
      expect(pages.map((p) => p.endOfList)).toEqual([false, false, true]);
      expect(s.doc().querySelector('nav button[aria-label="이전 페이지"]')).not.toBeNull();
      expect(pressNextPage(s.doc())).toEqual({ clicked: false });
    });

  it('a pager the reader does not know (icon buttons no one named): not proof of an end', async () => {
    // The arrows lose their names: a person sees icons, the reader cannot tell next from previous.
    const s = site({ pagerMarkup: 'buttons' }, (url, html) => (url.pathname.endsWith('/list') ? html.replace(/ aria-label="(이전|다음) 페이지"/g, '') : html));
    await s.goto(naverListUrl({ query: '카페', bounds: ONE_PAGE }));
    notProven(await collect(s, { expectPage: 1 }), 'naver-pager-unrecognised');
  });

  it('a lazy batch whose GraphQL request fails, on a page with a next one: the page is short, not read as whole', async () => {
    const s = site({ apolloHolds: 'rendered', lazyFail: 2 });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const o = await collect(s, { expectPage: 1 });
    notProven(o, 'naver-page-short');
    expect(o.warnings[0]).toMatch(/20 of 50 places on page 1/);
    expect(s.log.some((r) => r.method === 'POST' && r.status === 500)).toBe(true);
  });

  it("a lazy batch whose GraphQL request fails, on the list's only page: short of the list's own total", async () => {
    const n = results('카페', ONE_PAGE).length;
    const s = site({ apolloHolds: 'rendered', lazyFail: 2 });
    await s.goto(naverListUrl({ query: '카페', bounds: ONE_PAGE }));
    const o = await collect(s, { expectPage: 1 });
    notProven(o, 'naver-list-short');
    expect(o.warnings[0]).toMatch(new RegExp(`20 of ${n} places`));
  });

  for (const [what, over] of [
    ['a batch that never renders', { lazyFail: 2 }],
    ['a throttled tab (the batch comes after the collection gave up waiting)', { lazyDelayMs: 5000 }],
  ] as const)
    it(`${what}: items of the page's own state without cards are not a whole page`, async () => {
      const s = site(over);
      await s.goto(naverListUrl({ query: '카페', bounds: ONE_PAGE }));
      notProven(await collect(s, { expectPage: 1 }), 'naver-state-unshown');
    });

  it("one item of the page's own state without its card: not a whole page (one is enough)", async () => {
    // A list whose state carries no total: nothing but the state's items can find the page short.
    const s = site({ ads: 0 }, (url, html) => (url.pathname.endsWith('/list') ? html.replace(/"total":\d+,/g, '') : html));
    await s.goto(naverListUrl({ query: '카페', bounds: ONE_PAGE }));
    const whole = await collect(s, { expectPage: 1 });
    expect(whole).toMatchObject({ endOfList: true, capHit: false });
    // One card gone from the list, as if its lazy batch rendered all but it; the page's state still lists it.
    const cards = [...s.doc().querySelectorAll('#_pcmap_list_scroll_container li')].filter((li) => li.querySelector('a[href*="entry=pll"]'));
    expect(cards.length).toBe(organic(whole).length);
    cards.at(-1)!.remove();
    const o = await collect(s, { expectPage: 1 });
    notProven(o, 'naver-state-unshown');
    expect(o.warnings[0]).toMatch(/^naver-state-unshown: 1 item\(s\)/);
  });

  it('a list that ends before page 6 while its own total counts more than one search lists: cut, never whole', async () => {
    // listTotal 'query': a count of every match anywhere (thousands), on a list of one page.
    const s = site({ listTotal: 'query' });
    await s.goto(naverListUrl({ query: '카페', bounds: ONE_PAGE }));
    const o = await collect(s, { expectPage: 1 });
    notProven(o, 'naver-list-cut');
    expect(o.warnings[0]).toMatch(/^naver-list-cut: the list ends on page 1 with \d+ places, and its own total counts \d{4,}/);
  });

  it('the same lists whole: complete (the checks find nothing to doubt)', async () => {
    for (const over of [{ apolloHolds: 'rendered' }, {}, { listTotal: 'absent' }, { listTotal: 'matched' }] as Partial<NaverSwitches>[]) {
      const s = site(over);
      await s.goto(naverListUrl({ query: '카페', bounds: ONE_PAGE }));
      const o = await collect(s, { expectPage: 1 });
      expect(o, JSON.stringify(over)).toMatchObject({ pageKind: 'results', endOfList: true, capHit: false, pager: { page: 1, more: false } });
      expect(organic(o).map((l) => l.key)).toEqual(ids(results('카페', ONE_PAGE)));
    }
  });

  it('a cap of 280 under a count of every match: the short sixth page is the cap cutting the list (capped: split), not a whole list', async () => {
    const s = site({ resultCap: 280, listTotal: 'matched', ads: 0 });
    const pages = await sweep(s, '카페', CENTRE);
    expect(pages).toHaveLength(PAGE_MAX);
    expect(pages.at(-1)).toMatchObject({ pageKind: 'results', capHit: true, endOfList: false, organicShown: 30 });
  });

  it('a page turn that lands on the wrong page (page 3 after page 1): nothing is read as page 2', async () => {
    const s = site({ pageTurn: 'skip' });
    await s.goto(naverListUrl({ query: '카페', bounds: MID }));
    const first = await collect(s, { expectPage: 1 });
    expect(first.pager).toEqual({ page: 1, more: true });
    expect(pressNextPage(s.doc())).toEqual({ clicked: true });
    await s.settle();
    const o = await collect(s, { expectPage: 2, settleMs: 600 }, pageMarkOf(first));
    notProven(o, 'naver-wrong-page');
    expect(o.warnings[0]).toMatch(/expected page 2, the page shows page 3/);
  });

  it('an app shell with the no-results wording only in its script: not "no results"', async () => {
    const s = site({ emptyPage: 'shell' });
    await s.goto(naverListUrl({ query: '존재하지않는검색어', bounds: box(0.5) }));
    expect(s.doc().documentElement.outerHTML).toContain('조건에 맞는 업체가 없습니다');
    const o = await collect(s, { expectPage: 1, settleMs: 600 });
    expect(o).toMatchObject({ pageKind: 'unknown', endOfList: false, cardsVisible: 0 });
  });

  it('a page of only ads and no notice: not "no results", not a complete empty list', async () => {
    // A box with no café in it but some just outside (the ads the replica shows above an empty list): beside a café, north of it.
    const input = (b: BBox) => ({ query: '카페', bounds: b, centre: null });
    let empty: BBox | null = null;
    for (const c of truth) {
      const lat = Number(c.y);
      const lng = Number(c.x);
      const b = { south: lat + 0.00002, north: lat + 0.0004, west: lng - 0.0002, east: lng + 0.0002 };
      const outcome = naverSearch(world, input(b), DEFAULT_NAVER_SWITCHES);
      if (outcome.results.length === 0 && adsFor(world, input(b), outcome, DEFAULT_NAVER_SWITCHES).length > 0) {
        empty = b;
        break;
      }
    }
    expect(empty).not.toBeNull();
    const s = site({ emptyPage: 'ads-only' });
    await s.goto(naverListUrl({ query: '카페', bounds: empty! }));
    const o = await collect(s, { expectPage: 1 });
    notProven(o, 'naver-ads-only');
    expect(o.listings.length).toBeGreaterThan(0);
    expect(o.listings.every((l) => l.sponsored)).toBe(true);
    // The same box with the notice beside nothing: believed.
    const notice = site();
    await notice.goto(naverListUrl({ query: '카페', bounds: empty! }));
    expect((await collect(notice, { expectPage: 1 })).pageKind).toBe('no-results');
  });
});
