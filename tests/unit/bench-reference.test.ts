import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import type { Area } from '../../utils/geo/types';
import { checkCover, greedyCover, REFERENCE_SWITCHES, REFERENCE_SEEDS, TUNING_SEEDS } from '../../scripts/bench/reference';
import { groundTruth, searchPlaces } from '../replica/search';
import { worldFromSpecs, type PlaceSpec } from '../replica/world';

// A hand-built world: two tight clumps of 150 cafés each (more than one view may prove), a
// thin line of 40 between them, and bakeries that must not count against the cafés' cap.
const specs: PlaceSpec[] = [];
const add = (n: number, lat: number, lng: number, dLat: number, dLng: number, category: PlaceSpec['category']) => {
  for (let i = 0; i < n; i++) {
    const a = (i * 0.618034) % 1;
    const b = (i * 0.381966 + 0.17) % 1;
    specs.push({ name: `${category} ${specs.length}`, category, lat: lat + (a - 0.5) * dLat, lng: lng + (b - 0.5) * dLng, prominence: ((i * 37) % 100) / 100 });
  }
};
add(150, 37.56, 126.97, 0.004, 0.005, 'cafe');
add(150, 37.56, 127.01, 0.004, 0.005, 'cafe');
add(40, 37.56, 126.99, 0.001, 0.03, 'cafe');
add(60, 37.56, 126.99, 0.02, 0.05, 'bakery');
const world = worldFromSpecs(specs);
const area: Area = { kind: 'bbox', bbox: { south: 37.54, west: 126.95, north: 37.58, east: 127.03 } };

describe('greedyCover (the bench reference)', () => {
  it('covers every matching place of the area with views none of which is capped', () => {
    const cover = greedyCover(world, area, 'cafe', { viewport: DEFAULT_VIEWPORT, switches: REFERENCE_SWITCHES });
    expect(cover.places).toBe(340);
    expect(cover.unprovable).toBe(0);
    expect(cover.capped).toBe(0);
    expect(cover.missed).toBe(0);
    expect(cover.valid).toBe(true);
    // Checked independently here with the replica's own search.
    const listed = new Set<string>();
    for (const view of cover.views) {
      const out = searchPlaces(world, 'cafe', view, DEFAULT_VIEWPORT, REFERENCE_SWITCHES);
      expect(out.results.length).toBeLessThan(115);
      for (const p of out.results) listed.add(p.cid);
    }
    for (const p of groundTruth(world, 'cafe', area)) expect(listed.has(p.cid)).toBe(true);
    // At least ⌈340/114⌉ views; each clump alone needs 2.
    expect(cover.views.length).toBeGreaterThanOrEqual(4);
  });

  it('is no worse than a trivial cover: one view per place at zoom 21', () => {
    const truth = groundTruth(world, 'cafe', area);
    // The trivial cover: every place in the middle of its own deepest view (valid, checked here).
    const trivial = truth.map((p) => ({ lat: p.lat, lng: p.lng + 0.0000015, zoom: 21 }));
    const target = new Set(truth.map((p) => p.cid));
    expect(checkCover(world, 'cafe', trivial, target, DEFAULT_VIEWPORT, REFERENCE_SWITCHES).capped).toBe(0);
    const cover = greedyCover(world, area, 'cafe');
    expect(cover.views.length).toBeLessThanOrEqual(trivial.length);
    // And well below it: a handful of views, not hundreds.
    expect(cover.views.length).toBeLessThanOrEqual(8);
  });

  it('needs no view for an area without a match, and one for a lone match', () => {
    expect(greedyCover(world, area, 'gym').views).toHaveLength(0);
    const lone = worldFromSpecs([{ name: 'Only Bakery', category: 'bakery', lat: 37.56, lng: 126.98, prominence: 0.5 }]);
    const cover = greedyCover(lone, area, 'bakery');
    expect(cover.views).toHaveLength(1);
    expect(cover.valid).toBe(true);
  });

  it('reports on seeds the planner was not tuned on', () => {
    for (const s of REFERENCE_SEEDS) expect(TUNING_SEEDS).not.toContain(s);
    expect(REFERENCE_SEEDS.length).toBeGreaterThanOrEqual(5);
  });
});
