import { describe, expect, it } from 'vitest';
import { bboxContains, bboxContainsBBox } from '../../utils/geo/bbox';
import { visibleBBox } from '../../utils/geo/mercator';
import type { Area, BBox, MapView, Viewport } from '../../utils/geo/types';
import { createRng } from '../replica/prng';
import { groundTruth, LIMITED_VIEW_CAP, RESULT_CAP, searchPlaces } from '../replica/search';
import { createWorld, type PlaceSpec, worldFromSpecs } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const VIEWPORT: Viewport = { width: 1280, height: 800, panelWidth: 408 };
const SIGNED_IN = { signedIn: true, sparseZoomOut: true };
const world = createWorld({ seed: 11, places: 20_000, centre: SEOUL, radiusKm: 6 });

/** Degrees of longitude per CSS pixel at a zoom (256-px tiles). */
const lngPerPx = (zoom: number): number => 360 / (256 * 2 ** zoom);

describe('replica search', () => {
  it('caps a crowded view at 120 though more match inside it', () => {
    const view: MapView = { ...SEOUL, zoom: 13 };
    const inView = groundTruth(world, 'cafe', visibleBBox(view, VIEWPORT));
    expect(inView.length).toBeGreaterThan(RESULT_CAP);
    const { results, finalView } = searchPlaces(world, 'cafe', view, VIEWPORT, SIGNED_IN);
    expect(results).toHaveLength(RESULT_CAP);
    expect(finalView).toEqual(view);
  });

  it('never returns a place outside the visible part of the map unless it zoomed out', () => {
    const rng = createRng(5);
    const queries = ['cafe', '카페', 'pharmacy', '약국', 'Starbucks', 'dentist', 'gym'];
    for (let i = 0; i < 60; i++) {
      const view: MapView = {
        lat: SEOUL.lat + (rng.next() - 0.5) * 0.12,
        lng: SEOUL.lng + (rng.next() - 0.5) * 0.15,
        zoom: 12 + rng.next() * 6,
      };
      const query = rng.pick(queries);
      const fixed = searchPlaces(world, query, view, VIEWPORT, { signedIn: true, sparseZoomOut: false });
      expect(fixed.finalView).toEqual(view);
      for (const p of fixed.results) expect(bboxContains(visibleBBox(view, VIEWPORT), p)).toBe(true);
      const free = searchPlaces(world, query, view, VIEWPORT, SIGNED_IN);
      for (const p of free.results) expect(bboxContains(visibleBBox(free.finalView, VIEWPORT), p)).toBe(true);
      if (free.finalView.zoom === view.zoom) expect(free.results).toEqual(fixed.results);
    }
  });

  it('lists every match in view when there are 5 to 120 of them', () => {
    // Downtown is dense: zoom in until the view holds no more than the cap.
    let view: MapView = { ...SEOUL, zoom: 14 };
    while (groundTruth(world, 'restaurant', visibleBBox(view, VIEWPORT)).length > RESULT_CAP) view = { ...view, zoom: view.zoom + 0.5 };
    const truth = groundTruth(world, 'restaurant', visibleBBox(view, VIEWPORT));
    expect(truth.length).toBeGreaterThanOrEqual(5);
    const { results } = searchPlaces(world, 'restaurant', view, VIEWPORT, SIGNED_IN);
    expect(new Set(results.map((p) => p.cid))).toEqual(new Set(truth.map((p) => p.cid)));
  });

  it('ranks the same way for the same seed', () => {
    const twin = createWorld({ seed: 11, places: 20_000, centre: SEOUL, radiusKm: 6 });
    const view: MapView = { ...SEOUL, zoom: 14 };
    const a = searchPlaces(world, 'restaurant', view, VIEWPORT, SIGNED_IN).results.map((p) => p.cid);
    const b = searchPlaces(twin, 'restaurant', view, VIEWPORT, SIGNED_IN).results.map((p) => p.cid);
    expect(b).toEqual(a);
  });

  it('ranks by prominence less a distance penalty (hand-computed)', () => {
    // Viewport 1280×800, panel 408: the visible part spans x ∈ [−232, +640] px around the centre,
    // so the farthest corner is (640, ±400) px away: R = √(640² + 400²) ≈ 754.7 px.
    // key = prominence − 0.5·d/R:  D (0.90 at +100 px) 0.834;  A (0.50 at 0) 0.500;
    // B (0.90 at +620 px) 0.9 − 0.5·620/754.7 = 0.489;  C (0.45 at +10 px) 0.443.
    const zoom = 15;
    const at = (px: number): { lat: number; lng: number } => ({ lat: SEOUL.lat, lng: SEOUL.lng + px * lngPerPx(zoom) });
    const specs: PlaceSpec[] = [
      { name: 'A', category: 'cafe', prominence: 0.5, ...at(0) },
      { name: 'B', category: 'cafe', prominence: 0.9, ...at(620) },
      { name: 'C', category: 'cafe', prominence: 0.45, ...at(10) },
      { name: 'D', category: 'cafe', prominence: 0.9, ...at(100) },
    ];
    const small = worldFromSpecs(specs);
    const { results } = searchPlaces(small, 'cafe', { ...SEOUL, zoom }, VIEWPORT, SIGNED_IN);
    expect(results.map((p) => p.name)).toEqual(['D', 'A', 'B', 'C']);
  });

  it('matches names case-insensitively and Korean category terms like English ones', () => {
    const view: MapView = { ...SEOUL, zoom: 15 };
    const ids = (q: string): string[] => searchPlaces(world, q, view, VIEWPORT, SIGNED_IN).results.map((p) => p.cid);
    expect(ids('카페')).toEqual(ids('cafe'));
    expect(ids('STARBUCKS')).toEqual(ids('starbucks'));
    const starbucks = searchPlaces(world, 'Starbucks', view, VIEWPORT, SIGNED_IN).results;
    expect(starbucks.length).toBeGreaterThan(0);
    for (const p of starbucks) expect(p.name.toLowerCase()).toContain('starbucks');
    expect(searchPlaces(world, 'zzqx no such thing', view, VIEWPORT, SIGNED_IN).results).toEqual([]);
  });

  it('zooms out when a view is sparse, and only then', () => {
    // Three dentists 4–6 km east of the centre; at zoom 16 the view spans about 1 km.
    const specs: PlaceSpec[] = [4, 5, 6].map((km, i) => ({
      name: `Dentist ${i}`,
      category: 'dentist',
      prominence: 0.5,
      lat: SEOUL.lat,
      lng: SEOUL.lng + km / 88.2,
    }));
    specs.push({ name: 'Corner Cafe', category: 'cafe', prominence: 0.5, ...SEOUL });
    const sparse = worldFromSpecs(specs);
    const view: MapView = { ...SEOUL, zoom: 16 };
    const fixed = searchPlaces(sparse, 'dentist', view, VIEWPORT, { signedIn: true, sparseZoomOut: false });
    expect(fixed.results).toEqual([]);
    expect(fixed.finalView).toEqual(view);
    const free = searchPlaces(sparse, 'dentist', view, VIEWPORT, SIGNED_IN);
    expect(free.finalView.zoom).toBeLessThan(16);
    expect(free.results.map((p) => p.name).sort()).toEqual(['Dentist 0', 'Dentist 1', 'Dentist 2']);
    for (const p of free.results) expect(bboxContains(visibleBBox(view, VIEWPORT), p)).toBe(false);
    // Nothing anywhere: the view stays.
    expect(searchPlaces(sparse, 'gym', view, VIEWPORT, SIGNED_IN).finalView).toEqual(view);
  });

  it('shows only a handful for generic queries when signed out, the top of the signed-in list', () => {
    const view: MapView = { ...SEOUL, zoom: 15 };
    const signedIn = searchPlaces(world, 'cafe', view, VIEWPORT, SIGNED_IN).results;
    const signedOut = searchPlaces(world, 'cafe', view, VIEWPORT, { signedIn: false, sparseZoomOut: true }).results;
    expect(signedOut).toHaveLength(LIMITED_VIEW_CAP);
    expect(signedOut).toEqual(signedIn.slice(0, LIMITED_VIEW_CAP));
    const named = searchPlaces(world, 'Starbucks', { ...SEOUL, zoom: 13 }, VIEWPORT, { signedIn: false, sparseZoomOut: true }).results;
    expect(named.length).toBeGreaterThan(LIMITED_VIEW_CAP);
  });

  it('ground truth of a small area is the union of fine searches that cover it', () => {
    // About 450 m square downtown; 16 tiles, each inside one zoom-19 view (~200 m of visible map).
    const area: BBox = { south: 37.564, west: 126.9755, north: 37.568, east: 126.9805 };
    const zoom = 19;
    const tiles = 4;
    const found = new Set<string>();
    for (let i = 0; i < tiles; i++) {
      for (let j = 0; j < tiles; j++) {
        const tile: BBox = {
          south: area.south + ((area.north - area.south) * i) / tiles,
          north: area.south + ((area.north - area.south) * (i + 1)) / tiles,
          west: area.west + ((area.east - area.west) * j) / tiles,
          east: area.west + ((area.east - area.west) * (j + 1)) / tiles,
        };
        // Put the tile's centre in the middle of the visible part: panelWidth/2 px right of the URL centre.
        const view: MapView = {
          lat: (tile.south + tile.north) / 2,
          lng: (tile.west + tile.east) / 2 - (VIEWPORT.panelWidth / 2) * lngPerPx(zoom),
          zoom,
        };
        expect(bboxContainsBBox(visibleBBox(view, VIEWPORT), tile)).toBe(true);
        const { results, finalView } = searchPlaces(world, 'cafe', view, VIEWPORT, { signedIn: true, sparseZoomOut: false });
        expect(finalView).toEqual(view);
        expect(results.length).toBeLessThan(RESULT_CAP);
        for (const p of results) if (bboxContains(area, p)) found.add(p.cid);
      }
    }
    const truth = groundTruth(world, 'cafe', area).map((p) => p.cid);
    expect(truth.length).toBeGreaterThan(50);
    expect(new Set(truth)).toEqual(found);
  });

  it('splits a ground truth exactly by a polygon and its complement', () => {
    const rect: BBox = { south: 37.556, west: 126.968, north: 37.576, east: 126.99 };
    const midLng = (rect.west + rect.east) / 2;
    const ring = (w: number, e: number) => [
      { lat: rect.south, lng: w },
      { lat: rect.south, lng: e },
      { lat: rect.north, lng: e },
      { lat: rect.north, lng: w },
    ];
    // A half-open hole would share an edge with the outer ring; nudge it inside so the halves are clear.
    const west: Area = { kind: 'polygon', bbox: rect, polygons: [[ring(rect.west - 1e-9, midLng)]] };
    const withHole: Area = { kind: 'polygon', bbox: rect, polygons: [[ring(rect.west - 1e-9, rect.east + 1e-9), ring(rect.west - 1e-9, midLng)]] };
    const all = groundTruth(world, 'restaurant', rect).map((p) => p.cid);
    const a = groundTruth(world, 'restaurant', west).map((p) => p.cid);
    const b = groundTruth(world, 'restaurant', withHole).map((p) => p.cid);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.filter((cid) => b.includes(cid))).toEqual([]);
    expect(new Set([...a, ...b])).toEqual(new Set(all));
  });
});
