import { fromRecord, handled, StoreError, withQueueKey, type NotApplied, type Store, type SweepEvent } from '../store';
import type { Cell, CellError, ErrorKind, Sweep } from '../domain/sweep';
import { nextSweep, notTheCellsFault } from '../domain/sweep-status';
import { afterFailure, checkOf } from './jobs';
import { CELL_JOBS } from './lease';

export interface FailRequest {
  cellId: string;
  holder: string;
  now: number;
  error: CellError;
  /** From the sweep's settings: the attempt that reaches it quarantines the cell. */
  maxAttempts: number;
  /** Uniform draw in [0, 1), for the backoff's jitter. */
  random: () => number;
}

export type FailResult =
  | { applied: true; outcome: 'retry'; attempts: number; nextAttemptAt: number }
  | { applied: true; outcome: 'quarantined'; attempts: number }
  /**
   * Not the cell's fault (captcha, consent, signed out, page changed): lease given back, sweep
   * paused or failed. `stopped` is the sweep when this failure is what stopped it (the caller
   * tells the user), null when it was stopped already (another worker, the user).
   */
  | { applied: true; outcome: 'released'; sweepStatus: Sweep['status']; stopped: Sweep | null }
  | { applied: false; reason: NotApplied };

const ERROR_KINDS: readonly ErrorKind[] = ['timeout', 'http', 'navigation', 'blocked', 'consent', 'limited', 'extractor', 'internal'];

/*
 * Errors that say nothing about the cell (captcha, consent, signed-out limited view, extractor
 * broken) follow the one policy of utils/sweep/status-machine.ts notTheCellsFault: no attempt,
 * the lease goes back, and the sweep pauses or fails in the same transaction. The driver sends
 * every failure here; nothing else stops a sweep for them.
 */

/**
 * Record a failed search of a leased cell, in one transaction with the sweep's counters and a
 * log line. A retryable error counts an attempt: the cell waits out a backoff (exponential,
 * full jitter) and goes back to the queue, or is quarantined once attempts reach maxAttempts.
 * Captcha, consent, limited-view and extractor errors count no attempt (notTheCellsFault): the
 * sweep is paused or failed in the same transaction, even when this holder lost the cell
 * meanwhile (the site blocks every worker alike).
 */
export async function failCell(store: Store, req: FailRequest): Promise<FailResult> {
  const problem = failProblem(req);
  if (problem) throw new StoreError('invalid', `The failure was refused: ${problem}. Nothing was saved.`);
  const { cellId, holder, now, error } = req;
  const draw = req.random();

  return store.transact(['cells', 'sweeps', 'events'], 'readwrite', async (tx): Promise<FailResult> => {
    const cells = tx.objectStore('cells');
    const record = await cells.get(cellId);
    if (!record) throw new StoreError('not-found', `Cell ${cellId} does not exist (its sweep was deleted?).`);
    const sweep = await tx.objectStore('sweeps').get(record.sweepId);
    if (!sweep) throw new StoreError('not-found', `Sweep ${record.sweepId} does not exist.`);
    const stop = notTheCellsFault(error.kind, error);
    const check = checkOf(CELL_JOBS, fromRecord(record), holder, now);
    if (!check.ok && !stop) return { applied: false, reason: check.reason };
    if (!check.ok && stop) {
      // Not this holder's cell any more, but the sweep must still stop.
      const stopped = nextSweep(sweep, stop, now);
      if (stopped) await tx.objectStore('sweeps').put(stopped);
      return { applied: true, outcome: 'released', sweepStatus: (stopped ?? sweep).status, stopped };
    }

    const base = fromRecord(record);
    const counters = { ...sweep.counters, errors: sweep.counters.errors + 1, pageLoads: sweep.counters.pageLoads + 1 };
    const event: SweepEvent = {
      sweepId: sweep.id,
      at: now,
      kind: 'cell-retry',
      cellId,
      keyword: base.keyword,
      errorKind: error.kind,
      message: error.message,
      ...(error.url !== undefined && { url: error.url }),
    };

    let cell: Cell;
    let result: FailResult;
    let next: Sweep = { ...sweep, counters, updatedAt: now };
    if (stop) {
      cell = { ...base, status: 'pending', leaseHolder: null, leaseUntil: 0, lastError: error };
      // Guarded by the table: a sweep the user paused or stopped meanwhile stays as it is.
      const stopped = nextSweep(next, stop, now);
      if (stopped) next = stopped;
      event.kind = 'cell-released';
      result = { applied: true, outcome: 'released', sweepStatus: next.status, stopped };
    } else {
      const failed = afterFailure(base, { now, maxAttempts: req.maxAttempts, draw });
      if (!failed.retry) {
        cell = { ...base, status: 'quarantined', attempts: failed.attempts, leaseHolder: null, leaseUntil: 0, lastError: error };
        counters.cellsQuarantined += 1;
        event.kind = 'cell-quarantined';
        result = { applied: true, outcome: 'quarantined', attempts: failed.attempts };
      } else {
        const { attempts, nextAttemptAt } = failed;
        cell = { ...base, status: 'pending', attempts, nextAttemptAt, leaseHolder: null, leaseUntil: 0, lastError: error };
        result = { applied: true, outcome: 'retry', attempts, nextAttemptAt };
      }
    }
    await Promise.all([handled(cells.put(withQueueKey(cell))), handled(tx.objectStore('sweeps').put(next)), handled(tx.objectStore('events').add(event))]);
    return result;
  });
}

/**
 * "Retry failed": every quarantined cell of the sweep, and every cell left unresolved because
 * its page did not show what it searched ('search-unknown': a failure to read the page, not a
 * fact of the area), back to pending with its attempts reset (fresh again, so it comes first in
 * the queue), and the sweep's run of such cells back to 0. Returns how many. The sweep's status
 * is the caller's to change (a finished sweep has work again).
 */
export async function retryQuarantined(store: Store, sweepId: string, now: number): Promise<number> {
  return store.transact(['cells', 'sweeps', 'events'], 'readwrite', async (tx) => {
    const sweep = await tx.objectStore('sweeps').get(sweepId);
    if (!sweep) throw new StoreError('not-found', `Sweep ${sweepId} does not exist.`);
    const cells = tx.objectStore('cells');
    const quarantined = await cells.index('bySweepStatus').getAll([sweepId, 'quarantined']);
    const unread = (await cells.index('bySweepStatus').getAll([sweepId, 'saturated'])).filter((r) => r.result?.reason === 'search-unknown');
    const again = [...quarantined, ...unread];
    if (again.length === 0) return 0;
    const fresh = { status: 'pending', attempts: 0, nextAttemptAt: 0, leaseHolder: null, leaseUntil: 0 } as const;
    const writes: Promise<unknown>[] = [
      // A quarantined cell's last error may say "search unknown": its retry gets its own second look.
      ...quarantined.map((r) => {
        const cell = fromRecord(r);
        const lastError = cell.lastError ? (({ unknownSearch: _, ...rest }) => rest)(cell.lastError) : null;
        return handled(cells.put(withQueueKey({ ...cell, ...fresh, lastError })));
      }),
      // Its last error would make the first unknown search of the retry settle it again at once.
      ...unread.map((r) => handled(cells.put(withQueueKey({ ...fromRecord(r), ...fresh, lastError: null, result: null })))),
    ];
    const c = sweep.counters;
    const counters = {
      ...c,
      cellsQuarantined: c.cellsQuarantined - quarantined.length,
      cellsSaturated: c.cellsSaturated - unread.length,
      ...(c.cellsUnresolved !== undefined && { cellsUnresolved: c.cellsUnresolved - unread.length }),
      unknownSearchStreak: 0,
    };
    writes.push(handled(tx.objectStore('sweeps').put({ ...sweep, counters, updatedAt: now })));
    writes.push(
      handled(
        tx.objectStore('events').add({
          sweepId,
          at: now,
          kind: 'cells-retried',
          message: `${again.length} failed cells put back in the queue${unread.length > 0 ? ` (${unread.length} whose page did not show what it searched)` : ''}`,
        }),
      ),
    );
    await Promise.all(writes);
    return again.length;
  });
}

function failProblem(req: FailRequest): string | null {
  if (!req.cellId || !req.holder) return 'cellId and holder must be non-empty';
  if (!Number.isFinite(req.now)) return 'now is not a valid time';
  if (!Number.isInteger(req.maxAttempts) || req.maxAttempts < 1) return 'maxAttempts must be a whole number ≥ 1';
  if (typeof req.random !== 'function') return 'random must be a function';
  const e = req.error as Partial<CellError> | undefined;
  if (!e || !ERROR_KINDS.includes(e.kind as ErrorKind) || typeof e.message !== 'string') {
    return `unknown error ${JSON.stringify(e?.kind)}`;
  }
  return null;
}
