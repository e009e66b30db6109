import { fromRecord, openCellsOf, StoreError, withQueueKey, type QueueKey, type Store } from '../store';
import type { Cell } from '../domain/sweep';

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
 * A lease is just a time (as in Crawlee): the cell is written as leased until `now + leaseMs`,
 * and once that passes it is simply available again. No clean-up pass runs after a crash:
 * the dead worker's cells come back on their own.
 *
 * Order: cells available now (fresh ones before those whose backoff or lease has run out),
 * then keyword, then depth (coarse before fine), then distance from the user's view, then id.
 *
 * The pick and the write happen in ONE readwrite transaction over the cells store; IndexedDB
 * runs such transactions one after another, so two workers can never lease the same cell.
 *
 * Cost: the walk goes over the lease-order index, which holds open cells only (see QueueKey),
 * reading keys, not records. Fresh cells are always available, so it stops at the first entry
 * while any is left; after that it passes over the cells whose lease or backoff is still
 * running (at most the workers plus the failing cells). It never reads done cells or listings.
 *
 * Whether the sweep is running is the caller's question: a lease on a paused sweep just expires.
 */
export async function leaseNextCell(store: Store, req: LeaseRequest): Promise<Cell | null> {
  const { sweepId, holder, now, leaseMs } = req;
  if (!sweepId || !holder || !Number.isFinite(now) || !Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new StoreError('invalid', 'A lease needs a sweep id, a holder, a valid time and a positive duration.');
  }
  return store.transact(['cells'], 'readwrite', async (tx) => {
    let cursor = await tx.objectStore('cells').index('byLeaseOrder').openKeyCursor(openCellsOf(sweepId));
    while (cursor) {
      const availableAt = (cursor.key as QueueKey)[6];
      if (availableAt <= now) {
        const record = await tx.objectStore('cells').get(cursor.primaryKey);
        if (!record) break; // cannot happen inside one transaction; never lease a ghost
        const cell: Cell = { ...fromRecord(record), status: 'leased', leaseHolder: holder, leaseUntil: now + leaseMs };
        await tx.objectStore('cells').put(withQueueKey(cell));
        return cell;
      }
      cursor = await cursor.continue();
    }
    return null;
  });
}

/**
 * Extend a lease for a cell that takes long (a slow page). Succeeds while `holder` still has
 * the cell, even past its lease if nobody else took it meanwhile; false otherwise (the worker
 * must then drop the cell: someone else is on it, or it was settled).
 */
export async function renewLease(store: Store, req: { cellId: string; holder: string; now: number; leaseMs: number }): Promise<boolean> {
  if (!Number.isFinite(req.now) || !Number.isFinite(req.leaseMs) || req.leaseMs <= 0) {
    throw new StoreError('invalid', 'Renewing a lease needs a valid time and a positive duration.');
  }
  return store.transact(['cells'], 'readwrite', async (tx) => {
    const record = await tx.objectStore('cells').get(req.cellId);
    if (record?.status !== 'leased' || record.leaseHolder !== req.holder) return false;
    await tx.objectStore('cells').put(withQueueKey({ ...fromRecord(record), leaseUntil: req.now + req.leaseMs }));
    return true;
  });
}

/**
 * Give a lease back without counting an attempt (the sweep is pausing: captcha, consent, the
 * user). The cell is pending again and available at once. False if `holder` no longer has it.
 */
export async function releaseCell(store: Store, req: { cellId: string; holder: string }): Promise<boolean> {
  return store.transact(['cells'], 'readwrite', async (tx) => {
    const record = await tx.objectStore('cells').get(req.cellId);
    if (record?.status !== 'leased' || record.leaseHolder !== req.holder) return false;
    await tx.objectStore('cells').put(withQueueKey({ ...fromRecord(record), status: 'pending', leaseHolder: null, leaseUntil: 0 }));
    return true;
  });
}

/**
 * Put a leased cell back until `until` without counting an attempt: a team sweep's cell another
 * browser holds, or the team's database away (utils/team/gate.ts). False if `holder` no longer has it.
 */
export async function deferCell(store: Store, req: { cellId: string; holder: string; until: number }): Promise<boolean> {
  if (!Number.isFinite(req.until)) throw new StoreError('invalid', 'Deferring a cell needs a valid time.');
  return store.transact(['cells'], 'readwrite', async (tx) => {
    const record = await tx.objectStore('cells').get(req.cellId);
    if (record?.status !== 'leased' || record.leaseHolder !== req.holder) return false;
    await tx.objectStore('cells').put(withQueueKey({ ...fromRecord(record), status: 'pending', leaseHolder: null, leaseUntil: 0, nextAttemptAt: req.until }));
    return true;
  });
}
