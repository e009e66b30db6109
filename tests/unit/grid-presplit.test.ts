import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT, MAX_ZOOM, bboxOverlaps, cellSearchView, visibleBBox } from '../../utils/geo';
import type { Area, BBox, LatLng } from '../../utils/geo';
import { DEFAULT_PLANNER_OPTIONS, PRESPLIT_SHARE, minCellReached, planSplit, splitCell } from '../../utils/grid';
import type { PlannedCell, PlannerOptions } from '../../utils/grid';

/** Seeded PRNG (mulberry32): the same "random" cases on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A box at the equator that fills the default visible part (872 × 800 px) at `zoom`. */
function boxFittingAt(zoom: number, west = 0): BBox {
  const deg = 360 / (256 * 2 ** zoom);
  return { south: -400 * deg, north: 400 * deg, west, east: west + 872 * deg };
}

const area = (bbox: BBox): Area => ({ kind: 'bbox', bbox });
const cellOf = (bbox: BBox, path = 'r0c0'): PlannedCell => ({ path, bbox, depth: 0, outside: false });
const opts = DEFAULT_PLANNER_OPTIONS;
const THRESHOLD = Math.ceil(opts.cap * PRESPLIT_SHARE);

/** The quadrant of `b` in reading order (0 NW, 1 NE, 2 SW, 3 SE), computed here, not by the planner. */
function quarter(b: BBox, i: number): BBox {
  const midLat = (b.south + b.north) / 2;
  const midLng = (b.west + b.east) / 2;
  return {
    south: i < 2 ? midLat : b.south,
    north: i < 2 ? b.north : midLat,
    west: i % 2 === 0 ? b.west : midLng,
    east: i % 2 === 0 ? midLng : b.east,
  };
}

/** cols × rows points evenly inside `b`, none on a quarter line. */
function pointsIn(b: BBox, cols: number, rows: number): LatLng[] {
  const out: LatLng[] = [];
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      out.push({ lat: b.south + ((j + 0.5) / rows) * (b.north - b.south) * 0.9 + 0.05 * (b.north - b.south), lng: b.west + ((i + 0.5) / cols) * (b.east - b.west) * 0.9 + 0.05 * (b.east - b.west) });
    }
  }
  return out;
}

function listedIn(cell: BBox, points: readonly LatLng[]): number {
  const v = visibleBBox(cellSearchView(cell, DEFAULT_VIEWPORT, MAX_ZOOM), DEFAULT_VIEWPORT);
  return points.filter((p) => p.lat >= v.south && p.lat <= v.north && p.lng >= v.west && p.lng <= v.east).length;
}

function expectExactTiling(parent: BBox, children: BBox[], r: () => number): void {
  const size = (b: BBox) => (b.north - b.south) * (b.east - b.west);
  expect(children.reduce((s, c) => s + size(c), 0) / size(parent)).toBeCloseTo(1, 12);
  for (let i = 0; i < children.length; i++) {
    for (let j = i + 1; j < children.length; j++) expect(bboxOverlaps(children[i]!, children[j]!)).toBe(false);
  }
  for (let k = 0; k < 200; k++) {
    const p = { lat: parent.south + (parent.north - parent.south) * r(), lng: parent.west + (parent.east - parent.west) * r() };
    expect(children.some((c) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east)).toBe(true);
  }
}

describe('planSplit', () => {
  const parent = boxFittingAt(14);
  const ne = quarter(parent, 1);

  it('is splitCell when nothing was observed', () => {
    const plan = planSplit({ cell: cellOf(parent), area: area(parent), observed: [], cellsKnown: 1 }, opts);
    expect(plan.children).toEqual(splitCell(cellOf(parent), area(parent), opts));
    expect(plan.preSplit).toEqual([]);
  });

  it('splits at once a quadrant whose view already holds 80 of the results (hand-computed)', () => {
    // 90 places spread over the NE quadrant, 30 over the SW one: NE is split, its quarters
    // (about 22 each) and the other quadrants are left to be searched.
    expect(THRESHOLD).toBe(80);
    const observed = [...pointsIn(ne, 10, 9), ...pointsIn(quarter(parent, 2), 6, 5)];
    const plan = planSplit({ cell: cellOf(parent), area: area(parent), observed, cellsKnown: 1 }, opts);
    expect(plan.preSplit).toEqual([{ path: 'r0c0.1', reason: 'crowded-list', listed: 90, threshold: 80 }]);
    expect(plan.children.map((c) => c.path)).toEqual(['r0c0.0', 'r0c0.1.0', 'r0c0.1.1', 'r0c0.1.2', 'r0c0.1.3', 'r0c0.2', 'r0c0.3']);
    expect(plan.children.map((c) => c.depth)).toEqual([1, 2, 2, 2, 2, 1, 1]);
    expect(plan.children[1]!.bbox).toEqual(quarter(ne, 0));
  });

  it('keeps going down while the results say so: 100 places in one eighth-size cell', () => {
    const observed = pointsIn(quarter(ne, 2), 10, 10);
    const plan = planSplit({ cell: cellOf(parent), area: area(parent), observed, cellsKnown: 1 }, opts);
    expect(plan.preSplit.map((p) => [p.path, p.listed])).toEqual([
      ['r0c0.1', 100],
      ['r0c0.1.2', 100],
    ]);
    expect(plan.children).toHaveLength(4 + 3 + 3);
    expect(plan.children.filter((c) => c.depth === 3).map((c) => c.path)).toEqual(['r0c0.1.2.0', 'r0c0.1.2.1', 'r0c0.1.2.2', 'r0c0.1.2.3']);
  });

  it('ignores results without usable coordinates (hostile page content)', () => {
    const junk = Array.from({ length: 100 }, (_, i) => [{ lat: null, lng: 1 }, { lat: Number.NaN, lng: ne.west }, { lat: Infinity, lng: Infinity }][i % 3]!);
    const plan = planSplit({ cell: cellOf(parent), area: area(parent), observed: junk, cellsKnown: 1 }, opts);
    expect(plan.preSplit).toEqual([]);
    expect(plan.children).toHaveLength(4);
  });

  it('stays under the cell cap: pre-splits only while 3 more cells fit', () => {
    const observed = pointsIn(quarter(ne, 2), 10, 10);
    const capped: PlannerOptions = { ...opts, maxCells: 100 };
    const none = planSplit({ cell: cellOf(parent), area: area(parent), observed, cellsKnown: 96 }, capped);
    expect(none.children).toHaveLength(4);
    const one = planSplit({ cell: cellOf(parent), area: area(parent), observed, cellsKnown: 93 }, capped);
    expect(one.preSplit.map((p) => p.path)).toEqual(['r0c0.1']);
    expect(one.children).toHaveLength(7);
  });

  it('never pre-splits a quadrant at the minimum size or outside the area', () => {
    // Quadrants of a cell fitting 18.5 fit 19.5; their own quarters would need 20.5 > 20.
    const small = boxFittingAt(18.5);
    const full = pointsIn(quarter(small, 1), 11, 11);
    expect(minCellReached(quarter(small, 1), opts)).toBe(true);
    expect(planSplit({ cell: cellOf(small), area: area(small), observed: full, cellsKnown: 1 }, opts).children).toHaveLength(4);
    // A polygon over the west 40% of the cell: NE and SE are outside, however crowded their views.
    const w = parent.west + 0.4 * (parent.east - parent.west);
    const west: Area = {
      kind: 'polygon',
      bbox: parent,
      polygons: [[[{ lat: parent.south, lng: parent.west }, { lat: parent.south, lng: w }, { lat: parent.north, lng: w }, { lat: parent.north, lng: parent.west }]]],
    };
    const plan = planSplit({ cell: cellOf(parent), area: west, observed: pointsIn(ne, 11, 11), cellsKnown: 1 }, opts);
    expect(plan.preSplit).toEqual([]);
    expect(plan.children.map((c) => c.outside)).toEqual([false, true, false, true]);
  });

  it('over random cells and result clouds: exact tiling, and every crowded child split unless it could not be', () => {
    const r = rng(71);
    let preSplits = 0;
    for (let i = 0; i < 150; i++) {
      const zoom = 10 + 8 * r();
      const cell = boxFittingAt(zoom, -170 + 340 * r());
      const w = cell.east - cell.west;
      const h = cell.north - cell.south;
      // One to three blobs of results, from loose to tight, some reaching outside the cell.
      const observed: LatLng[] = [];
      const blobs = 1 + Math.floor(r() * 3);
      const total = 40 + Math.floor(r() * 81);
      for (let b = 0; b < blobs; b++) {
        const c = { lat: cell.south - 0.1 * h + 1.2 * h * r(), lng: cell.west - 0.1 * w + 1.2 * w * r() };
        const spread = 0.02 + 0.25 * r();
        for (let k = 0; k < total / blobs; k++) {
          observed.push({ lat: c.lat + spread * h * (r() + r() - 1), lng: c.lng + spread * w * (r() + r() - 1) });
        }
      }
      const maxCells = 40 + Math.floor(r() * 40);
      const cellsKnown = Math.floor(r() * (maxCells - 4));
      const o: PlannerOptions = { ...opts, maxCells };
      const plan = planSplit({ cell: cellOf(cell), area: area(cell), observed, cellsKnown }, o);
      preSplits += plan.preSplit.length;
      expect(plan.children).toHaveLength(4 + 3 * plan.preSplit.length);
      expect(cellsKnown + plan.children.length).toBeLessThanOrEqual(maxCells);
      expectExactTiling(
        cell,
        plan.children.map((c) => c.bbox),
        r,
      );
      const full = cellsKnown + plan.children.length + 3 > maxCells;
      for (const child of plan.children) {
        if (listedIn(child.bbox, observed) >= THRESHOLD) expect(full || minCellReached(child.bbox, o)).toBe(true);
      }
      for (const p of plan.preSplit) {
        expect(p.listed).toBeGreaterThanOrEqual(THRESHOLD);
        expect(plan.children.some((c) => c.path === p.path)).toBe(false);
        expect(plan.children.filter((c) => c.path.startsWith(`${p.path}.`)).length).toBeGreaterThanOrEqual(4);
      }
    }
    // The cases are not all trivial.
    expect(preSplits).toBeGreaterThan(20);
  });
});
