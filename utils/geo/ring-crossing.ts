import type { LatLng, Polygon } from './types';
import { openRing } from './polygon';

/**
 * Finds where a polygon's rings cross: within one ring, any contact between edges that are
 * not neighbours (a figure-8, a loop, a vertex touching another edge) and a neighbour that
 * doubles back along its predecessor (a spike); between two rings of the polygon (a hole
 * and its shell, two holes), a proper crossing. Point-in-polygon answers on such rings
 * depend on the ray's direction, so they are refused rather than guessed at.
 *
 * Edges are sorted by west end and compared only while their longitude ranges overlap,
 * which keeps real boundaries (thousands of short edges) far from the n² worst case.
 */
export function findRingCrossing(polygon: Polygon): LatLng | null {
  const edges: SweepEdge[] = [];
  const ringSizes: number[] = [];
  polygon.forEach((raw, ring) => {
    const pts = openRing(raw);
    ringSizes.push(pts.length);
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i]!;
      const b = pts[(i + 1) % pts.length]!;
      edges.push({
        a,
        b,
        ring,
        index: i,
        minX: Math.min(a.lng, b.lng),
        maxX: Math.max(a.lng, b.lng),
        minY: Math.min(a.lat, b.lat),
        maxY: Math.max(a.lat, b.lat),
      });
    }
  });
  edges.sort((e, f) => e.minX - f.minX);

  for (let i = 0; i < edges.length; i++) {
    const e = edges[i]!;
    for (let j = i + 1; j < edges.length; j++) {
      const f = edges[j]!;
      if (f.minX > e.maxX) break;
      if (f.maxY < e.minY || f.minY > e.maxY) continue;
      const hit = e.ring === f.ring ? sameRingContact(e, f, ringSizes[e.ring]!) : properCrossing(e.a, e.b, f.a, f.b);
      if (hit) return hit;
    }
  }
  return null;
}

interface SweepEdge {
  a: LatLng;
  b: LatLng;
  ring: number;
  index: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

function sameRingContact(e: SweepEdge, f: SweepEdge, size: number): LatLng | null {
  const [first, second] = e.index < f.index ? [e, f] : [f, e];
  if (second.index === first.index + 1) return doublesBack(first.a, first.b, second.b);
  if (first.index === 0 && second.index === size - 1) return doublesBack(second.a, second.b, first.b);
  return anyContact(e.a, e.b, f.a, f.b);
}

/** Edges u→v then v→w are collinear and w lies back towards u: the ring retraces itself. */
function doublesBack(u: LatLng, v: LatLng, w: LatLng): LatLng | null {
  if (orient(u, v, w) !== 0) return null;
  const dot = (u.lng - v.lng) * (w.lng - v.lng) + (u.lat - v.lat) * (w.lat - v.lat);
  return dot > 0 ? v : null;
}

/** z-component of (b − a) × (c − a): > 0 when c is left of a→b. */
function orient(a: LatLng, b: LatLng, c: LatLng): number {
  return (b.lng - a.lng) * (c.lat - a.lat) - (b.lat - a.lat) * (c.lng - a.lng);
}

/** c is on segment a–b, given that the three are collinear. */
function within(a: LatLng, b: LatLng, c: LatLng): boolean {
  return Math.min(a.lng, b.lng) <= c.lng && c.lng <= Math.max(a.lng, b.lng) && Math.min(a.lat, b.lat) <= c.lat && c.lat <= Math.max(a.lat, b.lat);
}

function properCrossing(a: LatLng, b: LatLng, c: LatLng, d: LatLng): LatLng | null {
  const d1 = orient(c, d, a);
  const d2 = orient(c, d, b);
  const d3 = orient(a, b, c);
  const d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    const t = d1 / (d1 - d2);
    return { lat: a.lat + t * (b.lat - a.lat), lng: a.lng + t * (b.lng - a.lng) };
  }
  return null;
}

function anyContact(a: LatLng, b: LatLng, c: LatLng, d: LatLng): LatLng | null {
  const crossing = properCrossing(a, b, c, d);
  if (crossing) return crossing;
  if (orient(c, d, a) === 0 && within(c, d, a)) return a;
  if (orient(c, d, b) === 0 && within(c, d, b)) return b;
  if (orient(a, b, c) === 0 && within(a, b, c)) return c;
  if (orient(a, b, d) === 0 && within(a, b, d)) return d;
  return null;
}
