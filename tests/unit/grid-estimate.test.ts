import { describe, expect, it } from 'vitest';
import type { Area } from '../../utils/geo';
import { DEFAULT_PLANNER_OPTIONS, TYPICAL_SPLIT_FACTOR, checkCellBudget, estimateSweep, planInitialCells } from '../../utils/grid';
import type { PlannerOptions } from '../../utils/grid';

/** The hand-computed cases below are at zoom 14 (the default start was 14 when they were written). */
const Z14: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, startZoom: 14 };

// 0.3° × 0.2° at the equator: 5 columns × 3 rows at zoom 14 (hand-computed in grid-plan.test.ts).
const box: Area = { kind: 'bbox', bbox: { south: 0, north: 0.2, west: 0, east: 0.3 } };

describe('estimateSweep', () => {
  it('counts a known area (hand-computed)', () => {
    const e = estimateSweep(box, 3, Z14, { secondsPerCell: 12 });
    expect(e).toMatchObject({ rows: 3, cols: 5, cellsPerKeyword: 15, searchablePerKeyword: 15, keywords: 3 });
    expect(e.initialCells).toBe(45);
    // The lower bound is one search per searchable cell per keyword; typical = ×2 (assumed).
    expect(TYPICAL_SPLIT_FACTOR).toBe(2);
    expect(e.searches).toEqual({ min: 45, typical: 90 });
    expect(e.seconds).toEqual({ min: 540, typical: 1080 });
  });

  it('does not count cells wholly outside a polygon as searches', () => {
    // The triangle (0,0)-(0,0.3)-(0.2,0) covers the south-west half of the box. A cell is
    // outside when its south-west corner is on or above the diagonal lat/0.2 + lng/0.3 = 1:
    // row 0 (south edge 0.1333): lng_w/0.3 ≥ 1/3 → columns 2, 3, 4; row 1 (south edge 0.0667):
    // lng_w/0.3 ≥ 2/3 → column 4; row 2: none. 4 outside, 11 searchable.
    const triangle: Area = {
      kind: 'polygon',
      bbox: box.bbox,
      polygons: [
        [
          [
            { lat: 0, lng: 0 },
            { lat: 0, lng: 0.3 },
            { lat: 0.2, lng: 0 },
          ],
        ],
      ],
    };
    const e = estimateSweep(triangle, 2, Z14, { secondsPerCell: 10 });
    expect(e.cellsPerKeyword).toBe(15);
    expect(e.searchablePerKeyword).toBe(11);
    expect(e.searchableExact).toBe(true);
    expect(e.initialCells).toBe(30);
    expect(e.searches.min).toBe(22);
    const outside = planInitialCells(triangle, Z14)
      .filter((c) => c.outside)
      .map((c) => c.path);
    expect(outside.sort()).toEqual(['r0c2', 'r0c3', 'r0c4', 'r1c4']);
  });

  it('estimates searchable cells from areas when the grid is too large to classify', () => {
    // Half of a 30° × 30° box (about 400 × 480 cells): hundreds of thousands of cells, so only the area ratio is used.
    const half: Area = {
      kind: 'polygon',
      bbox: { south: 0, north: 30, west: 0, east: 30 },
      polygons: [
        [
          [
            { lat: 0, lng: 0 },
            { lat: 0, lng: 30 },
            { lat: 30, lng: 0 },
          ],
        ],
      ],
    };
    const e = estimateSweep(half, 1, Z14, { secondsPerCell: 10 });
    expect(e.searchableExact).toBe(false);
    expect(e.searchablePerKeyword / e.cellsPerKeyword).toBeGreaterThan(0.4);
    expect(e.searchablePerKeyword / e.cellsPerKeyword).toBeLessThan(0.6);
  });
});

describe('checkCellBudget', () => {
  it('accepts a city-sized area', () => {
    expect(checkCellBudget(box, 5, Z14)).toBeNull();
  });

  it('refuses a whole country at zoom 14, saying how many cells and what to do', () => {
    // France's bbox 42.3..51.1°N, 4.8°W..8.2°E. Columns: 13° / (872·360/(256·16384) = 0.0748444°)
    // = 173.69 → 174. Rows: Mercator height at zoom 0, (256/2π)·(ln tan(45° + 51.1°/2) −
    // ln tan(45° + 42.3°/2)) = 9.15389, over 800/16384 = 0.048828 per row = 187.47 → 188.
    const mercY = (lat: number) => (256 / (2 * Math.PI)) * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
    const rows = Math.ceil((mercY(51.1) - mercY(42.3)) / (800 / 16384));
    const cols = Math.ceil(13 / ((872 * 360) / (256 * 16384)));
    expect([rows, cols]).toEqual([188, 174]);
    const france: Area = { kind: 'bbox', bbox: { south: 42.3, north: 51.1, west: -4.8, east: 8.2 } };
    const error = checkCellBudget(france, 1, Z14);
    expect(error?.code).toBe('too-large');
    expect(error?.params?.cells).toBe(188 * 174);
    expect(error?.message).toContain('32,712 grid cells');
    expect(error?.message).toMatch(/smaller area or fewer keywords/);
  });

  it('counts every keyword', () => {
    const opts = { ...Z14, maxCells: 40 };
    expect(checkCellBudget(box, 2, opts)).toBeNull(); // 30 cells
    const error = checkCellBudget(box, 3, opts); // 45 cells
    expect(error?.code).toBe('too-large');
    expect(error?.message).toContain('45 grid cells');
    expect(error?.message).toContain('15 for each of 3 keywords');
  });
});
