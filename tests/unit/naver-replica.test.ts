/**
 * The Naver replica against the Naver extractors: every page is rendered by the replica's pure
 * functions, parsed by happy-dom, and read back by utils/providers/naver. Ground truth comes from
 * the replica's world (naverGroundTruth), never from the extractor.
 */
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import type { BBox } from '../../utils/geo/types';
import { placeFromDetailState, apolloStateFromDocument } from '../../utils/providers/naver/apollo';
import { parseAllSearch, parseGraphqlList } from '../../utils/providers/naver/allsearch';
import { detectNaverBlock } from '../../utils/providers/naver/block';
import { naverIdFromUrl } from '../../utils/providers/naver/ids';
import { type NaverPageSummary, observeListPage, PAGE_MAX, PAGE_SIZE, SEARCH_CAP } from '../../utils/providers/naver/observe';
import { naverListUrl, naverPlaceUrl } from '../../utils/providers/naver/urls';
import { indexOfNaverId, naverIdOf, naverPlaceOf, type NaverReplicaPlace } from '../replica/naver/data';
import {
  allSearchAnswer,
  blockPageHtml,
  detailApolloState,
  graphqlListAnswer,
  LIST_SCRIPT,
  listPageHtml,
  noResultsHtml,
  placeHomeHtml,
} from '../replica/naver/pages';
import { adsFor, naverGroundTruth, naverSearch, pageOf } from '../replica/naver/search';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverSwitches } from '../replica/naver/switches';
import { createWorld } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });
/** A 1 km box off the centre (uncrowded for 'pharmacy') and the centre's 2 km box (crowded for 'cafe'). */
const SMALL: BBox = { south: 37.56, west: 126.97, north: 37.569, east: 126.981 };
const CENTRE: BBox = { south: 37.557, west: 126.966, north: 37.576, east: 126.99 };
/** 108 pharmacies: three pages of 50. */
const THREE_PAGES: BBox = { south: SEOUL.lat - 0.005, west: SEOUL.lng - 0.0063, north: SEOUL.lat + 0.005, east: SEOUL.lng + 0.0063 };

const windows: Window[] = [];
function parse(html: string, url: string): Document {
  const win = new Window({
    url,
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true },
  });
  windows.push(win);
  return new win.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}
afterAll(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

/** The list page of one search page as the replica server builds it, with `rendered` cards scrolled into view. */
function listPage(
  query: string,
  bounds: BBox,
  page: number,
  rendered: number | 'all',
  over: Partial<NaverSwitches> = {},
): { html: string; url: string; items: NaverReplicaPlace[]; ads: NaverReplicaPlace[] } {
  const s = mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, over);
  const input = { query, bounds, centre: null };
  const outcome = naverSearch(world, input, s);
  const { items, pages } = pageOf(outcome.results, page, s.pageSize);
  const ads = page === 1 ? adsFor(world, input, outcome, s) : [];
  const url = `${naverListUrl({ query, bounds })}&page=${page}`;
  if (outcome.results.length === 0) return { html: noResultsHtml(query), url, items: [], ads: [] };
  const html = listPageHtml({
    query,
    x: '126.9780000',
    y: '37.5665000',
    items,
    ads,
    rendered: rendered === 'all' ? items.length : Math.min(rendered, items.length),
    page,
    pages,
    total: outcome.results.length,
    pageSize: s.pageSize,
    lazyBatch: s.lazyBatch,
    lazyDelayMs: 0,
    pagerWindow: s.pagerWindow,
    endMarker: s.endMarker,
    apolloHolds: s.apolloHolds,
    variant: s.domVariant,
    brokenCards: s.brokenCards,
    pagerMarkup: s.pagerMarkup,
    pageTurn: s.pageTurn,
    lazyFail: s.lazyFail,
  });
  return { html, url, items, ads };
}

function observe(
  query: string,
  bounds: BBox,
  page: number,
  rendered: number | 'all',
  over: Partial<NaverSwitches> = {},
): NaverPageSummary & { truthItems: NaverReplicaPlace[] } {
  const p = listPage(query, bounds, page, rendered, over);
  return { ...observeListPage({ doc: parse(p.html, p.url), url: p.url, scrollSettled: rendered === 'all' }), truthItems: p.items };
}

/** The organic places of a search's pages, one per key, first page first. */
const placesOf = (pages: readonly NaverPageSummary[]) => [...new Map(pages.flatMap((p) => p.places).map((p) => [p.key, p])).values()];
const statuses = (pages: readonly NaverPageSummary[]) => pages.map((p) => p.status);

/** Every page of a search, each fully scrolled, until the page says it is the last. */
function sweepSearch(query: string, bounds: BBox, over: Partial<NaverSwitches> = {}): NaverPageSummary[] {
  const pages: NaverPageSummary[] = [];
  for (let page = 1; page <= 10; page++) {
    const s = observe(query, bounds, page, 'all', over);
    pages.push(s);
    if (s.status !== 'more-pages') break;
  }
  return pages;
}

describe('Naver view of the world', () => {
  it('gives every place a distinct, stable digit id that maps back to it and reads back from its URL', () => {
    const ids = world.places.map((p) => naverIdOf(p.index));
    expect(new Set(ids).size).toBe(world.places.length);
    for (const p of world.places.slice(0, 400)) {
      const id = naverIdOf(p.index);
      expect(indexOfNaverId(id)).toBe(p.index);
      expect(naverIdFromUrl(naverPlaceUrl(id))).toBe(id);
      expect(naverIdFromUrl(`https://pcmap.place.naver.com/restaurant/${id}/home`)).toBe(id);
    }
    expect(ids.some((id) => id.length === 8) && ids.some((id) => id.length === 10)).toBe(true);
    expect(naverPlaceOf(world.places[5]!)).toEqual(naverPlaceOf(createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 }).places[5]!));
  });

  it('writes Korean names and whole Korean road and lot-number addresses', () => {
    const sample = world.places.slice(0, 200).map(naverPlaceOf);
    const hangul = sample.filter((p) => /[가-힣]/.test(p.name)).length;
    expect(hangul / sample.length).toBeGreaterThan(0.8);
    for (const p of sample) {
      expect(p.roadAddress).toMatch(/^서울 [가-힣]+구 [가-힣0-9]+(로|길|대로) \d+$/);
      expect(p.jibunAddress).toMatch(/^서울 [가-힣]+구 [가-힣0-9]+(동|가) \d+-\d+$/);
    }
  });
});

describe('replica search semantics (strict bounds)', () => {
  it('lists only places inside the bounds, and all of them when fewer than the cap', () => {
    const truth = naverGroundTruth(world, '약국', SMALL);
    expect(truth.length).toBeGreaterThan(5);
    const out = naverSearch(world, { query: '약국', bounds: SMALL, centre: null }, DEFAULT_NAVER_SWITCHES);
    expect(out.results.map((p) => p.id).sort()).toEqual(truth.map((p) => p.id).sort());
  });

  it('caps a crowded search at 300, six pages of 50', () => {
    expect(naverGroundTruth(world, '카페', CENTRE).length).toBeGreaterThan(SEARCH_CAP);
    const out = naverSearch(world, { query: '카페', bounds: CENTRE, centre: null }, DEFAULT_NAVER_SWITCHES);
    expect(out.results).toHaveLength(300);
    expect(pageOf(out.results, 6, 50)).toMatchObject({ pages: 6, hasNext: false });
    expect(pageOf(out.results, 6, 50).items).toHaveLength(50);
  });

  it("'spill' lists places beyond the box and 'ignored' ranks the whole world", () => {
    const strict = naverSearch(world, { query: '약국', bounds: SMALL, centre: null }, DEFAULT_NAVER_SWITCHES);
    const spill = naverSearch(world, { query: '약국', bounds: SMALL, centre: null }, { resultCap: 300, boundsMode: 'spill' });
    const ignored = naverSearch(world, { query: '약국', bounds: SMALL, centre: null }, { resultCap: 300, boundsMode: 'ignored' });
    expect(spill.results.length).toBeGreaterThan(strict.results.length);
    expect(ignored.matched).toBeGreaterThan(spill.results.length);
  });
});

describe('issue 21 switches of the replica (what the extractor must not take for proof)', () => {
  it("searchInset: the search lists none of the box's margin, while the list URL still echoes the whole box", () => {
    const whole = naverSearch(world, { query: '카페', bounds: SMALL, centre: null }, DEFAULT_NAVER_SWITCHES);
    const inset = naverSearch(world, { query: '카페', bounds: SMALL, centre: null }, { ...DEFAULT_NAVER_SWITCHES, searchInset: 0.05 });
    const dLat = (SMALL.north - SMALL.south) * 0.05;
    const dLng = (SMALL.east - SMALL.west) * 0.05;
    const inMargin = (p: NaverReplicaPlace) =>
      p.place.lat < SMALL.south + dLat || p.place.lat > SMALL.north - dLat || p.place.lng < SMALL.west + dLng || p.place.lng > SMALL.east - dLng;
    expect(whole.results.some(inMargin)).toBe(true);
    expect(inset.results.some(inMargin)).toBe(false);
    expect(inset.results.length).toBeLessThan(whole.results.length);
    expect(inset.searchedBox).toEqual({ south: SMALL.south + dLat, north: SMALL.north - dLat, west: SMALL.west + dLng, east: SMALL.east - dLng });
  });

  it('bad switch values are refused with their names, and nothing changes', () => {
    expect(() =>
      mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, {
        searchInset: 0.6,
        pagerMarkup: 'divs' as never,
        pageTurn: 'back' as never,
        emptyPage: 'blank' as never,
        lazyFail: -1,
      }),
    ).toThrow(
      /searchInset must be a number in \[0, 0\.45\].*pagerMarkup must be links or buttons.*pageTurn must be next or skip.*emptyPage must be notice, ads-only or shell.*lazyFail must be an integer/,
    );
    expect(DEFAULT_NAVER_SWITCHES).toMatchObject({ searchInset: 0, pagerMarkup: 'links', pageTurn: 'next', emptyPage: 'notice', lazyFail: 0 });
  });

  it("a `display` below any page's size (a lazy batch's 10) never makes a page whole: 10 cards with another page is short", () => {
    const p = listPage('카페', CENTRE, 1, 10, { apolloHolds: 'rendered' });
    const asked10 = p.html.replace(/(\\?"display\\?":)50/g, '$110');
    expect(asked10).not.toBe(p.html);
    const s = observeListPage({ doc: parse(asked10, p.url), url: p.url, scrollSettled: true });
    expect(s.organicShown).toBe(10);
    expect(s.stateOnly).toBe(0);
    expect(s).toMatchObject({ status: 'unproven', proof: expect.stringMatching(/^naver-page-short: 10 of 50 places/) });
  });

  it("a `display` of 25 (a lazy query's, notes B-table) makes a page of 25 whole only once the list stopped growing", () => {
    const p = listPage('카페', CENTRE, 1, 25, { apolloHolds: 'rendered' });
    const asked25 = p.html.replace(/(\\?"display\\?":)50/g, '$125');
    expect(observeListPage({ doc: parse(asked25, p.url), url: p.url, scrollSettled: false })).toMatchObject({ status: 'loading' });
  });

  it("a pager of buttons reads as the links do; one whose arrows no one named is no pager; 'skip' leads two pages on", () => {
    const links = observe('카페', CENTRE, 2, 'all');
    const buttons = observe('카페', CENTRE, 2, 'all', { pagerMarkup: 'buttons' });
    expect(buttons.pager).toEqual(links.pager);
    expect(buttons.pager).toMatchObject({ present: true, current: 2, next: 'enabled', unknownControls: 0 });
    const p = listPage('카페', CENTRE, 2, 'all', { pagerMarkup: 'buttons', pageTurn: 'skip' });
    const doc = parse(p.html.replace(/ aria-label="(이전|다음) 페이지"/g, ''), p.url);
    expect(observeListPage({ doc, url: p.url, scrollSettled: true })).toMatchObject({ status: 'unproven', pager: { present: false } });
    expect(parse(p.html, p.url).querySelector('button[aria-label="다음 페이지"]')?.getAttribute('data-replica-page')).toBe('4');
  });
});

describe('list page read back by the extractors', () => {
  it('at load: 10 cards of the first page, 2 ads flagged apart, fields equal the world, still loading', () => {
    const s = observe('약국', SMALL, 1, 10);
    expect(s.organicShown).toBe(Math.min(10, s.truthItems.length));
    expect(s.adsShown).toBe(2);
    expect(s.ads.every((a) => a.sponsored)).toBe(true);
    expect(s.places.map((p) => p.providerId)).toEqual(s.truthItems.slice(0, 10).map((p) => p.id));
    const t = s.truthItems[0]!;
    expect(s.places[0]).toMatchObject({
      name: t.name,
      category: t.categoryPath[t.categoryPath.length - 1],
      roadAddress: t.roadAddress,
      address: t.jibunAddress,
      phone: t.phone,
      virtualPhone: t.virtualPhone,
      bookingUrl: t.bookingUrl,
      rating: t.visitorReviewScore,
      reviews: t.visitorReviewCount,
      lat: Number(t.y),
      lng: Number(t.x),
      url: `https://map.naver.com/p/entry/place/${t.id}`,
    });
    expect(s.status).toBe(s.truthItems.length > 10 ? 'loading' : 'complete');
  });

  it('a whole uncrowded search: pages until the list ends, complete, every ground-truth place once, no ad among them', () => {
    const truth = naverGroundTruth(world, '약국', SMALL);
    const pages = sweepSearch('약국', SMALL);
    expect(statuses(pages).at(-1)).toBe('complete');
    expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
    expect(
      pages
        .flatMap((p) => p.places)
        .map((p) => p.providerId)
        .sort(),
    ).toEqual(truth.map((p) => p.id).sort());
  });

  it('a crowded search: six full pages, the sixth capped although its next arrow is simply disabled', () => {
    const pages = sweepSearch('카페', CENTRE);
    expect(pages.map((p) => p.status)).toEqual(['more-pages', 'more-pages', 'more-pages', 'more-pages', 'more-pages', 'capped']);
    expect(pages[5]!.pager).toMatchObject({ current: 6, next: 'disabled' });
    expect(pages.every((p) => p.organicShown === PAGE_SIZE)).toBe(true);
    expect(placesOf(pages)).toHaveLength(PAGE_SIZE * PAGE_MAX);
  });

  it('the same under every page-layout switch: place vertical, renamed classes, no next arrow at the end, ads repeating organic results', () => {
    // Three pages of 50 (108 places), so the pager's middle and end are both exercised.
    const truth = naverGroundTruth(world, '약국', THREE_PAGES)
      .map((p) => p.id)
      .sort();
    expect(truth.length).toBeGreaterThan(2 * PAGE_SIZE);
    for (const over of [
      { domVariant: 'place' },
      { domVariant: 'renamed' },
      { endMarker: 'no-next' },
      { adsRepeatOrganic: true },
      { apolloHolds: 'rendered' },
      { pagerMarkup: 'buttons' },
      { pagerMarkup: 'buttons', endMarker: 'no-next', domVariant: 'renamed' },
    ] as Partial<NaverSwitches>[]) {
      const pages = sweepSearch('약국', THREE_PAGES, over);
      expect(pages).toHaveLength(3);
      expect(statuses(pages), JSON.stringify(over)).toEqual(['more-pages', 'more-pages', 'complete']);
      expect(
        placesOf(pages)
          .map((p) => p.providerId)
          .sort(),
        JSON.stringify(over),
      ).toEqual(truth);
    }
  });

  it('a page with broken cards is unreadable, not empty; no results is believed only from its text', () => {
    expect(observe('약국', SMALL, 1, 'all', { brokenCards: true }).status).toBe('unreadable');
    const none = observe('존재하지않는가게', SMALL, 1, 'all');
    expect(none.status).toBe('no-results');
    expect(none.places).toEqual([]);
  });

  it('the block page and a 429 are blocks', () => {
    const doc = parse(blockPageHtml(), 'https://pcmap.place.naver.com/place/list?query=x');
    expect(observeListPage({ doc, url: 'https://pcmap.place.naver.com/place/list?query=x', scrollSettled: true, status: 429 }).status).toBe('blocked');
    expect(detectNaverBlock({ status: 200, text: doc.body.textContent })?.kind).toBe('restricted');
    expect(detectNaverBlock({ status: 429, text: '' })?.kind).toBe('rate-limited');
    expect(detectNaverBlock({ status: 200, text: '잠시 후 다시 시도해주세요' })).toBeNull();
    expect(parseAllSearch('{"error":{"code":"CE_EMPTY_TOKEN"}}').kind).toBe('blocked');
  });

  it("the page's own script appends lazy batches when the container is scrolled", async () => {
    const p = listPage('카페', CENTRE, 1, 10, { lazyBatch: 10 });
    const win = new Window({ url: p.url, settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
    windows.push(win);
    win.document.write(p.html.replace(`<script>${LIST_SCRIPT}</script>`, ''));
    win.eval(LIST_SCRIPT);
    const doc = win.document as unknown as Document;
    const count = () => observeListPage({ doc, url: p.url, scrollSettled: false }).organicShown;
    expect(count()).toBe(10);
    for (let i = 0; i < 6; i++) {
      doc.getElementById('_pcmap_list_scroll_container')!.dispatchEvent(new win.Event('scroll') as unknown as Event);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(count()).toBe(50);
  });
});

describe('place page, allSearch and GraphQL answers', () => {
  it('place home: the Apollo detail state reads back as the world place (hidden score → null)', () => {
    for (const place of world.places.slice(0, 60)) {
      const t = naverPlaceOf(place);
      const doc = parse(placeHomeHtml(t), `https://pcmap.place.naver.com/place/${t.id}/home`);
      const read = placeFromDetailState(apolloStateFromDocument(doc)!, t.id)!;
      expect(read).toMatchObject({
        providerId: t.id,
        name: t.name,
        roadAddress: t.roadAddress,
        address: t.jibunAddress,
        website: t.homepage,
        bookingUrl: t.bookingUrl,
        rating: t.visitorReviewScore,
        reviews: t.visitorReviewCount,
      });
    }
    expect(Object.keys(detailApolloState(naverPlaceOf(world.places[0]!)))).toContain(`PlaceDetailBase:${naverIdOf(0)}`);
  });

  it('allSearch (20 a page, boundary order) and GraphQL answers read back whole', () => {
    const out = naverSearch(world, { query: '카페', bounds: CENTRE, centre: null }, DEFAULT_NAVER_SWITCHES);
    const a = parseAllSearch(
      JSON.stringify(allSearchAnswer({ query: '카페', items: out.results.slice(0, 20), total: out.matched, page: 1, boundary: CENTRE })),
    );
    expect(a.places.map((p) => p.providerId)).toEqual(out.results.slice(0, 20).map((p) => p.id));
    expect(a.boundary).toEqual({ south: 37.557, west: 126.966, north: 37.576, east: 126.99 });
    const g = parseGraphqlList(JSON.stringify(graphqlListAnswer(out.results.slice(50, 100), out.results.length)));
    expect(g.total).toBe(300);
    expect(g.places.map((p) => p.providerId)).toEqual(out.results.slice(50, 100).map((p) => p.id));
    expect(parseGraphqlList('', 405).kind).toBe('blocked');
  });
});
