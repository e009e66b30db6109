import type { CellError, ErrorKind, Sweep, SweepStatus } from './sweep';

/**
 * The sweep's statuses and every way between them, in one table (pure: the writes that apply it
 * are utils/sweep/status-machine.ts's). The controller (commands),
 * the driver (its loops) and the queue (a failure that is not the cell's fault) change a
 * sweep's status only through this module, and always guarded by the status the change
 * expects: the check and the write happen in one transaction (Store.patchSweep's `onlyFrom`,
 * or `nextSweep` inside the caller's own transaction), so a late worker can never undo the
 * user's Pause or Stop, and two commands at once cannot both apply.
 *
 *                      start (createSweep)
 *                              │
 *                              ▼
 *        ┌── resume ──────▶ running ◀──────── reopen ──┐
 *        │                 │  │  │                      │
 *        │   pause(reason) │  │  │ finish               │
 *        │   user, captcha,│  │  └────────────────▶ finished
 *        │   consent,      │  │ fail (extractor broken,
 *        │   signed-out,   │  │       loops gave up)
 *        │   quota, restart│  ▼
 *      paused ◀────────────┘ failed ── resume ──▶ running
 *        │                     │
 *        └──── stop ──▶ stopped ◀── stop ── (running, failed)
 *
 * `stopped` is final. `finished` goes back to running only when cells are put back in the
 * queue (reopen): by "Retry failed", or by a worker whose audit or shrunk calibration re-opened
 * done cells (utils/store/audit-rounds.ts, in the transaction that re-opens them). And a sweep
 * finishes only while none of its cells is open (finishIfDrained, one transaction).
 */
export const TRANSITIONS = {
  pause: { from: ['running'], to: 'paused' },
  fail: { from: ['running'], to: 'failed' },
  finish: { from: ['running'], to: 'finished' },
  resume: { from: ['paused', 'failed'], to: 'running' },
  stop: { from: ['running', 'paused', 'failed'], to: 'stopped' },
  reopen: { from: ['finished'], to: 'running' },
} as const satisfies Record<string, { from: readonly SweepStatus[]; to: SweepStatus }>;

export type TransitionName = keyof typeof TRANSITIONS;
export type PauseReason = NonNullable<Sweep['pauseReason']>;

export type Transition =
  /** `problem` undefined leaves the sweep's problem as it is. */
  | { event: 'pause'; reason: PauseReason; problem?: CellError | null }
  | { event: 'fail'; problem: CellError }
  | { event: 'finish' }
  | { event: 'resume' }
  | { event: 'stop' }
  | { event: 'reopen' };

export function canTransition(status: SweepStatus, event: TransitionName): boolean {
  return (TRANSITIONS[event].from as readonly SweepStatus[]).includes(status);
}

/** The fields a transition writes (a part of the store's SweepPatch). */
export interface StatusPatch {
  status?: SweepStatus;
  pauseReason?: Sweep['pauseReason'];
  problem?: Sweep['problem'];
}

/** The fields a transition writes. */
export function patchOf(t: Transition): StatusPatch {
  const to = TRANSITIONS[t.event].to;
  switch (t.event) {
    case 'pause':
      return { status: to, pauseReason: t.reason, ...(t.problem !== undefined && { problem: t.problem }) };
    case 'fail':
      return { status: to, pauseReason: null, problem: t.problem };
    case 'resume':
    case 'reopen':
      return { status: to, pauseReason: null, problem: null };
    case 'finish':
    case 'stop':
      return { status: to, pauseReason: null };
  }
}

/**
 * The sweep after `t`, or null when its status does not allow it. Pure: for a caller that
 * changes the sweep inside its own transaction (utils/queue/fail.ts).
 */
export function nextSweep(sweep: Sweep, t: Transition, now: number): Sweep | null {
  if (!canTransition(sweep.status, t.event)) return null;
  const p = patchOf(t);
  return {
    ...sweep,
    status: p.status!,
    pauseReason: p.pauseReason !== undefined ? p.pauseReason : sweep.pauseReason,
    problem: p.problem !== undefined ? p.problem : sweep.problem,
    updatedAt: now,
  };
}

/** Why a sweep whose searches never showed what they searched stops rather than finishes. */
export const NOTHING_PROVEN_MESSAGE =
  "No search of this sweep showed which area it searched, so no list proved its cell complete: the map site's page may have changed. " +
  'The sweep stopped; everything it collected is kept.';

/**
 * How a drained sweep ends. Finished, unless no search of it proved anything and its last ones
 * could not show what they searched ('search-unknown', counted by `unknownSearchStreak`): then
 * it stops with that reason. "Finished" with every cell unproven would read as a sweep that
 * worked (a one-cell area never reaches the second unresolved cell in a row that stops a
 * larger sweep: utils/store/commit.ts).
 */
export function endOf(sweep: Sweep, now: number): Transition {
  const c = sweep.counters;
  const proven = (c.cellsDone ?? 0) + (c.cellsSplit ?? 0);
  if (proven === 0 && (c.unknownSearchStreak ?? 0) > 0) return { event: 'fail', problem: { kind: 'extractor', message: NOTHING_PROVEN_MESSAGE, at: now } };
  return { event: 'finish' };
}

/**
 * Errors that say nothing about the cell: the site blocks everyone (captcha), waits for the
 * user (consent, sign-in), or the extractor no longer understands the page. The one policy
 * for them: the lease is given back without an attempt and the whole sweep stops, in one
 * transaction (utils/queue/fail.ts failCell). Null for an error that is the cell's own.
 */
export function notTheCellsFault(kind: ErrorKind, problem: CellError): Transition | null {
  switch (kind) {
    case 'blocked':
      return { event: 'pause', reason: 'captcha', problem };
    case 'consent':
      return { event: 'pause', reason: 'consent', problem };
    case 'limited':
      return { event: 'pause', reason: 'signed-out', problem };
    case 'extractor':
      return { event: 'fail', problem };
    default:
      return null;
  }
}

/** What to tell the user (badge, notification) when a not-the-cell's-fault error stopped the sweep. */
export function attentionOf(kind: ErrorKind): 'blocked' | 'consent' | 'signed-out' | 'extractor' | null {
  switch (kind) {
    case 'blocked':
      return 'blocked';
    case 'consent':
      return 'consent';
    case 'limited':
      return 'signed-out';
    case 'extractor':
      return 'extractor';
    default:
      return null;
  }
}
