import { describe, expect, it } from 'vitest';
import {
  bboxAreaKm2,
  bboxOfPolygons,
  classifyBBox,
  createPolygonIndex,
  findRingCrossing,
  pointInPolygon,
  pointInPolygons,
  polygonsAreaKm2,
  ringAreaKm2,
} from '../../utils/geo';
import type { BBox, LatLng, Polygon, Ring } from '../../utils/geo';
import { seededRandom as rng } from '../helpers/random';

const pt = (lat: number, lng: number): LatLng => ({ lat, lng });
/** A ring from [lng, lat] pairs, GeoJSON order, to keep fixtures readable. */
const ring = (...pairs: [number, number][]): Ring => pairs.map(([lng, lat]) => pt(lat, lng));

/** A simple ring by construction: vertices at increasing angles around a centre. */
function starRing(r: () => number, c: LatLng, radius: number, n: number, minR: number, maxR: number): Ring {
  const out: Ring = [];
  for (let k = 0; k < n; k++) {
    const angle = ((k + 0.8 * r()) / n) * 2 * Math.PI;
    const rad = radius * (minR + (maxR - minR) * r());
    out.push(pt(c.lat + rad * Math.sin(angle), c.lng + rad * Math.cos(angle)));
  }
  return out;
}

/** A random star polygon, sometimes with a hole; rejected and redrawn if the hole crosses the shell. */
function randomPolygon(r: () => number, c: LatLng, radius: number): Polygon {
  for (;;) {
    const outer = starRing(r, c, radius, 5 + Math.floor(r() * 25), 0.3, 1);
    if (r() < 0.5) return [outer];
    const hole = starRing(r, c, radius, 3 + Math.floor(r() * 10), 0.05, 0.2);
    const polygon = [outer, hole];
    if (!findRingCrossing(polygon) && pointInPolygon(hole[0]!, [outer])) return polygon;
  }
}

function samplePoints(r: () => number, b: BBox, n: number): LatLng[] {
  const pts: LatLng[] = [];
  for (let i = 0; i < n; i++) {
    pts.push(pt(b.south + (b.north - b.south) * r(), b.west + (b.east - b.west) * r()));
  }
  return pts;
}

describe('pointInPolygon', () => {
  // A 10° square with a 2° square hole in the middle.
  const square = ring([0, 0], [10, 0], [10, 10], [0, 10], [0, 0]);
  const hole = ring([4, 4], [6, 4], [6, 6], [4, 6]);

  it('counts the outer ring and excludes holes, closed or open rings alike', () => {
    expect(pointInPolygon(pt(1, 1), [square])).toBe(true);
    expect(pointInPolygon(pt(5, 5), [square])).toBe(true);
    expect(pointInPolygon(pt(5, 5), [square, hole])).toBe(false);
    expect(pointInPolygon(pt(3, 5), [square, hole])).toBe(true);
    expect(pointInPolygon(pt(11, 5), [square, hole])).toBe(false);
    expect(pointInPolygon(pt(-1, 5), [square])).toBe(false);
  });

  it('treats a set of polygons as their union', () => {
    const other = [ring([20, 20], [30, 20], [30, 30], [20, 30])];
    expect(pointInPolygons(pt(25, 25), [[square], other])).toBe(true);
    expect(pointInPolygons(pt(15, 15), [[square], other])).toBe(false);
  });
});

describe('classifyBBox', () => {
  const square: Polygon = [ring([0, 0], [1, 0], [1, 1], [0, 1])];

  it('handles hand-made cases, including edges lying exactly on cell edges', () => {
    expect(classifyBBox({ south: 0.25, north: 0.5, west: 0.25, east: 0.5 }, [square])).toBe('inside');
    // Sharing the polygon's edge from outside: touching is not overlapping.
    expect(classifyBBox({ south: 0, north: 1, west: 1, east: 2 }, [square])).toBe('outside');
    // Sharing the polygon's edges from inside.
    expect(classifyBBox({ south: 0, north: 0.5, west: 0, east: 0.5 }, [square])).toBe('inside');
    expect(classifyBBox({ south: 0, north: 1, west: 0, east: 1 }, [square])).toBe('inside');
    expect(classifyBBox({ south: 0.5, north: 1.5, west: 0.5, east: 1.5 }, [square])).toBe('partial');
    // Polygon wholly inside a big box, and a box in a hole.
    expect(classifyBBox({ south: -5, north: 5, west: -5, east: 5 }, [square])).toBe('partial');
    const holed: Polygon = [ring([0, 0], [10, 0], [10, 10], [0, 10]), ring([4, 4], [6, 4], [6, 6], [4, 6])];
    expect(classifyBBox({ south: 4.5, north: 5.5, west: 4.5, east: 5.5 }, [holed])).toBe('outside');
    expect(classifyBBox({ south: 3, north: 5, west: 3, east: 5 }, [holed])).toBe('partial');
    // Touching only at a corner.
    expect(classifyBBox({ south: 1, north: 2, west: 1, east: 2 }, [square])).toBe('outside');
    // A slanted edge touching the box's corner only: the diamond's edge lng − lat = 1 meets
    // the box at (lng 1.5, lat 0.5); left of it the edge is west of the box, right of it north.
    const diamond: Polygon = [ring([0, 1], [1, 0], [2, 1], [1, 2])];
    expect(classifyBBox({ south: -0.5, north: 0.5, west: 1.5, east: 2.5 }, [diamond])).toBe('outside');
    expect(classifyBBox({ south: -0.5, north: 0.50001, west: 1.5, east: 2.5 }, [diamond])).toBe('partial');
  });

  it('agrees with sampled points over random polygons and boxes', () => {
    const r = rng(11);
    const seen = { inside: 0, outside: 0, partial: 0 };
    for (let i = 0; i < 300; i++) {
      const c = pt(-60 + 120 * r(), -170 + 340 * r());
      const radius = 10 ** (-2 + 2 * r());
      const polygons = [randomPolygon(r, c, radius)];
      if (r() < 0.3) polygons.push(randomPolygon(r, pt(c.lat + radius, c.lng + radius), radius / 2));
      const index = createPolygonIndex(polygons);
      for (let j = 0; j < 20; j++) {
        const size = radius * 10 ** (-1.5 + 1.5 * r());
        const south = c.lat - 1.5 * radius + 3 * radius * r();
        const west = c.lng - 1.5 * radius + 3 * radius * r();
        const box = { south, north: south + size, west, east: west + size };
        const cls = classifyBBox(box, polygons);
        seen[cls]++;
        expect(index.classify(box)).toBe(cls);
        const samples = samplePoints(r, box, 60).map((p) => pointInPolygons(p, polygons));
        if (samples.some(Boolean)) expect(cls).not.toBe('outside');
        if (samples.some((s) => !s)) expect(cls).not.toBe('inside');
      }
    }
    // The generator exercised all three answers.
    expect(Math.min(seen.inside, seen.outside, seen.partial)).toBeGreaterThan(100);
  });
});

describe('createPolygonIndex', () => {
  it('answers point queries like pointInPolygons', () => {
    const r = rng(12);
    for (let i = 0; i < 50; i++) {
      const c = pt(-60 + 120 * r(), -170 + 340 * r());
      const polygons = [randomPolygon(r, c, 0.5), randomPolygon(r, pt(c.lat + 0.6, c.lng), 0.3)];
      const index = createPolygonIndex(polygons);
      for (const p of samplePoints(r, { south: c.lat - 1, north: c.lat + 1.5, west: c.lng - 1, east: c.lng + 1 }, 200)) {
        expect(index.contains(p)).toBe(pointInPolygons(p, polygons));
      }
    }
  });
});

describe('findRingCrossing', () => {
  it('accepts simple rings and polygons with a hole inside', () => {
    expect(findRingCrossing([ring([0, 0], [1, 0], [1, 1], [0, 1], [0, 0])])).toBeNull();
    expect(findRingCrossing([ring([0, 0], [10, 0], [10, 10], [0, 10]), ring([4, 4], [6, 4], [6, 6])])).toBeNull();
    const r = rng(13);
    for (let i = 0; i < 100; i++) expect(findRingCrossing(randomPolygon(r, pt(0, 0), 1))).toBeNull();
  });

  it('finds a bow-tie, a figure-8 touching at a vertex, a spike and a hole crossing its shell', () => {
    // Bow-tie: the edges (0,0)-(1,1) and (1,0)-(0,1) cross at (0.5, 0.5).
    expect(findRingCrossing([ring([0, 0], [1, 1], [1, 0], [0, 1])])).toEqual(pt(0.5, 0.5));
    // Figure-8: the ring passes through (1,1) twice.
    expect(findRingCrossing([ring([0, 0], [1, 1], [2, 0], [2, 2], [1, 1], [0, 2])])).toEqual(pt(1, 1));
    // Spike: goes out to (2,0) and straight back along the same line to (1,0).
    expect(findRingCrossing([ring([0, 0], [2, 0], [1, 0], [1, 1])])).not.toBeNull();
    // The smallest spike: a triangle that goes out and back along one line.
    expect(findRingCrossing([ring([0, 0], [2, 0], [1, 0])])).not.toBeNull();
    // A hole sticking out of its shell.
    expect(findRingCrossing([ring([0, 0], [10, 0], [10, 10], [0, 10]), ring([8, 4], [12, 4], [12, 6], [8, 6])])).not.toBeNull();
  });
});

describe('areas', () => {
  it('matches hand-computed areas', () => {
    // 1° × 1° at the equator: R²·(π/180)·(sin 1° − sin 0) with R = 6371.0088 km → 12,363.72 km².
    const box = { south: 0, north: 1, west: 0, east: 1 };
    expect(bboxAreaKm2(box)).toBeCloseTo(12363.72, 1);
    expect(ringAreaKm2(ring([0, 0], [1, 0], [1, 1], [0, 1]))).toBeCloseTo(12363.72, 1);
    // The whole sphere: 4πR² = 510,065,881 km².
    expect(bboxAreaKm2({ south: -90, north: 90, west: -180, east: 180 })).toBeCloseTo(510065881, -1);
  });

  it('subtracts holes, adds polygons, ignores ring direction', () => {
    const outer = ring([0, 0], [1, 0], [1, 1], [0, 1]);
    const hole = ring([0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75]);
    const holeArea = bboxAreaKm2({ south: 0.25, north: 0.75, west: 0.25, east: 0.75 });
    expect(polygonsAreaKm2([[outer, hole]])).toBeCloseTo(12363.72 - holeArea, 1);
    expect(ringAreaKm2([...outer].reverse())).toBeCloseTo(ringAreaKm2(outer), 6);
    expect(polygonsAreaKm2([[outer], [hole]])).toBeCloseTo(12363.72 + holeArea, 1);
  });

  it('bounds every ring', () => {
    expect(bboxOfPolygons([[ring([0, 0], [1, 0], [1, 1])], [ring([5, -3], [6, -3], [6, -2])]])).toEqual({
      south: -3,
      north: 1,
      west: 0,
      east: 6,
    });
  });
});
