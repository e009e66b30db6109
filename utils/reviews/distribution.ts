/**
 * A place's rating distribution (issue 38): how many ratings gave 1 to 5 stars, as the site's
 * histogram shows them. The content script reports what the page labels say (page content, and
 * the page may be mid-render); this side keeps only a histogram that adds up: five non-negative
 * integers whose sum is the review count the page shows beside it. Anything else (no count shown
 * included) is unknown (null), never a repaired guess. Kept with the place's committed reviews on its
 * job (utils/reviews/queue.ts commitReviews), and read back for the places export.
 */
import type { RatingDistribution } from '../domain/review';
import type { Store } from '../store';
import { reviewJobId } from './records';

/** The histogram as the page reported it, if it is one; `total`: the count the page shows, or null. */
export function checkedDistribution(shown: unknown, total: unknown): RatingDistribution | null {
  if (!Array.isArray(shown) || shown.length !== 5) return null;
  if (!shown.every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
  const counts = shown as RatingDistribution;
  // Rows with no count beside them to add up to: nothing says they were read whole.
  if (total === null || total === undefined) return null;
  // A count shown that is no count, or one the rows do not add up to: the rows and the count are
  // of two renders, or one of them was misread. Neither is taken over the other.
  if (!Number.isSafeInteger(total) || counts.reduce((a, b) => a + b, 0) !== total) return null;
  return [...counts];
}

/** Whether any sweep ever queued reviews: until then no place has a distribution, and exports read nothing more. */
export async function hasReviewJobs(store: Store): Promise<boolean> {
  return store.transact(['reviewQueue'], 'readonly', async (tx) => (await tx.objectStore('reviewQueue').count()) > 0);
}

/**
 * The newest distribution stored for each of these places: a place's jobs are those of the
 * sweeps it is in (`{sweepId}|{key}`), and the last one with a distribution read wins, whatever
 * the job's status now (a job opened again to read new reviews keeps what its last reading saw,
 * and a reading that saw no histogram does not erase it: commitReviews keeps it). Places without
 * one are left out.
 */
export async function storedDistributions(
  store: Store,
  places: readonly { key: string; collections: readonly string[] }[],
): Promise<Map<string, RatingDistribution>> {
  return store.transact(['reviewQueue'], 'readonly', async (tx) => {
    const queue = tx.objectStore('reviewQueue');
    const out = new Map<string, RatingDistribution>();
    const jobs = await Promise.all(places.map((p) => Promise.all(p.collections.map((c) => queue.get(reviewJobId(c, p.key))))));
    places.forEach((p, i) => {
      let newest: { at: number; distribution: RatingDistribution } | null = null;
      for (const job of jobs[i]!) {
        const distribution = job?.result?.distribution;
        const at = job?.result?.distributionAt ?? job?.updatedAt ?? 0;
        if (distribution && (!newest || at > newest.at)) newest = { at, distribution };
      }
      if (newest) out.set(p.key, newest.distribution);
    });
    return out;
  });
}
