import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEWPORT,
  MAX_ZOOM,
  cellSearchView,
  haversineMetres,
  latToWorldY,
  lngToWorldX,
  metresPerPixel,
  visibleBBox,
  worldXToLng,
  worldYToLat,
} from '../../utils/geo';
import type { BBox } from '../../utils/geo';
import { seededRandom as rng } from '../helpers/random';

const EPS = 1e-9;
function contains(outer: BBox, inner: BBox): boolean {
  return outer.south <= inner.south + EPS && outer.north >= inner.north - EPS && outer.west <= inner.west + EPS && outer.east >= inner.east - EPS;
}

describe('metresPerPixel', () => {
  it('matches hand-computed values', () => {
    // Zoom 0 at the equator: the constant itself, 2π·6378137 / 256 = 156543.03392 m.
    expect(metresPerPixel(0, 0)).toBeCloseTo(156543.03392, 5);
    // Zoom 14: 156543.03392 / 16384 = 9.55462853515625 m.
    expect(metresPerPixel(0, 14)).toBeCloseTo(9.55462853515625, 10);
    // 60°N, zoom 10: cos 60° = 0.5, so 156543.03392 · 0.5 / 1024 = 76.43702828125 m.
    expect(metresPerPixel(60, 10)).toBeCloseTo(76.43702828125, 9);
  });

  it('halves with each zoom level', () => {
    const r = rng(1);
    for (let i = 0; i < 100; i++) {
      const lat = -80 + 160 * r();
      const z = 20 * r();
      expect(metresPerPixel(lat, z + 1) * 2).toBeCloseTo(metresPerPixel(lat, z), 9);
    }
  });
});

describe('world pixels', () => {
  it('matches hand-computed values', () => {
    // x: lng −180 → 0, 0 → 128 at zoom 0; lng 90 at zoom 1 is ¾ of 512 = 384.
    expect(lngToWorldX(-180, 0)).toBe(0);
    expect(lngToWorldX(0, 0)).toBe(128);
    expect(lngToWorldX(90, 1)).toBe(384);
    // y: the equator is the middle, 128·2^z; the map's top edge (85.0511°) is 0.
    expect(latToWorldY(0, 3)).toBeCloseTo(1024, 9);
    expect(latToWorldY(85.0511287798066, 0)).toBeCloseTo(0, 6);
    // 45°N at zoom 0: 128 − (256/2π)·ln tan(67.5°) = 128 − 40.74367·0.88137 = 92.08961.
    expect(latToWorldY(45, 0)).toBeCloseTo(92.08961, 4);
  });

  it('round-trips lat/lng through world pixels', () => {
    const r = rng(2);
    for (let i = 0; i < 500; i++) {
      const lat = -85 + 170 * r();
      const lng = -180 + 360 * r();
      const z = 21 * r();
      expect(worldYToLat(latToWorldY(lat, z), z)).toBeCloseTo(lat, 9);
      expect(worldXToLng(lngToWorldX(lng, z), z)).toBeCloseTo(lng, 9);
    }
  });
});

describe('visibleBBox', () => {
  it('is the canvas right of the panel, centred on the whole canvas (hand-computed)', () => {
    // Zoom 14: the world is 256·16384 = 4,194,304 px; the centre (0,0) is at x = 2,097,152.
    // The visible part spans canvas x 408..1280, i.e. world x centre−640+408 .. centre+640:
    // west = −232 px = −232·360/4194304 = −0.0199127197265625°, east = 640·360/4194304 = 0.054931640625°.
    // North: 400 px above the equator, 400·360/4194304 = 0.034332275°, less Mercator's
    // cubic term (n³/6 with n = 2π·400/4194304 → 2.05e-9°): 0.0343322733°.
    const b = visibleBBox({ lat: 0, lng: 0, zoom: 14 }, DEFAULT_VIEWPORT);
    expect(b.west).toBeCloseTo(-0.0199127197265625, 12);
    expect(b.east).toBeCloseTo(0.054931640625, 12);
    expect(b.north).toBeCloseTo(0.0343322733, 9);
    expect(b.south).toBeCloseTo(-0.0343322733, 9);
  });

  it('clamps rows beyond the map edge', () => {
    const b = visibleBBox({ lat: 85, lng: 0, zoom: 2 }, DEFAULT_VIEWPORT);
    expect(b.north).toBeLessThanOrEqual(85.0511287798066);
  });
});

describe('cellSearchView', () => {
  it('matches a hand-computed view', () => {
    // bbox 0.05° × 0.02° at the equator. Width binds: at zoom 0 it is 0.05/360·256 px, so
    // 872 px fit at zoom log2(872·360/(256·0.05)) = log2(24525) = 14.58197 → 14.58. (Height:
    // log2(800·360/(256·0.02)) = 15.78, looser.) The centre is the bbox centre, moved west by
    // half the panel, 204 px at zoom 14.58: 204·360/(256·2^14.58) = 0.0117132°, so
    // lng = 0.025 − 0.0117132 = 0.0132868; lat 0 by symmetry.
    const v = cellSearchView({ south: -0.01, north: 0.01, west: 0, east: 0.05 }, DEFAULT_VIEWPORT, MAX_ZOOM);
    expect(v.zoom).toBe(14.58);
    expect(v.lng).toBeCloseTo(0.0132868, 6);
    expect(v.lat).toBeCloseTo(0, 12);
  });

  it('gives exactly zoom z for a bbox built to fill the view at z (no 0.01 lost to float noise)', () => {
    for (let z = 10; z <= 18; z++) {
      for (let k = 0; k < 50; k++) {
        const west = -170 + k * 6.7 + z / 10;
        const lat = -60 + k * 2.4;
        // 800 px tall at z (narrow, so height binds), and 872 px wide at z (flat, so width binds).
        const tall = { south: worldYToLat(latToWorldY(lat, z) + 800, z), north: lat, west, east: west + 1e-7 };
        const w = (872 * 360) / (256 * 2 ** z);
        const wide = { south: lat, north: lat + 1e-6, west: west + 7 * w, east: west + 8 * w };
        expect(cellSearchView(tall, DEFAULT_VIEWPORT, MAX_ZOOM).zoom).toBe(z);
        expect(cellSearchView(wide, DEFAULT_VIEWPORT, MAX_ZOOM).zoom).toBe(z);
      }
    }
  });

  it('caps the zoom at maxZoom', () => {
    const tiny = { south: 10, north: 10.00001, west: 10, east: 10.00001 };
    expect(cellSearchView(tiny, DEFAULT_VIEWPORT, 18).zoom).toBe(18);
    expect(cellSearchView(tiny, DEFAULT_VIEWPORT).zoom).toBe(MAX_ZOOM);
  });

  it('shows the whole bbox, in the middle of the visible part, at the largest 2-decimal zoom', () => {
    const r = rng(3);
    const viewports = [DEFAULT_VIEWPORT, { width: 1920, height: 1080, panelWidth: 408 }, { width: 800, height: 1000, panelWidth: 0 }];
    for (let i = 0; i < 1000; i++) {
      const viewport = viewports[i % viewports.length]!;
      const h = 10 ** (-4 + 4 * r());
      const w = 10 ** (-4 + 4 * r());
      const south = -80 + (160 - h) * r();
      const west = -179 + (358 - w) * r();
      const b = { south, north: south + h, west, east: west + w };
      const view = cellSearchView(b, viewport, MAX_ZOOM);
      const vis = visibleBBox(view, viewport);
      expect(contains(vis, b)).toBe(true);
      // Centred: equal margins left and right (degrees are linear in x).
      expect(vis.west - b.west).toBeCloseTo(b.east - vis.east, 9);
      expect(Math.round(view.zoom * 100)).toBeCloseTo(view.zoom * 100, 9);
      if (view.zoom < MAX_ZOOM) {
        // 0.01 deeper, the visible part no longer holds the bbox in one direction or the other.
        const deeper = visibleBBox({ ...view, zoom: view.zoom + 0.01 }, viewport);
        const widthFits = deeper.east - deeper.west >= b.east - b.west;
        const heightFits = deeper.north >= b.north && deeper.south <= b.south;
        expect(widthFits && heightFits).toBe(false);
      }
    }
  });
});

describe('haversineMetres', () => {
  it('matches hand-computed distances', () => {
    // A quarter of a great circle: π·R/2 with R = 6371008.8 m → 10,007,557.2 m.
    expect(haversineMetres({ lat: 0, lng: 0 }, { lat: 0, lng: 90 })).toBeCloseTo(10007557.2, 0);
    expect(haversineMetres({ lat: 0, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo(10007557.2, 0);
    // 1° of a meridian: R·π/180 = 111,195.08 m.
    expect(haversineMetres({ lat: 10, lng: 5 }, { lat: 11, lng: 5 })).toBeCloseTo(111195.08, 1);
    expect(haversineMetres({ lat: 40, lng: -74 }, { lat: 40, lng: -74 })).toBe(0);
  });

  it('is symmetric and obeys the triangle inequality', () => {
    const r = rng(4);
    const p = () => ({ lat: -89 + 178 * r(), lng: -180 + 360 * r() });
    for (let i = 0; i < 300; i++) {
      const [a, b, c] = [p(), p(), p()];
      expect(haversineMetres(a, b)).toBeCloseTo(haversineMetres(b, a), 6);
      expect(haversineMetres(a, c)).toBeLessThanOrEqual(haversineMetres(a, b) + haversineMetres(b, c) + 1e-6);
    }
  });
});
