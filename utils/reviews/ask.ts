/**
 * Reviews asked for after the fact (popup → Read reviews): a finished sweep the pass was off for,
 * or one whose reviews were read before and may have new ones. The sweep's places are the ones it
 * would export; the pass is turned on for it with the limits the options give now, and every place
 * read (or given up) before is opened again. A place read again newest first stops at its first
 * stored review (judge.ts `known`), so asking again costs a page or two a place, never a reading
 * from nothing. One strict transaction: after a kill either all of it happened or none.
 */
import type { SweepSettings } from '../domain/sweep';
import type { PlaceFilter } from '../config/settings';
import { handled, type Store } from '../store';
import { fromReviewRecord, REVIEWS_QUEUED_MARKER, withReviewQueueKey } from './records';

export interface ReviewsAsked {
  reviewsPerPlace: number;
  reviewsSince: string;
  reviewsKeepAuthor: boolean;
  /** The filters of the moment: the places that pass are the ones read (those the user would export). */
  filters?: PlaceFilter;
}

export type AskOutcome = { ok: true; reopened: number } | { ok: false; reason: 'no-sweep' | 'not-finished' };

export async function askForReviews(store: Store, req: { sweepId: string; limits: ReviewsAsked; now: number }): Promise<AskOutcome> {
  return store.transact(['sweeps', 'reviewQueue'], 'readwrite', async (tx) => {
    const sweeps = tx.objectStore('sweeps');
    const sweep = await sweeps.get(req.sweepId);
    if (!sweep) return { ok: false, reason: 'no-sweep' } as const;
    // A running sweep's places are not all known yet: its pass starts by itself when it finishes.
    if (sweep.status !== 'finished') return { ok: false, reason: 'not-finished' } as const;
    const settings = { ...sweep.settings, reviews: true, ...req.limits } as SweepSettings;
    const writes: Promise<unknown>[] = [handled(sweeps.put({ ...sweep, settings, updatedAt: req.now }))];
    const queue = tx.objectStore('reviewQueue');
    let reopened = 0;
    let cursor = await queue.openCursor(IDBKeyRange.bound(`${req.sweepId}|`, `${req.sweepId}|\uffff`));
    while (cursor) {
      const job = fromReviewRecord(cursor.value);
      if (job.sweepId === req.sweepId && job.key !== REVIEWS_QUEUED_MARKER && (job.status === 'done' || job.status === 'failed')) {
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
        writes.push(handled(cursor.update(withReviewQueueKey(open))));
        reopened++;
      }
      cursor = await cursor.continue();
    }
    await Promise.all(writes);
    return { ok: true, reopened } as const;
  });
}
