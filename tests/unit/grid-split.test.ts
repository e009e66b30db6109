import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT, MAX_ZOOM, bboxOverlaps, cellSearchView, pointInPolygons, visibleBBox } from '../../utils/geo';
import type { Area, BBox, LatLng, Polygon } from '../../utils/geo';
import { DEFAULT_PLANNER_OPTIONS, decideCell, minCellReached, quadrants, splitCell, WIDEN_ZOOM_OFFSET } from '../../utils/grid';
import type { CellDecisionInput, PlannedCell, PlannerOptions } from '../../utils/grid';
import { seededRandom as rng } from '../helpers/random';

/** A box at the equator that fills the default visible part (872 × 800 px) at `zoom`. */
function boxFittingAt(zoom: number, west = 0): BBox {
  // 1 px = 360/(256·2^zoom) degrees of longitude, and (to 1e-6 at these sizes) of latitude at the equator.
  const deg = 360 / (256 * 2 ** zoom);
  return { south: -400 * deg, north: 400 * deg, west, east: west + 872 * deg };
}

const area = (bbox: BBox): Area => ({ kind: 'bbox', bbox });
const cellOf = (bbox: BBox, path = 'r0c0', depth = 0): PlannedCell => ({ path, bbox, depth, outside: false });
const degreeArea = (b: BBox) => (b.north - b.south) * (b.east - b.west);

function randomBox(r: () => number): BBox {
  const h = 10 ** (-3 + 2 * r());
  const w = 10 ** (-3 + 2 * r());
  const south = -70 + (140 - h) * r();
  const west = -179 + (358 - w) * r();
  return { south, north: south + h, west, east: west + w };
}

function expectExactTiling(parent: BBox, children: BBox[], r: () => number): void {
  expect(Math.min(...children.map((c) => c.south))).toBe(parent.south);
  expect(Math.max(...children.map((c) => c.north))).toBe(parent.north);
  expect(Math.min(...children.map((c) => c.west))).toBe(parent.west);
  expect(Math.max(...children.map((c) => c.east))).toBe(parent.east);
  const sum = children.reduce((s, c) => s + degreeArea(c), 0);
  expect(sum / degreeArea(parent)).toBeCloseTo(1, 12);
  let overlapping = 0;
  for (let i = 0; i < children.length; i++) {
    for (let j = i + 1; j < children.length; j++) if (bboxOverlaps(children[i]!, children[j]!)) overlapping++;
  }
  expect(overlapping).toBe(0);
  // Union = parent: every point of the parent lies in some child.
  let uncovered = 0;
  for (let k = 0; k < 200; k++) {
    const p = { lat: parent.south + (parent.north - parent.south) * r(), lng: parent.west + (parent.east - parent.west) * r() };
    if (!children.some((c) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east)) uncovered++;
  }
  expect(uncovered).toBe(0);
}

describe('splitCell', () => {
  it('makes four quadrants that tile the parent exactly, sharing edges bit-for-bit', () => {
    const r = rng(31);
    const opts: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, maxZoom: 30 };
    for (let i = 0; i < 500; i++) {
      const bbox = randomBox(r);
      const at: LatLng | undefined =
        i % 2 === 0
          ? undefined
          : { lat: bbox.south + (bbox.north - bbox.south) * (0.05 + 0.9 * r()), lng: bbox.west + (bbox.east - bbox.west) * (0.05 + 0.9 * r()) };
      const children = splitCell(cellOf(bbox, 'r3c7', 2), area(bbox), opts, at);
      expect(children.map((c) => c.path)).toEqual(['r3c7.0', 'r3c7.1', 'r3c7.2', 'r3c7.3']);
      expect(children.every((c) => c.depth === 3)).toBe(true);
      const [nw, ne, sw, se] = children.map((c) => c.bbox) as [BBox, BBox, BBox, BBox];
      expect(nw.east).toBe(ne.west);
      expect(sw.east).toBe(se.west);
      expect(nw.east).toBe(sw.east);
      expect(nw.south).toBe(sw.north);
      expect(ne.south).toBe(se.north);
      expect(nw.south).toBe(ne.south);
      expect(nw.north).toBe(bbox.north);
      expect(se.south).toBe(bbox.south);
      expectExactTiling(bbox, [nw, ne, sw, se], r);
    }
  });

  it('keeps the tiling exact through repeated splits', () => {
    const r = rng(32);
    const opts: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, maxZoom: 40 };
    const root = randomBox(r);
    let leaves = [cellOf(root)];
    for (let level = 0; level < 5; level++) {
      leaves = leaves.flatMap((leaf) => (r() < 0.6 ? splitCell(leaf, area(root), opts) : [leaf]));
    }
    expect(leaves.length).toBeGreaterThan(4);
    expectExactTiling(
      root,
      leaves.map((l) => l.bbox),
      r,
    );
  });

  it('classifies children against the polygon: one with part of the area is never outside', () => {
    const r = rng(33);
    let outside = 0;
    for (let i = 0; i < 200; i++) {
      const c = { lat: -60 + 120 * r(), lng: -170 + 340 * r() };
      const n = 5 + Math.floor(r() * 10);
      const ring = Array.from({ length: n }, (_, k) => {
        const angle = ((k + 0.8 * r()) / n) * 2 * Math.PI;
        return { lat: c.lat + 0.05 * (0.3 + 0.7 * r()) * Math.sin(angle), lng: c.lng + 0.05 * (0.3 + 0.7 * r()) * Math.cos(angle) };
      });
      const polygons: Polygon[] = [[ring]];
      const parent = { south: c.lat - 0.06 * r(), north: c.lat + 0.06 * r() + 0.001, west: c.lng - 0.06 * r(), east: c.lng + 0.06 * r() + 0.001 };
      const polyArea: Area = { kind: 'polygon', bbox: parent, polygons };
      for (const child of splitCell(cellOf(parent), polyArea, DEFAULT_PLANNER_OPTIONS)) {
        const b = child.bbox;
        const someInside = Array.from({ length: 100 }, () => ({
          lat: b.south + (b.north - b.south) * r(),
          lng: b.west + (b.east - b.west) * r(),
        })).some((p) => pointInPolygons(p, polygons));
        if (someInside) expect(child.outside).toBe(false);
        if (child.outside) outside++;
      }
    }
    expect(outside).toBeGreaterThan(20);
  });

  it('gives a widened cell widened children (the site refused the parent’s own view), and a plain cell plain ones', () => {
    const box = boxFittingAt(14);
    const widened = splitCell({ ...cellOf(box, 'r0c0.w', 1), zoomOffset: WIDEN_ZOOM_OFFSET }, area(box));
    expect(widened.map((c) => c.zoomOffset)).toEqual([WIDEN_ZOOM_OFFSET, WIDEN_ZOOM_OFFSET, WIDEN_ZOOM_OFFSET, WIDEN_ZOOM_OFFSET]);
    expect(splitCell(cellOf(box), area(box)).every((c) => c.zoomOffset === undefined)).toBe(true);
  });

  it('refuses a split point outside the cell and a cell at minimum size', () => {
    const bbox = boxFittingAt(14);
    expect(() => splitCell(cellOf(bbox), area(bbox), DEFAULT_PLANNER_OPTIONS, { lat: bbox.north, lng: 0.01 })).toThrow(/strictly inside/);
    const small = boxFittingAt(20.5);
    expect(() => splitCell(cellOf(small), area(small), DEFAULT_PLANNER_OPTIONS)).toThrow(/minimum size/);
  });
});

describe('minCellReached', () => {
  const at = (maxZoom: number): PlannerOptions => ({ ...DEFAULT_PLANNER_OPTIONS, maxZoom });

  it('matches hand-computed sizes', () => {
    // A cell filling the view at zoom z has children filling it at ≈ z + 1.
    expect(minCellReached(boxFittingAt(16.9), at(18))).toBe(false); // children ≈ 17.9
    expect(minCellReached(boxFittingAt(17.1), at(18))).toBe(true); // children ≈ 18.1
    expect(minCellReached(boxFittingAt(17.1), at(19))).toBe(false);
    // The default is zoom 21, the site's deepest.
    expect(minCellReached(boxFittingAt(19.9), DEFAULT_PLANNER_OPTIONS)).toBe(false);
    expect(minCellReached(boxFittingAt(20.1), DEFAULT_PLANNER_OPTIONS)).toBe(true);
  });

  it('compares the zoom the search URL carries (2 decimals, floored), not the exact fit', () => {
    // Children fit 18.004: searched at 18.00, allowed under maxZoom 18; at 18.02 they are not.
    expect(cellSearchView(quadrants(boxFittingAt(17.004))[0], DEFAULT_VIEWPORT, MAX_ZOOM).zoom).toBe(18);
    expect(minCellReached(boxFittingAt(17.004), at(18))).toBe(false);
    expect(minCellReached(boxFittingAt(17.02), at(18))).toBe(true);
  });
});

describe('splitting an always-crowded cell', () => {
  const crowded = (bbox: BBox, cellsKnown: number): CellDecisionInput => ({
    pageKind: 'results',
    organic: 120,
    capHit: true,
    endOfList: false,
    requestedZoom: cellSearchView(bbox, DEFAULT_VIEWPORT, 18).zoom,
    finalZoom: cellSearchView(bbox, DEFAULT_VIEWPORT, 18).zoom,
    insideShare: 1,
    bbox,
    cellsKnown,
  });

  it('ends in saturated cells at the minimum size, none dropped', () => {
    // The root fills the view at zoom 14.5; depth d fills it at 14.5 + d. With maxZoom 18,
    // depth-3 cells (17.5) would have children at 18.5 > 18, so they are the minimum: 4³ = 64 saturated leaves.
    const opts18: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, maxZoom: 18 };
    const root = boxFittingAt(14.5, 10);
    let frontier = [cellOf(root)];
    const saturated: PlannedCell[] = [];
    let known = 1;
    while (frontier.length > 0) {
      const cell = frontier.pop()!;
      const decision = decideCell(crowded(cell.bbox, known), opts18);
      if (decision.verdict === 'split') {
        const children = splitCell(cell, area(root), opts18);
        known += children.length;
        frontier = frontier.concat(children);
      } else {
        expect(decision).toEqual({ verdict: 'saturated', reason: 'min-size' });
        saturated.push(cell);
      }
    }
    expect(saturated).toHaveLength(64);
    expect(saturated.every((c) => c.depth === 3)).toBe(true);
    expectExactTiling(
      root,
      saturated.map((c) => c.bbox),
      rng(34),
    );
    // Each saturated cell can still be searched whole at maxZoom.
    for (const c of saturated) {
      const view = cellSearchView(c.bbox, DEFAULT_VIEWPORT, 18);
      expect(view.zoom).toBeLessThanOrEqual(18);
      const vis = visibleBBox(view, DEFAULT_VIEWPORT);
      expect(vis.south <= c.bbox.south + 1e-9 && vis.north >= c.bbox.north - 1e-9).toBe(true);
      expect(vis.west <= c.bbox.west + 1e-9 && vis.east >= c.bbox.east - 1e-9).toBe(true);
    }
  });

  it('stops splitting at the cell cap ("cell-cap"), never holding more cells than the cap', () => {
    const opts: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, maxCells: 50 };
    const root = boxFittingAt(12, 20);
    let frontier = [cellOf(root)];
    let known = 1;
    const reasons: string[] = [];
    while (frontier.length > 0) {
      const cell = frontier.shift()!;
      const decision = decideCell(crowded(cell.bbox, known), opts);
      reasons.push(decision.reason);
      if (decision.verdict === 'split') {
        const children = splitCell(cell, area(root), opts);
        known += children.length;
        frontier = frontier.concat(children);
      } else {
        expect(decision.verdict).toBe('saturated');
      }
      expect(known).toBeLessThanOrEqual(50);
    }
    // 1 + 4·12 = 49 cells; the 13th split would make 53.
    expect(known).toBe(49);
    expect(reasons.filter((x) => x === 'cap-hit')).toHaveLength(12);
    expect(reasons).toContain('cell-cap');
    expect(reasons).not.toContain('min-size');
  });
});
