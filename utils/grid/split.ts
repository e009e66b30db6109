import type { Area, BBox, LatLng } from '../geo/types';
import { cellSearchView } from '../geo/mercator';
import { classifyBBox } from '../geo/polygon';
import type { PlannedCell, PlannerOptions } from './types';
import { DEFAULT_PLANNER_OPTIONS } from './options';

/** A split makes this many children; the cell-cap guard reserves room for them. */
export const CHILDREN_PER_SPLIT = 4;

export function midpoint(bbox: BBox): LatLng {
  return { lat: (bbox.south + bbox.north) / 2, lng: (bbox.west + bbox.east) / 2 };
}

/**
 * The four quadrants around `at`, in reading order: 0 NW, 1 NE, 2 SW, 3 SE. Each inner edge
 * is the one number `at.lat` or `at.lng` and each outer edge is copied from the parent, so
 * the children tile the parent exactly: no gap, no overlap, not even by a rounding error.
 */
export function quadrants(bbox: BBox, at: LatLng = midpoint(bbox)): [BBox, BBox, BBox, BBox] {
  const { south, west, north, east } = bbox;
  return [
    { south: at.lat, west, north, east: at.lng },
    { south: at.lat, west: at.lng, north, east },
    { south, west, north: at.lat, east: at.lng },
    { south, west: at.lng, north: at.lat, east },
  ];
}

/**
 * True when the cell is as small as cells get: splitting it at its midpoint would give a
 * child searched above `opts.maxZoom`. "Searched at" is the zoom the search URL carries
 * (cellSearchView: floored to 2 decimals), not the exact fit: a cell fitting zoom 18.004 is
 * searched at 18.00 with a view a little larger than itself. Comparing the exact fit stopped
 * such ladders a whole level early: a 6 km box fits 14.004, so with maxZoom 18 its depth-3
 * cells were saturated though their children would have been searched at 18.00.
 */
export function minCellReached(bbox: BBox, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): boolean {
  const needed = Math.max(...quadrants(bbox).map((child) => cellSearchView(child, opts.viewport, Infinity).zoom));
  return needed > opts.maxZoom;
}

/**
 * Replaces a crowded cell by its children, each classified against the area's polygon.
 * The split point defaults to the midpoint, which keeps the children the viewport's shape;
 * any point strictly inside keeps the tiling exact, but off-centre children are searched
 * with views wider than themselves that also list their neighbours' places, so they hit the
 * cap sooner (measured: splitting at the results' median cost more searches than midpoints).
 * A widened parent's children are widened too (see below).
 * Throws on a split the sweep must never make: a cell already at the minimum size, or a
 * split point not strictly inside the cell.
 */
export function splitCell(cell: PlannedCell, area: Area, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS, at: LatLng = midpoint(cell.bbox)): PlannedCell[] {
  const { bbox } = cell;
  if (minCellReached(bbox, opts)) {
    throw new RangeError(`Cell ${cell.path} is at the minimum size (zoom ${opts.maxZoom}); it cannot be split.`);
  }
  if (!(at.lat > bbox.south && at.lat < bbox.north && at.lng > bbox.west && at.lng < bbox.east)) {
    throw new RangeError(`The split point ${at.lat},${at.lng} is not strictly inside cell ${cell.path}.`);
  }
  return quadrants(bbox, at).map((child, i) => ({
    path: `${cell.path}.${i}`,
    bbox: child,
    depth: cell.depth + 1,
    outside: area.kind === 'polygon' ? classifyBBox(child, area.polygons) === 'outside' : false,
    // A widened cell exists because the site found the cell's own view too sparse and zoomed
    // out onto a crowd nearby. Its quarters are sparser still: searched at their own fit, the
    // site would zoom out again for each, a page load that can only end in a widened
    // re-search. They start widened instead (measured: a dense mall beside sparse streets).
    ...(cell.zoomOffset ? { zoomOffset: cell.zoomOffset } : {}),
  }));
}
