import type { EventKind, Store, SweepEvent } from '../store';
import type { ErrorKind } from '../domain/sweep';
import type { FailedAttempt } from '../domain/page-audit';

/**
 * The log lines that record a failed attempt at a cell, and what became of the cell:
 * failCell writes 'cell-retry' / 'cell-quarantined' / 'cell-released'; the driver writes
 * 'error' when it pauses for a captcha or consent page, or stops for a changed page.
 */
const FAILURE_KINDS: Partial<Record<EventKind, FailedAttempt['outcome'] | 'by-error-kind'>> = {
  'cell-retry': 'retry',
  'cell-quarantined': 'quarantined',
  'cell-released': 'by-error-kind',
  error: 'by-error-kind',
};

export const FAILURE_EVENT_KINDS = Object.keys(FAILURE_KINDS) as EventKind[];

const ERROR_KINDS: readonly ErrorKind[] = ['timeout', 'http', 'navigation', 'blocked', 'consent', 'limited', 'extractor', 'internal'];

/** A failed attempt from its log line, or null for any other line. */
export function failedAttemptOf(event: SweepEvent): FailedAttempt | null {
  const outcome = FAILURE_KINDS[event.kind];
  if (!outcome || !ERROR_KINDS.includes(event.errorKind as ErrorKind)) return null;
  const kind = event.errorKind as ErrorKind;
  return {
    sweepId: event.sweepId,
    at: event.at,
    cellId: event.cellId ?? null,
    keyword: event.keyword ?? null,
    url: event.url ?? null,
    kind,
    httpStatus: event.httpStatus ?? httpStatusOf(kind, event.message),
    outcome: outcome === 'by-error-kind' ? (kind === 'extractor' ? 'stopped' : 'paused') : outcome,
    message: event.message,
  };
}

/**
 * The status of an HTTP failure. The driver's judge says it in the message ("answered HTTP
 * 503") and does not pass it on separately (yet): read it from there, for HTTP kinds only.
 */
function httpStatusOf(kind: ErrorKind, message: string): number | null {
  if (kind !== 'http' && kind !== 'blocked') return null;
  const m = /\bHTTP (\d{3})\b/.exec(message);
  return m ? Number(m[1]) : null;
}

/**
 * The failed attempts of some sweeps, newest first, at or after `since`, at most `limit`.
 * Reads only failure lines through the (sweepId, kind) index, newest first, stopping at `since`.
 */
export async function listFailedAttempts(store: Store, sweepIds: readonly string[], opts: { since?: number; limit?: number } = {}): Promise<FailedAttempt[]> {
  const since = opts.since ?? 0;
  const limit = opts.limit ?? 200;
  const events = await store.transact(['events'], 'readonly', async (tx) => {
    const index = tx.objectStore('events').index('bySweepKind');
    const out: SweepEvent[] = [];
    for (const sweepId of sweepIds) {
      for (const kind of FAILURE_EVENT_KINDS) {
        let taken = 0;
        let cursor = await index.openCursor(IDBKeyRange.only([sweepId, kind]), 'prev');
        // Within one (sweep, kind), newest first by id; `at` follows the write order.
        while (cursor && cursor.value.at >= since && taken < limit) {
          out.push(cursor.value);
          taken += 1;
          cursor = await cursor.continue();
        }
      }
    }
    return out;
  });
  return events
    .map(failedAttemptOf)
    .filter((a): a is FailedAttempt => a !== null)
    .sort((a, b) => b.at - a.at)
    .slice(0, limit);
}
