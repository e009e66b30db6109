import type { Projection } from './coverage';
import { drawOrder, snapped, type CoverageCell } from './draw-coverage';

/**
 * The cell drawn under a canvas point (CSS pixels, as the projection), or null. Split cells
 * are only outlines (their children fill them), so they are never the answer while a child is
 * there; where two filled cells overlap, the one drawn last (deeper) wins, as on screen. Rects
 * are half-open ([x, x + w)) and snapped as drawn, so a point on a shared edge belongs to
 * exactly one of the neighbours.
 */
export function cellAt<C extends CoverageCell>(cells: readonly C[], projection: Projection, point: { x: number; y: number }): C | null {
  let hit: C | null = null;
  let splitHit: C | null = null;
  for (const cell of drawOrder(cells)) {
    const r = snapped(projection, cell.bbox);
    if (point.x < r.x || point.y < r.y || point.x >= r.x + r.w || point.y >= r.y + r.h) continue;
    if (cell.status === 'split') splitHit = cell;
    else hit = cell;
  }
  // A split cell whose children are not loaded (yet) still answers for its own area.
  return hit ?? splitHit;
}
