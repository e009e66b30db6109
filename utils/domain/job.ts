/**
 * What every queued job has, whatever it searches or reads: a cell of a sweep, a place page, a
 * business's website. A lease is only a time (as in Crawlee's request queue): a job leased until
 * `leaseUntil` and never settled is simply available again once that passes, with no clean-up
 * after a crash. The verbs that change a job in the store are utils/queue/jobs.ts; this is the
 * vocabulary they and the store share.
 */

/** The statuses every queue shares; each adds its own settled ones (done, split, failed…). */
export type OpenJobStatus = 'pending' | 'leased';

export interface Job {
  status: string;
  leaseHolder: string | null;
  /** A leased job is available again after this time; 0 when not leased. */
  leaseUntil: number;
  /** Failed attempts so far. */
  attempts: number;
  /** A pending job is not handed out before this time (its backoff). */
  nextAttemptAt: number;
}

/** Why a settlement (commit, failure, release, renewal) was not applied: the job is not the holder's to settle. */
export type NotApplied =
  /** Settled already (a repeat after a restart): nothing to do. */
  | 'settled'
  /** Put aside (a quarantined or outside cell): not taken until the user retries it. */
  | 'not-open'
  /** Another worker holds a valid lease and will settle it. */
  | 'leased-by-other'
  /** No such job (its sweep was deleted). */
  | 'not-found';

export type SettleCheck = { ok: true } | { ok: false; reason: NotApplied };

/**
 * May `holder` settle `job` at `now`? While it holds the lease, and also after its lease ran
 * out as long as nobody else settled the job or holds a valid lease on it: the work was done,
 * and keeping it beats doing it again. This is what makes a late result after a slow page, or a
 * repeat after a restart, harmless. `closed` says what the job's own statuses mean: settled for
 * good, or put aside until the user asks again.
 */
export function maySettle(job: Job, holder: string, now: number, closed: (status: string) => 'settled' | 'not-open' | null): SettleCheck {
  if (job.status === 'pending') return { ok: true };
  if (job.status === 'leased') return job.leaseHolder !== holder && job.leaseUntil > now ? { ok: false, reason: 'leased-by-other' } : { ok: true };
  return { ok: false, reason: closed(job.status) ?? 'settled' };
}

/** The job back in the queue, its lease given back: available at `at` (its own backoff when omitted). */
export function released<J extends Job>(job: J, at?: number): J {
  return { ...job, status: 'pending', leaseHolder: null, leaseUntil: 0, nextAttemptAt: at ?? job.nextAttemptAt };
}
