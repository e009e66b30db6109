/**
 * The sweep status table's writes (the table itself is utils/domain/sweep-status.ts): a change
 * guarded by the status it expects, and the end of a drained sweep, each in one transaction.
 */
import { openCellsOf, type Store } from '../store';
import type { Sweep, SweepStatus } from '../domain/sweep';
import { TRANSITIONS, endOf, nextSweep, patchOf, type Transition } from '../domain/sweep-status';

export type TransitionResult =
  | { ok: true; sweep: Sweep }
  /** Nothing written: the sweep does not exist (status null), or its status does not allow the change. */
  | { ok: false; status: SweepStatus | null };

/** Apply `t` to a stored sweep, guarded by its expected status, in one transaction. */
export async function transition(store: Pick<Store, 'patchSweep' | 'getSweep'>, sweepId: string, t: Transition): Promise<TransitionResult> {
  const sweep = await store.patchSweep(sweepId, patchOf(t), TRANSITIONS[t.event].from);
  if (sweep) return { ok: true, sweep };
  // Only to say why: the write above was already refused inside its own transaction.
  const current = await store.getSweep(sweepId);
  return { ok: false, status: current?.status ?? null };
}

export type FinishResult = TransitionResult | { ok: false; status: 'running'; open: true };

/**
 * 'finish' (or the stop endOf decides), checked in one transaction with the queue: the sweep
 * ends only while none of its cells is pending or leased. A worker counts the open cells, then
 * decides, then finishes; a cell re-opened in between (another worker's audit or shrink) keeps
 * the sweep running, and `open` tells the worker to go back to leasing rather than leave that
 * cell to nobody.
 */
export async function finishIfDrained(store: Pick<Store, 'transact'>, sweepId: string, now: number): Promise<FinishResult> {
  return store.transact(['sweeps', 'cells'], 'readwrite', async (tx): Promise<FinishResult> => {
    const [sweep, open] = await Promise.all([tx.objectStore('sweeps').get(sweepId), tx.objectStore('cells').index('byLeaseOrder').count(openCellsOf(sweepId))]);
    if (!sweep) return { ok: false, status: null };
    const next = nextSweep(sweep, endOf(sweep, now), now);
    if (!next) return { ok: false, status: sweep.status };
    if (open > 0) return { ok: false, status: 'running', open: true };
    await tx.objectStore('sweeps').put(next);
    return { ok: true, sweep: next };
  });
}
