import type { BBox, LatLng, Polygon, Ring } from './types';
import { EARTH_RADIUS_M } from './distance';

/**
 * Planar geometry on (lng, lat) degrees, which is what a cell grid on the map needs: cell
 * edges are parallels and meridians, and a polygon edge between two close vertices is
 * straight on the map to well under a pixel.
 *
 * A set of polygons means their union (a MultiPolygon). A polygon is its outer ring minus
 * its holes.
 */

/** How a box relates to an area. 'partial' is also the answer whenever a boundary runs through it. */
export type BBoxClass = 'inside' | 'outside' | 'partial';

/** The ring without consecutive repeats and without the repeated closing point. */
export function openRing(ring: Ring): Ring {
  const out: LatLng[] = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || last.lat !== p.lat || last.lng !== p.lng) out.push(p);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (out.length > 1 && first && last && first.lat === last.lat && first.lng === last.lng) out.pop();
  return out;
}

/**
 * Even-odd ray cast towards the east. The half-open test `(a.lat > y) !== (b.lat > y)`
 * counts a vertex lying on the ray exactly once, so closed and open rings both work.
 */
export function pointInRing(p: LatLng, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (a.lat > p.lat !== b.lat > p.lat) {
      const x = a.lng + ((p.lat - a.lat) * (b.lng - a.lng)) / (b.lat - a.lat);
      if (p.lng < x) inside = !inside;
    }
  }
  return inside;
}

export function pointInPolygon(p: LatLng, polygon: Polygon): boolean {
  const [outer, ...holes] = polygon;
  if (!outer || !pointInRing(p, outer)) return false;
  return !holes.some((hole) => pointInRing(p, hole));
}

export function pointInPolygons(p: LatLng, polygons: readonly Polygon[]): boolean {
  return polygons.some((polygon) => pointInPolygon(p, polygon));
}

/**
 * Does segment a→b pass through the open interior of `bbox`? Clip it to the closed box
 * (Liang–Barsky); a chord of a convex box either lies along one side or has its midpoint
 * strictly inside, so the midpoint decides. Edges lying exactly on a cell edge — common,
 * since cells share edges and users draw along streets — are therefore not "entering".
 */
export function segmentEntersBBox(a: LatLng, b: LatLng, bbox: BBox): boolean {
  const dx = b.lng - a.lng;
  const dy = b.lat - a.lat;
  if (dx === 0 && dy === 0) return false;
  let t0 = 0;
  let t1 = 1;
  const ps = [-dx, dx, -dy, dy];
  const qs = [a.lng - bbox.west, bbox.east - a.lng, a.lat - bbox.south, bbox.north - a.lat];
  for (let k = 0; k < 4; k++) {
    const p = ps[k]!;
    const q = qs[k]!;
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
  }
  if (t0 > t1) return false;
  const tm = (t0 + t1) / 2;
  const x = a.lng + tm * dx;
  const y = a.lat + tm * dy;
  return x > bbox.west && x < bbox.east && y > bbox.south && y < bbox.north;
}

/** Cheap pre-test: an edge whose own box does not overlap the box's interior cannot enter it. */
export function edgeMayEnter(a: LatLng, b: LatLng, bbox: BBox): boolean {
  return Math.max(a.lng, b.lng) > bbox.west && Math.min(a.lng, b.lng) < bbox.east && Math.max(a.lat, b.lat) > bbox.south && Math.min(a.lat, b.lat) < bbox.north;
}

/**
 * Exact classification: if any ring edge enters the box's interior, the boundary runs
 * through it → 'partial'. Otherwise the interior lies wholly on one side of every ring, so
 * its centre decides. Conservative where it matters: a cell is 'outside' (never searched)
 * only when no part of its interior is in the area. Two polygons sharing an edge inside the
 * box make it 'partial' although it is all inside; that only costs a label, not coverage.
 */
export function classifyBBox(bbox: BBox, polygons: readonly Polygon[]): BBoxClass {
  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const a = ring[j]!;
        const b = ring[i]!;
        if (edgeMayEnter(a, b, bbox) && segmentEntersBBox(a, b, bbox)) return 'partial';
      }
    }
  }
  const centre = { lat: (bbox.south + bbox.north) / 2, lng: (bbox.west + bbox.east) / 2 };
  return pointInPolygons(centre, polygons) ? 'inside' : 'outside';
}

/** The bounding box of every ring (holes included, though they never extend it when valid). */
export function bboxOfPolygons(polygons: readonly Polygon[]): BBox {
  const box = { south: Infinity, west: Infinity, north: -Infinity, east: -Infinity };
  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (const p of ring) {
        if (p.lat < box.south) box.south = p.lat;
        if (p.lat > box.north) box.north = p.lat;
        if (p.lng < box.west) box.west = p.lng;
        if (p.lng > box.east) box.east = p.lng;
      }
    }
  }
  return box;
}

const DEG = Math.PI / 180;
const R2_KM2 = (EARTH_RADIUS_M / 1000) ** 2;

/**
 * Area on the sphere enclosed by a ring, km², always positive. Σ (λ[i+1] − λ[i−1])·sin φ[i]
 * / 2 · R² (the formula d3 and turf use); for a box it reduces exactly to `bboxAreaKm2`.
 */
export function ringAreaKm2(ring: Ring): number {
  const n = ring.length;
  if (n < 3) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const prev = ring[(i + n - 1) % n]!;
    const here = ring[i]!;
    const next = ring[(i + 1) % n]!;
    total += (next.lng - prev.lng) * DEG * Math.sin(here.lat * DEG);
  }
  return (Math.abs(total) / 2) * R2_KM2;
}

/** Outer rings minus holes, summed over the polygons (overlapping polygons count twice). */
export function polygonsAreaKm2(polygons: readonly Polygon[]): number {
  let sum = 0;
  for (const [outer, ...holes] of polygons) {
    if (!outer) continue;
    sum += ringAreaKm2(outer);
    for (const hole of holes) sum -= ringAreaKm2(hole);
  }
  return sum;
}

/** R²·Δλ·(sin φn − sin φs): the area between two parallels and two meridians. */
export function bboxAreaKm2(bbox: BBox): number {
  return R2_KM2 * (bbox.east - bbox.west) * DEG * (Math.sin(bbox.north * DEG) - Math.sin(bbox.south * DEG));
}
