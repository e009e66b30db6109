/**
 * Collect while browsing on Naver (utils/providers/naver/content.ts): the provider-neutral collector
 * (utils/content/browsing.ts) with Naver's reader, on the replica's list page with its own script
 * running (the person scrolls; the collector never does) and on place pages: the replica's and the
 * real 2026 place capture's Apollo state (../shared/real-pages/naver/, read in place).
 */
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import type { BBox } from '../../utils/geo/types';
import type { Listing } from '../../utils/domain/listing';
import { createBrowsingCollector } from '../../utils/content/browsing';
import { createNaverBrowsingReader, insideNaverMap } from '../../utils/providers/naver/content';
import { placeIdOf } from '../../utils/providers/naver/urls';
import { naverListUrl, pcmapPlaceHomeUrl } from '../../utils/providers/naver/urls';
import { PAGE_SIZE } from '../../utils/providers/naver/observe';
import { readRealPage, realPageParser, realPagesIt } from '../helpers/real-pages';
import { naverPlaceOf, type NaverReplicaPlace } from '../replica/naver/data';
import { listPageHtml, placeHomeHtml } from '../replica/naver/pages';
import { adsFor, naverSearch, pageOf } from '../replica/naver/search';
import { DEFAULT_NAVER_SWITCHES, type NaverDomVariant } from '../replica/naver/switches';
import { createWorld } from '../replica/world';
const realIt = realPagesIt('naver-content-browsing.test.ts');

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });
const BOX: BBox = { south: 37.56, west: 126.968, north: 37.573, east: 126.988 };

const windows: Window[] = [];
afterAll(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

/** The replica's list page in a happy-dom window with its own script running (lazy batches on scroll). */
function listWindow(variant: NaverDomVariant) {
  const s = DEFAULT_NAVER_SWITCHES;
  const input = { query: '카페', bounds: BOX, centre: null };
  const outcome = naverSearch(world, input, s);
  const { items, pages } = pageOf(outcome.results, 1, s.pageSize);
  const ads = adsFor(world, input, outcome, s);
  const url = naverListUrl({ query: '카페', bounds: BOX });
  const html = listPageHtml({
    query: '카페',
    x: '126.9780000',
    y: '37.5665000',
    items,
    ads,
    rendered: s.firstRender,
    page: 1,
    pages,
    total: outcome.results.length,
    pageSize: s.pageSize,
    lazyBatch: s.lazyBatch,
    lazyDelayMs: 10,
    pagerWindow: s.pagerWindow,
    endMarker: s.endMarker,
    apolloHolds: s.apolloHolds,
    variant,
    brokenCards: false,
  });
  const win = new Window({
    url,
    settings: {
      enableJavaScriptEvaluation: true,
      suppressInsecureJavaScriptEnvironmentWarning: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
    },
  });
  windows.push(win);
  win.document.write(html);
  return { win, doc: win.document as unknown as Document, url, items, ads };
}

/** The collector as the content script wires it, on a document, with the page's own timers and MutationObserver. */
function browse(win: Window, doc: Document, url: () => string) {
  const sent: Listing[][] = [];
  const collector = createBrowsingCollector({
    reader: createNaverBrowsingReader(),
    doc,
    url,
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
  return { collector, sent, all: () => sent.flat() };
}

type FrameWindow = Parameters<typeof insideNaverMap>[0];
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keys = (ps: readonly NaverReplicaPlace[]) => ps.map((p) => `naver:${p.id}`);

describe('collect while browsing: the list iframe', () => {
  for (const variant of ['restaurant', 'place', 'renamed'] as NaverDomVariant[]) {
    it(`${variant}: reads the cards the person scrolls past, each once, ads flagged; never scrolls itself`, async () => {
      const page = listWindow(variant);
      expect(page.items.length).toBe(PAGE_SIZE);
      const b = browse(page.win, page.doc, () => page.url);
      b.collector.start();
      await wait(700);
      // Nobody scrolled: only what the page rendered at load (2 ads, 10 organic).
      const container = page.doc.getElementById('_pcmap_list_scroll_container')!;
      expect(container.scrollTop).toBe(0);
      expect(
        b
          .all()
          .filter((l) => !l.sponsored)
          .map((l) => l.key),
      ).toEqual(keys(page.items.slice(0, 10)));
      expect(
        b
          .all()
          .filter((l) => l.sponsored)
          .map((l) => l.key),
      ).toEqual(keys(page.ads));
      // The person scrolls the list to its end, again and again.
      for (let i = 0; i < 6; i++) {
        container.dispatchEvent(new page.win.Event('scroll') as unknown as Event);
        await wait(60);
      }
      await wait(1200);
      const organic = b.all().filter((l) => !l.sponsored);
      expect(organic.map((l) => l.key)).toEqual(keys(page.items));
      expect(new Set(b.all().map((l) => l.key)).size).toBe(b.all().length);
      expect(b.collector.stats.cardsRead).toBe(PAGE_SIZE + 2);
      // The state holds the whole page: fields beyond the card, stamped as page data.
      const first = organic[0]!;
      const truth = page.items[0]!;
      expect(first).toMatchObject({ name: truth.name, provider: 'naver', providerId: truth.id, url: `https://map.naver.com/p/entry/place/${truth.id}` });
      expect(first.lat).toBeCloseTo(Number(truth.y), 6);
      expect(first.sources?.roadAddress).toBe('page-data');
      b.collector.stop();
    });
  }
});

describe('collect while browsing: place pages', () => {
  const parse = realPageParser();

  realIt('the real 2026 place capture (동암상회): read once from its Apollo state; its other tabs add nothing', async () => {
    const state = readRealPage('naver', 'naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json');
    const html = `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"></head><body><div id="app-root"></div><script>window.__APOLLO_STATE__ = ${state.trim()};</script></body></html>`;
    let url = 'https://pcmap.place.naver.com/restaurant/1446535451/home?entry=plt';
    const doc = parse(html, url);
    const reader = createNaverBrowsingReader();
    const found = reader.readNew(doc, url);
    expect(found.cards).toEqual([]);
    expect(found.places).toHaveLength(1);
    expect(found.places[0]).toMatchObject({
      key: 'naver:1446535451',
      name: '동암상회',
      category: '한식',
      address: '인천 부평구 백범로468번길 13 101호',
      roadAddress: '인천 부평구 백범로468번길 13 101호',
      lotAddress: '인천 부평구 십정동 440-10',
      phone: '0507-1474-8861',
      rating: null,
      reviews: 490,
      sponsored: false,
    });
    expect(found.places[0]!.lat).toBeCloseTo(37.4693352, 6);
    expect(found.places[0]!.sources?.roadAddress).toBe('page-data');
    // The person opens the review tab of the same place: nothing new.
    url = 'https://pcmap.place.naver.com/restaurant/1446535451/review/visitor';
    expect(reader.readNew(doc, url).places).toEqual([]);
    // The URL names another place while the document still holds this one's state: never read as that place.
    expect(reader.readNew(doc, 'https://pcmap.place.naver.com/restaurant/1813533684/home').places).toEqual([]);
  });

  it('the replica place page, through the collector: sent once, with the fields of the world', async () => {
    const truth = naverPlaceOf(world.places[42]!);
    const url = `${pcmapPlaceHomeUrl(truth.id)}?entry=plt`;
    const win = new Window({
      url,
      settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true },
    });
    windows.push(win);
    win.document.write(placeHomeHtml(truth));
    const doc = win.document as unknown as Document;
    const b = browse(win, doc, () => url);
    b.collector.start();
    await wait(400);
    doc.body.insertAdjacentHTML('beforeend', '<div>more of the page</div>');
    await wait(1300);
    expect(b.all()).toHaveLength(1);
    expect(b.all()[0]).toMatchObject({
      key: `naver:${truth.id}`,
      name: truth.name,
      roadAddress: truth.roadAddress,
      lotAddress: truth.jibunAddress,
      sponsored: false,
    });
    b.collector.stop();
  });
});

describe('where the Naver content script collects while browsing', () => {
  const frame = (ancestors: string[] | null) => {
    const win = { top: {}, location: { ancestorOrigins: ancestors && { length: ancestors.length, item: (i: number) => ancestors[i] ?? null } } };
    return win as unknown as FrameWindow;
  };

  it('in frames of map.naver.com; never top-level (a sweep worker tab) nor framed by another site', () => {
    expect(insideNaverMap(frame(['https://map.naver.com']))).toBe(true);
    expect(insideNaverMap(frame(['https://pcmap.place.naver.com', 'https://map.naver.com']))).toBe(true);
    expect(insideNaverMap(frame(['https://evil.example']))).toBe(false);
    expect(insideNaverMap(frame(null))).toBe(true);
    const top = {} as { top?: unknown; location: unknown };
    top.top = top;
    top.location = { ancestorOrigins: { length: 0, item: () => null } };
    expect(insideNaverMap(top as unknown as FrameWindow)).toBe(false);
  });

  it('place pages by URL: every vertical and tab; lists and other hosts are not places', () => {
    expect(placeIdOf('https://pcmap.place.naver.com/restaurant/1446535451/home?entry=plt')).toBe('1446535451');
    expect(placeIdOf('https://pcmap.place.naver.com/place/20246834')).toBe('20246834');
    expect(placeIdOf('https://pcmap.place.naver.com/hospital/1813533684/review/visitor')).toBe('1813533684');
    expect(placeIdOf('https://pcmap.place.naver.com/place/list?query=카페')).toBeNull();
    expect(placeIdOf('https://example.com/place/20246834/home')).toBeNull();
  });
});
