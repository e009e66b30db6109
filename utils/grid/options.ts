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
 * Splitting stops when children would be searched above zoom 20 (a cell ~130 × 120 m at the
 * equator). The URL goes to 21 ("a few houses", spec §1.1) and a search lists what is in
 * view at any zoom. 18 was too coarse for a dense centre: the replica's central Seoul holds
 * ~150 cafés in one zoom-18 view (872 × 800 px), so such cells stayed saturated and a
 * quarter of the cafés were never listed; at 19, cells of the ladder that cannot split
 * again (fitting 18.5) still held more than 120 in 2 of the bench's 24 sweeps.
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
