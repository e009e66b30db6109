/**
 * The reviews pass's records (issue 38). Pure: no store, no browser.
 *
 * A job is one place's reviews for one sweep, in the `reviewQueue` object store under
 * `{sweepId}|{place key}` (a place queued at most once per sweep however often the queue is
 * filled), a queue of the one job machinery (utils/queue/jobs.ts: a lease is only a time). A
 * review is kept in `reviews` under `{place key}|{review id}`: each review once, whatever sweep
 * read it.
 */
import type { ProviderId } from '../domain/place';
import type { RatingDistribution, Review } from '../domain/review';

export type ReviewJobStatus = 'pending' | 'leased' | 'done' | 'failed';

/** How a place's reading ended, each a proof the page gave (never "it stopped growing"). */
export type ReviewsEnd =
  /** The list visibly ended: every review the page has was read. */
  | 'ended'
  /** The limit was reached, newest first. */
  | 'limit'
  /** A review already stored was reached, newest first: everything older is stored already. */
  | 'known'
  /** The reviews older than the user's date were reached, newest first. */
  | 'since';

export interface ReviewJob {
  /** `{sweepId}|{key}` (reviewJobId). */
  id: string;
  sweepId: string;
  /** The place's key. */
  key: string;
  provider: ProviderId;
  /** The page to load for the place's reviews. */
  url: string;
  status: ReviewJobStatus;
  attempts: number;
  nextAttemptAt: number;
  leaseHolder: string | null;
  leaseUntil: number;
  lastError: string | null;
  /**
   * On done: how the reading ended and what it gave; `distribution`, the place's rating histogram
   * when the page showed one that added up (utils/reviews/distribution.ts), absent otherwise, and
   * `distributionAt` when it was seen (a histogram carried over from an earlier reading keeps its time).
   */
  result?: { end: ReviewsEnd; read: number; added: number; sortedNewest: boolean; distribution?: RatingDistribution; distributionAt?: number };
  createdAt: number;
  updatedAt: number;
}

/** [sweepId, availableAt, id], open jobs only (as the place-details queue's key). */
export type ReviewQueueKey = [string, number, string];

export interface ReviewJobRecord extends ReviewJob {
  queue?: ReviewQueueKey;
}

export type ReviewRecord = Review;

/** A sweep's queue is whole once this marker is written with it (filled once, all or nothing). */
export const REVIEWS_QUEUED_MARKER = '#queued';

export const reviewJobId = (sweepId: string, key: string) => `${sweepId}|${key}`;
export const reviewKey = (placeKey: string, reviewId: string) => `${placeKey}|${reviewId}`;

export function reviewQueueKey(job: ReviewJob): ReviewQueueKey | undefined {
  if (job.key === REVIEWS_QUEUED_MARKER) return undefined;
  if (job.status === 'leased') return [job.sweepId, job.leaseUntil, job.id];
  if (job.status === 'pending') return [job.sweepId, job.nextAttemptAt, job.id];
  return undefined;
}

export function withReviewQueueKey(job: ReviewJob): ReviewJobRecord {
  const { queue: _old, ...plain } = job as ReviewJobRecord;
  const key = reviewQueueKey(plain);
  return key ? { ...plain, queue: key } : plain;
}

export function fromReviewRecord(record: ReviewJobRecord): ReviewJob {
  const { queue: _queue, ...job } = record;
  return job;
}

export function newReviewJob(sweepId: string, place: { key: string; provider: ProviderId }, url: string, now: number): ReviewJob {
  return {
    id: reviewJobId(sweepId, place.key),
    sweepId,
    key: place.key,
    provider: place.provider,
    url,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseHolder: null,
    leaseUntil: 0,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function reviewsQueuedMarker(sweepId: string, provider: ProviderId, now: number): ReviewJob {
  return { ...newReviewJob(sweepId, { key: REVIEWS_QUEUED_MARKER, provider }, '', now), status: 'done' };
}
