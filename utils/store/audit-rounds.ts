/**
 * The store side of the sweep's audit (utils/coverage/audit.ts): starting a round and
 * re-opening the done cells an audit proved wrong. Each is ONE transaction with the sweep's
 * audit record and counters (the audit's verdict is in its own cell's commit), so a worker that
 * dies between two lines leaves either the round (or the verdict) whole, or nothing of it.
 */
import { emptyAudit, type SweepAudit } from '../coverage/audit';
import type { Cell, Sweep } from '../domain/sweep';
import { StoreError } from './errors';
import { fromRecord, withQueueKey } from './schema';
import type { Store } from './store';
import { nextSweep } from '../domain/sweep-status';
import type { InCommit } from './commit';
import { handled, type Tx } from './tx';
import { newCellProblem } from './validate';

/**
 * Adds one round's audit cells and the sweep's new audit record. Returns false (and writes
 * nothing) when the sweep's audit is not at `expectRound` any more: another worker started it.
 */
export async function startAuditRound(store: Store, sweepId: string, expectRound: number, cells: Cell[], audit: SweepAudit, now: number): Promise<boolean> {
  for (const c of cells) {
    const p = newCellProblem(c, sweepId);
    if (p) throw new StoreError('invalid', `The audit cell was refused: ${p}. Nothing was saved.`);
  }
  return store.transact(
    ['sweeps', 'cells'],
    'readwrite',
    async (tx) => {
      const sweep = (await tx.objectStore('sweeps').get(sweepId)) as Sweep | undefined;
      if (sweep?.status !== 'running') return false;
      if ((sweep.audit?.round ?? 0) !== expectRound) return false;
      const writes: Promise<unknown>[] = cells.map((c) => handled(tx.objectStore('cells').add(withQueueKey(c))));
      const counters = { ...sweep.counters, cellsKnown: sweep.counters.cellsKnown + cells.length };
      writes.push(handled(tx.objectStore('sweeps').put({ ...sweep, audit, counters, updatedAt: now })));
      await Promise.all(writes);
      return true;
    },
    { durability: 'strict' },
  );
}

/** What an audit's commit concludes, from the sweep's done cells and the places new to it (both read in the commit's transaction). */
export interface AuditSettlement {
  /** Done cells to search again. */
  reopen: readonly string[];
  /** The new audit record from the one stored now and how many cells were re-opened. */
  update: (current: SweepAudit, reopened: number) => SweepAudit;
}

/**
 * The closing audit's verdict as part of its cell's commit (Store.commitCell's `inCommit`): the
 * places it found, what they teach and the cells re-opened are written in the SAME transaction
 * as the audit cell's 'done', so a worker dying after the commit leaves nothing of the evidence
 * out, and no other worker can see the queue empty (and finish) between the two.
 */
export function settleInCommit(
  sweepId: string,
  /** From the sweep and its done cells as they are in this transaction, and the places new to the sweep. */
  settle: (sweep: Sweep, done: readonly Cell[], newToSweep: readonly string[]) => AuditSettlement,
  now: number,
): InCommit {
  return async (tx, committed) => {
    const [sweep, records] = await Promise.all([
      tx.objectStore('sweeps').get(sweepId),
      tx.objectStore('cells').index('bySweepStatus').getAll([sweepId, 'done']),
    ]);
    if (!sweep) return;
    const s = settle(sweep, records.map(fromRecord), committed.newToSweep);
    // The commit's transaction spans sweeps and cells (and more): usable as one over those two.
    await reopenIn(tx as unknown as Tx<['sweeps', 'cells'], 'readwrite'>, sweepId, s.reopen, s.update, now);
  };
}

/**
 * Puts done cells back in the queue (searched again with what the audit taught the geometry)
 * and stores the audit record, in one transaction. Cells no longer 'done' are left alone.
 * Returns how many were re-opened.
 */
export async function reopenCells(
  store: Store,
  sweepId: string,
  cellIds: readonly string[],
  /** The new audit record from the one stored now (read in this transaction, so concurrent audits add up). */
  update: (current: SweepAudit, reopened: number) => SweepAudit,
  now: number,
): Promise<number> {
  return store.transact(['sweeps', 'cells'], 'readwrite', (tx) => reopenIn(tx, sweepId, cellIds, update, now), { durability: 'strict' });
}

/**
 * reopenCells inside the caller's transaction. A finished sweep with cells re-opened is running
 * again (the status table's 'reopen'), in the same transaction: re-opened cells are never left
 * in a sweep that nothing drives. The worker that re-opened them goes on to lease them.
 */
async function reopenIn(
  tx: Tx<['sweeps', 'cells'], 'readwrite'>,
  sweepId: string,
  cellIds: readonly string[],
  update: (current: SweepAudit, reopened: number) => SweepAudit,
  now: number,
): Promise<number> {
  const sweep = (await tx.objectStore('sweeps').get(sweepId)) as Sweep | undefined;
  if (!sweep) return 0;
  const cells = tx.objectStore('cells');
  const records = await Promise.all(cellIds.map((id) => cells.get(id)));
  const reopen: Cell[] = [];
  for (const r of records) {
    if (!r) continue;
    const cell = fromRecord(r);
    if (cell.sweepId !== sweepId || cell.status !== 'done') continue;
    reopen.push({
      ...cell,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      leaseUntil: 0,
      leaseHolder: null,
      lastError: null,
      result: null,
      reopened: (cell.reopened ?? 0) + 1,
    });
  }
  const writes: Promise<unknown>[] = reopen.map((c) => handled(cells.put(withQueueKey(c))));
  const counters = { ...sweep.counters, cellsDone: Math.max(0, sweep.counters.cellsDone - reopen.length) };
  const running = reopen.length > 0 ? (nextSweep(sweep, { event: 'reopen' }, now) ?? sweep) : sweep;
  writes.push(handled(tx.objectStore('sweeps').put({ ...running, audit: update(sweep.audit ?? emptyAudit(), reopen.length), counters, updatedAt: now })));
  await Promise.all(writes);
  return reopen.length;
}
