import { failCell, releaseCell } from '../queue';
import { attentionOf } from '../domain/sweep-status';
import { transition } from './status-machine';
import type { Cell, CellError, Sweep } from '../domain/sweep';
import type { DriverDeps, WorkerExit } from './driver-deps';
import { NO_HOST_ACCESS_MESSAGE } from '../browser/host-access';
import { providerFor } from '../providers/registry';

/**
 * How a visit fails: an attempt recorded (backoff, quarantine, or the whole sweep paused when the
 * error is not the cell's fault), and a full disk, which pauses the sweep with its reason.
 */

/**
 * The disk is full: everything committed is safe; stop loading pages until the user resumes.
 * The flag outside IndexedDB comes first: the pause below is itself a write, which a full disk
 * may refuse too.
 */
export async function pauseForQuota(deps: DriverDeps, sweep: Sweep, cell: Cell | null, holder: string, e: unknown): Promise<WorkerExit> {
  const error: CellError = { kind: 'internal', message: errorText(e), at: deps.now() };
  await deps.diskFull?.(sweep.id, error).catch(() => {});
  if (cell) await releaseCell(deps.store, { cellId: cell.id, holder }).catch(() => {});
  const paused = await transition(deps.store, sweep.id, { event: 'pause', reason: 'quota', problem: error }).catch(() => null);
  deps.attention(paused?.ok ? paused.sweep : sweep, 'quota');
  return 'paused';
}

/**
 * The map hosts were withdrawn (Firefox lets the person do so at any time): the cell goes back
 * untouched, no attempt counted, and the sweep pauses with its reason until access is granted
 * again and the person presses Resume.
 */
export async function pauseForHostAccess(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string): Promise<WorkerExit> {
  await releaseCell(deps.store, { cellId: cell.id, holder }).catch(() => {});
  const problem: CellError = { kind: 'internal', message: NO_HOST_ACCESS_MESSAGE, at: deps.now() };
  const paused = await transition(deps.store, sweep.id, { event: 'pause', reason: 'host-access', problem });
  if (paused.ok) deps.attention(paused.sweep, 'host-access');
  return 'paused';
}

/**
 * Every failure of a visit goes to the queue (utils/queue/fail.ts): a retry or quarantine for
 * the cell's own failures, and for those that are not the cell's fault (captcha, consent,
 * signed out, extractor broken) the lease back and the sweep paused or failed, in one
 * transaction. This loop then stops, and the user is told once.
 */
export async function recordFailure(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string, error: CellError): Promise<WorkerExit | undefined> {
  // The map hosts withdrawn during the visit (Firefox) made it fail: no fault of the cell.
  if (deps.hostAccess && !(await deps.hostAccess(providerFor(sweep.provider)))) return pauseForHostAccess(deps, sweep, cell, holder);
  const r = await failCell(deps.store, {
    cellId: cell.id,
    holder,
    now: deps.now(),
    error,
    maxAttempts: sweep.settings.maxAttempts,
    random: deps.random,
  });
  if (!r.applied || r.outcome !== 'released') return undefined;
  const reason = attentionOf(error.kind);
  if (r.stopped && reason) deps.attention(r.stopped, reason);
  return r.sweepStatus === 'failed' ? 'failed' : 'paused';
}

export function isQuota(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === 'quota';
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
