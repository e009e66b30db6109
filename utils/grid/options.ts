import { DEFAULT_VIEWPORT } from '../geo/mercator';
import type { PlannerOptions } from './types';

/**
 * Zoom 14 shows about 8.3 × 7.6 km at the equator (6.4 × 5.9 km at 40°) in the default
 * viewport: a neighbourhood. Lower, and Google ranks by prominence over a whole city, so
 * nearly every first search hits the cap and is wasted on a split; higher, and sparse
 * countryside costs 4× the searches per zoom level for cells that each list a handful of
 * places. At 14 a 20 × 20 km city starts at 9 (equator) to 16 (40°) searches per keyword.
 */
export const DEFAULT_START_ZOOM = 14;

/**
 * Splitting stops when children would need more than zoom 18 (a cell ~500 m across at the
 * equator): Google still lists results there, while MAX_ZOOM (21) only shows a few houses.
 */
export const DEFAULT_MAX_SEARCH_ZOOM = 18;

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
