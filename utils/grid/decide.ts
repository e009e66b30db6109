import type { BBox, Viewport } from '../geo/types';
import { latToWorldY, lngToWorldX } from '../geo/mercator';
import type { CellDecision, CellDecisionInput, PlannerOptions } from './types';
import { DEFAULT_PLANNER_OPTIONS } from './options';
import { CHILDREN_PER_SPLIT, minCellReached } from './split';

/** The site zooming out by more than this means it found the cell too sparse (spec §1.1). */
const ZOOM_OUT_TOLERANCE = 0.5;
/**
 * Below this fraction of the share of results expected inside the cell, the search strayed
 * and density is unknown. Expected is the cell's part of the visible map (visibleShare): 1
 * for a cell of the viewport's shape, less for a narrow one, whose search also lists the
 * places beside it. Against a flat 0.5, a strip-shaped area's cells (e.g. 5 × 2 km, a
 * view 5 × 4.6 km) were called "strayed" when they were merely crowded, and never split.
 */
const MIN_INSIDE_SHARE = 0.5;

/**
 * Whether a searched cell is finished, must be split, or is crowded beyond what splitting
 * may fix. Pure: everything comes in `input`. The order matters:
 * 1. A no-results page or a single place (the site redirects to it) lists everything there is.
 * 2. A search the site widened on its own (zoomed out), or whose results lie outside the
 *    cell far more than the cell's share of the view explains, says nothing about the
 *    cell's density: splitting would only repeat it smaller.
 * 3. Crowded = the cap was reached, or the list never showed its end marker.
 * 4. A crowded cell is split unless at minimum size or out of room under the cell cap; then
 *    it is 'saturated': its results are kept and the cell is reported, never dropped.
 */
export function decideCell(input: CellDecisionInput, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): CellDecision {
  if (input.pageKind === 'no-results') return { verdict: 'done', reason: 'no-results' };
  if (input.pageKind === 'place') return { verdict: 'done', reason: 'single-result' };
  if (input.organic <= 0) return { verdict: 'done', reason: 'no-results' };
  if (input.finalZoom !== null && input.finalZoom < input.requestedZoom - ZOOM_OUT_TOLERANCE) {
    return { verdict: 'done', reason: 'site-zoomed-out' };
  }
  if (input.insideShare < MIN_INSIDE_SHARE * visibleShare(input.bbox, input.requestedZoom, opts.viewport)) {
    return { verdict: 'done', reason: 'results-outside' };
  }

  // The cap counts too when the extractor missed the flag: a full list is a full list.
  const capHit = input.capHit || input.organic >= opts.cap;
  if (!capHit && input.endOfList) return { verdict: 'done', reason: 'end-of-list' };

  if (minCellReached(input.bbox, opts)) return { verdict: 'saturated', reason: 'min-size' };
  if (input.cellsKnown + CHILDREN_PER_SPLIT > opts.maxCells) return { verdict: 'saturated', reason: 'cell-cap' };
  return { verdict: 'split', reason: capHit ? 'cap-hit' : 'no-end-marker' };
}

/**
 * The part of the visible map (right of the panel) that `bbox` covers when searched at
 * `zoom`, in 0..1: the share of an even spread of results that would fall inside it.
 */
export function visibleShare(bbox: BBox, zoom: number, viewport: Viewport): number {
  const scale = 2 ** zoom;
  const visibleW = viewport.width - viewport.panelWidth;
  const w = Math.min(visibleW, (lngToWorldX(bbox.east, 0) - lngToWorldX(bbox.west, 0)) * scale);
  const h = Math.min(viewport.height, (latToWorldY(bbox.south, 0) - latToWorldY(bbox.north, 0)) * scale);
  return Math.max(0, (w * h) / (visibleW * viewport.height));
}
