import { bboxContains } from './bbox';
import { pointInPolygons } from './polygon';
import type { Area, LatLng } from './types';

/**
 * Whether a point belongs to the sweep's area. A cell's search shows its whole viewport, so
 * edge cells also list places beyond the area: those are not the user's district and are
 * left out of the sweep's collection.
 */
export function areaContains(area: Area, p: LatLng): boolean {
  if (!bboxContains(area.bbox, p)) return false;
  return area.kind === 'bbox' || pointInPolygons(p, area.polygons);
}
