import type { BBox, LatLng } from '../geo/types';
import { bboxContains } from '../geo/bbox';
import { haversineMetres } from '../geo/distance';

/**
 * Neighbouring saturated and unresolved cells, reported as one area ("1 area of about 60 × 60 m
 * near 37.5116, 127.0592 is too dense for the map's closest zoom: 205 places found there").
 * A dense mall is searched as dozens of tiny cells; counted cell by cell it reads as dozens of
 * problems, and the places its cells listed add up to several times the places there are
 * (neighbouring searches list the same crowd). Grouped, it is one place on the map the user
 * can look at, with the number of distinct places the sweep found on its ground.
 */
export interface DenseArea {
  /** The smallest box holding every cell of the area. */
  bbox: BBox;
  centre: LatLng;
  /** East–west and north–south extent of `bbox`, metres (measured at the centre's latitude). */
  widthM: number;
  heightM: number;
  /** Cells in the area, and how many of them are unresolved (not proven crowded; isUnresolved). */
  cells: number;
  /** Their ids, in the order given: the coverage report names each cell's area. */
  cellIds: string[];
  unresolved: number;
  /** Distinct places (listing keys) found on the area's ground: see `placesInAreas`. */
  places: number;
}

/** A cell as grouping needs it: its box, whether it is unresolved, and its id (places without coordinates are matched by it). */
export interface DenseCell {
  id: string;
  bbox: BBox;
  unresolved: boolean;
}

/** A stored place as counting needs it. */
export interface FoundPlace {
  key: string;
  lat: number | null;
  lng: number | null;
  /** Cell ids that listed it (StoredListing.cells). */
  cells: readonly string[];
}

/**
 * Cells whose boxes overlap or touch (a shared edge or corner) belong to one area. Cell edges
 * come from exact splits (utils/grid/split.ts: each inner edge is one number shared by both
 * sides), so "touch" is an equality; the tolerance only absorbs cells of different keywords
 * tiled from the same area, whose edges are computed the same way.
 */
const TOUCH_TOLERANCE_DEG = 1e-9;

function touching(a: BBox, b: BBox): boolean {
  const e = TOUCH_TOLERANCE_DEG;
  return a.west <= b.east + e && b.west <= a.east + e && a.south <= b.north + e && b.south <= a.north + e;
}

/**
 * Groups cells into areas (union–find over touching pairs; a sweep holds at most its cell cap,
 * thousands, so the pairwise pass is cheap) and counts each area's distinct places. Areas come
 * largest first (by places, then cells), then north to south, so the order is stable.
 */
export function denseAreas(cells: readonly DenseCell[], places: Iterable<FoundPlace>): DenseArea[] {
  const groups = groupCells(cells);
  const counts = placesInAreas(groups, places);
  const areas = groups.map((group, i) => areaOf(group, counts[i]!));
  return areas.sort((a, b) => b.places - a.places || b.cells - a.cells || b.bbox.north - a.bbox.north || a.bbox.west - b.bbox.west);
}

function groupCells(cells: readonly DenseCell[]): DenseCell[][] {
  const parent = cells.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      if (touching(cells[i]!.bbox, cells[j]!.bbox)) parent[root(i)] = root(j);
    }
  }
  const byRoot = new Map<number, DenseCell[]>();
  cells.forEach((c, i) => {
    const r = root(i);
    const group = byRoot.get(r);
    if (group) group.push(c);
    else byRoot.set(r, [c]);
  });
  return [...byRoot.values()];
}

/**
 * Distinct places per group. A place belongs to the area whose ground holds it: the place where
 * the sweep may have missed others is the ground, and a crowded cell's list also shows places
 * just beyond it that a neighbouring done cell proved. A place without coordinates cannot be
 * placed; it counts for the area of a cell that listed it. Each key counts once, in one area.
 */
function placesInAreas(groups: readonly DenseCell[][], places: Iterable<FoundPlace>): number[] {
  const counts = groups.map(() => 0);
  const boxes = groups.map(boundsOf);
  const groupOfCell = new Map<string, number>();
  groups.forEach((g, i) => {
    for (const c of g) groupOfCell.set(c.id, i);
  });
  const seen = new Set<string>();
  for (const p of places) {
    if (seen.has(p.key)) continue;
    let at = -1;
    if (p.lat !== null && p.lng !== null) {
      const point = { lat: p.lat, lng: p.lng };
      at = groups.findIndex((g, i) => bboxContains(boxes[i]!, point) && g.some((c) => bboxContains(c.bbox, point)));
    } else {
      for (const id of p.cells) {
        const g = groupOfCell.get(id);
        if (g !== undefined) {
          at = g;
          break;
        }
      }
    }
    if (at < 0) continue;
    seen.add(p.key);
    counts[at]! += 1;
  }
  return counts;
}

function boundsOf(cells: readonly DenseCell[]): BBox {
  return {
    south: Math.min(...cells.map((c) => c.bbox.south)),
    west: Math.min(...cells.map((c) => c.bbox.west)),
    north: Math.max(...cells.map((c) => c.bbox.north)),
    east: Math.max(...cells.map((c) => c.bbox.east)),
  };
}

function areaOf(cells: readonly DenseCell[], places: number): DenseArea {
  const bbox = boundsOf(cells);
  const centre = { lat: (bbox.south + bbox.north) / 2, lng: (bbox.west + bbox.east) / 2 };
  return {
    bbox,
    centre,
    widthM: haversineMetres({ lat: centre.lat, lng: bbox.west }, { lat: centre.lat, lng: bbox.east }),
    heightM: haversineMetres({ lat: bbox.south, lng: centre.lng }, { lat: bbox.north, lng: centre.lng }),
    cells: cells.length,
    cellIds: cells.map((c) => c.id),
    unresolved: cells.filter((c) => c.unresolved).length,
    places,
  };
}

/** An area's size as the sentence says it: metres rounded to 10 (never 0). */
export function roundedMetres(m: number): number {
  return Math.max(10, Math.round(m / 10) * 10);
}
