/**
 * Kakao's pure readers on hand-made hostile input and on the real capture
 * (../shared/real-pages/kakao/, the REST API's answer; read in place): ids, URLs, block signals,
 * map.daum JSON/JSONP.
 */
import { describe, expect, it } from 'vitest';
import { haversineMetres } from '../../utils/geo/distance';
import { wcongnamulToWgs84, wgs84ToWcongnamul } from '../../utils/geo/wcongnamul';
import { classifyKakaoResponse, isKakaoBlockUrl } from '../../utils/providers/kakao/block';
import { confirmIdFromPlaceUrl, kakaoKey, parseConfirmId } from '../../utils/providers/kakao/ids';
import { parseMapDaumBody, readMapDaumResponse } from '../../utils/providers/kakao/mapdaum';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { createWorld } from '../replica/world';
import { kakaoWorld } from '../replica/kakao/places';
import { placeRecord } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES } from '../replica/kakao/switches';
import { parseRestKeywordAnswer } from '../../utils/providers/kakao/rest';
import { KAKAO_PAGE_SIZE, mapDaumUrl, parseMapDaumUrl, parseRect, parseSearchPageUrl, placeUrl, searchPageUrl } from '../../utils/providers/kakao/urls';
import { readRealPage, realPagesDescribe } from '../helpers/real-pages';
const realDescribe = realPagesDescribe('kakao-readers.test.ts');

describe('ids and URLs', () => {
  it('reads confirmids and refuses lookalikes', () => {
    expect(parseConfirmId('27388604')).toBe('27388604');
    expect(parseConfirmId(1249470554)).toBe('1249470554');
    for (const bad of ['0123456', '12', '12a45678', '', null, 1.5, -8094954, '1'.repeat(13)]) expect(parseConfirmId(bad)).toBeNull();
    expect(kakaoKey('8094954')).toBe('kakao:8094954');
  });

  it('takes the confirmid from place URLs only', () => {
    expect(confirmIdFromPlaceUrl('https://place.map.kakao.com/857085291')).toBe('857085291');
    expect(confirmIdFromPlaceUrl('http://place.map.kakao.com/8252248')).toBe('8252248');
    expect(confirmIdFromPlaceUrl('https://place.map.kakao.com/main/v/8094954')).toBe('8094954');
    expect(confirmIdFromPlaceUrl('https://evil.example/857085291')).toBeNull();
    expect(confirmIdFromPlaceUrl('javascript:alert(1)')).toBeNull();
    expect(placeUrl('857085291')).toBe('https://place.map.kakao.com/857085291');
  });

  it('round-trips search and map.daum URLs, rect included', () => {
    const s = searchPageUrl('카페', { x: 495141, y: 1129713, level: 3 });
    expect(parseSearchPageUrl(s)).toEqual({ query: '카페', view: { x: 495141, y: 1129713, level: 3 } });
    expect(parseSearchPageUrl('https://map.kakao.com/?q=%EC%B9%B4%ED%8E%98')).toEqual({ query: '카페', view: null });
    const u = mapDaumUrl({ query: 'cafe', page: 3, rect: { x1: 495001.2, y1: 1129002.7, x2: 495010.1, y2: 1129020 }, callback: 'jQuery1_2' });
    expect(u).toContain('msFlag=S');
    expect(u).toContain('mcheck=Y');
    expect(parseMapDaumUrl(u)).toEqual({
      endpoint: 'map.daum',
      query: 'cafe',
      page: 3,
      restricted: true,
      everywhere: false,
      unknownParams: [],
      rect: { x1: 495001, y1: 1129002, x2: 495011, y2: 1129020 },
      degrees: null,
      callback: 'jQuery1_2',
      sort: '0',
    });
    // The rect in degrees, in the public API's order (lng,lat,lng,lat): the box as written, and the grid rect around it.
    const d = parseMapDaumUrl('https://map.kakao.com/api/v1/mapsearch/map?q=a&msFlag=S&mcheck=Y&page=1&rect=126.99,37.58,126.97,37.56')!;
    expect(d.degrees).toEqual({ west: 126.97, south: 37.56, east: 126.99, north: 37.58 });
    expect(d.rect!.x1).toBeGreaterThan(490_000);
    expect(d.rect!.y2).toBeGreaterThan(1_120_000);
    // The other order (lat,lng,…) is no box: a latitude of 126 is not one.
    expect(parseMapDaumUrl('https://map.kakao.com/api/v1/mapsearch/map?q=a&msFlag=S&page=1&rect=37.56,126.97,37.58,126.99')!.rect).toBeNull();
    // msFlag=A: the rect (if any) does not restrict the search.
    expect(parseMapDaumUrl('https://search.map.kakao.com/mapsearch/map.daum?q=a&msFlag=A&rect=1,2,3,4')!.rect).toBeNull();
    expect(parseRect('5,5,5,9')).toBeNull();
    expect(parseRect('9,8,1,2')).toEqual({ x1: 1, y1: 2, x2: 9, y2: 8 });
    expect(parseMapDaumUrl('https://search.map.kakao.com/mapsearch/map.daum?q=a&callback=alert(1)')!.callback).toBeNull();
  });
});

describe('block signals', () => {
  it('a redirect to 500.ko.html is a block, wherever it shows', () => {
    expect(isKakaoBlockUrl('https://www.kakao.com/500.ko.html')).toBe(true);
    expect(isKakaoBlockUrl('https://kakao.com.evil.example/500.ko.html')).toBe(false);
    expect(classifyKakaoResponse({ status: 302, location: 'https://www.kakao.com/500.ko.html' })).toEqual({ kind: 'blocked', reason: 'redirect-500' });
    expect(classifyKakaoResponse({ status: 200, url: 'https://www.kakao.com/500.ko.html', body: '<html>' })).toEqual({
      kind: 'blocked',
      reason: 'redirect-500',
    });
  });

  it('HTML where JSON was expected is a block; other failures are http errors', () => {
    expect(classifyKakaoResponse({ status: 200, body: '\uFEFF <!DOCTYPE html><p>요청이 너무 많습니다' })).toEqual({
      kind: 'blocked',
      reason: 'html-instead-of-json',
    });
    expect(classifyKakaoResponse({ status: 200, contentType: 'text/html', body: 'x' }).kind).toBe('blocked');
    expect(classifyKakaoResponse({ status: 500, body: '<html>' })).toEqual({ kind: 'http-error', status: 500 });
    expect(classifyKakaoResponse({ status: 200, body: 'jQuery1({"place":[]})' })).toEqual({ kind: 'ok' });
    expect(readMapDaumResponse({ status: 200, body: '<html></html>' }).kind).toBe('blocked');
  });
});

describe('map.daum answers', () => {
  const record = {
    confirmid: '8094954',
    name: ' 스타벅스  광화문점 ',
    cate_name_depth1: '음식점',
    cate_name_depth2: '카페',
    cate_name_depth3: '커피전문점',
    cate_name_depth4: '',
    address: '서울 중구 태평로1가 31',
    new_address: '서울 중구 세종대로 110',
    tel: '02-123-4567',
    homePage: 'www.starbucks.co.kr',
    rating_average: '4.2',
    rating_count: 23,
    x: '465424',
    y: '1123292',
  };

  it('takes no closed mark from openoff_status under any of its plausible meanings (closed, off hours, absent)', () => {
    // The replica's three behaviours (tests/replica/kakao/switches.ts `openoff`): whichever the
    // live site has, a listing never claims a closure the notes cannot vouch for.
    const world = createWorld({ seed: 31, places: 400, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 1, siteViews: true });
    const kw = kakaoWorld(world);
    for (const openoff of ['closed', 'off-hours', 'absent'] as const) {
      const records = kw.places.map((k) => placeRecord(k, { ...DEFAULT_KAKAO_SWITCHES, openoff }, false));
      if (openoff !== 'absent')
        expect(
          records.some((r) => r.openoff_status === 'N'),
          openoff,
        ).toBe(true);
      const answer = parseMapDaumBody(JSON.stringify({ place_totalcount: String(records.length), page: '1', place: records }));
      if (answer.kind !== 'ok') throw new Error('not ok');
      expect(
        answer.places.map((p) => listingFromPlace(p, 'page-data').closed ?? null).filter((c) => c !== null),
        openoff,
      ).toEqual([]);
    }
  });

  it('reads every field, JSON and JSONP alike, WCONGNAMUL converted', () => {
    const json = JSON.stringify({ place_totalcount: '31', page: '1', place: [record] });
    const a = parseMapDaumBody(json);
    const b = parseMapDaumBody(`/**/jQuery18303_1700000000({"place_totalcount":"31","page":"1","place":[${JSON.stringify(record)}]});`);
    expect(a.kind === 'ok' && a.framing).toBe('json');
    expect(b.kind === 'ok' && b.framing).toBe('jsonp');
    if (a.kind !== 'ok' || b.kind !== 'ok') throw new Error('not ok');
    expect(b.places).toEqual(a.places);
    expect(a.totalCount).toBe(31);
    const p = a.places[0]!;
    expect(p).toMatchObject({
      key: 'kakao:8094954',
      name: '스타벅스 광화문점',
      category: '커피전문점',
      categoryPath: ['음식점', '카페', '커피전문점'],
      address: '서울 중구 태평로1가 31',
      roadAddress: '서울 중구 세종대로 110',
      phone: '02-123-4567',
      website: 'http://www.starbucks.co.kr/',
      rating: 4.2,
      reviews: 23,
      url: 'https://place.map.kakao.com/8094954',
      sponsored: false,
    });
    expect(haversineMetres(p as { lat: number; lng: number }, wcongnamulToWgs84({ x: 465424, y: 1123292 })!)).toBeLessThan(0.01);
    expect(a.fromWcong).toBe(1);
  });

  it('prefers lat/lon when present, flags ads by sourceId, skips unreadable records with a reason', () => {
    const r = parseMapDaumBody(
      JSON.stringify({
        place_totalcount: 4,
        place: [
          { ...record, lat: '37.543495', lon: '126.84331' },
          { ...record, confirmid: '27388604', sourceId: 'ad' },
          { ...record, confirmid: 'abc' },
          { ...record, confirmid: '1249470554', name: '' },
          'junk',
          { ...record, confirmid: '7990409', homepage: 'javascript:alert(1)', homePage: undefined, rating_average: 0, rating_count: 0, x: 'NaN', y: '1' },
        ],
      }),
    );
    if (r.kind !== 'ok') throw new Error(r.kind);
    expect(r.places.map((p) => [p.providerId, p.sponsored])).toEqual([
      ['8094954', false],
      ['27388604', true],
      ['7990409', false],
    ]);
    expect(r.places[0]).toMatchObject({ lat: 37.543495, lng: 126.84331 });
    expect(r.places[2]).toMatchObject({ website: null, rating: null, reviews: null, lat: null, lng: null });
    expect(r.skipped.map((s) => s.reason)).toEqual(['no-confirmid', 'no-name', 'not-an-object']);
    expect([r.organic, r.ads]).toEqual([2, 1]);
  });

  it('calls anything else malformed, never an empty page', () => {
    for (const body of ['', 'alert(1', '{"error":"x"}', '[1,2]', '{"place":{}}', 'cb({bad json})']) expect(parseMapDaumBody(body).kind, body).toBe('malformed');
    expect(parseMapDaumBody('{"place_totalcount":0,"place":[]}')).toMatchObject({ kind: 'ok', totalCount: 0, places: [] });
  });
});

realDescribe('the real capture: the REST API answer (kakao_local_v2_search_keyword_seoul_AT4_ko_2023-05.json)', () => {
  const data = JSON.parse(readRealPage('kakao', 'kakao_local_v2_search_keyword_seoul_AT4_ko_2023-05.json')) as unknown;
  const page = parseRestKeywordAnswer(data)!;

  it('reads all 15 places (one page of 15, like the web list), ids agreeing with their place URLs', () => {
    expect(page.places).toHaveLength(KAKAO_PAGE_SIZE);
    expect(page.skipped).toBe(0);
    expect(page.places.map((p) => p.name).slice(0, 3)).toEqual(['노들섬', '북한산둘레길 왕실묘역길20구간', '창경궁']);
    expect(page.places[0]).toMatchObject({
      key: 'kakao:8252248',
      url: 'https://place.map.kakao.com/8252248',
      categoryPath: ['여행', '관광,명소', '섬', '섬(내륙)'],
      category: '섬(내륙)',
      address: '서울 용산구 이촌동 302-146',
      roadAddress: '서울 용산구 양녕로 445',
      phone: '02-749-4500',
    });
    // Empty strings are "not shown", not values.
    expect(page.places[1]).toMatchObject({ roadAddress: null, phone: null, address: '서울 도봉구 방학동' });
    for (const p of page.places) expect(parseConfirmId(p.providerId)).toBe(p.providerId);
  });

  it('shows the 45-result limit: pageable_count 45 of total_count 2780, not the end', () => {
    expect(page).toMatchObject({ totalCount: 2780, pageableCount: 45, isEnd: false });
    expect(page.pageableCount! / KAKAO_PAGE_SIZE).toBe(3);
  });

  it('every coordinate is in Seoul and survives WCONGNAMUL integers within 0.5 m', () => {
    for (const p of page.places) {
      const pt = { lat: p.lat!, lng: p.lng! };
      expect(pt.lat > 37.4 && pt.lat < 37.72 && pt.lng > 126.76 && pt.lng < 127.19, p.name).toBe(true);
      const w = wgs84ToWcongnamul(pt)!;
      expect(haversineMetres(pt, wcongnamulToWgs84({ x: Math.round(w.x), y: Math.round(w.y) })!)).toBeLessThan(0.5);
    }
  });
});
