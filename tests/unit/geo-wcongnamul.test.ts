/**
 * WCONGNAMUL ⇄ WGS84 (utils/geo/wcongnamul.ts, proj4 underneath) against oracles that do not use
 * proj4: the meridian arc integrated numerically, Snyder's Transverse Mercator series written out
 * here, and the worked example of naver-kakao-notes B4.
 */
import { describe, expect, it } from 'vitest';
import { haversineMetres } from '../../utils/geo/distance';
import { bboxToWcongRect, inKorea, wcongnamulToWgs84, wcongRectContains, wcongRectToBBox, wgs84ToWcongnamul } from '../../utils/geo/wcongnamul';

const A = 6378137;
const F = 1 / 298.257222101; // GRS80
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

/** Meridian arc from the equator, by Simpson's rule over the meridian's radius of curvature. */
function meridianArc(latDeg: number): number {
  const n = 2000;
  const phi = latDeg * RAD;
  const m = (t: number) => (A * (1 - E2)) / (1 - E2 * Math.sin(t) ** 2) ** 1.5;
  let s = m(0) + m(phi);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * m((phi * i) / n);
  return (s * phi) / (3 * n);
}

/** Snyder, Map Projections — A Working Manual (1987), eqs. 8-9 and 8-10, with k0 = 2.5. */
function snyderForward(latDeg: number, lngDeg: number): { x: number; y: number } {
  const k0 = 2.5;
  const phi = latDeg * RAD;
  const ep2 = E2 / (1 - E2);
  const N = A / Math.sqrt(1 - E2 * Math.sin(phi) ** 2);
  const T = Math.tan(phi) ** 2;
  const C = ep2 * Math.cos(phi) ** 2;
  const Aa = (lngDeg - 127) * RAD * Math.cos(phi);
  const M = meridianArc(latDeg);
  const M0 = meridianArc(38);
  const x = k0 * N * (Aa + ((1 - T + C) * Aa ** 3) / 6 + ((5 - 18 * T + T * T + 72 * C - 58 * ep2) * Aa ** 5) / 120);
  const y =
    k0 *
    (M -
      M0 +
      N * Math.tan(phi) * ((Aa * Aa) / 2 + ((5 - T + 9 * C + 4 * C * C) * Aa ** 4) / 24 + ((61 - 58 * T + T * T + 600 * C - 330 * ep2) * Aa ** 6) / 720));
  return { x: x + 500000, y: y + 1250000 };
}

describe('WCONGNAMUL from WGS84', () => {
  it('puts the origin 38°N 127°E on the false easting and northing exactly', () => {
    const p = wgs84ToWcongnamul({ lat: 38, lng: 127 })!;
    expect(p.x).toBeCloseTo(500000, 6);
    expect(p.y).toBeCloseTo(1250000, 6);
  });

  it('on the central meridian moves y by 2.5 × the meridian arc (numerically integrated)', () => {
    for (const lat of [33.2, 35.1, 37.5665, 38.6]) {
      const p = wgs84ToWcongnamul({ lat, lng: 127 })!;
      expect(p.x).toBeCloseTo(500000, 4);
      expect(Math.abs(p.y - (1250000 + 2.5 * (meridianArc(lat) - meridianArc(38))))).toBeLessThan(0.01);
    }
  });

  it("agrees with Snyder's series to 2 cm across Korea, off the meridian too", () => {
    for (const [lat, lng] of [
      [37.5665, 126.978],
      [35.1796, 129.0756],
      [33.4996, 126.5312],
      [37.4563, 126.7052],
      [38.2, 128.6],
      [34.8, 125.1],
    ] as const) {
      const p = wgs84ToWcongnamul({ lat, lng })!;
      const s = snyderForward(lat, lng);
      expect(Math.abs(p.x - s.x), `${lat},${lng} x`).toBeLessThan(0.05);
      expect(Math.abs(p.y - s.y), `${lat},${lng} y`).toBeLessThan(0.05);
    }
  });

  it("gives the notes' worked examples: Seoul City Hall (495141, 1129713) and the entrance (465382, 1123358)", () => {
    const cityHall = wgs84ToWcongnamul({ lat: 37.5665, lng: 126.978 })!;
    expect([Math.round(cityHall.x), Math.round(cityHall.y)]).toEqual([495141, 1129713]);
    const entrance = wgs84ToWcongnamul({ lat: 37.543495, lng: 126.84331 })!;
    expect([Math.round(entrance.x), Math.round(entrance.y)]).toEqual([465382, 1123358]);
  });

  it("puts the notes' pin (465424, 1123292) about 30 m from its listed entrance", () => {
    const pin = wcongnamulToWgs84({ x: 465424, y: 1123292 })!;
    const d = haversineMetres(pin, { lat: 37.543495, lng: 126.84331 });
    expect(d).toBeGreaterThan(20);
    expect(d).toBeLessThan(40);
  });

  it('refuses non-finite input instead of returning NaN', () => {
    expect(wgs84ToWcongnamul({ lat: Number.NaN, lng: 127 })).toBeNull();
    expect(wcongnamulToWgs84({ x: Number.POSITIVE_INFINITY, y: 1 })).toBeNull();
    expect(inKorea({ lat: 37.5, lng: 127 })).toBe(true);
    expect(inKorea({ lat: 0, lng: 0 })).toBe(false);
  });
});

describe('round trip over Korea', () => {
  // A 0.2° grid over the peninsula and Jeju: 31 × 36 points.
  const grid: { lat: number; lng: number }[] = [];
  for (let lat = 33.0; lat <= 39.0 + 1e-9; lat += 0.2) for (let lng = 124.5; lng <= 131.5 + 1e-9; lng += 0.2) grid.push({ lat, lng });

  it('WGS84 → WCONGNAMUL → WGS84 returns within 1 mm', () => {
    let worst = 0;
    for (const p of grid) worst = Math.max(worst, haversineMetres(p, wcongnamulToWgs84(wgs84ToWcongnamul(p)!)!));
    expect(worst).toBeLessThan(0.001);
  });

  it('through the integers the page carries, within 0.5 m (one unit is 0.4 m)', () => {
    let worst = 0;
    for (const p of grid) {
      const w = wgs84ToWcongnamul(p)!;
      worst = Math.max(worst, haversineMetres(p, wcongnamulToWgs84({ x: Math.round(w.x), y: Math.round(w.y) })!));
    }
    expect(worst).toBeLessThan(0.5);
    // Rounding cannot move a point by more than half a unit's diagonal: 0.2 m × √2.
    expect(worst).toBeLessThan(0.29);
  });
});

describe('rectangles', () => {
  it('is tight near 127°E, where the grid is not rotated: the rect maps back to the box within 5 m', () => {
    const b = { south: 37.55, west: 126.96, north: 37.58, east: 127.0 };
    const back = wcongRectToBBox(bboxToWcongRect(b)!)!;
    expect(haversineMetres({ lat: back.north, lng: b.west }, { lat: b.north, lng: b.west })).toBeLessThan(5);
    expect(haversineMetres({ lat: b.south, lng: back.east }, { lat: b.south, lng: b.east })).toBeLessThan(5);
  });

  it('covers every point of a WGS84 box, even far from 127°E where parallels bow', () => {
    for (const b of [
      { south: 37.55, west: 126.96, north: 37.58, east: 127.0 },
      { south: 35.0, west: 128.9, north: 35.3, east: 129.3 },
      { south: 33.2, west: 124.6, north: 33.6, east: 125.4 },
    ]) {
      const r = bboxToWcongRect(b)!;
      expect(Number.isInteger(r.x1) && Number.isInteger(r.y2)).toBe(true);
      for (let i = 0; i <= 20; i++)
        for (let j = 0; j <= 20; j++) {
          const p = { lat: b.south + ((b.north - b.south) * i) / 20, lng: b.west + ((b.east - b.west) * j) / 20 };
          expect(wcongRectContains(r, wgs84ToWcongnamul(p)!), `${p.lat},${p.lng}`).toBe(true);
        }
      const back = wcongRectToBBox(r)!;
      expect(back.south).toBeLessThanOrEqual(b.south);
      expect(back.north).toBeGreaterThanOrEqual(b.north);
    }
  });
});
