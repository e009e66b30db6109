import { DEFAULT_VIEWPORT } from '../geo/mercator';
import type { PlannerOptions } from './types';

/**
 * Zoom 13 shows about 16.6 × 15.3 km at the equator (13 × 12 km at 40°) in the default
 * viewport. Lower, and the first searches of a city all hit the cap and are spent on splits;
 * higher, and open country costs 4× the searches per zoom level for cells that each list a
 * handful of places. Measured (npm run bench, cafés, three seeded worlds × 5 seeds, maxZoom
 * 19): starting at 14 cost 6.6× the lower bound in a sparse region against 3.6× at 13, while
 * a dense centre and a metropolitan area cost the same (±2%) at 12, 13 or 14. At 12 the
 * sparse region cost 4.1×: its background density overfills 12's cells and underfills 13's
 * children, so 13 is not "the coarser the better".
 */
export const DEFAULT_START_ZOOM = 12;

/**
 * Splitting stops when children would be searched above zoom 19 (a cell ~260 × 240 m at the
 * equator). The URL goes to 21 ("a few houses", spec §1.1) and a search lists what is in
 * view at any zoom; 18 was too coarse for a dense centre: the replica's central Seoul holds
 * up to ~150 cafés in one zoom-18 view (of 872 × 800 px), so such cells stayed saturated and a
 * quarter of the cafés were never listed. At 19 the densest view there holds ~55.
 */
export const DEFAULT_MAX_SEARCH_ZOOM = 20;

/** Cells one sweep may hold (all keywords): a trap guard, and a bound on the store's size. */
export const DEFAULT_MAX_CELLS = 20_000;

/** Google lists at most ~120 results per search (6 batches of 20, spec §1.3). */
export const RESULT_CAP = 120;

export const DEFAULT_PLANNER_OPTIONS: PlannerOptions = {
  viewport: DEFAULT_VIEWPORT,
  startZoom: DEFAULT_START_ZOOM,
  maxZoom: DEFAULT_MAX_SEARCH_ZOOM,
  maxCells: DEFAULT_MAX_CELLS,
  cap: RESULT_CAP,
};
