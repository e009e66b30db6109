import { DEFAULT_VIEWPORT } from '../geo/mercator';
import type { PlannerOptions } from './types';

/**
 * Zoom 12 shows about 33 × 31 km at the equator (26 × 24 km at 40°) in the default viewport.
 * The keyword's density is unknown before the first search, so the start errs coarse: a
 * crowded coarse cell costs one extra search before its split, while a fine grid over open
 * country costs one search per cell that lists a handful of places. Measured once on the
 * bench's worlds (scripts/bench/worlds.ts; 4 keywords from 2% to 30% of places × 3 worlds ×
 * 2 seeds; searches over the lower bound, geometric mean / worst): start 14: 5.5 / 45; 13: 4.2 / 13; 12: 3.9 / 10; 11: 4.0 /
 * 10.5; the whole area as one cell: 4.0 / 10.7. Broad keywords alone did best at 13 (cafés
 * 3.5 against 3.7), rare ones at 12 (gyms 3.6 against 4.9).
 */
export const DEFAULT_START_ZOOM = 12;

/**
 * Splitting stops when children would be searched above zoom 21, the site's deepest zoom ("a
 * few houses", spec §1.1; a cell ~65 × 60 m at the equator). A cell still crowded there is
 * reported as saturated. (Earlier versions stopped at 20, one level short of what the site
 * offers, and reported cells saturated that zoom 21 would have resolved.)
 */
export const DEFAULT_MAX_SEARCH_ZOOM = 21;

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
