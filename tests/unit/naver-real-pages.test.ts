/**
 * Every Naver capture in ../shared/real-pages/naver/, read in place (see SOURCES.md there).
 * Expected values were read off the files by hand (python json dumps), not from the extractor.
 */
import { beforeAll, expect, it } from 'vitest';
import { parseAllSearch } from '../../utils/providers/naver/allsearch';
import { apolloStateFromDocument, apolloStateFromText, placeFromDetailState, placesFromListState } from '../../utils/providers/naver/apollo';
import { readListDom } from '../../utils/providers/naver/list-dom';
import { observeListPage } from '../../utils/providers/naver/observe';
import { readRealPage, realPageParser, realPagesDescribe } from '../helpers/real-pages';
const realDescribe = realPagesDescribe('naver-real-pages.test.ts');

const read = (file: string): string => readRealPage('naver', file);
const parsePage = realPageParser();

realDescribe('allSearch answer, "근처 쌀국수" near Yongsan (2026-02-15, 20 items)', () => {
  const answer = parseAllSearch(read('naver_allsearch_place_ssalguksu-near-yongsan_ko_2026-02-15.json'));

  it('reads all 20 places with totals, page and the boundary in its real order', () => {
    expect(answer.kind).toBe('ok');
    expect(answer.places).toHaveLength(20);
    expect(answer.unreadable).toBe(0);
    expect(answer.total).toBe(6991);
    expect(answer.page).toBe(1);
    // ["126.9620143","37.5451678","126.9909224","37.5245990"] = [minLng, maxLat, maxLng, minLat]
    expect(answer.boundary).toEqual({ west: 126.9620143, north: 37.5451678, east: 126.9909224, south: 37.524599 });
    expect(new Set(answer.places.map((p) => p.key)).size).toBe(20);
  });

  it('reads the first item field by field', () => {
    expect(answer.places[0]).toEqual({
      provider: 'naver',
      providerId: '1178829266',
      key: 'naver:1178829266',
      name: '쏭타이치앙마이 신용산본점',
      category: '태국음식',
      categoryPath: ['음식점', '태국음식'],
      address: '서울특별시 용산구 한강로2가 73-4 1층 쏭타이치앙마이',
      roadAddress: '서울특별시 용산구 한강대로40길 39-5 1층 쏭타이치앙마이',
      phone: '0507-1334-5170',
      virtualPhone: '0507-1334-5170',
      website: 'http://www.instagram.com/ssongthai_chiangmai',
      bookingUrl: 'https://booking.naver.com/booking/6/bizes/251299',
      rating: null,
      reviews: 3066,
      lat: 37.530365,
      lng: 126.971602,
      url: 'https://map.naver.com/p/entry/place/1178829266',
      sponsored: false,
    });
  });

  it('keeps a landline apart from an empty virtualTel, and an item with no phone at all', () => {
    const bangkok = answer.places.find((p) => p.providerId === '1483637902')!;
    expect(bangkok).toMatchObject({ name: '방콕상회', phone: '1668-2506', virtualPhone: null });
    const porak = answer.places.find((p) => p.providerId === '1962777476')!;
    expect(porak).toMatchObject({ name: '포락앤롤', phone: null, virtualPhone: null, bookingUrl: null });
    // 8-digit ids are ids too.
    expect(answer.places.map((p) => p.providerId)).toContain('33141786');
  });

  it('every pin lies inside the boundary the answer states', () => {
    const b = answer.boundary!;
    for (const p of answer.places) {
      expect(p.lat! >= b.south && p.lat! <= b.north && p.lng! >= b.west && p.lng! <= b.east, p.name).toBe(true);
    }
  });
});

realDescribe('pcmap place page Apollo state, 동암상회 1446535451 (2026-05)', () => {
  const state = JSON.parse(read('naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json')) as Record<string, unknown>;

  it('reads the place; a hidden score (0, showVisitorReviewScore false) is no rating', () => {
    expect(placeFromDetailState(state, '1446535451')).toEqual({
      provider: 'naver',
      providerId: '1446535451',
      key: 'naver:1446535451',
      name: '동암상회',
      category: '한식',
      categoryPath: ['한식'],
      address: '인천 부평구 십정동 440-10',
      roadAddress: '인천 부평구 백범로468번길 13 101호',
      phone: '0507-1474-8861',
      virtualPhone: '0507-1474-8861',
      website: null,
      bookingUrl: null,
      rating: null,
      reviews: 490,
      lat: 37.4693352,
      lng: 126.6997446,
      url: 'https://map.naver.com/p/entry/place/1446535451',
      sponsored: false,
      // The week its state gives, a line a day (newBusinessHours): read as hours where the listing is made.
      hoursText: '수 16:00~24:00 | 목 16:00~24:00 | 금 16:00~24:00 | 토 16:00~24:00 | 일(5/31) 정기휴무 (매달 5번째 일요일) | 월 16:00~24:00 | 화 16:00~24:00',
    });
  });

  it('finds the single place without an id, and refuses an id the state does not hold', () => {
    expect(placeFromDetailState(state)?.providerId).toBe('1446535451');
    expect(placeFromDetailState(state, '1813533684')).toBeNull();
  });

  it('is found in page text by its assignment, braces inside strings notwithstanding', () => {
    const text = `<script>window.__PLACE_STATE__ = {"a":"}"};\nwindow.__APOLLO_STATE__ = ${JSON.stringify(state)};\nwindow.x = 1;</script>`;
    expect(placeFromDetailState(apolloStateFromText(text)!)?.name).toBe('동암상회');
  });
});

realDescribe('m.place restaurant list "사당맛집" (2025-03, 2 ads + 10 organic cards, Apollo state)', () => {
  let doc: Document;
  const url = 'https://m.place.naver.com/restaurant/list?query=%EC%82%AC%EB%8B%B9%EB%A7%9B%EC%A7%91&x=126.9781728079539&y=37.56811773886773';
  beforeAll(() => {
    doc = parsePage(read('naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html'), url);
  });

  it('the state gives 10 organic places in rank order and 10 flagged ads', () => {
    const state = apolloStateFromDocument(doc)!;
    expect(state).not.toBeNull();
    const list = placesFromListState(state);
    expect(list.places.map((p) => p.providerId)).toEqual([
      '20246834',
      '36341235',
      '1279662194',
      '92093012',
      '1217723915',
      '1372731328',
      '1440276406',
      '20054517',
      '1181045699',
      '37221619',
    ]);
    expect(list.ads).toHaveLength(10);
    expect(list.ads.every((a) => a.sponsored)).toBe(true);
    expect(list.unreadable).toBe(0);
    expect(list.places[0]).toMatchObject({
      name: '이자카야 베이비 사당점',
      category: '이자카야',
      // commonAddress "서울 서초구 방배동" + "방배천로2길 29-2" / "방배동 448-20"
      roadAddress: '서울 서초구 방배천로2길 29-2',
      address: '서울 서초구 방배동 448-20',
      phone: '02-598-9229',
      virtualPhone: null,
      rating: 4.49,
      reviews: 680,
      lat: 37.477089,
      lng: 126.9846479,
      bookingUrl: 'https://m.booking.naver.com/booking/6/bizes/307173/search',
    });
    // "1,022" is a count; a missing score is null, not 0.
    expect(list.places[1]).toMatchObject({ name: '한울갈비', reviews: 1022, phone: '0507-1378-4118', virtualPhone: '0507-1378-4118' });
    expect(list.places[4]).toMatchObject({ name: '가우리집', rating: null });
  });

  it('the DOM shows 12 cards: the 2 ads (click-tracker links) flagged, every card read', () => {
    const dom = readListDom(doc);
    expect(dom.container?.id).toBe('_list_scroll_container');
    expect(dom.cardsShown).toBe(12);
    expect(dom.adsShown).toBe(2);
    expect(dom.organicShown).toBe(10);
    expect(dom.warnings).toEqual([]);
    const ids = dom.cards.map((c) => (typeof c.place === 'string' ? c.place : c.place.providerId));
    expect(ids.slice(0, 2)).toEqual(['38628524', '37801475']);
    expect(dom.cards[2]!.place).toMatchObject({ name: '이자카야 베이비 사당점', category: '이자카야', rating: 4.49, sponsored: false });
    expect(dom.pager.present).toBe(false);
    expect(dom.noResults).toBe(false);
  });

  it('an app shell with this page\'s scripts but no list does not say "no results": the wording sits in a script dictionary (issue 21)', () => {
    const shell = doc.cloneNode(true) as Document;
    expect(shell.body.textContent).toContain('조건에 맞는 업체가 없습니다');
    shell.querySelector('#_list_scroll_container')?.remove();
    const dom = readListDom(shell);
    expect(dom.cardsShown).toBe(0);
    expect(dom.noResults).toBe(false);
    // The same wording shown to people is believed.
    const notice = shell.createElement('div');
    notice.textContent = '조건에 맞는 업체가 없습니다.';
    shell.body.append(notice);
    expect(readListDom(shell).noResults).toBe(true);
    // ... but not when the page hides it.
    notice.setAttribute('style', 'display: none');
    expect(readListDom(shell).noResults).toBe(false);
    // Ads beside a shown notice do not contradict it (a sponsored-only list without one is not "no results": judge.ts).
    notice.removeAttribute('style');
    const ads = doc.cloneNode(true) as Document;
    const container = ads.querySelector('#_list_scroll_container')!;
    const organic = readListDom(ads)
      .cards.filter((c) => !c.sponsored)
      .map((c) => c.element);
    for (const el of organic) el.remove();
    container.append(notice.cloneNode(true));
    const withAds = readListDom(ads);
    expect(withAds.adsShown).toBe(2);
    expect(withAds.organicShown).toBe(0);
    expect(withAds.noResults).toBe(true);
  });

  it('observes the page: 10 places read with the state fields, ads apart, list not proven ended', () => {
    // Its list query asks for 10 (`display`), but a page holds 50: while it may grow, it is loading.
    expect(observeListPage({ doc, url, scrollSettled: false })).toMatchObject({ status: 'loading', proof: expect.stringMatching(/^naver-list-growing: /) });
    const s = observeListPage({ doc, url, scrollSettled: true });
    expect(s.places).toHaveLength(10);
    expect(s.ads).toHaveLength(2);
    expect(s.unreadCards).toBe(0);
    expect(s.stateOnly).toBe(0);
    expect(s.places[0]!.roadAddress).toBe('서울 서초구 방배천로2길 29-2');
    // Settled, still no end: m.place scrolls forever, no pager, so no end is shown (issue 21).
    expect(s.status).toBe('unproven');
    expect(s.proof).toMatch(/^naver-pager-unrecognised: /);
    expect(s.block).toBeNull();
  });
});

realDescribe('m.map search "송도 치과" (2026-02, CSS-module class names, 75 cards, no Apollo state)', () => {
  it('the fallbacks still find every card by its place href and read its name', () => {
    const doc = parsePage(
      read('naver_mmap_search_songdo-chigwa_ko_2026-02.html'),
      'https://m.map.naver.com/search2/search.naver?query=%EC%86%A1%EB%8F%84%20%EC%B9%98%EA%B3%BC',
    );
    const dom = readListDom(doc);
    expect(dom.cardsShown).toBe(75);
    const readable = dom.cards.filter((c) => typeof c.place !== 'string');
    expect(readable).toHaveLength(75);
    expect(readable[0]!.place).toMatchObject({ providerId: '1717860225', name: '강남365치과의원', category: '치과' });
  });
});
