import type { Cell } from '../domain/sweep';
import { isUnresolved } from './cell-verdict';

/** What a finished sweep cannot vouch for: its saturated cells, the unresolved among them, and the places they listed. */
export interface IncompleteCoverage {
  /** Saturated cells, the unresolved ones included. */
  saturated: number;
  unresolved: number;
  /**
   * Results the saturated cells listed (their `result.organic`, summed). A place near a
   * shared edge can be listed by two neighbouring cells, so this is "found in them", not a
   * count of distinct places; it is what may be incomplete.
   */
  places: number;
}

/**
 * Reduce a sweep's cells to the popup's warning, or null when every cell was proven. Counted
 * from the cells rather than the sweep's counters: sweeps of older versions have no
 * unresolved counter, and the place figure exists only on the cells anyway.
 */
export function incompleteCoverage(cells: readonly Pick<Cell, 'status' | 'result'>[]): IncompleteCoverage | null {
  let saturated = 0;
  let unresolved = 0;
  let places = 0;
  for (const c of cells) {
    if (c.status !== 'saturated') continue;
    saturated += 1;
    if (isUnresolved(c)) unresolved += 1;
    places += c.result?.organic ?? 0;
  }
  return saturated > 0 ? { saturated, unresolved, places } : null;
}
