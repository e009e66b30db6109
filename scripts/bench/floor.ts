/**
 * How few searches could any planner make that splits the way this one does (midpoint
 * quadrants from the same initial grid) if it knew, before searching, how many places every
 * view holds? It would search only the final cells: those whose view lists fewer than the
 * cap, or that are at the minimum size. No search would be spent on a crowded cell. No
 * cleverer choice of which cells to search gets below it, so when it is itself above 2× the
 * lower bound, 2× is out of reach for this scheme: density varies inside every cell, so
 * cells that must each list fewer than 120 hold far fewer on average.
 */
import { cellSearchView, MAX_ZOOM, visibleBBox } from '../../utils/geo';
import type { Area, Viewport } from '../../utils/geo/types';
import { DEFAULT_PLANNER_OPTIONS, minCellReached, planInitialCells, splitCell } from '../../utils/grid';
import type { PlannedCell, PlannerOptions } from '../../utils/grid';
import { queryMatcher } from '../../tests/replica/search';
import type { World } from '../../tests/replica/world';

export function quadtreeFloor(world: World, area: Area, keyword: string, viewport: Viewport, planner: Partial<PlannerOptions> = {}): number {
  const opts: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, ...planner, viewport };
  const matcher = queryMatcher(keyword);
  const listed = (cell: PlannedCell): number => {
    const view = visibleBBox(cellSearchView(cell.bbox, viewport, MAX_ZOOM), viewport);
    let n = 0;
    for (const p of world.placesIn(view)) if (matcher.matches(p)) n++;
    return n;
  };
  let searches = 0;
  const stack = planInitialCells(area, opts);
  while (stack.length > 0) {
    const cell = stack.pop()!;
    if (cell.outside) continue;
    if (listed(cell) < opts.cap || minCellReached(cell.bbox, opts)) searches++;
    else stack.push(...splitCell(cell, area, opts));
  }
  return searches;
}
