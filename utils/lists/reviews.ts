/**
 * Reviews of a list's places (issue 40: "contacts and reviews passes can follow it"), asked for
 * once the list is collected (finished) (its row → Read reviews): the places of the list that pass the
 * filters of the moment get a reviews job each (or theirs opened again, to read what is new), in
 * one queue per site (`{listId}@{site}`), read in the list's tab by the one reviews loop
 * (utils/reviews/runner.ts runReviewQueues). One strict transaction: the limits on the list, the
 * jobs, and the list running again.
 */
import { calendarDay, DEFAULT_SETTINGS } from '../config/settings';
import type { Listing } from '../domain/listing';
import { providerById } from '../providers/registry';
import { queueReviewsOf } from '../reviews/ask';
import type { ReviewsSettings } from '../reviews/runner';
import { handled, type Store } from '../store';
import { listQueueId, type ListReviewLimits, type PlaceList } from './records';

export type ListReviewsAsked = { ok: true; reopened: number; added: number } | { ok: false; reason: 'no-list' | 'not-collected' | 'no-reviews' };

export function askListReviews(
  store: Store,
  req: { listId: string; limits: ListReviewLimits; now: number; keep?: (l: Listing) => boolean },
): Promise<ListReviewsAsked> {
  return store.transact(
    ['placeLists', 'listings', 'reviewQueue'],
    'readwrite',
    async (tx): Promise<ListReviewsAsked> => {
      const lists = tx.objectStore('placeLists');
      const list = await lists.get(req.listId);
      if (!list) return { ok: false, reason: 'no-list' };
      // Once the list is collected: a stopped list's places were not all read, and asking must not
      // start collecting them again (the list runs its places first, then their reviews).
      if (list.status !== 'finished') return { ok: false, reason: 'not-collected' };
      const sites = list.sites.filter((site) => providerById(site)?.reviews);
      if (sites.length === 0) return { ok: false, reason: 'no-reviews' };
      const writes: Promise<unknown>[] = [];
      const queueOf = (l: Listing) => (sites.includes(l.provider) ? listQueueId(list.id, l.provider) : null);
      const { reopened, added } = await queueReviewsOf(tx, list.id, queueOf, { now: req.now, lang: list.settings.lang, keep: req.keep }, writes);
      writes.push(handled(lists.put({ ...list, reviews: req.limits, status: 'running', problem: null, updatedAt: req.now })));
      await Promise.all(writes);
      return { ok: true, reopened, added };
    },
    { durability: 'strict' },
  );
}

/** The reviews loop's settings for a list: the limits asked with, the list's attempts and load timeout. */
export function listReviewsSettings(list: Pick<PlaceList, 'reviews' | 'settings'>): ReviewsSettings | null {
  const r = list.reviews;
  if (!r) return null;
  const perPlace = Number.isInteger(r.reviewsPerPlace) && r.reviewsPerPlace >= 1 ? r.reviewsPerPlace : DEFAULT_SETTINGS.reviewsPerPlace;
  return {
    limits: { perPlace, since: calendarDay(r.reviewsSince) },
    keepAuthor: r.reviewsKeepAuthor === true,
    maxAttempts: list.settings.maxAttempts,
    loadTimeoutMs: list.settings.loadTimeoutMs,
  };
}
