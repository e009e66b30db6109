/**
 * Reviews asked for after the fact (popup → Read reviews): a finished sweep the pass was off for,
 * or one whose reviews were read before and may have new ones. The places read are the ones the
 * user would export: the sweep's places that pass the filters of the moment (`keep`). The pass is
 * turned on for the sweep with the limits the options give now; each place kept that was read (or
 * given up) before is opened again, each kept place never queued gets its job, and the queue is
 * marked filled (the pass does not fill it again under the sweep's own filters, which stay as the
 * sweep was started with them). A place read again newest first stops at its first stored review
 * (judge.ts `known`), so asking again costs a page or two a place, never a reading from nothing.
 * One strict transaction: after a kill either all of it happened or none.
 */
import type { Listing } from '../domain/listing';
import type { ProviderId } from '../domain/place';
import type { SweepSettings } from '../domain/sweep';
import { reviewsPageUrl } from '../providers/registry';
import type { IDBPTransaction } from 'idb';
import { handled, type Store } from '../store';
import type { MapSweepDB, StoreName } from '../store/schema';
import { fromReviewRecord, newReviewJob, REVIEWS_QUEUED_MARKER, reviewJobId, reviewsQueuedMarker, withReviewQueueKey } from './records';

export interface ReviewsAsked {
  reviewsPerPlace: number;
  reviewsSince: string;
  reviewsKeepAuthor: boolean;
}

export type AskOutcome = { ok: true; reopened: number; added: number } | { ok: false; reason: 'no-sweep' | 'not-finished' };

export async function askForReviews(
  store: Store,
  req: {
    sweepId: string;
    limits: ReviewsAsked;
    now: number;
    provider: ProviderId;
    lang?: string;
    /** The places to read (the filters of the moment); all of the sweep's when absent. */
    keep?: (l: Listing) => boolean;
  },
): Promise<AskOutcome> {
  return store.transact(
    ['sweeps', 'listings', 'reviewQueue'],
    'readwrite',
    async (tx) => {
      const sweeps = tx.objectStore('sweeps');
      const sweep = await sweeps.get(req.sweepId);
      if (!sweep) return { ok: false, reason: 'no-sweep' } as const;
      // A running sweep's places are not all known yet: its pass starts by itself when it finishes.
      if (sweep.status !== 'finished') return { ok: false, reason: 'not-finished' } as const;
      const settings = { ...sweep.settings, reviews: true, ...req.limits } as SweepSettings;
      const writes: Promise<unknown>[] = [handled(sweeps.put({ ...sweep, settings, updatedAt: req.now }))];
      const queue = tx.objectStore('reviewQueue');
      const { reopened, added } = await queueReviewsOf(tx, req.sweepId, () => req.sweepId, req, writes);
      if ((await queue.count(reviewJobId(req.sweepId, REVIEWS_QUEUED_MARKER))) === 0) {
        writes.push(handled(queue.put(withReviewQueueKey(reviewsQueuedMarker(req.sweepId, req.provider, req.now)))));
      }
      await Promise.all(writes);
      return { ok: true, reopened, added } as const;
    },
    { durability: 'strict' },
  );
}

/**
 * The reviews jobs of a collection's places, in a transaction over `listings` and `reviewQueue`:
 * each place kept (`keep`) that has reviews to read gets its job in the queue `queueOf` names (null:
 * none), a job read (or given up) before is opened again. The writes are pushed on `writes` (the
 * caller awaits them with its own); how many were reopened and added.
 */
export async function queueReviewsOf(
  tx: IDBPTransaction<MapSweepDB, ('listings' | 'reviewQueue' | StoreName)[], 'readwrite'>,
  collection: string,
  queueOf: (l: Listing) => string | null,
  req: { now: number; lang?: string; keep?: (l: Listing) => boolean },
  writes: Promise<unknown>[],
): Promise<{ reopened: number; added: number }> {
  const queue = tx.objectStore('reviewQueue');
  let reopened = 0;
  let added = 0;
  let cursor = await tx.objectStore('listings').index('byCollection').openCursor(collection);
  while (cursor) {
    const l = cursor.value;
    const queueId = queueOf(l);
    // As the pass's own fill (queue.ts enqueueReviews): a place with no reviews, or an ad, has none to read.
    const url = queueId === null || l.reviews === 0 || l.sponsored || !(req.keep?.(l) ?? true) ? null : reviewsPageUrl(l, req.lang);
    if (queueId !== null && url) {
      const record = await queue.get(reviewJobId(queueId, l.key));
      const job = record ? fromReviewRecord(record) : null;
      if (!job) {
        writes.push(handled(queue.put(withReviewQueueKey(newReviewJob(queueId, l, url, req.now)))));
        added++;
      } else if (job.status === 'done' || job.status === 'failed') {
        const open = {
          ...job,
          status: 'pending' as const,
          attempts: 0,
          nextAttemptAt: req.now,
          leaseHolder: null,
          leaseUntil: 0,
          lastError: null,
          updatedAt: req.now,
        };
        writes.push(handled(queue.put(withReviewQueueKey(open))));
        reopened++;
      }
    }
    cursor = await cursor.continue();
  }
  return { reopened, added };
}
