import type { BBox, LatLng, Polygon } from './types';
import { bboxOfPolygons, edgeMayEnter, segmentEntersBBox, type BBoxClass } from './polygon';

/**
 * The same answers as `pointInPolygons` / `classifyBBox`, for many queries against one
 * large polygon (a city boundary has thousands of vertices; the initial grid has up to
 * tens of thousands of cells). Edges are bucketed into horizontal latitude bands, so a
 * query reads only the edges of the bands it spans instead of every edge.
 */
export interface PolygonIndex {
  readonly bbox: BBox;
  contains(p: LatLng): boolean;
  classify(bbox: BBox): BBoxClass;
}

interface Edge {
  a: LatLng;
  b: LatLng;
  /** Index into `rings`. */
  ring: number;
}

interface RingInfo {
  polygon: number;
  hole: boolean;
}

export function createPolygonIndex(polygons: readonly Polygon[]): PolygonIndex {
  const bbox = bboxOfPolygons(polygons);
  const rings: RingInfo[] = [];
  const edges: Edge[] = [];
  polygons.forEach((polygon, pi) => {
    polygon.forEach((ring, ri) => {
      const ringId = rings.length;
      rings.push({ polygon: pi, hole: ri > 0 });
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        edges.push({ a: ring[j]!, b: ring[i]!, ring: ringId });
      }
    });
  });

  // About √E bands keeps both the band count and the edges per band near √E.
  const bandCount = Math.max(1, Math.min(4096, Math.ceil(Math.sqrt(edges.length))));
  const span = bbox.north - bbox.south;
  // Monotone in lat, so an edge's band range always covers the band of any lat it spans.
  const bandOf = (lat: number): number => (span > 0 ? Math.max(0, Math.min(bandCount - 1, Math.floor(((lat - bbox.south) / span) * bandCount))) : 0);
  const bands: number[][] = Array.from({ length: bandCount }, () => []);
  edges.forEach((e, k) => {
    const lo = bandOf(Math.min(e.a.lat, e.b.lat));
    const hi = bandOf(Math.max(e.a.lat, e.b.lat));
    for (let band = lo; band <= hi; band++) bands[band]!.push(k);
  });

  // A query stamps the edges it has tested: long edges sit in several bands.
  const seen = new Uint32Array(edges.length);
  let stamp = 0;

  function contains(p: LatLng): boolean {
    if (p.lat < bbox.south || p.lat > bbox.north || p.lng < bbox.west || p.lng > bbox.east) return false;
    const odd = new Uint8Array(rings.length);
    for (const k of bands[bandOf(p.lat)]!) {
      const { a, b, ring } = edges[k]!;
      if (a.lat > p.lat !== b.lat > p.lat) {
        const x = a.lng + ((p.lat - a.lat) * (b.lng - a.lng)) / (b.lat - a.lat);
        if (p.lng < x) odd[ring] = odd[ring]! ^ 1;
      }
    }
    // Inside = inside some polygon's outer ring and none of that polygon's holes.
    const inOuter = new Set<number>();
    const inHole = new Set<number>();
    rings.forEach((info, r) => {
      if (odd[r]) (info.hole ? inHole : inOuter).add(info.polygon);
    });
    for (const polygon of inOuter) if (!inHole.has(polygon)) return true;
    return false;
  }

  function classify(box: BBox): BBoxClass {
    if (box.north <= bbox.south || box.south >= bbox.north || box.east <= bbox.west || box.west >= bbox.east) {
      return 'outside';
    }
    stamp = stamp === 0xffffffff ? 1 : stamp + 1;
    if (stamp === 1) seen.fill(0);
    const lo = bandOf(box.south);
    const hi = bandOf(box.north);
    for (let band = lo; band <= hi; band++) {
      for (const k of bands[band]!) {
        if (seen[k] === stamp) continue;
        seen[k] = stamp;
        const { a, b } = edges[k]!;
        if (edgeMayEnter(a, b, box) && segmentEntersBBox(a, b, box)) return 'partial';
      }
    }
    const centre = { lat: (box.south + box.north) / 2, lng: (box.west + box.east) / 2 };
    return contains(centre) ? 'inside' : 'outside';
  }

  return { bbox, contains, classify };
}
