/**
 * Kakao Map behind the provider seam (utils/providers/kakao/provider.ts) and its view geometry
 * (utils/providers/kakao/view.ts): URLs, hosts, the block page, levels ⇄ zooms, and the box a
 * map.daum rect surely covers.
 */
import { describe, expect, it } from 'vitest';
import { metresPerPixel as mercatorMetresPerPixel } from '../../utils/geo/mercator';
import { bboxToWcongRect, wcongnamulToWgs84, wcongRectContains, wcongRectToBBox, wgs84ToWcongnamul } from '../../utils/geo/wcongnamul';
import { bboxContainsBBox } from '../../utils/geo/bbox';
import { KAKAO_RESULT_CAP, kakaoProvider } from '../../utils/providers/kakao/provider';
import { metresPerPixel, parseSearchPageUrl } from '../../utils/providers/kakao/urls';
import { exactLevelForZoom, innerBBoxOfRect, kakaoViewOf, levelForZoom, mapViewOf, zoomForLevel } from '../../utils/providers/kakao/view';

const SEOUL = { lat: 37.5665, lng: 126.978 };

describe('kakaoProvider', () => {
  it('is Kakao, paced on map.kakao.com, capped at 34 pages of 15', () => {
    expect(kakaoProvider.id).toBe('kakao');
    expect(kakaoProvider.displayName).toContain('카카오맵');
    expect(new URL(kakaoProvider.laneUrl).hostname).toBe('map.kakao.com');
    expect(kakaoProvider.planner.cap).toBe(510);
    expect(KAKAO_RESULT_CAP).toBe(34 * 15);
    expect(kakaoProvider.pageSize).toBe(15);
    expect(kakaoProvider.planner.startZoom).toBeLessThan(kakaoProvider.planner.maxZoom);
    // The deepest zoom is Kakao's closest level.
    expect(levelForZoom(kakaoProvider.planner.maxZoom, SEOUL.lat)).toBe(1);
  });

  it('owns map.kakao.com and place.map.kakao.com only', () => {
    expect(kakaoProvider.ownsUrl('https://map.kakao.com/?q=cafe')).toBe(true);
    expect(kakaoProvider.ownsUrl('https://place.map.kakao.com/27388604')).toBe(true);
    expect(kakaoProvider.ownsUrl('https://search.map.kakao.com/mapsearch/map.daum?q=a')).toBe(false);
    expect(kakaoProvider.ownsUrl('https://www.google.com/maps/')).toBe(false);
    expect(kakaoProvider.ownsUrl('https://map.kakao.com.evil.example/')).toBe(false);
    expect(kakaoProvider.ownsUrl('not a url')).toBe(false);
  });

  it('the search URL carries the query and the view as urlX/urlY/urlLevel, and reads back', () => {
    const view = { lat: 37.5665, lng: 126.978, zoom: 16 };
    const url = kakaoProvider.searchUrl('카페 cafe', view, 'en');
    const u = new URL(url);
    expect(u.origin).toBe('https://map.kakao.com');
    expect(u.searchParams.get('q')).toBe('카페 cafe');
    expect(u.searchParams.has('hl')).toBe(false);
    const w = wgs84ToWcongnamul(view)!;
    expect(Number(u.searchParams.get('urlX'))).toBe(Math.round(w.x));
    expect(Number(u.searchParams.get('urlY'))).toBe(Math.round(w.y));
    expect(Number(u.searchParams.get('urlLevel'))).toBe(levelForZoom(16, view.lat));
    expect(kakaoProvider.parseSearchQuery(url)).toBe('카페 cafe');
    const back = kakaoProvider.parseView(url)!;
    // The centre within the URL's rounding (0.4 m); the zoom is the level's, never closer in.
    expect(Math.abs(back.lat - view.lat)).toBeLessThan(1e-5);
    expect(Math.abs(back.lng - view.lng)).toBeLessThan(1e-5);
    expect(back.zoom).toBeLessThanOrEqual(16 + 1e-9);
    expect(back.zoom).toBeGreaterThan(15);
    expect(kakaoProvider.parseView('https://map.kakao.com/?q=cafe')).toBeNull();
    expect(kakaoProvider.parseSearchQuery('https://map.kakao.com/')).toBeNull();
  });

  it('the block page is a captcha-kind block, nothing else is', () => {
    expect(kakaoProvider.blockedPageKind('https://www.kakao.com/500.ko.html')).toBe('captcha');
    expect(kakaoProvider.blockedPageKind('https://kakao.com/500.html')).toBe('captcha');
    expect(kakaoProvider.blockedPageKind('https://map.kakao.com/?q=cafe')).toBeNull();
    expect(kakaoProvider.blockedPageKind('https://www.google.com/sorry/index')).toBeNull();
  });
});

describe('levels and zooms (level ≈ 20 − zoom in Korea)', () => {
  it('a level and its zoom have the same metres per pixel', () => {
    for (const level of [1, 3, 5, 8, 14]) {
      const z = zoomForLevel(level, SEOUL.lat);
      expect(mercatorMetresPerPixel(SEOUL.lat, z)).toBeCloseTo(metresPerPixel(level), 6);
      expect(levelForZoom(z, SEOUL.lat)).toBe(level);
    }
    expect(exactLevelForZoom(17, SEOUL.lat)).toBeCloseTo(2.92, 1);
  });

  it('a zoom between two levels takes the wider level, within 1…14', () => {
    expect(levelForZoom(16.5, SEOUL.lat)).toBe(4);
    expect(levelForZoom(16, SEOUL.lat)).toBe(4);
    expect(levelForZoom(25, SEOUL.lat)).toBe(1);
    expect(levelForZoom(0, SEOUL.lat)).toBe(14);
    // Never shows less ground than the zoom asked for.
    for (const z of [12, 13.3, 15.7, 18.2])
      expect(metresPerPixel(levelForZoom(z, SEOUL.lat))).toBeGreaterThanOrEqual(mercatorMetresPerPixel(SEOUL.lat, z) - 1e-9);
  });

  it('kakaoViewOf / mapViewOf round-trip the centre', () => {
    const k = kakaoViewOf({ ...SEOUL, zoom: 15 })!;
    const back = mapViewOf(k)!;
    expect(back.lat).toBeCloseTo(SEOUL.lat, 6);
    expect(back.lng).toBeCloseTo(SEOUL.lng, 6);
  });
});

describe('innerBBoxOfRect: the WGS84 box a rect surely covers', () => {
  it('lies inside the rect and inside its covering box, and nearly fills it', () => {
    for (const centre of [SEOUL, { lat: 35.1796, lng: 129.0756 }, { lat: 33.4996, lng: 126.5312 }]) {
      const c = wgs84ToWcongnamul(centre)!;
      const rect = { x1: Math.floor(c.x - 4000), y1: Math.floor(c.y - 3000), x2: Math.ceil(c.x + 4000), y2: Math.ceil(c.y + 3000) };
      const inner = innerBBoxOfRect(rect)!;
      const outer = wcongRectToBBox(rect)!;
      expect(bboxContainsBBox(outer, inner)).toBe(true);
      // Every corner and edge point of the inner box is in the rect.
      for (const lat of [inner.south, (inner.south + inner.north) / 2, inner.north]) {
        for (const lng of [inner.west, (inner.west + inner.east) / 2, inner.east]) {
          expect(wcongRectContains(rect, wgs84ToWcongnamul({ lat, lng })!)).toBe(true);
        }
      }
      // The rect around the box (rounded outward) is inside the rect: nothing claimed beyond it.
      const around = bboxToWcongRect(inner)!;
      expect(around.x1 >= rect.x1 && around.y1 >= rect.y1 && around.x2 <= rect.x2 && around.y2 <= rect.y2).toBe(true);
      // Near 127°E the grid is nearly north-up; at Busan (129°E) it is turned ~1.2°, and the
      // box inside a 4:3 rect is ~5% shorter than the box around it.
      const shrink = (inner.north - inner.south) / (outer.north - outer.south);
      expect(shrink).toBeGreaterThan(Math.abs(centre.lng - 127) < 0.1 ? 0.99 : Math.abs(centre.lng - 127) < 1 ? 0.98 : 0.9);
    }
  });

  it('null for a rect that does not convert', () => {
    expect(innerBBoxOfRect({ x1: NaN, y1: 0, x2: 1, y2: 1 })).toBeNull();
    expect(wcongnamulToWgs84({ x: NaN, y: 0 })).toBeNull();
  });
});

describe("parseSearchPageUrl is the judge's reader of the page URL", () => {
  it('reads the view the replica and the live share links carry [?]', () => {
    expect(parseSearchPageUrl('https://map.kakao.com/?urlX=495141&urlY=1129713&urlLevel=3&q=cafe')).toEqual({
      query: 'cafe',
      view: { x: 495141, y: 1129713, level: 3 },
    });
  });
});
