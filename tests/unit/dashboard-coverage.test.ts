import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  fitProjection,
  MAP_BACKGROUND,
  ON_ALL_SITES_COLOUR,
  ON_SOME_SITES_COLOUR,
  PLACE_COLOUR,
  sitesListing,
  SITES_LISTING_COLOURS,
  STATUS_COLOURS,
  STATUS_ORDER,
} from '../../utils/dashboard/coverage';
import { drawCoverage, type CoverageCell, type CoverageContext } from '../../utils/dashboard/draw-coverage';
import type { BBox } from '../../utils/geo/types';
import { gridCell } from '../helpers/bbox-grid';
import { createRng } from '../replica/prng';

const DEG = Math.PI / 180;
/** Mercator's northing, written out independently of utils/geo/mercator: ln tan(π/4 + φ/2). */
const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * DEG) / 2));

describe('coverage projection', () => {
  it('puts a cell where a hand calculation says, keeping the Mercator aspect', () => {
    // Area 40° wide, 20° tall around (0, 0) on a 400×300 canvas, no padding.
    // Width in radians 40·π/180 = 0.69813; height 2·ln tan(50°) = 0.35085 → wider than 400:300,
    // so the width fills the canvas: 400 px / 0.69813 rad = 572.96 px per radian.
    const area: BBox = { south: -10, west: -20, north: 10, east: 20 };
    const p = fitProjection(area, { width: 400, height: 300 });
    const pxPerRad = 400 / (40 * DEG);
    const areaHeight = 2 * mercY(10) * pxPerRad; // 201.03
    expect(areaHeight).toBeCloseTo(201.03, 1);
    const top = (300 - areaHeight) / 2; // 49.48: centred vertically

    // The north-east quarter: lng 0..20, lat 0..10.
    const r = p.rect({ south: 0, west: 0, north: 10, east: 20 });
    expect(r.x).toBeCloseTo(200, 6);
    expect(r.w).toBeCloseTo(200, 6);
    expect(r.y).toBeCloseTo(top, 6);
    expect(r.h).toBeCloseTo(areaHeight / 2, 6);
    expect(top).toBeCloseTo(49.48, 1);
  });

  it('draws a 1°×1° cell at 60°N twice as tall as wide (1/cos 60°), as the map shows it', () => {
    const cell: BBox = { south: 59.5, west: 10, north: 60.5, east: 11 };
    const r = fitProjection({ south: 59, west: 9, north: 61, east: 12 }, { width: 500, height: 500 }).rect(cell);
    expect(r.h / r.w).toBeCloseTo(2, 2);
  });

  it('fits any area inside the padded canvas, centred, touching the padding on its tighter side (seeded)', () => {
    const rng = createRng(42);
    for (let run = 0; run < 300; run++) {
      const south = rng.next() * 160 - 80;
      const north = Math.min(84, south + 0.001 + rng.next() * 5);
      const west = rng.next() * 350 - 175;
      const east = Math.min(179, west + 0.001 + rng.next() * 5);
      const size = { width: rng.int(50, 1600), height: rng.int(50, 1000) };
      const padding = rng.int(0, 20);
      const r = fitProjection({ south, west, north, east }, size, padding).rect({ south, west, north, east });
      const eps = 1e-6;
      expect(r.x).toBeGreaterThanOrEqual(padding - eps);
      expect(r.y).toBeGreaterThanOrEqual(padding - eps);
      expect(r.x + r.w).toBeLessThanOrEqual(size.width - padding + eps);
      expect(r.y + r.h).toBeLessThanOrEqual(size.height - padding + eps);
      expect(r.x + r.w / 2).toBeCloseTo(size.width / 2, 6);
      expect(r.y + r.h / 2).toBeCloseTo(size.height / 2, 6);
      const fillsWidth = Math.abs(r.w - (size.width - 2 * padding)) < 1e-6;
      const fillsHeight = Math.abs(r.h - (size.height - 2 * padding)) < 1e-6;
      expect(fillsWidth || fillsHeight).toBe(true);
      // The aspect is the Mercator one: width/height in radians of longitude / of northing.
      expect(r.w / r.h).toBeCloseTo(((east - west) * DEG) / (mercY(north) - mercY(south)), 6);
    }
  });

  it('lands every point of a cell inside that cell’s rectangle (seeded)', () => {
    const rng = createRng(7);
    const area: BBox = { south: 37.4, west: 126.8, north: 37.7, east: 127.2 };
    const p = fitProjection(area, { width: 800, height: 500 }, 10);
    for (let run = 0; run < 500; run++) {
      const south = 37.4 + rng.next() * 0.25;
      const west = 126.8 + rng.next() * 0.35;
      const cell = { south, west, north: south + 0.05 * rng.next() + 1e-4, east: west + 0.05 * rng.next() + 1e-4 };
      const r = p.rect(cell);
      const pt = p.point({ lat: cell.south + rng.next() * (cell.north - cell.south), lng: cell.west + rng.next() * (cell.east - cell.west) });
      expect(pt.x).toBeGreaterThanOrEqual(r.x - 1e-9);
      expect(pt.x).toBeLessThanOrEqual(r.x + r.w + 1e-9);
      expect(pt.y).toBeGreaterThanOrEqual(r.y - 1e-9);
      expect(pt.y).toBeLessThanOrEqual(r.y + r.h + 1e-9);
    }
  });

  it('frames a single place without dividing by zero', () => {
    const bounds = boundsOf([], [{ lat: 37.5, lng: 127 }]);
    expect(bounds).toEqual({ south: 37.5, west: 127, north: 37.5, east: 127 });
    const pt = fitProjection(bounds!, { width: 300, height: 200 }).point({ lat: 37.5, lng: 127 });
    // Mid-canvas to a hundredth of a pixel (the widened box is symmetric in degrees, not in Mercator).
    expect(pt.x).toBeCloseTo(150, 2);
    expect(pt.y).toBeCloseTo(100, 2);
  });

  it('bounds every box and point, skips positions that are not numbers, and says when there is nothing', () => {
    expect(boundsOf([])).toBeNull();
    expect(
      boundsOf(
        [{ south: 1, west: 2, north: 3, east: 4 }],
        [
          { lat: -1, lng: 5 },
          { lat: Number.NaN, lng: 100 },
        ],
      ),
    ).toEqual({ south: -1, west: 2, north: 3, east: 5 });
  });
});

describe('status colours', () => {
  it('gives every status its own opaque colour, distinct from the background and the dots', () => {
    const colours = STATUS_ORDER.map((s) => STATUS_COLOURS[s]);
    expect(STATUS_ORDER).toHaveLength(7);
    for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set([...colours, MAP_BACKGROUND, PLACE_COLOUR]).size).toBe(9);
  });
});

/**
 * A tiny raster standing in for the canvas (happy-dom has no 2D context): fillRect paints the
 * pixels whose centres it covers, strokeRect paints a 1-px frame. Enough to read back colours.
 */
function raster(width: number, height: number) {
  const px: string[] = new Array(width * height).fill('');
  const paint = (x: number, y: number, colour: string) => {
    if (x >= 0 && y >= 0 && x < width && y < height) px[y * width + x] = colour;
  };
  const ctx = {
    fillStyle: '' as unknown,
    strokeStyle: '' as unknown,
    lineWidth: 1,
    fillRect(x: number, y: number, w: number, h: number) {
      for (let j = Math.ceil(y - 0.5); j + 0.5 < y + h; j++) for (let i = Math.ceil(x - 0.5); i + 0.5 < x + w; i++) paint(i, j, String(this.fillStyle));
    },
    strokeRect(x: number, y: number, w: number, h: number) {
      const [x0, y0, x1, y1] = [Math.floor(x), Math.floor(y), Math.floor(x + w), Math.floor(y + h)];
      for (let i = x0; i <= x1; i++) {
        paint(i, y0, String(this.strokeStyle));
        paint(i, y1, String(this.strokeStyle));
      }
      for (let j = y0; j <= y1; j++) {
        paint(x0, j, String(this.strokeStyle));
        paint(x1, j, String(this.strokeStyle));
      }
    },
    beginPath() {},
    moveTo() {},
    lineTo() {},
    closePath() {},
    stroke() {},
  };
  return { ctx: ctx as unknown as CoverageContext, at: (x: number, y: number) => px[Math.floor(y) * width + Math.floor(x)] };
}

describe('drawing the coverage', () => {
  // A 2×2 grid at the equator (nearly square in Mercator); the south-east cell split in four.
  const se = gridCell(1, 1);
  const quarter = (r: number, c: number) => gridCell(r, c, 0.5, se.south, se.west);
  const cells: CoverageCell[] = [
    // Children listed before their parent: drawing must not depend on the store's order.
    { bbox: quarter(0, 0), status: 'pending', depth: 1 },
    { bbox: quarter(0, 1), status: 'leased', depth: 1 },
    { bbox: quarter(1, 0), status: 'done', depth: 1 },
    { bbox: quarter(1, 1), status: 'outside', depth: 1 },
    { bbox: gridCell(0, 0), status: 'done', depth: 0 },
    { bbox: gridCell(0, 1), status: 'saturated', depth: 0 },
    { bbox: gridCell(1, 0), status: 'quarantined', depth: 0 },
    { bbox: se, status: 'split', depth: 0 },
  ];
  const area = { kind: 'bbox' as const, bbox: { south: -1, west: -1, north: 1, east: 1 } };
  const size = { width: 200, height: 200 };

  function draw(places: { lat: number | null; lng: number | null; colour?: string }[] = []) {
    const r = raster(size.width, size.height);
    const projection = fitProjection(area.bbox, size);
    drawCoverage(r.ctx, { size, cells, places, area }, projection);
    const centre = (b: BBox) => projection.point({ lat: (b.south + b.north) / 2, lng: (b.west + b.east) / 2 });
    return { ...r, centre };
  }

  it('fills each cell with its status colour and leaves split cells to their children', () => {
    const { at, centre } = draw();
    for (const cell of cells) {
      if (cell.status === 'split') continue;
      const c = centre(cell.bbox);
      expect(at(c.x, c.y), `${cell.status} at ${JSON.stringify(cell.bbox)}`).toBe(STATUS_COLOURS[cell.status]);
    }
    // The split cell's own centre is a corner shared by its children: never the split colour inside.
    const inside = centre(quarter(0, 0));
    expect(at(inside.x, inside.y)).not.toBe(STATUS_COLOURS.split);
  });

  it('outlines a split cell in the split colour', () => {
    const { at } = draw();
    const projection = fitProjection(area.bbox, size);
    const r = projection.rect(se);
    // Midway along its east edge, one pixel in.
    expect(at(Math.round(r.x + r.w) - 1, r.y + r.h / 3)).toBe(STATUS_COLOURS.split);
  });

  it('draws places as dots on top of the cells and skips places without a position', () => {
    const place = { lat: 0.5, lng: -0.5 }; // inside the done cell
    const { at, centre } = draw([place, { lat: null, lng: null }]);
    const projection = fitProjection(area.bbox, size);
    const p = projection.point(place);
    expect(at(p.x, p.y)).toBe(PLACE_COLOUR);
    const c = centre(gridCell(0, 1));
    expect(at(c.x, c.y)).toBe(STATUS_COLOURS.saturated);
  });

  it('colours each place by the sites that list its business, when asked', () => {
    const all = { lat: 0.5, lng: -0.5, colour: SITES_LISTING_COLOURS[sitesListing(3, 3)] };
    const some = { lat: 0.6, lng: -0.6, colour: SITES_LISTING_COLOURS[sitesListing(2, 3)] };
    const one = { lat: 0.7, lng: -0.7, colour: SITES_LISTING_COLOURS[sitesListing(1, 3)] };
    const { at } = draw([all, some, one]);
    const projection = fitProjection(area.bbox, size);
    const colourAt = (p: { lat: number; lng: number }) => at(projection.point(p).x, projection.point(p).y);
    expect([colourAt(all), colourAt(some), colourAt(one)]).toEqual([ON_ALL_SITES_COLOUR, ON_SOME_SITES_COLOUR, PLACE_COLOUR]);
  });
});
