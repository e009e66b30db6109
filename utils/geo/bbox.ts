import type { BBox, LatLng } from './types';

/** Edges count as inside: a place on a shared cell edge belongs to both cells. */
export function bboxContains(bbox: BBox, p: LatLng): boolean {
  return p.lat >= bbox.south && p.lat <= bbox.north && p.lng >= bbox.west && p.lng <= bbox.east;
}

export function bboxContainsBBox(outer: BBox, inner: BBox): boolean {
  return inner.south >= outer.south && inner.north <= outer.north && inner.west >= outer.west && inner.east <= outer.east;
}

/** True when the two boxes share interior (touching along an edge does not count). */
export function bboxOverlaps(a: BBox, b: BBox): boolean {
  return a.south < b.north && b.south < a.north && a.west < b.east && b.west < a.east;
}

/** The centre in degrees (not the Mercator centre: the two differ by metres for a cell). */
export function bboxCentre(bbox: BBox): LatLng {
  return { lat: (bbox.south + bbox.north) / 2, lng: (bbox.west + bbox.east) / 2 };
}

/** Share of `points` inside `bbox`; 1 for no points (nothing says the search strayed). */
export function shareInside(bbox: BBox, points: readonly LatLng[]): number {
  if (points.length === 0) return 1;
  let inside = 0;
  for (const p of points) if (bboxContains(bbox, p)) inside++;
  return inside / points.length;
}
