/**
 * The pcmap hook's two halves without a page: the MAIN-world wrapper of fetch and XHR
 * (utils/providers/naver/network-hook.ts) and the isolated world's reading of its copies
 * (utils/providers/naver/page-data.ts): the valibot item shapes against the real captures in
 * ../shared/real-pages/naver/ (read in place; expected values read off the files by hand), the
 * replica's answers against its own truth, and what a forged or broken copy is refused for.
 */
import { Window } from 'happy-dom';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { apolloStateFromText } from '../../utils/providers/naver/apollo';
import {
  claimsNaverHook,
  installNaverNetworkHook,
  MAX_HOOK_BODY,
  NAVER_HOOK_SOURCE,
  naverHookKind,
  readNaverHookMessage,
  type NaverHookMessage,
} from '../../utils/providers/naver/network-hook';
import {
  AllSearchItem,
  createNaverPageData,
  GraphqlListItem,
  joinNaverPageData,
  readAllSearchAnswer,
  readGraphqlAnswer,
} from '../../utils/providers/naver/page-data';
import type { ProviderPlace } from '../../utils/domain/place';
import { readRealPage, realPagesIt } from '../helpers/real-pages';
import { naverPlaceOf } from '../replica/naver/data';
import { allSearchAnswer, graphqlListAnswer } from '../replica/naver/pages';
import { createWorld } from '../replica/world';
const realIt = realPagesIt('naver-page-data.test.ts');

const GQL = 'https://pcmap-api.place.naver.com/graphql';
const world = createWorld({ seed: 21, places: 3000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 4 });
const replicaPlaces = world.places.slice(0, 60).map(naverPlaceOf);

const windows: Window[] = [];
afterAll(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

function message(body: string, extra: Partial<NaverHookMessage> = {}): NaverHookMessage {
  return { source: NAVER_HOOK_SOURCE, kind: 'graphql', url: GQL, status: 200, finalUrl: GQL, contentType: 'application/json', body, ...extra };
}

describe('real captures parse with the schema', () => {
  realIt('allSearch "근처 쌀국수" (2026-02-15): all 20 items pass the shape, with pins and whole addresses', () => {
    const body = readRealPage('naver', 'naver_allsearch_place_ssalguksu-near-yongsan_ko_2026-02-15.json');
    const list = (JSON.parse(body) as { result: { place: { list: unknown[] } } }).result.place.list;
    expect(list).toHaveLength(20);
    expect(list.filter((item) => !v.safeParse(AllSearchItem, item).success)).toEqual([]);
    const read = readAllSearchAnswer(body, 200);
    expect(read).toMatchObject({ kind: 'ok', refused: 0 });
    expect(read.places).toHaveLength(20);
    expect(read.places.every((p) => p.lat !== null && p.lng !== null && p.roadAddress !== null)).toBe(true);
    expect(read.places[0]).toMatchObject({
      key: 'naver:1178829266',
      name: '쏭타이치앙마이 신용산본점',
      roadAddress: '서울특별시 용산구 한강대로40길 39-5 1층 쏭타이치앙마이',
      address: '서울특별시 용산구 한강로2가 73-4 1층 쏭타이치앙마이',
      lat: 37.530365,
      lng: 126.971602,
      bookingUrl: 'https://booking.naver.com/booking/6/bizes/251299',
    });
  });

  realIt("the list items of the m.place list capture (2025-03; the GraphQL list's item shape, A3/A6) pass as a getRestaurants answer", () => {
    // No GraphQL answer was ever captured (SOURCES.md); the list page's Apollo cache holds the same items.
    const state = apolloStateFromText(readRealPage('naver', 'naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html'))!;
    const organic = Object.keys(state)
      .filter((k) => k.startsWith('RestaurantListSummary:'))
      .map((k) => state[k]);
    const ads = Object.keys(state)
      .filter((k) => k.startsWith('RestaurantAdSummary:'))
      .map((k) => state[k]);
    expect([organic.length, ads.length]).toEqual([10, 10]);
    expect([...organic, ...ads].filter((item) => !v.safeParse(GraphqlListItem, item).success)).toEqual([]);
    const read = readGraphqlAnswer(JSON.stringify([{ data: { restaurants: { total: 1234, items: organic } } }]), 200);
    expect(read).toMatchObject({ kind: 'ok', refused: 0 });
    expect(read.places).toHaveLength(10);
    // The first item, by hand: region in commonAddress, road and lot parts short.
    expect(read.places[0]).toMatchObject({
      key: 'naver:20246834',
      name: '이자카야 베이비 사당점',
      category: '이자카야',
      roadAddress: '서울 서초구 방배천로2길 29-2',
      address: '서울 서초구 방배동 448-20',
      phone: '02-598-9229',
      virtualPhone: null,
      reviews: 680,
      rating: 4.49,
      lat: 37.477089,
      lng: 126.9846479,
      bookingUrl: 'https://m.booking.naver.com/booking/6/bizes/307173/search',
      sponsored: false,
    });
  });
});

describe("the replica's answers read back as its truth", () => {
  for (const root of ['businesses', 'restaurants'] as const) {
    it(`GraphQL under data.${root}: every item with its pin, whole road and lot addresses, phones, booking`, () => {
      const read = readGraphqlAnswer(JSON.stringify(graphqlListAnswer(replicaPlaces, 999, root)), 200);
      expect(read).toMatchObject({ kind: 'ok', refused: 0 });
      expect(read.places.map((p) => p.providerId)).toEqual(replicaPlaces.map((t) => t.id));
      read.places.forEach((p, i) => {
        const t = replicaPlaces[i]!;
        expect(p).toMatchObject({
          name: t.name,
          lat: Number(t.y),
          lng: Number(t.x),
          roadAddress: t.roadAddress,
          address: t.jibunAddress,
          phone: t.phone ?? t.virtualPhone,
          virtualPhone: t.virtualPhone,
          bookingUrl: t.bookingUrl,
          reviews: t.visitorReviewCount,
        });
      });
    });
  }

  it('allSearch: the same places', () => {
    const read = readAllSearchAnswer(
      JSON.stringify(allSearchAnswer({ query: '카페', items: replicaPlaces.slice(0, 20), total: 20, page: 1, boundary: null })),
      200,
    );
    expect(read.places.map((p) => [p.providerId, p.roadAddress, p.lat])).toEqual(replicaPlaces.slice(0, 20).map((t) => [t.id, t.roadAddress, Number(t.y)]));
  });
});

describe('shapes refused', () => {
  const good = (graphqlListAnswer(replicaPlaces.slice(0, 3), 3) as [{ data: { businesses: { items: Record<string, unknown>[] } } }])[0].data.businesses.items;
  const answer = (items: unknown[]) => JSON.stringify([{ data: { businesses: { total: 3, items } } }]);

  it('an item with a wrong type or out of bounds is refused whole; the others stay', () => {
    const bad = [
      { ...good[0], id: 'abc' },
      { ...good[0], name: 5 },
      { ...good[0], name: '가'.repeat(201) },
      { ...good[0], x: { evil: true } },
      { ...good[0], roadAddress: ['서울'] },
      { ...good[0], phone: 1234567 },
      null,
      'naver:1',
    ];
    const read = readGraphqlAnswer(answer([...bad, good[1], good[2]]));
    expect(read.refused).toBe(bad.length);
    expect(read.places.map((p) => p.name)).toEqual([replicaPlaces[1]!.name, replicaPlaces[2]!.name]);
  });

  it('answers that are no list, a block or wrapped by Chrome', () => {
    expect(readGraphqlAnswer('[{"data":{}}]').kind).toBe('malformed');
    expect(readGraphqlAnswer('[{"data":{"businesses":{"items":"x"}}}]').kind).toBe('malformed');
    expect(readGraphqlAnswer('not json').kind).toBe('malformed');
    expect(readGraphqlAnswer('{"error":{"code":"NCAPTCHA"}}', 429).kind).toBe('blocked');
    expect(readGraphqlAnswer('', 405).kind).toBe('blocked');
    expect(readGraphqlAnswer(`<html><body><pre>${answer(good).replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre></body></html>`).places).toHaveLength(3);
  });
});

describe('the store and the join', () => {
  const body = JSON.stringify(graphqlListAnswer(replicaPlaces.slice(0, 5), 5));
  const card = (i: number, name = replicaPlaces[i]!.name): ProviderPlace => ({
    provider: 'naver',
    providerId: replicaPlaces[i]!.id,
    key: `naver:${replicaPlaces[i]!.id}`,
    name,
    category: null,
    categoryPath: [],
    address: null,
    roadAddress: null,
    phone: null,
    virtualPhone: null,
    website: null,
    bookingUrl: null,
    rating: null,
    reviews: null,
    lat: null,
    lng: null,
    url: `https://map.naver.com/p/entry/place/${replicaPlaces[i]!.id}`,
    sponsored: false,
  });

  it('fills a shown card of the same id and name; a contradicting name, an ad and a card the state described are left alone', () => {
    const data = createNaverPageData();
    data.accept(message(body));
    const ad = { ...card(3), sponsored: true };
    const join = joinNaverPageData([card(0), card(1, '다른 가게'), card(2), ad], (p) => p.key !== card(2).key, data);
    expect(join.places[0]).toMatchObject({ name: replicaPlaces[0]!.name, lat: Number(replicaPlaces[0]!.y), roadAddress: replicaPlaces[0]!.roadAddress });
    expect(join.places[1]).toEqual(card(1, '다른 가게'));
    expect(join.places[2]).toEqual(card(2));
    expect(join.places[3]).toEqual(ad);
    expect(join).toMatchObject({ dropped: 1, reasons: { name: 1 } });
    expect([...join.filled]).toEqual([card(0).key]);
  });

  it('two copies of a place that disagree (name or pin) are a conflict: neither fills, counted once', () => {
    const data = createNaverPageData();
    data.accept(message(body));
    const moved = graphqlListAnswer(replicaPlaces.slice(0, 1), 1) as [{ data: { businesses: { items: Record<string, unknown>[] } } }];
    moved[0].data.businesses.items[0]!.y = '37.9000000';
    data.accept(message(JSON.stringify(moved)));
    data.accept(message(body)); // the same copy again changes nothing
    expect(data.get(card(0).key)).toBe('conflict');
    const join = joinNaverPageData([card(0), card(0)], () => true, data);
    expect(join).toMatchObject({ dropped: 1, reasons: { conflict: 1 } });
    expect(data.take()).toMatchObject({ answers: 3, conflicts: 1, keys: replicaPlaces.slice(0, 5).map((p) => `naver:${p.id}`) });
    expect(data.take()).toMatchObject({ answers: 0, conflicts: 0, keys: [] });
  });

  it('is bounded: past its limit, new places are ignored', () => {
    const data = createNaverPageData(3);
    data.accept(message(body));
    expect(data.take().keys).toHaveLength(3);
    expect(data.get(card(4).key)).toBeUndefined();
  });
});

describe('the envelope', () => {
  it('exactly these fields, a URL the hook copies, a bounded text body', () => {
    const ok = message('[]');
    expect(readNaverHookMessage(ok)).toEqual(ok);
    expect(readNaverHookMessage({ ...ok, kind: 'allsearch' })).toBeNull(); // the URL is GraphQL's
    expect(readNaverHookMessage({ ...ok, kind: 'allsearch', url: 'https://map.naver.com/p/api/search/allSearch?query=x', finalUrl: null })).not.toBeNull();
    expect(readNaverHookMessage({ ...ok, extra: true })).toBeNull();
    const { body: _body, ...noBody } = ok;
    expect(readNaverHookMessage(noBody)).toBeNull();
    expect(readNaverHookMessage({ ...ok, body: { a: 1 } })).toBeNull();
    expect(readNaverHookMessage({ ...ok, body: 'x'.repeat(MAX_HOOK_BODY + 1) })).toBeNull();
    expect(readNaverHookMessage({ ...ok, url: 'https://evil.example/graphql' })).toBeNull();
    expect(readNaverHookMessage({ ...ok, url: 'http://pcmap-api.place.naver.com/graphql' })).toBeNull();
    expect(readNaverHookMessage({ ...ok, status: 99 })).toBeNull();
    expect(readNaverHookMessage({ ...ok, source: 'mapsweep:kakao-mapdaum' })).toBeNull();
    expect(readNaverHookMessage([ok])).toBeNull();
    expect(claimsNaverHook({ source: NAVER_HOOK_SOURCE })).toBe(true);
    expect(claimsNaverHook({ source: 'other' })).toBe(false);
    expect([
      naverHookKind(GQL),
      naverHookKind('https://pcmap-api.place.naver.com/place/graphql'),
      naverHookKind('https://map.naver.com/p/api/search/allSearch?q=1'),
      naverHookKind('https://pcmap.place.naver.com/graphql'),
    ]).toEqual(['graphql', 'graphql', 'allsearch', null]);
  });
});

describe('the MAIN-world hook', () => {
  /** A happy-dom window whose network answers `answer(url)`; the hook installed; what it posted. */
  function page(answer: (url: string) => { status: number; body: string }) {
    const win = new Window({
      url: 'https://pcmap.place.naver.com/restaurant/list?query=x',
      settings: {
        disableJavaScriptFileLoading: true,
        disableCSSFileLoading: true,
        fetch: {
          disableSameOriginPolicy: true,
          interceptor: {
            beforeAsyncRequest: async ({ request, window }) => {
              const a = answer(request.url);
              return new window.Response(a.body, { status: a.status, headers: { 'content-type': 'application/json' } });
            },
          },
        },
      },
    });
    windows.push(win);
    const posted: NaverHookMessage[] = [];
    const restore = installNaverNetworkHook(win as unknown as globalThis.Window, (m) => posted.push(m));
    return { win, posted, restore };
  }
  const settle = () => new Promise((r) => setTimeout(r, 30));

  it('copies GraphQL answers from fetch and XHR, leaves other requests alone, and the page gets its own answer untouched', async () => {
    const body = JSON.stringify(graphqlListAnswer(replicaPlaces.slice(0, 2), 2));
    const { win, posted, restore } = page((url) => (url.startsWith(GQL) ? { status: 200, body } : { status: 200, body: '{"other":true}' }));
    const res = await win.fetch(GQL, { method: 'POST', body: '[]' });
    expect(await res.text()).toBe(body); // the page's own body, unread by the hook
    await win.fetch('https://pcmap.place.naver.com/static/x.json');
    const xhrText = await new Promise<string>((resolve) => {
      const xhr = new win.XMLHttpRequest();
      xhr.open('POST', GQL);
      xhr.addEventListener('load', () => resolve(xhr.responseText));
      xhr.send('[]');
    });
    expect(xhrText).toBe(body);
    await settle();
    expect(posted).toHaveLength(2);
    for (const m of posted) expect(readNaverHookMessage(m)).toMatchObject({ kind: 'graphql', url: GQL, status: 200, body });
    // Installing twice is a no-op; restoring puts the page's own fetch back.
    expect(installNaverNetworkHook(win as unknown as globalThis.Window, () => {})).toBeTypeOf('function');
    restore();
    await win.fetch(GQL, { method: 'POST', body: '[]' });
    await settle();
    expect(posted).toHaveLength(2);
  });

  it('an answer over the bound is not copied; a failing request still fails for the page, and nothing is posted', async () => {
    const huge = 'x'.repeat(MAX_HOOK_BODY + 10);
    const { win, posted } = page(() => ({ status: 200, body: huge }));
    expect((await (await win.fetch(GQL, { method: 'POST' })).text()).length).toBe(huge.length);
    await settle();
    expect(posted).toEqual([]);
    const failing = new Window({
      url: 'https://pcmap.place.naver.com/',
      settings: {
        fetch: {
          interceptor: {
            beforeAsyncRequest: async () => {
              throw new TypeError('offline');
            },
          },
        },
      },
    });
    windows.push(failing);
    const got: NaverHookMessage[] = [];
    installNaverNetworkHook(failing as unknown as globalThis.Window, (m) => got.push(m));
    await expect(failing.fetch(GQL, { method: 'POST' })).rejects.toThrow(/offline/);
    await settle();
    expect(got).toEqual([]);
  });
});
