import type { Cell, SweepCounters } from './sweep';

/** A new sweep's counters: every cell known, those outside the polygon already closed. */
export function initialCounters(cells: readonly Pick<Cell, 'status'>[]): SweepCounters {
  return {
    cellsKnown: cells.length,
    cellsDone: 0,
    cellsSplit: 0,
    cellsSaturated: 0,
    cellsQuarantined: 0,
    cellsOutside: cells.filter((c) => c.status === 'outside').length,
    listingsNew: 0,
    listingsSeen: 0,
    pageLoads: 0,
    errors: 0,
  };
}
