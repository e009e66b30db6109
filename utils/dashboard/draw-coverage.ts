import type { Area, BBox, LatLng } from '../geo/types';
import type { CellStatus } from '../domain/sweep';
import { isUnresolved, type VerdictCell } from './cell-verdict';
import { AREA_OUTLINE, MAP_BACKGROUND, PLACE_COLOUR, STATUS_COLOURS, UNRESOLVED_HATCH, type CanvasSize, type Projection, type Rect } from './coverage';

/** The part of a 2D context the coverage map uses, so a test can hand in its own raster. */
export type CoverageContext = Pick<
  CanvasRenderingContext2D,
  'fillStyle' | 'strokeStyle' | 'lineWidth' | 'fillRect' | 'strokeRect' | 'beginPath' | 'moveTo' | 'lineTo' | 'closePath' | 'stroke'
>;

export interface CoverageCell {
  bbox: BBox;
  status: CellStatus;
  depth: number;
  /** The last search's verdict: an unresolved saturated cell is hatched. */
  result?: VerdictCell['result'];
}

export interface CoverageScene {
  size: CanvasSize;
  cells: readonly CoverageCell[];
  /** Collected places; those without coordinates are skipped. A place's own colour (by the sites that list it) replaces the plain one. */
  places: Iterable<{ lat: number | null; lng: number | null; colour?: string }>;
  area: Area | null;
  /** Side of a place's dot in canvas pixels. */
  dotSize?: number;
  /** Saturated and unresolved cells grouped into areas (utils/coverage/dense-areas.ts): outlined over the cells. */
  denseAreas?: readonly { bbox: BBox }[];
}

/** The outline of a dense area: dark and thick enough to find a 60 m mall on a district's map. */
export const DENSE_AREA_OUTLINE = '#202124';
const DENSE_AREA_WIDTH = 2;
/** An area smaller than this (pixels) is outlined at this size around its centre, so it stays visible. */
const DENSE_AREA_MIN_PX = 8;

/** Cells smaller than this (pixels) get no border: at deep splits borders would hide the colours. */
const MIN_BORDERED = 6;
/** Distance between hatch lines, along an axis (pixels), and their width. */
export const HATCH_SPACING = 6;
const HATCH_WIDTH = 1.5;

/**
 * Paint the sweep's cells by status, split cells as outlines over their children, the area's
 * outline, then the places as dots. Cell edges are snapped to whole pixels so neighbouring
 * cells meet without an anti-aliased seam of background between them.
 */
export function drawCoverage(ctx: CoverageContext, scene: CoverageScene, projection: Projection): void {
  const { width, height } = scene.size;
  ctx.fillStyle = MAP_BACKGROUND;
  ctx.fillRect(0, 0, width, height);

  const cells = drawOrder(scene.cells);
  const filled = cells.filter((c) => c.status !== 'split');
  for (const cell of filled) {
    const r = snapped(projection, cell.bbox);
    ctx.fillStyle = STATUS_COLOURS[cell.status];
    ctx.fillRect(r.x, r.y, r.w, r.h);
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = MAP_BACKGROUND;
  for (const cell of filled) {
    const r = snapped(projection, cell.bbox);
    if (r.w >= MIN_BORDERED && r.h >= MIN_BORDERED) ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  }
  // Unresolved cells keep the saturated fill (they are saturated) under diagonal stripes, so
  // they read as "saturated, and not even proven crowded" at a glance and in grey-scale.
  ctx.strokeStyle = UNRESOLVED_HATCH;
  ctx.lineWidth = HATCH_WIDTH;
  for (const cell of filled) {
    if (!isUnresolved(cell)) continue;
    const segments = hatchSegments(snapped(projection, cell.bbox), HATCH_SPACING);
    if (segments.length === 0) continue;
    ctx.beginPath();
    for (const [a, b] of segments) {
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
    }
    ctx.stroke();
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = STATUS_COLOURS.split;
  for (const cell of cells) {
    if (cell.status !== 'split') continue;
    const r = snapped(projection, cell.bbox);
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  }

  ctx.strokeStyle = DENSE_AREA_OUTLINE;
  ctx.lineWidth = DENSE_AREA_WIDTH;
  for (const area of scene.denseAreas ?? []) {
    const r = atLeast(snapped(projection, area.bbox), DENSE_AREA_MIN_PX);
    ctx.strokeRect(r.x - 1, r.y - 1, r.w + 2, r.h + 2);
  }

  if (scene.area?.kind === 'polygon') {
    ctx.strokeStyle = AREA_OUTLINE;
    ctx.lineWidth = 1.5;
    for (const polygon of scene.area.polygons) for (const ring of polygon) strokeRing(ctx, projection, ring);
  }

  const dot = scene.dotSize ?? 2;
  for (const place of scene.places) {
    if (place.lat === null || place.lng === null) continue;
    ctx.fillStyle = place.colour ?? PLACE_COLOUR;
    const p = projection.point({ lat: place.lat, lng: place.lng });
    ctx.fillRect(Math.round(p.x - dot / 2), Math.round(p.y - dot / 2), dot, dot);
  }
}

/**
 * Shallow first, stable: a child always lands on top of what came before it. The hit test
 * uses the same order, so the cell under the pointer is the one drawn there.
 */
export function drawOrder<C extends { depth: number }>(cells: readonly C[]): C[] {
  return [...cells].sort((a, b) => a.depth - b.depth);
}

/** A cell's rectangle with its edges on whole pixels, as drawn. */
export function snapped(projection: Projection, bbox: BBox): Rect {
  const r = projection.rect(bbox);
  const x = Math.round(r.x);
  const y = Math.round(r.y);
  return { x, y, w: Math.round(r.x + r.w) - x, h: Math.round(r.y + r.h) - y };
}

/** The rectangle grown about its centre to at least `min` pixels a side. */
function atLeast(r: Rect, min: number): Rect {
  const w = Math.max(r.w, min);
  const h = Math.max(r.h, min);
  return { x: r.x + (r.w - w) / 2, y: r.y + (r.h - h) / 2, w, h };
}

type Point = { x: number; y: number };

/**
 * Diagonal lines "/" (x + y = k, k every `spacing` pixels from the top-left corner) cut to
 * the rectangle, computed rather than clipped so the canvas state is never touched: the
 * segment of x + y = k inside the box runs from x = max(x0, k − y1) to x = min(x1, k − y0).
 */
export function hatchSegments(rect: Rect, spacing: number): [Point, Point][] {
  const x0 = rect.x;
  const y0 = rect.y;
  const x1 = rect.x + rect.w;
  const y1 = rect.y + rect.h;
  if (rect.w <= 0 || rect.h <= 0 || spacing <= 0) return [];
  const out: [Point, Point][] = [];
  for (let k = x0 + y0 + spacing; k < x1 + y1; k += spacing) {
    const xa = Math.max(x0, k - y1);
    const xb = Math.min(x1, k - y0);
    if (xb > xa)
      out.push([
        { x: xa, y: k - xa },
        { x: xb, y: k - xb },
      ]);
  }
  return out;
}

function strokeRing(ctx: CoverageContext, projection: Projection, ring: readonly LatLng[]): void {
  ctx.beginPath();
  ring.forEach((point, i) => {
    const p = projection.point(point);
    if (i === 0) ctx.moveTo(p.x, p.y);
    else ctx.lineTo(p.x, p.y);
  });
  ctx.closePath();
  ctx.stroke();
}
