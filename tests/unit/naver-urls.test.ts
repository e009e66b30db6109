/** Naver ids and URLs: every form from naver-kakao-notes A1/A2, and inputs that must not pass. */
import { describe, expect, it } from 'vitest';
import { naverIdFromUrl, normaliseNaverId } from '../../utils/providers/naver/ids';
import {
  formatBounds,
  naverListUrl,
  naverPlaceUrl,
  naverSearchUrl,
  parseBounds,
  parseCParam,
  parseListUrl,
  parseSearchQuery,
} from '../../utils/providers/naver/urls';

describe('naverIdFromUrl', () => {
  it.each([
    ['https://map.naver.com/p/entry/place/1813533684', '1813533684'],
    ['https://map.naver.com/p/entry/place/1813533684?placePath=/home&lng=127.08&lat=37.56&c=15.00,0,0,0,dh', '1813533684'],
    ['https://map.naver.com/p/search/%EC%B9%B4%ED%8E%98/place/13565004?c=15.00,0,0,0,dh&placePath=%2Fhome&entry=pll', '13565004'],
    ['https://pcmap.place.naver.com/restaurant/1446535451/home', '1446535451'],
    ['https://m.place.naver.com/hairshop/2146813356/review/visitor', '2146813356'],
    ['/restaurant/20246834?entry=pll', '20246834'],
    ['https://tivan.naver.com/d/abc==?fu=https%3A%2F%2Fm.place.naver.com%2Frestaurant%2F38628524%3Fentry%3Dpll&clid=list', '38628524'],
  ])('%s → %s', (url, id) => {
    expect(naverIdFromUrl(url)).toBe(id);
  });

  it.each([
    'https://evil.example/place/1813533684',
    'https://map.naver.com.evil.example/p/entry/place/1813533684',
    'javascript:alert(1)//place/1813533684',
    'https://map.naver.com/p/search/cafe',
    'https://pcmap.place.naver.com/place/list?query=x&page=2',
    'https://pcmap.place.naver.com/place/12/home',
    'https://tivan.naver.com/d/x?fu=https%3A%2F%2Fevil.example%2Fplace%2F38628524',
  ])('refuses %s', (url) => {
    expect(naverIdFromUrl(url)).toBeNull();
  });

  it('normalises id values: numbers, the old s-prefix; refuses junk', () => {
    expect(normaliseNaverId(1178829266)).toBe('1178829266');
    expect(normaliseNaverId('s38742570')).toBe('38742570');
    for (const bad of ['', '0123456', '12', '1.5e9', 'abc', null, {}, 1.5, -12345678]) expect(normaliseNaverId(bad)).toBeNull();
  });
});

describe('URLs', () => {
  const bounds = { south: 37.55, west: 126.96, north: 37.57, east: 126.99 };

  it('builds the list URL with bounds minLng;minLat;maxLng;maxLat and reads it back', () => {
    const url = naverListUrl({ query: '카페', bounds, ts: 1716880000000 });
    expect(url).toContain('https://pcmap.place.naver.com/place/list?query=%EC%B9%B4%ED%8E%98&x=126.9750000&y=37.5600000');
    expect(url).toContain('bounds=126.9600000;37.5500000;126.9900000;37.5700000&display=70');
    expect(parseListUrl(url)).toEqual({ vertical: 'place', query: '카페', centre: { lat: 37.56, lng: 126.975 }, bounds, display: 70, page: 1 });
    expect(parseListUrl(`${url}&page=3`)?.page).toBe(3);
    expect(parseListUrl('https://example.com/place/list?query=x')).toBeNull();
  });

  it('bounds must be ordered and in range', () => {
    expect(parseBounds(formatBounds(bounds))).toEqual(bounds);
    for (const bad of ['126.99;37.55;126.96;37.57', '1;2;3', 'a;b;c;d', '126;91;127;92', null]) expect(parseBounds(bad)).toBeNull();
  });

  it('search and place URLs', () => {
    expect(naverSearchUrl('강남 치과', 15)).toBe('https://map.naver.com/p/search/%EA%B0%95%EB%82%A8%20%EC%B9%98%EA%B3%BC?c=15.00,0,0,0,dh');
    expect(parseSearchQuery('https://map.naver.com/p/search/%EA%B0%95%EB%82%A8%20%EC%B9%98%EA%B3%BC/place/123456789')).toBe('강남 치과');
    expect(naverPlaceUrl('s38742570')).toBe('https://map.naver.com/p/entry/place/38742570');
    expect(() => naverPlaceUrl('../../etc')).toThrow();
  });

  it('reads the three c= forms', () => {
    expect(parseCParam('15.00,0,0,0,dh')).toEqual({ form: 'zoom', zoom: 15 });
    const metres = parseCParam('14141300,4507203,15.00,0,0,0,dh');
    expect(metres?.form).toBe('metres');
    if (metres?.form === 'metres') {
      expect(metres.centre.lng).toBeCloseTo(127.03, 2);
      expect(metres.centre.lat).toBeCloseTo(37.49, 2);
    }
    expect(parseCParam('3zyj1J,2zX7SJ,15.00,0,0,0,dh')).toEqual({ form: 'token', zoom: 15, tokens: ['3zyj1J', '2zX7SJ'] });
    expect(parseCParam('99,0,0,0,dh')).toBeNull();
    expect(parseCParam('garbage')).toBeNull();
  });
});
