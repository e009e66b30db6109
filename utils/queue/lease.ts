import { cellClosed, fromRecord, openCellsOf, StoreError, withQueueKey, type CellRecord, type QueueKey, type Store } from '../store';
import type { Cell } from '../domain/sweep';
import { leaseNext, releaseJob, renewJob, type JobKind } from './jobs';

/** The sweep's cells as a queue of the one job machinery (utils/queue/jobs.ts). */
export const CELL_JOBS: JobKind<Cell, CellRecord> = {
  store: 'cells',
  noun: 'cell',
  toRecord: withQueueKey,
  fromRecord,
  availableAt: (key) => (key as QueueKey)[6],
  closed: cellClosed,
  // The status index reads exactly the leased cells, sweep by sweep: at most the old session's loops.
  async leased(tx) {
    const out: CellRecord[] = [];
    for (const sweepId of await tx.objectStore('sweeps').getAllKeys())
      out.push(...((await tx.objectStore('cells').index('bySweepStatus').getAll([sweepId, 'leased'])) as CellRecord[]));
    return out;
  },
};

export interface LeaseRequest {
  sweepId: string;
  /** Who takes the lease (a worker tab id): only it may settle the cell while the lease runs. */
  holder: string;
  now: number;
  /** How long the lease lasts; past `now + leaseMs` the cell is available to anyone again. */
  leaseMs: number;
}

/**
 * Lease the next cell of a sweep, or null when none is available at `now`.
 *
 * Order: cells available now (fresh ones before those whose backoff or lease has run out),
 * then keyword, then depth (coarse before fine), then distance from the user's view, then id.
 *
 * Cost: the walk goes over the lease-order index, which holds open cells only (see QueueKey),
 * reading keys, not records. Fresh cells are always available, so it stops at the first entry
 * while any is left; after that it passes over the cells whose lease or backoff is still
 * running (at most the workers plus the failing cells). It never reads done cells or listings.
 *
 * Whether the sweep is running is the caller's question: a lease on a paused sweep just expires.
 */
export function leaseNextCell(store: Store, req: LeaseRequest): Promise<Cell | null> {
  if (!req.sweepId) throw new StoreError('invalid', 'A cell lease needs a sweep id.');
  return leaseNext(store, CELL_JOBS, { range: openCellsOf(req.sweepId), holder: req.holder, now: req.now, leaseMs: req.leaseMs });
}

/** Extend a lease for a cell that takes long (a slow page); false when the holder no longer has it (jobs.ts renewJob). */
export function renewLease(store: Store, req: { cellId: string; holder: string; now: number; leaseMs: number }): Promise<boolean> {
  return renewJob(store, CELL_JOBS, { id: req.cellId, holder: req.holder, now: req.now, leaseMs: req.leaseMs });
}

/**
 * Give a lease back without counting an attempt (the sweep is pausing: captcha, consent, the
 * user). The cell is pending again and available at once. False if `holder` no longer has it.
 */
export function releaseCell(store: Store, req: { cellId: string; holder: string }): Promise<boolean> {
  return releaseJob(store, CELL_JOBS, { id: req.cellId, holder: req.holder });
}

/**
 * Put a leased cell back until `until` without counting an attempt: a team sweep's cell another
 * browser holds, or the team's database away (utils/team/gate.ts). False if `holder` no longer has it.
 */
export function deferCell(store: Store, req: { cellId: string; holder: string; until: number }): Promise<boolean> {
  return releaseJob(store, CELL_JOBS, { id: req.cellId, holder: req.holder, until: req.until });
}
