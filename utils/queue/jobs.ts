/**
 * The one job machinery: lease, renew, release, fail with backoff and give up, release on
 * restart. Every queue uses it: the sweep's cells (utils/queue/lease.ts, fail.ts), the place
 * details (utils/details/queue.ts), the contacts' websites (utils/contacts/queue.ts), the places'
 * reviews (utils/reviews/queue.ts); the team's
 * claim (utils/team/lease.ts) is the same lease over CouchDB instead of IndexedDB. A queue is an
 * object store whose `byLeaseOrder` index holds its open jobs only (a settled job carries no key,
 * so finished work costs the queue nothing); a queue says how its jobs are kept there (JobKind).
 *
 * Each verb is one readwrite transaction: IndexedDB runs them one after another, so two loops
 * never lease the same job, and a holder's settlement never overwrites another's. Committing a
 * job's result stays with its queue (it writes that queue's records in the same transaction),
 * guarded by the same check (utils/domain/job.ts maySettle).
 */
import type { Job, SettleCheck } from '../domain/job';
import { maySettle, released } from '../domain/job';
import { handled, StoreError, type Store, type SweepEvent } from '../store';
import { backoffDelay } from './backoff';

/** The object stores that are queues (utils/store/schema.ts). */
export type QueueStoreName = 'cells' | 'placeQueue' | 'contactSites' | 'reviewQueue';

export interface JobKind<J extends Job, R> {
  store: QueueStoreName;
  /** What a job is called in messages ("A cell lease needs…"). */
  noun: string;
  /** The job as kept: with its lease-order key while open, without one once settled. */
  toRecord(job: J): R;
  fromRecord(record: R): J;
  /** When the job behind a lease-order key becomes available (its backoff's end, or its lease's). */
  availableAt(key: IDBValidKey): number;
  /** What the queue's own closed statuses mean (see maySettle). */
  closed(status: string): 'settled' | 'not-open' | null;
  /** Stamps a changed job with the time of its change, for queues whose jobs keep one. */
  touched?(job: J, now: number): J;
  /** The leased jobs' records, where an index finds them without reading every open job (default: the open jobs, filtered). */
  leased?(tx: QueueTx): Promise<R[]>;
}

/** A readwrite transaction over a queue's store, `sweeps` and `events` (what `leased` may read). */
export interface QueueTx {
  objectStore(name: 'sweeps'): { getAllKeys(): Promise<IDBValidKey[]> };
  objectStore(name: QueueStoreName): {
    index(name: 'bySweepStatus'): { getAll(key: IDBValidKey): Promise<unknown[]> };
  };
}

/** The part of an IndexedDB object store the machinery uses, whatever the store's record type. */
interface QueueHandle<R> {
  get(id: IDBValidKey): Promise<R | undefined>;
  put(record: R): Promise<IDBValidKey>;
  index(name: 'byLeaseOrder'): {
    openKeyCursor(range?: IDBKeyRange | null): Promise<KeyCursor | null>;
    getAll(range?: IDBKeyRange | null): Promise<R[]>;
  };
}
interface KeyCursor {
  key: IDBValidKey;
  primaryKey: IDBValidKey;
  continue(): Promise<KeyCursor | null>;
}

// idb types each store's records apart; the machinery only needs what they have in common.
const handleOf = <R>(tx: { objectStore(name: QueueStoreName): unknown }, name: QueueStoreName) => tx.objectStore(name) as QueueHandle<R>;

const touch = <J extends Job, R>(kind: JobKind<J, R>, job: J, now: number | undefined): J => (kind.touched && now !== undefined ? kind.touched(job, now) : job);

export function checkOf<J extends Job, R>(kind: JobKind<J, R>, job: J, holder: string, now: number): SettleCheck {
  return maySettle(job, holder, now, kind.closed);
}

export interface LeaseNext {
  /** The part of the lease-order index to walk (one sweep's jobs, say). */
  range: IDBKeyRange;
  /** Who takes the lease: only it may settle the job while the lease runs. */
  holder: string;
  now: number;
  leaseMs: number;
  /** Jobs not to take now (a host whose turn has not come): passed over. */
  skip?: (key: IDBValidKey) => boolean;
}

/**
 * The first job of `range` available at `now`, leased until `now + leaseMs`; null when none is.
 * The walk reads keys, not records: it passes over jobs whose lease or backoff still runs (at
 * most the loops plus the failing jobs) and those `skip` names.
 */
export async function leaseNext<J extends Job, R>(store: Store, kind: JobKind<J, R>, req: LeaseNext): Promise<J | null> {
  const { holder, now, leaseMs } = req;
  if (!holder || !Number.isFinite(now) || !Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new StoreError('invalid', `A ${kind.noun} lease needs a holder, a valid time and a positive duration.`);
  }
  return store.transact([kind.store], 'readwrite', async (tx) => {
    const queue = handleOf<R>(tx, kind.store);
    let cursor = await queue.index('byLeaseOrder').openKeyCursor(req.range);
    while (cursor) {
      if (kind.availableAt(cursor.key) <= now && !req.skip?.(cursor.key)) {
        const record = await queue.get(cursor.primaryKey);
        if (!record) return null; // cannot happen inside one transaction; never lease a ghost
        const job = touch(kind, { ...kind.fromRecord(record), status: 'leased', leaseHolder: holder, leaseUntil: now + leaseMs }, now);
        await queue.put(kind.toRecord(job));
        return job;
      }
      cursor = await cursor.continue();
    }
    return null;
  });
}

/**
 * Changes a job `holder` still holds (its lease, or a settled-free job after its lease ran out
 * when `lapsed` allows it): one transaction, false when the job is not the holder's.
 */
async function whileHeld<J extends Job, R>(
  store: Store,
  kind: JobKind<J, R>,
  id: IDBValidKey,
  holder: string,
  change: (job: J) => J,
  opts: { durability?: 'strict' } = {},
): Promise<boolean> {
  return store.transact(
    [kind.store],
    'readwrite',
    async (tx) => {
      const queue = handleOf<R>(tx, kind.store);
      const record = await queue.get(id);
      const job = record && kind.fromRecord(record);
      if (job?.status !== 'leased' || job.leaseHolder !== holder) return false;
      await queue.put(kind.toRecord(change(job)));
      return true;
    },
    opts,
  );
}

/**
 * Extend a lease for a job that takes long (a slow page). Succeeds while `holder` still has the
 * job, even past its lease if nobody else took it meanwhile; false otherwise (the loop must then
 * drop the job: someone else is on it, or it was settled).
 */
export function renewJob<J extends Job, R>(store: Store, kind: JobKind<J, R>, req: { id: IDBValidKey; holder: string; now: number; leaseMs: number }) {
  if (!Number.isFinite(req.now) || !Number.isFinite(req.leaseMs) || req.leaseMs <= 0) {
    throw new StoreError('invalid', `Renewing a ${kind.noun} lease needs a valid time and a positive duration.`);
  }
  return whileHeld(store, kind, req.id, req.holder, (job) => touch(kind, { ...job, leaseUntil: req.now + req.leaseMs }, req.now));
}

/**
 * Give a lease back without counting an attempt (the pass pausing: captcha, consent, the user;
 * a team's cell another browser holds). The job is pending again, available at `until` or, when
 * omitted, as it was before its lease (a fresh job stays fresh and is taken first again).
 */
export function releaseJob<J extends Job, R>(store: Store, kind: JobKind<J, R>, req: { id: IDBValidKey; holder: string; now?: number; until?: number }) {
  if (req.until !== undefined && !Number.isFinite(req.until)) throw new StoreError('invalid', `Deferring a ${kind.noun} needs a valid time.`);
  return whileHeld(store, kind, req.id, req.holder, (job) => touch(kind, released(job, req.until), req.now), { durability: 'strict' });
}

/**
 * After a restart no loop of the old session is alive: every lease of the queue is given back
 * at once (no attempt counted), rather than left to run out while Resume sits idle. One
 * transaction: all or none. `log` writes a line per job in the same transaction.
 */
export async function releaseAllLeases<J extends Job, R>(store: Store, kind: JobKind<J, R>, now: number, log?: (job: J) => SweepEvent): Promise<number> {
  return store.transact([kind.store, 'sweeps', 'events'], 'readwrite', async (tx) => {
    const queue = handleOf<R>(tx, kind.store);
    const records = kind.leased ? await kind.leased(tx as unknown as QueueTx) : await queue.index('byLeaseOrder').getAll();
    const leased = records.map((r) => kind.fromRecord(r)).filter((j) => j.status === 'leased');
    const writes: Promise<unknown>[] = [];
    for (const job of leased) {
      writes.push(handled(queue.put(kind.toRecord(touch(kind, released(job), now)))));
      if (log) writes.push(handled(tx.objectStore('events').add(log(job))));
    }
    await Promise.all(writes);
    return leased.length;
  });
}

export interface OpenJobs {
  open: number;
  /** When the soonest open job is (or was) available; Infinity when none is open. */
  nextAvailableAt: number;
}

/** The open jobs of `range` (all the queue's when omitted): how many, and when the soonest is available. Keys only. */
export async function countOpen<J extends Job, R>(store: Store, kind: JobKind<J, R>, range?: IDBKeyRange): Promise<OpenJobs> {
  return store.transact([kind.store], 'readonly', async (tx) => {
    let open = 0;
    let nextAvailableAt = Number.POSITIVE_INFINITY;
    let cursor = await handleOf<R>(tx, kind.store)
      .index('byLeaseOrder')
      .openKeyCursor(range ?? null);
    while (cursor) {
      open++;
      nextAvailableAt = Math.min(nextAvailableAt, kind.availableAt(cursor.key));
      cursor = await cursor.continue();
    }
    return { open, nextAvailableAt };
  });
}

/**
 * Every loop has one shape: lease the next job (leaseNext); with none, count what is open
 * (countOpen): nothing open, the pass is done; else wait this long and look again; with one,
 * work on it and settle it (commit, fail, release). The wait: until the soonest job is available
 * (its backoff, another loop's lease), at least `minMs` (a loop never spins), at most 5 s (a job
 * another loop gives back, or a new one, is taken soon).
 */
export function idleWaitMs(open: OpenJobs, now: number, minMs = 500): number {
  return Math.max(minMs, Math.min(IDLE_WAIT_MAX_MS, open.nextAvailableAt - now));
}

export const IDLE_WAIT_MAX_MS = 5_000;

/** A retry's backoff: the first waits up to `baseMs`, each further one doubles the ceiling, up to `capMs` (queue/backoff.ts). */
export interface Backoff {
  baseMs?: number;
  capMs?: number;
}

export type AfterFailure = { retry: true; attempts: number; nextAttemptAt: number } | { retry: false; attempts: number };

/**
 * One failed attempt more: a retry after a backoff (exponential, full jitter) while attempts
 * stay below `maxAttempts` and the failure is worth another try; otherwise the queue gives the
 * job up (quarantined, failed), as that queue names it. Pure: the caller writes it.
 */
export function afterFailure(job: Job, req: { now: number; maxAttempts: number; draw: number; retryable?: boolean; backoff?: Backoff }): AfterFailure {
  const attempts = job.attempts + 1;
  if (req.retryable === false || attempts >= Math.max(1, req.maxAttempts)) return { retry: false, attempts };
  return { retry: true, attempts, nextAttemptAt: req.now + backoffDelay(attempts, req.draw, req.backoff?.baseMs, req.backoff?.capMs) };
}
