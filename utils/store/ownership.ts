import type { CellStatus, Cell } from '../domain/sweep';
import { maySettle, type SettleCheck } from '../domain/job';

export type { NotApplied, SettleCheck } from '../domain/job';

/** What a cell's closed statuses mean to the queue: searched, or put aside until the user retries it. */
export function cellClosed(status: string): 'settled' | 'not-open' | null {
  const s = status as CellStatus;
  if (s === 'done' || s === 'split' || s === 'saturated') return 'settled';
  if (s === 'quarantined' || s === 'outside') return 'not-open';
  return null;
}

/**
 * May `holder` settle (commit, fail, release, renew) this cell at `now`? The one rule of every
 * queue (utils/domain/job.ts maySettle): while it holds the lease, and after its lease expired
 * as long as nobody else settled the cell or holds a valid lease on it.
 */
export function settleCheck(cell: Cell, holder: string, now: number): SettleCheck {
  return maySettle(cell, holder, now, cellClosed);
}
