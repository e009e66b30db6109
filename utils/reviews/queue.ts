/**
 * The reviews queue over the store (object stores `reviewQueue` and `reviews`), a queue of the
 * one job machinery (utils/queue/jobs.ts): fill it from a sweep's places, lease a place, settle
 * it. A place's reviews are committed in ONE `durability: 'strict'` transaction with the job's
 * end: after a kill the place is either still open (read again; its reviews are each kept once
 * whatever the reading) or done. Never a half.
 */
import type { RatingDistribution, Review } from '../domain/review';
import type { ProviderId } from '../domain/place';
import type { Listing } from '../domain/listing';
import { afterFailure, checkOf, countOpen, leaseNext, releaseAllLeases, releaseJob, type JobKind, type OpenJobs } from '../queue/jobs';
import { reviewsPageUrl } from '../providers/registry';
import { handled, StoreError, type Store } from '../store';
import {
  fromReviewRecord,
  newReviewJob,
  REVIEWS_QUEUED_MARKER,
  reviewJobId,
  reviewsQueuedMarker,
  withReviewQueueKey,
  type ReviewJob,
  type ReviewJobRecord,
  type ReviewQueueKey,
  type ReviewsEnd,
} from './records';

/** The places whose reviews are to be read, as a queue of the one job machinery. */
export const REVIEW_JOBS: JobKind<ReviewJob, ReviewJobRecord> = {
  store: 'reviewQueue',
  noun: 'reviews',
  toRecord: withReviewQueueKey,
  fromRecord: fromReviewRecord,
  availableAt: (key) => (key as ReviewQueueKey)[1],
  closed: () => 'settled',
  touched: (job, now) => ({ ...job, updatedAt: now }),
};

/**
 * Fill a sweep's reviews queue, once: every place of the sweep whose site this version reads
 * reviews on and that the page said has reviews (or did not say) gets a pending job, and the
 * marker says the queue is whole. One transaction: a kill half-way leaves no queue at all.
 */
export async function enqueueReviews(
  store: Store,
  sweepId: string,
  now: number,
  /** `keep`: the places the pass is for (the sweep's filters); the others cost nothing. */
  opts: { provider: ProviderId; lang?: string; keep?: (l: Listing) => boolean },
): Promise<{ queued: number; filled: boolean }> {
  return store.transact(
    ['listings', 'reviewQueue'],
    'readwrite',
    async (tx) => {
      const queue = tx.objectStore('reviewQueue');
      if ((await queue.count(reviewJobId(sweepId, REVIEWS_QUEUED_MARKER))) > 0) return { queued: 0, filled: false };
      const writes: Promise<unknown>[] = [];
      let queued = 0;
      let cursor = await tx.objectStore('listings').index('byCollection').openCursor(sweepId);
      while (cursor) {
        const l = cursor.value;
        // A place the page showed with no reviews has none to read; one it said nothing of may have some.
        const url = l.reviews === 0 || l.sponsored || !(opts.keep?.(l) ?? true) ? null : reviewsPageUrl(l, opts.lang);
        if (url) {
          writes.push(handled(queue.put(withReviewQueueKey(newReviewJob(sweepId, l, url, now)))));
          queued++;
        }
        cursor = await cursor.continue();
      }
      writes.push(handled(queue.put(withReviewQueueKey(reviewsQueuedMarker(sweepId, opts.provider, now)))));
      await Promise.all(writes);
      return { queued, filled: true };
    },
    { durability: 'strict' },
  );
}

export async function isReviewsQueued(store: Store, sweepId: string): Promise<boolean> {
  return store.transact(
    ['reviewQueue'],
    'readonly',
    async (tx) => (await tx.objectStore('reviewQueue').count(reviewJobId(sweepId, REVIEWS_QUEUED_MARKER))) > 0,
  );
}

/** The place available soonest, leased (utils/queue/jobs.ts leaseNext), or null. */
export function leaseReviews(store: Store, req: { sweepId: string; holder: string; now: number; leaseMs: number }): Promise<ReviewJob | null> {
  if (!req.sweepId) throw new StoreError('invalid', 'A reviews lease needs a sweep id.');
  const range = IDBKeyRange.bound([req.sweepId], [req.sweepId, req.now, []]);
  return leaseNext(store, REVIEW_JOBS, { range, holder: req.holder, now: req.now, leaseMs: req.leaseMs });
}

/** A lease's end pushed on (a long list is read in many paced steps). */
export { renewJob as renewReviews } from '../queue/jobs';

/** Give a lease back without counting an attempt (the pass pausing: a block page, signed out, the user). */
export function releaseReviews(store: Store, req: { jobId: string; holder: string; now: number }): Promise<boolean> {
  return releaseJob(store, REVIEW_JOBS, { id: req.jobId, holder: req.holder, now: req.now, until: req.now });
}

export function releaseReviewLeases(store: Store, now: number): Promise<number> {
  return releaseAllLeases(store, REVIEW_JOBS, now);
}

export function countOpenReviews(store: Store, sweepId: string): Promise<OpenJobs> {
  return countOpen(store, REVIEW_JOBS, IDBKeyRange.bound([sweepId], [sweepId, []]));
}

/**
 * A reading that did not prove its end (the list stopped growing, an expander did not open, the
 * panel never showed): one attempt more, a retry after a backoff, then the place is left failed
 * with the reason, in the sweep's log. Nothing read is committed as done.
 */
export async function failReviews(
  store: Store,
  req: { jobId: string; holder: string; now: number; message: string; maxAttempts: number; random: () => number },
): Promise<boolean> {
  const draw = req.random();
  return store.transact(['reviewQueue', 'events'], 'readwrite', async (tx) => {
    const queue = tx.objectStore('reviewQueue');
    const record = await queue.get(req.jobId);
    if (!record) return false;
    const job = fromReviewRecord(record);
    if (!checkOf(REVIEW_JOBS, job, req.holder, req.now).ok) return false;
    const failed = afterFailure(job, { now: req.now, maxAttempts: req.maxAttempts, draw });
    const lastError = req.message.slice(0, 500);
    const base = { ...job, attempts: failed.attempts, leaseHolder: null, leaseUntil: 0, lastError, updatedAt: req.now };
    if (failed.retry) {
      await queue.put(withReviewQueueKey({ ...base, status: 'pending', nextAttemptAt: failed.nextAttemptAt }));
      return true;
    }
    await queue.put(withReviewQueueKey({ ...base, status: 'failed' }));
    await tx.objectStore('events').add({
      sweepId: job.sweepId,
      at: req.now,
      kind: 'warning',
      url: job.url,
      message: `Reviews of ${job.key} not read to a proven end after ${failed.attempts} attempts: ${lastError}`,
    });
    return true;
  });
}

/**
 * A place's reviews, read to a proven end, and its job done: ONE strict transaction. Each review
 * is kept once under its key; one read again replaces the stored one only with more (a longer
 * text once its expander opened, a reply that came since). The rating histogram the reading saw
 * (already checked: utils/reviews/distribution.ts) goes on the job with them. Returns how many
 * reviews were new.
 */
export async function commitReviews(
  store: Store,
  req: {
    jobId: string;
    holder: string;
    now: number;
    reviews: readonly Review[];
    end: ReviewsEnd;
    sortedNewest: boolean;
    distribution?: RatingDistribution | null;
  },
): Promise<{ applied: true; added: number } | { applied: false }> {
  return store.transact(
    ['reviewQueue', 'reviews'],
    'readwrite',
    async (tx) => {
      const queue = tx.objectStore('reviewQueue');
      const record = await queue.get(req.jobId);
      if (!record) return { applied: false as const };
      const job = fromReviewRecord(record);
      if (!checkOf(REVIEW_JOBS, job, req.holder, req.now).ok) return { applied: false as const };
      const reviews = tx.objectStore('reviews');
      let added = 0;
      const writes: Promise<unknown>[] = [];
      // Each review once, even when the page showed one twice.
      const read = new Map(req.reviews.filter((r) => r.placeKey === job.key).map((r) => [r.key, { ...r, newestFirst: req.sortedNewest }]));
      for (const r of read.values()) {
        const old = await reviews.get(r.key);
        if (!old) added++;
        if (!old || richer(r, old)) writes.push(handled(reviews.put(old ? { ...r, readAt: old.readAt, newestFirst: old.newestFirst && r.newestFirst } : r)));
      }
      const result = {
        end: req.end,
        read: req.reviews.length,
        added,
        sortedNewest: req.sortedNewest,
        // A reading that saw no histogram keeps the one an earlier reading saw, with when it was seen.
        ...(req.distribution
          ? { distribution: [...req.distribution] as RatingDistribution, distributionAt: req.now }
          : job.result?.distribution
            ? { distribution: job.result.distribution, distributionAt: job.result.distributionAt ?? job.updatedAt }
            : {}),
      };
      writes.push(
        handled(queue.put(withReviewQueueKey({ ...job, status: 'done', leaseHolder: null, leaseUntil: 0, lastError: null, result, updatedAt: req.now }))),
      );
      await Promise.all(writes);
      return { applied: true as const, added };
    },
    { durability: 'strict' },
  );
}

/** Whether a new reading says more than the stored one: never a shorter text, never a reply lost. */
function richer(next: Review, old: Review): boolean {
  if (next.text.length > old.text.length) return true;
  if (!old.ownerReply && next.ownerReply) return true;
  if (!old.translation && next.translation) return true;
  return false;
}

/**
 * A place's stored reviews, for a newest-first re-reading to stop at: their ids, and how deep a
 * newest-first run they make (0 when any was read in another order: utils/reviews/judge.ts).
 */
export async function storedReviews(store: Store, placeKey: string): Promise<{ ids: Set<string>; newestFirst: number }> {
  const all = await store.transact(['reviews'], 'readonly', (tx) => tx.objectStore('reviews').index('byPlace').getAll(placeKey));
  return { ids: new Set(all.map((r) => r.reviewId)), newestFirst: all.every((r) => r.newestFirst) ? all.length : 0 };
}

export interface ReviewCounts {
  places: number;
  done: number;
  failed: number;
  reviews: number;
}

/** The pass's progress for a sweep: places done of those queued, and the reviews stored for them. */
export async function countReviews(store: Store, sweepId: string): Promise<ReviewCounts> {
  return store.transact(['reviewQueue', 'reviews'], 'readonly', async (tx) => {
    const jobs = (await tx.objectStore('reviewQueue').index('bySweep').getAll(sweepId)).filter((j) => j.key !== REVIEWS_QUEUED_MARKER);
    let reviews = 0;
    for (const j of jobs) reviews += await tx.objectStore('reviews').index('byPlace').count(j.key);
    return { places: jobs.length, done: jobs.filter((j) => j.status === 'done').length, failed: jobs.filter((j) => j.status === 'failed').length, reviews };
  });
}
