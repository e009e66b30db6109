import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, cellSearchView, latToWorldY, pointInPolygons } from '../../utils/geo';
import type { Area, BBox, LatLng, Polygon, Viewport } from '../../utils/geo';
import { DEFAULT_PLANNER_OPTIONS, planInitialCells } from '../../utils/grid';
import type { PlannedCell, PlannerOptions } from '../../utils/grid';
import { seededRandom as rng } from '../helpers/random';

/** The hand-computed cases below are at zoom 14 (the default start was 14 when they were written). */
const Z14: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, startZoom: 14 };

/** A simple polygon by construction: vertices at increasing angles around a centre. */
function starPolygon(r: () => number, c: LatLng, radius: number): Polygon {
  const n = 5 + Math.floor(r() * 20);
  const ring = Array.from({ length: n }, (_, k) => {
    const angle = ((k + 0.8 * r()) / n) * 2 * Math.PI;
    const rad = radius * (0.3 + 0.7 * r());
    return { lat: c.lat + rad * Math.sin(angle), lng: c.lng + rad * Math.cos(angle) };
  });
  return [ring];
}

function polygonArea(polygons: Polygon[]): Area {
  const pts = polygons.flat(2);
  const bbox = {
    south: Math.min(...pts.map((p) => p.lat)),
    north: Math.max(...pts.map((p) => p.lat)),
    west: Math.min(...pts.map((p) => p.lng)),
    east: Math.max(...pts.map((p) => p.lng)),
  };
  return { kind: 'polygon', bbox, polygons };
}

/** Degrees of longitude the visible part shows at `zoom`: (width − panel)·360 / (256·2^zoom). */
function visibleLngSpan(viewport: Viewport, zoom: number): number {
  return ((viewport.width - viewport.panelWidth) * 360) / (256 * 2 ** zoom);
}

function byPath(cells: PlannedCell[]): Map<string, PlannedCell> {
  return new Map(cells.map((c) => [c.path, c]));
}

describe('planInitialCells', () => {
  it('tiles a known area at the equator (hand-computed)', () => {
    // Zoom 14, default viewport: the visible part is 872·360/(256·16384) = 0.0748444° wide
    // and 800 px ≈ 0.0686646° tall at the equator. A 0.3° × 0.2° box needs
    // ceil(0.3/0.0748444) = ceil(4.008) = 5 columns and ceil(0.2/0.0686646) = ceil(2.913) = 3 rows.
    const bbox = { south: 0, north: 0.2, west: 0, east: 0.3 };
    const cells = planInitialCells({ kind: 'bbox', bbox }, Z14);
    expect(cells).toHaveLength(15);
    const cell = byPath(cells);
    expect(cell.get('r0c0')!.bbox.north).toBe(0.2); // row 0 is the northernmost
    expect(cell.get('r0c0')!.bbox.west).toBe(0);
    expect(cell.get('r2c4')!.bbox).toMatchObject({ south: 0, east: 0.3 });
    expect(cell.get('r1c2')!.bbox.east - cell.get('r1c2')!.bbox.west).toBeCloseTo(0.06, 12);
    expect(cells.every((c) => c.depth === 0 && !c.outside)).toBe(true);
  });

  it('over random areas: cells tile the bbox, each fits one search at startZoom, none is wasted', () => {
    const r = rng(21);
    for (let i = 0; i < 200; i++) {
      const viewport = { width: 800 + Math.floor(r() * 1200), height: 500 + Math.floor(r() * 700), panelWidth: r() < 0.2 ? 0 : 408 };
      const opts: PlannerOptions = { ...Z14, viewport, startZoom: 11 + Math.floor(r() * 6) };
      const h = 0.01 + 0.5 * r();
      const w = 0.01 + 0.5 * r();
      const south = -75 + (150 - h) * r();
      const west = -179 + (358 - w) * r();
      const bbox: BBox = { south, north: south + h, west, east: west + w };
      const cells = planInitialCells({ kind: 'bbox', bbox }, opts);
      const cell = byPath(cells);
      const rows = 1 + Math.max(...cells.map((c) => Number(/^r(\d+)/.exec(c.path)![1])));
      const cols = 1 + Math.max(...cells.map((c) => Number(/c(\d+)$/.exec(c.path)![1])));
      expect(cells).toHaveLength(rows * cols);
      expect(cell.size).toBe(cells.length);

      let degreeArea = 0;
      for (let row = 0; row < rows; row++) {
        for (let col = 0; col < cols; col++) {
          const b = cell.get(`r${row}c${col}`)!.bbox;
          degreeArea += (b.north - b.south) * (b.east - b.west);
          // Neighbours share edges bit-for-bit; the outer edges are the bbox's own.
          if (col + 1 < cols) expect(cell.get(`r${row}c${col + 1}`)!.bbox.west).toBe(b.east);
          else expect(b.east).toBe(bbox.east);
          if (row + 1 < rows) expect(cell.get(`r${row + 1}c${col}`)!.bbox.north).toBe(b.south);
          else expect(b.south).toBe(bbox.south);
          if (col === 0) expect(b.west).toBe(bbox.west);
          if (row === 0) expect(b.north).toBe(bbox.north);
          expect(b.south).toBeLessThan(b.north);
          // Fits one search at startZoom.
          expect(cellSearchView(b, viewport, MAX_ZOOM).zoom).toBeGreaterThanOrEqual(opts.startZoom);
        }
      }
      expect(degreeArea).toBeCloseTo(h * w, 10);
      // Rows have equal map height (Mercator), not equal degrees.
      const rowHeights = Array.from({ length: rows }, (_, row) => {
        const b = cell.get(`r${row}c0`)!.bbox;
        return latToWorldY(b.south, 0) - latToWorldY(b.north, 0);
      });
      for (const rh of rowHeights) expect(rh).toBeCloseTo(rowHeights[0]!, 10);
      // Not wastefully fine: one column fewer would be wider than a search shows.
      if (cols > 1) expect(w / (cols - 1)).toBeGreaterThan(visibleLngSpan(viewport, opts.startZoom));
      if (rows > 1) {
        const totalH = latToWorldY(bbox.south, 0) - latToWorldY(bbox.north, 0);
        expect(totalH / (rows - 1)).toBeGreaterThan(viewport.height / 2 ** opts.startZoom);
      }
    }
  });

  it('marks exactly the cells with no part in the polygon as outside', () => {
    const r = rng(22);
    let outside = 0;
    let searchable = 0;
    for (let i = 0; i < 40; i++) {
      const c = { lat: -60 + 120 * r(), lng: -170 + 340 * r() };
      const polygons = [starPolygon(r, c, 0.1 + 0.3 * r())];
      if (r() < 0.4) polygons.push(starPolygon(r, { lat: c.lat + 0.3, lng: c.lng + 0.3 }, 0.1));
      const cells = planInitialCells(polygonArea(polygons), Z14);
      // Points densely along every edge: a cell the boundary passes through holds some of them.
      const boundary: LatLng[] = [];
      for (const [ring] of polygons) {
        ring!.forEach((a, k) => {
          const b = ring![(k + 1) % ring!.length]!;
          for (let t = 0; t <= 1; t += 1 / 400) boundary.push({ lat: a.lat + t * (b.lat - a.lat), lng: a.lng + t * (b.lng - a.lng) });
        });
      }
      for (const cell of cells) {
        const b = cell.bbox;
        const samples = Array.from({ length: 40 }, () => ({
          lat: b.south + (b.north - b.south) * r(),
          lng: b.west + (b.east - b.west) * r(),
        }));
        const someInside = samples.some((p) => pointInPolygons(p, polygons));
        const pad = 0.002;
        const touched = boundary.some((p) => p.lat > b.south - pad && p.lat < b.north + pad && p.lng > b.west - pad && p.lng < b.east + pad);
        if (someInside) expect(cell.outside).toBe(false);
        if (!someInside && !touched) expect(cell.outside).toBe(true);
        if (cell.outside) outside++;
        else searchable++;
      }
    }
    expect(outside).toBeGreaterThan(50);
    expect(searchable).toBeGreaterThan(50);
  });

  it('does not add a column when the area is an exact number of views wide', () => {
    for (const startZoom of [11, 14, 16]) {
      for (let n = 1; n <= 7; n++) {
        for (const south of [0, 40, -33.3, 60]) {
          // n views wide (n·872 px at startZoom), 0.001° tall: width binds.
          const width = (n * 872 * 360) / (256 * 2 ** startZoom);
          const bbox = { south, north: south + 0.001, west: 3.5, east: 3.5 + width };
          const cells = planInitialCells({ kind: 'bbox', bbox }, { ...Z14, startZoom });
          expect(cells).toHaveLength(n);
          for (const c of cells) expect(cellSearchView(c.bbox, Z14.viewport, MAX_ZOOM).zoom).toBe(startZoom);
        }
      }
    }
  });

  it('refuses to plan more cells than the cap', () => {
    const bbox = { south: 0, north: 0.2, west: 0, east: 0.3 };
    expect(() => planInitialCells({ kind: 'bbox', bbox }, { ...Z14, maxCells: 14 })).toThrow(/15 cells/);
    expect(planInitialCells({ kind: 'bbox', bbox }, { ...Z14, maxCells: 15 })).toHaveLength(15);
  });
});
