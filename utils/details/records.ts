/**
 * The place queue's records (issue 16, "place details on demand"): one job per listing of a
 * finished sweep that lacks fields its place page can give. Pure: no store, no browser.
 *
 * A job lives in the `placeQueue` object store (utils/store/schema.ts, version 5) under
 * `{sweepId}|{listing key}`, so a place is queued at most once per sweep however often the
 * queue is filled. Like a cell (utils/queue/lease.ts), a lease is just a time: a job leased
 * until `leaseUntil` and never committed is available again once that passes, with no clean-up.
 */
import type { ProviderId } from '../domain/place';

export type PlaceJobStatus = 'pending' | 'leased' | 'done' | 'failed';

export interface PlaceJob {
  /** `{sweepId}|{key}` (placeJobId). */
  id: string;
  sweepId: string;
  /** The listing's key (`google:{cid}`, `naver:{id}`, `kakao:{confirmid}`). */
  key: string;
  provider: ProviderId;
  /** The place page to load. */
  url: string;
  status: PlaceJobStatus;
  /** Failed loads or reads so far. */
  attempts: number;
  /** A pending job is not handed out before this time (its backoff). */
  nextAttemptAt: number;
  leaseHolder: string | null;
  /** A leased job is available again after this time. 0 when not leased. */
  leaseUntil: number;
  /** Why the last attempt failed (shown in the log), or null. */
  lastError: string | null;
  /** On done: the fields the place page added or improved. */
  filled?: string[];
  /** A list's job (utils/lists): the line of the list that named it. */
  line?: number;
  /** A list's share link, once done: the place key the page it landed on showed. */
  landed?: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * The lease-order key of an open job: [sweepId, availableAt, id]. availableAt is
 * nextAttemptAt for a pending job and leaseUntil for a leased one, so the first key of a
 * sweep's range is the job available soonest, and the queue decides from the key alone. Only
 * open jobs carry it: done and failed jobs are not in the index (IndexedDB skips a record
 * whose key path is missing), so finished work costs the queue nothing.
 */
export type PlaceQueueKey = [string, number, string];

/** A job as stored. */
export interface PlaceJobRecord extends PlaceJob {
  queue?: PlaceQueueKey;
}

/**
 * The marker written with a sweep's queue, in the same transaction: the queue of that sweep
 * is whole (filled once, all or nothing). Never leased (no queue key), never counted as a job.
 */
export const QUEUED_MARKER_KEY = '#queued';

export function placeJobId(sweepId: string, key: string): string {
  return `${sweepId}|${key}`;
}

export function isMarker(job: Pick<PlaceJob, 'key'>): boolean {
  return job.key === QUEUED_MARKER_KEY;
}

export function placeQueueKey(job: PlaceJob): PlaceQueueKey | undefined {
  if (isMarker(job)) return undefined;
  if (job.status === 'leased') return [job.sweepId, job.leaseUntil, job.id];
  if (job.status === 'pending') return [job.sweepId, job.nextAttemptAt, job.id];
  return undefined;
}

/** The job as it must be stored: with its lease-order key while open, without one otherwise. */
export function withPlaceQueueKey(job: PlaceJob): PlaceJobRecord {
  const { queue: _old, ...plain } = job as PlaceJobRecord;
  const key = placeQueueKey(plain);
  return key ? { ...plain, queue: key } : plain;
}

export function fromPlaceRecord(record: PlaceJobRecord): PlaceJob {
  const { queue: _queue, ...job } = record;
  return job;
}

/** A new job for a listing: pending, available at once. */
export function newPlaceJob(sweepId: string, l: { key: string; provider: ProviderId }, url: string, now: number): PlaceJob {
  return {
    id: placeJobId(sweepId, l.key),
    sweepId,
    key: l.key,
    provider: l.provider,
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

export function queuedMarker(sweepId: string, provider: ProviderId, now: number): PlaceJob {
  return { ...newPlaceJob(sweepId, { key: QUEUED_MARKER_KEY, provider }, '', now), status: 'done' };
}

/** Index range of a sweep's open jobs in the lease-order index. */
export function openPlacesOf(sweepId: string): IDBKeyRange {
  // An array sorts after every number and string: [sweepId, []] is above all of the sweep's keys.
  return IDBKeyRange.bound([sweepId], [sweepId, []]);
}
