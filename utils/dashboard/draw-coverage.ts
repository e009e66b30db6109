import type { Area, BBox, LatLng } from '../geo/types';
import type { CellStatus } from '../sweep/types';
import { AREA_OUTLINE, MAP_BACKGROUND, PLACE_COLOUR, STATUS_COLOURS, type CanvasSize, type Projection } from './coverage';

/** The part of a 2D context the coverage map uses, so a test can hand in its own raster. */
export type CoverageContext = Pick<
  CanvasRenderingContext2D,
  'fillStyle' | 'strokeStyle' | 'lineWidth' | 'fillRect' | 'strokeRect' | 'beginPath' | 'moveTo' | 'lineTo' | 'closePath' | 'stroke'
>;

export interface CoverageCell {
  bbox: BBox;
  status: CellStatus;
  depth: number;
}

export interface CoverageScene {
  size: CanvasSize;
  cells: readonly CoverageCell[];
  /** Collected places; those without coordinates are skipped. */
  places: Iterable<{ lat: number | null; lng: number | null }>;
  area: Area | null;
  /** Side of a place's dot in canvas pixels. */
  dotSize?: number;
}

/** Cells smaller than this (pixels) get no border: at deep splits borders would hide the colours. */
const MIN_BORDERED = 6;

/**
 * Paint the sweep's cells by status, split cells as outlines over their children, the area's
 * outline, then the places as dots. Cell edges are snapped to whole pixels so neighbouring
 * cells meet without an anti-aliased seam of background between them.
 */
export function drawCoverage(ctx: CoverageContext, scene: CoverageScene, projection: Projection): void {
  const { width, height } = scene.size;
  ctx.fillStyle = MAP_BACKGROUND;
  ctx.fillRect(0, 0, width, height);

  // Shallow first: a child always lands on top of what came before it.
  const cells = [...scene.cells].sort((a, b) => a.depth - b.depth);
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
  ctx.strokeStyle = STATUS_COLOURS.split;
  for (const cell of cells) {
    if (cell.status !== 'split') continue;
    const r = snapped(projection, cell.bbox);
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  }

  if (scene.area?.kind === 'polygon') {
    ctx.strokeStyle = AREA_OUTLINE;
    ctx.lineWidth = 1.5;
    for (const polygon of scene.area.polygons) for (const ring of polygon) strokeRing(ctx, projection, ring);
  }

  const dot = scene.dotSize ?? 2;
  ctx.fillStyle = PLACE_COLOUR;
  for (const place of scene.places) {
    if (place.lat === null || place.lng === null) continue;
    const p = projection.point({ lat: place.lat, lng: place.lng });
    ctx.fillRect(Math.round(p.x - dot / 2), Math.round(p.y - dot / 2), dot, dot);
  }
}

function snapped(projection: Projection, bbox: BBox) {
  const r = projection.rect(bbox);
  const x = Math.round(r.x);
  const y = Math.round(r.y);
  return { x, y, w: Math.round(r.x + r.w) - x, h: Math.round(r.y + r.h) - y };
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
