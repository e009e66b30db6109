import type { Cell } from '../domain/sweep';

export type NotAppliedReason =
  | 'already-committed' // done, split or saturated: a repeat after a restart, nothing to do
  | 'not-open' // quarantined or outside: not searchable until the user retries it
  | 'leased-by-other'; // another worker holds a valid lease and will settle it

export type SettleCheck = { ok: true } | { ok: false; reason: NotAppliedReason };

/**
 * May `holder` settle (commit, fail, release, renew) this cell at `now`? Yes while it holds
 * the lease, and also after its lease expired as long as nobody else has settled the cell or
 * holds a valid lease on it: the work was done, and keeping it beats searching the cell again.
 * This is what makes a late result after a slow page, or a repeat after a restart, harmless.
 */
export function settleCheck(cell: Cell, holder: string, now: number): SettleCheck {
  switch (cell.status) {
    case 'done':
    case 'split':
    case 'saturated':
      return { ok: false, reason: 'already-committed' };
    case 'quarantined':
    case 'outside':
      return { ok: false, reason: 'not-open' };
    case 'leased':
      if (cell.leaseHolder !== holder && cell.leaseUntil > now) return { ok: false, reason: 'leased-by-other' };
      return { ok: true };
    case 'pending':
      return { ok: true };
  }
}
