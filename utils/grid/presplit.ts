import { bboxContains } from '../geo/bbox';
import { cellSearchView, MAX_ZOOM, visibleBBox } from '../geo/mercator';
import type { LatLng } from '../geo/types';
import type { PlannedCell, PlannerOptions, PreSplit, SplitInput, SplitPlan } from './types';
import { DEFAULT_PLANNER_OPTIONS } from './options';
import { CHILDREN_PER_SPLIT, minCellReached, splitCell } from './split';

/**
 * A child whose own view already holds this share of the cap among the parent's results is
 * split before it is searched. The parent's list is a sample of what is there (the site
 * ranks by prominence and nearness to the centre), so a quarter showing 80 of them usually
 * holds more than 120: on the bench's worlds (4 keywords × 3 worlds × 2 seeds), 163 of 178
 * such children hit the cap when searched. Searching them costs a page load that only leads
 * to the same split. The saving is small (2.2% of all searches); at 1/3 (40) the wrong
 * guesses cost more than the right ones saved (+12%).
 */
export const PRESPLIT_SHARE = 2 / 3;

/**
 * How to replace a crowded cell: its four quadrants at the midpoint (splitCell), except that
 * a quadrant whose view already holds PRESPLIT_SHARE of the cap among the crowded search's
 * results is split again at once, and so on down while the results still say so, the cell
 * is above the minimum size and the cell cap has room. A pre-split cell is never stored or
 * searched (its children take its place); each is returned with its evidence, so the sweep
 * can say why a level is missing. Pure; the children tile
 * the cell exactly (each level is splitCell's exact tiling).
 *
 * The driver calls it for a cell decideCell chose to split; with no coordinates observed it
 * is exactly splitCell.
 */
export function planSplit(input: SplitInput, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): SplitPlan {
  const observed: LatLng[] = [];
  for (const p of input.observed) {
    if (typeof p.lat === 'number' && typeof p.lng === 'number' && Number.isFinite(p.lat) && Number.isFinite(p.lng)) {
      observed.push({ lat: p.lat, lng: p.lng });
    }
  }
  const threshold = Math.ceil(opts.cap * PRESPLIT_SHARE);
  const children: PlannedCell[] = [];
  const preSplit: PreSplit[] = [];
  // decideCell has checked that the first split fits under the cap; each pre-split adds 3 more.
  let room = opts.maxCells - input.cellsKnown - CHILDREN_PER_SPLIT;

  const place = (cell: PlannedCell): void => {
    if (cell.outside || room < CHILDREN_PER_SPLIT - 1 || minCellReached(cell.bbox, opts)) {
      children.push(cell);
      return;
    }
    // The child will be searched with this view, which for a cell at the area's edge or of
    // another shape than the viewport reaches beyond it: all of it counts against the cap.
    const view = visibleBBox(cellSearchView(cell.bbox, opts.viewport, MAX_ZOOM), opts.viewport);
    const listed = observed.filter((p) => bboxContains(view, p)).length;
    if (listed < threshold) {
      children.push(cell);
      return;
    }
    preSplit.push({ path: cell.path, reason: 'crowded-list', listed, threshold });
    room -= CHILDREN_PER_SPLIT - 1;
    for (const child of splitCell(cell, input.area, opts)) place(child);
  };

  for (const child of splitCell(input.cell, input.area, opts)) place(child);
  return { children, preSplit };
}
