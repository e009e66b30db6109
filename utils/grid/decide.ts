import type { CellDecision, CellDecisionInput, CellDecisionReason, PlannedCell, PlannerOptions } from './types';
import { DEFAULT_PLANNER_OPTIONS } from './options';
import { CHILDREN_PER_SPLIT, minCellReached } from './split';

/** The site zooming out by more than this means it found the cell too sparse (spec §1.1). */
const ZOOM_OUT_TOLERANCE = 0.5;
/**
 * A list this close to the cap counts as capped: the live cap is "about 120" (spec §1.3), not
 * exactly 120. The content script's cap flag (providers/google/observe.ts) uses the same number.
 */
export const CAP_MARGIN = 5;

/**
 * Whether a searched cell is finished, must be split, or is crowded beyond what splitting may
 * fix. Pure: everything comes in `input`. A cell is done only when the page proved it complete:
 * the box the page surely searched (measured view, calibrated geometry: `covered`) holds the
 * whole cell, AND the page itself said the list is whole (no-results panel, the single-result
 * redirect, or the end marker before the cap). The order matters:
 * 1. A search whose measured view did not hold the cell proves nothing about the part it missed.
 * 2. A no-results page or a single place (the site redirects to it) lists everything there is.
 * 3. Crowded = the cap was reached (within CAP_MARGIN: the live cap is "about 120"), or the
 *    list never showed its end marker. A list that ended below the cap is complete, also when
 *    the site zoomed out by itself (its wider view still holds the cell) or listed places
 *    beside the cell.
 * 4. A crowded cell is split unless at minimum size or out of room under the cell cap; then it
 *    is 'saturated' (its results kept, the cell reported, never dropped). A cell whose search
 *    could not be proven for another reason than crowding at the deepest zoom is reported with
 *    them as "unresolved" (isUnresolved).
 */
export function decideCell(input: CellDecisionInput, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): CellDecision {
  const covered = input.covered ?? true;
  if (!covered) return crowdedVerdict(input, opts, 'view-not-covering');
  if (input.pageKind === 'no-results') return { verdict: 'done', reason: 'no-results' };
  if (input.pageKind === 'place') return { verdict: 'done', reason: 'single-result' };
  if (input.organic <= 0) return { verdict: 'done', reason: 'no-results' };

  // The cap counts too when the extractor missed the flag: a full list is a full list.
  const capHit = input.capHit || input.organic >= opts.cap - CAP_MARGIN;
  if (!capHit && input.endOfList) return { verdict: 'done', reason: 'end-of-list' };
  const zoomedOut = input.finalZoom !== null && input.finalZoom < input.requestedZoom - ZOOM_OUT_TOLERANCE;
  if (zoomedOut) {
    // The site found the view too sparse, widened it, and the wider list was capped. Smaller
    // cells are sparser still and would be widened the same way, so splitting cannot help; a
    // view a little wider than the cell may hold enough to stay put and few enough to list
    // whole. Tried once; if that fails too, the cell is reported as unresolved. A widened
    // cell whose wider view stayed put but was capped is split, and its children start
    // widened (splitCell): the site would zoom out of their own views as it did of this one.
    if ((input.zoomOffset ?? 0) === 0) return { verdict: 'widen', reason: 'zoomed-out-capped' };
    return { verdict: 'saturated', reason: 'zoomed-out-capped' };
  }
  return crowdedVerdict(input, opts, capHit ? 'cap-hit' : 'no-end-marker');
}

/** Split when the cell can be split; otherwise saturated (crowded at the deepest zoom) or unresolved (not proven for another reason). */
function crowdedVerdict(
  input: CellDecisionInput,
  opts: PlannerOptions,
  why: 'cap-hit' | 'no-end-marker' | 'zoomed-out-capped' | 'view-not-covering',
): CellDecision {
  if (minCellReached(input.bbox, opts)) {
    return { verdict: 'saturated', reason: why === 'cap-hit' || why === 'no-end-marker' ? 'min-size' : why };
  }
  if (input.cellsKnown + CHILDREN_PER_SPLIT > opts.maxCells) return { verdict: 'saturated', reason: 'cell-cap' };
  return { verdict: 'split', reason: why };
}

/** The zoom offset of a widened re-search: half a level, a view √2 times the cell's fit. */
export const WIDEN_ZOOM_OFFSET = -0.5;

/** The same cell, to be searched again with a view wider than it fits (decideCell's 'widen'). */
export function widenedCell(cell: PlannedCell): PlannedCell {
  return { path: `${cell.path}.w`, bbox: cell.bbox, depth: cell.depth + 1, outside: false, zoomOffset: WIDEN_ZOOM_OFFSET };
}

/** Saturated cells whose search could not be proven for another reason than crowding at the deepest zoom. */
export function isUnresolved(reason: CellDecisionReason | undefined): boolean {
  return reason === 'zoomed-out-capped' || reason === 'view-not-covering' || reason === 'search-unknown';
}
