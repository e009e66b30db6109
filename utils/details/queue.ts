/**
 * The place-details queue over the store (utils/store, object store `placeQueue`): fill it,
 * lease from it, settle a job. Each operation is one transaction; the commit of a place's
 * details is ONE transaction with the listing it completes, `durability: 'strict'`, like a
 * cell's (utils/store/commit.ts): after a kill the job is either still open (loaded again,
 * and the merge is the same) or done (never loaded again). Never a half.
 */
import type { NotApplied, SettleCheck } from '../domain/job';
import { afterFailure, checkOf, leaseNext, releaseAllLeases, releaseJob, type JobKind } from '../queue/jobs';
import { handled, StoreError, type Store } from '../store';
import { mergeListing, listingProblem } from '../store/listing-merge';
import { contradiction, type Contradiction } from '../listing/contradiction';
import type { Listing, StoredListing } from '../domain/listing';
import type { ProviderId } from '../domain/place';
import { filledFields, needsDetails, type DetailField } from './needs';
import { placePageUrl } from '../providers/registry';
import {
  fromPlaceRecord,
  isMarker,
  newPlaceJob,
  openPlacesOf,
  placeJobId,
  QUEUED_MARKER_KEY,
  queuedMarker,
  withPlaceQueueKey,
  type PlaceJob,
  type PlaceJobRecord,
  type PlaceQueueKey,
} from './records';

/** The place pages to load, as a queue of the one job machinery (utils/queue/jobs.ts). */
export const PLACE_JOBS: JobKind<PlaceJob, PlaceJobRecord> = {
  store: 'placeQueue',
  noun: 'place',
  toRecord: withPlaceQueueKey,
  fromRecord: fromPlaceRecord,
  availableAt: (key) => (key as PlaceQueueKey)[1],
  closed: () => 'settled',
  touched: (job, now) => ({ ...job, updatedAt: now }),
};

/** May `holder` settle `job` at `now`? The one rule of every queue (utils/domain/job.ts maySettle). */
export const placeSettleCheck = (job: PlaceJob, holder: string, now: number): SettleCheck => checkOf(PLACE_JOBS, job, holder, now);

export interface EnqueueResult {
  /** Jobs written now (0 when the queue was filled before). */
  queued: number;
  /** Whether this call filled the queue (false: it was whole already). */
  filled: boolean;
}

/**
 * Fill a sweep's place queue from its listings, once: every listing needsDetails() picks gets
 * a pending job, and the sweep's marker says the queue is whole. All in ONE transaction, so a
 * kill half-way leaves no queue at all (filled again at the next call), never half of one.
 * A second call finds the marker and writes nothing.
 */
/**
 * `keep`: the places the paid pass is for (the sweep's filters, utils/filters): a place it does not
 * keep costs no page load. Its listing stays as the sweep found it.
 */
export async function enqueueDetails(
  store: Store,
  sweepId: string,
  now: number,
  opts: { provider: ProviderId; lang?: string; keep?: (l: Listing) => boolean },
): Promise<EnqueueResult> {
  return store.transact(
    ['listings', 'placeQueue'],
    'readwrite',
    async (tx): Promise<EnqueueResult> => {
      const queue = tx.objectStore('placeQueue');
      if ((await queue.count(placeJobId(sweepId, QUEUED_MARKER_KEY))) > 0) return { queued: 0, filled: false };
      const writes: Promise<unknown>[] = [];
      let queued = 0;
      let cursor = await tx.objectStore('listings').index('byCollection').openCursor(sweepId);
      while (cursor) {
        const l = cursor.value;
        const url = needsDetails(l) && (opts.keep?.(l) ?? true) ? placePageUrl(l, opts.lang) : null;
        if (url) {
          writes.push(handled(queue.put(withPlaceQueueKey(newPlaceJob(sweepId, l, url, now)))));
          queued++;
        }
        cursor = await cursor.continue();
      }
      writes.push(handled(queue.put(withPlaceQueueKey(queuedMarker(sweepId, opts.provider, now)))));
      await Promise.all(writes);
      return { queued, filled: true };
    },
    { durability: 'strict' },
  );
}

/** Whether a sweep's place queue was filled (enqueueDetails ran to its commit). */
export async function isQueued(store: Store, sweepId: string): Promise<boolean> {
  return store.transact(['placeQueue'], 'readonly', async (tx) => (await tx.objectStore('placeQueue').count(placeJobId(sweepId, QUEUED_MARKER_KEY))) > 0);
}

/**
 * Lease the job available soonest, or null when none is available at `now` (utils/queue/jobs.ts
 * leaseNext: one transaction, two loops never lease the same place).
 */
export function leasePlace(store: Store, req: { sweepId: string; holder: string; now: number; leaseMs: number }): Promise<PlaceJob | null> {
  if (!req.sweepId) throw new StoreError('invalid', 'A place lease needs a sweep id.');
  // Only the keys available at `now` (their second part is when): the first one is taken.
  const range = IDBKeyRange.bound([req.sweepId], [req.sweepId, req.now, []]);
  return leaseNext(store, PLACE_JOBS, { range, holder: req.holder, now: req.now, leaseMs: req.leaseMs });
}

/** Give a lease back without counting an attempt (a block page, the pass stopping). */
export function releasePlace(store: Store, req: { jobId: string; holder: string; now: number }): Promise<boolean> {
  return releaseJob(store, PLACE_JOBS, { id: req.jobId, holder: req.holder, now: req.now, until: req.now });
}

/**
 * Every lease given back at once: after a browser or service-worker restart no loop of the old
 * session is alive, so its places need not wait for their leases to run out.
 */
export function releasePlaceLeases(store: Store, now: number): Promise<number> {
  return releaseAllLeases(store, PLACE_JOBS, now);
}

export type PlaceFailResult =
  | { applied: true; outcome: 'retry'; attempts: number; nextAttemptAt: number }
  | { applied: true; outcome: 'failed'; attempts: number }
  | { applied: false; reason: NotApplied };

/**
 * A failed load or read: one attempt more. Below `maxAttempts` the job waits out a backoff
 * (exponential, full jitter: utils/queue/backoff.ts) and goes back to the queue; at
 * `maxAttempts` it is left as failed, with a line in the sweep's log. A place page never loops.
 */
export async function failPlace(
  store: Store,
  req: { jobId: string; holder: string; now: number; message: string; maxAttempts: number; random: () => number },
): Promise<PlaceFailResult> {
  const draw = req.random();
  return store.transact(['placeQueue', 'events'], 'readwrite', async (tx): Promise<PlaceFailResult> => {
    const queue = tx.objectStore('placeQueue');
    const record = await queue.get(req.jobId);
    if (!record) return { applied: false, reason: 'not-found' };
    const job = fromPlaceRecord(record);
    const check = placeSettleCheck(job, req.holder, req.now);
    if (!check.ok) return { applied: false, reason: check.reason };
    const failed = afterFailure(job, { now: req.now, maxAttempts: req.maxAttempts, draw });
    const { attempts } = failed;
    const base = { ...job, attempts, leaseHolder: null, leaseUntil: 0, lastError: req.message.slice(0, 500), updatedAt: req.now };
    if (!failed.retry) {
      await queue.put(withPlaceQueueKey({ ...base, status: 'failed' }));
      await tx.objectStore('events').add({
        sweepId: job.sweepId,
        at: req.now,
        kind: 'warning',
        url: job.url,
        message: `Place details of ${job.key} not read after ${attempts} attempts: ${base.lastError}`,
      });
      return { applied: true, outcome: 'failed', attempts };
    }
    await queue.put(withPlaceQueueKey({ ...base, status: 'pending', nextAttemptAt: failed.nextAttemptAt }));
    return { applied: true, outcome: 'retry', attempts, nextAttemptAt: failed.nextAttemptAt };
  });
}

export type PlaceCommitResult =
  | { applied: true; filled: DetailField[] }
  /** The page's place contradicts the stored one (name, ids, pin): nothing merged, the job left failed, counted in the log. */
  | { applied: true; dropped: Contradiction | 'invalid' }
  | { applied: false; reason: NotApplied };

/**
 * The place page's reading merged into the stored listing, and the job done, in ONE
 * transaction with `durability: 'strict'` (resolves once on disk: the place is never loaded
 * again). The merge is the store's one rule (utils/listing/merge-fields.ts): the more
 * complete value wins, never merely the later one; a null never erases.
 *
 * Trust: the place page is page content. Its reading fills fields of the listing the sweep
 * stored under the same key; one that contradicts it (another id, another name, a pin more
 * than ~55 m away: utils/listing/contradiction.ts) is dropped whole and
 * logged, never merged, never retried (the page will say the same again).
 */
export async function commitPlace(store: Store, req: { jobId: string; holder: string; now: number; listing: Listing }): Promise<PlaceCommitResult> {
  return store.transact(
    ['placeQueue', 'listings', 'events'],
    'readwrite',
    async (tx): Promise<PlaceCommitResult> => {
      const queue = tx.objectStore('placeQueue');
      const record = await queue.get(req.jobId);
      if (!record || isMarker(record)) return { applied: false, reason: 'not-found' };
      const job = fromPlaceRecord(record);
      const check = placeSettleCheck(job, req.holder, req.now);
      if (!check.ok) return { applied: false, reason: check.reason };
      const stored = (await tx.objectStore('listings').get(job.key)) as StoredListing | undefined;
      const found = { ...req.listing, sponsored: false };
      const why: Contradiction | 'invalid' | null = listingProblem(found) !== null ? 'invalid' : stored ? contradiction(stored, found) : 'id';
      const settled = { ...job, leaseHolder: null, leaseUntil: 0, updatedAt: req.now };
      if (why !== null || !stored) {
        const reason = why ?? 'id';
        await Promise.all([
          handled(queue.put(withPlaceQueueKey({ ...settled, status: 'failed', lastError: `the place page disagrees with the stored place (${reason})` }))),
          handled(
            tx.objectStore('events').add({
              sweepId: job.sweepId,
              at: req.now,
              kind: 'warning',
              url: job.url,
              message: `Place details of ${job.key} dropped: the place page disagrees with the stored place (${reason}).`,
            }),
          ),
        ]);
        return { applied: true, dropped: reason };
      }
      // The stored name, ids and link stay: the place page only adds to what the sweep found.
      const merged = mergeListing(stored, found, { now: req.now, collection: job.sweepId, keyword: null, cellId: null });
      const next: StoredListing = { ...merged, name: stored.name || merged.name, url: stored.url || merged.url, lastSeen: stored.lastSeen };
      const filled = filledFields(stored, next);
      await Promise.all([
        handled(tx.objectStore('listings').put(next)),
        handled(queue.put(withPlaceQueueKey({ ...settled, status: 'done', filled, lastError: null }))),
      ]);
      return { applied: true, filled };
    },
    { durability: 'strict' },
  );
}

export interface PlaceQueueCounts {
  pending: number;
  leased: number;
  done: number;
  failed: number;
  total: number;
  /** The earliest time an open job is (or was) available; Infinity when none is open. */
  nextAvailableAt: number;
}

/** A sweep's jobs by status (the marker not counted), and when the next one is available. */
export async function countPlaces(store: Store, sweepId: string): Promise<PlaceQueueCounts> {
  return store.transact(['placeQueue'], 'readonly', async (tx) => {
    const queue = tx.objectStore('placeQueue');
    const index = queue.index('bySweepStatus');
    const [pending, leased, doneWithMarker, failed] = await Promise.all(
      (['pending', 'leased', 'done', 'failed'] as const).map((s) => index.count([sweepId, s])),
    );
    const marker = (await queue.count(placeJobId(sweepId, QUEUED_MARKER_KEY))) > 0 ? 1 : 0;
    const first = await queue.index('byLeaseOrder').openKeyCursor(openPlacesOf(sweepId));
    const done = doneWithMarker! - marker;
    return {
      pending: pending!,
      leased: leased!,
      done,
      failed: failed!,
      total: pending! + leased! + done + failed!,
      nextAvailableAt: first ? (first.key as PlaceQueueKey)[1] : Number.POSITIVE_INFINITY,
    };
  });
}

/** One job, as stored (tests, the log). */
export async function getPlaceJob(store: Store, jobId: string): Promise<PlaceJob | undefined> {
  const record = await store.transact(['placeQueue'], 'readonly', (tx) => tx.objectStore('placeQueue').get(jobId));
  return record && fromPlaceRecord(record as PlaceJobRecord);
}
