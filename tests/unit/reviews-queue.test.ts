/**
 * The reviews queue over the store (utils/reviews/queue.ts): filled once, all or nothing, from
 * the sweep's places the page did not show without reviews; a place's reviews committed in one
 * transaction with its end, each review once; a reading that proved nothing retried, then left.
 */
import { describe, expect, it } from 'vitest';
import type { Review } from '../../utils/domain/review';
import type { StoredListing } from '../../utils/domain/listing';
import { openStore, type Store } from '../../utils/store';
import {
  commitReviews,
  countReviews,
  enqueueReviews,
  failReviews,
  isReviewsQueued,
  leaseReviews,
  releaseReviewLeases,
  storedReviews,
} from '../../utils/reviews/queue';
import { makeReview } from '../helpers/store-records';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const NOW = 20_000_000;
const LEASE = 60_000;

const stored = (cid: string, o: Partial<StoredListing> = {}): StoredListing => ({
  ...makeListing(cid),
  firstSeen: 1,
  lastSeen: 2,
  collections: ['s1'],
  keywords: ['cafe'],
  cells: [],
  ...o,
});

async function seeded(listings: StoredListing[]): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'reviews' });
  await store.createSweep(makeSweep('s1', { status: 'finished' }), [makeCell('s1', 'r0c0')]);
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (const l of listings) await tx.objectStore('listings').put(l);
  });
  return store;
}

const review = (placeKey: string, id: string, o: Partial<Review> = {}): Review => makeReview(placeKey, id, { rating: 5, readAt: NOW, ...o });

describe('the reviews queue', () => {
  it('is filled once from the places that may have reviews; a second fill writes nothing', async () => {
    const store = await seeded([
      stored('1'),
      stored('2', { reviews: 0 }),
      stored('3', { reviews: null }),
      stored('4', { sponsored: true }),
      stored('5', { collections: ['other'] }),
    ]);
    expect(await enqueueReviews(store, 's1', NOW, { provider: 'google' })).toEqual({ queued: 2, filled: true });
    expect(await isReviewsQueued(store, 's1')).toBe(true);
    expect(await enqueueReviews(store, 's1', NOW, { provider: 'google' })).toEqual({ queued: 0, filled: false });
    expect(await countReviews(store, 's1')).toEqual({ places: 2, done: 0, failed: 0, reviews: 0 });
  });

  it('commits a place\u2019s reviews with its end in one transaction, each review once, never with less', async () => {
    const store = await seeded([stored('1')]);
    await enqueueReviews(store, 's1', NOW, { provider: 'google' });
    const job = (await leaseReviews(store, { sweepId: 's1', holder: 'A', now: NOW, leaseMs: LEASE }))!;
    const long = 'x'.repeat(900);
    const first = [review(job.key, 'r1', { text: long }), review(job.key, 'r2'), review('google:elsewhere', 'r9')];
    expect(await commitReviews(store, { jobId: job.id, holder: 'A', now: NOW, reviews: first, end: 'ended', sortedNewest: true })).toEqual({
      applied: true,
      added: 2,
    });
    // Done: a second commit (a repeat after a restart) changes nothing.
    expect(await commitReviews(store, { jobId: job.id, holder: 'A', now: NOW + 1, reviews: first, end: 'ended', sortedNewest: true })).toEqual({
      applied: false,
    });
    expect([...(await storedReviews(store, job.key)).ids].sort()).toEqual(['r1', 'r2']);
    expect(await countReviews(store, 's1')).toEqual({ places: 1, done: 1, failed: 0, reviews: 2 });
  });

  it('another holder\u2019s live lease is not settled by a late reading', async () => {
    const store = await seeded([stored('1')]);
    await enqueueReviews(store, 's1', NOW, { provider: 'google' });
    const job = (await leaseReviews(store, { sweepId: 's1', holder: 'A', now: NOW, leaseMs: LEASE }))!;
    expect(
      await commitReviews(store, { jobId: job.id, holder: 'B', now: NOW + 1, reviews: [review(job.key, 'r1')], end: 'ended', sortedNewest: true }),
    ).toEqual({
      applied: false,
    });
    expect((await storedReviews(store, job.key)).ids.size).toBe(0);
  });

  it('a reading with no proven end is retried after a backoff, then left failed in the log', async () => {
    const store = await seeded([stored('1')]);
    await enqueueReviews(store, 's1', NOW, { provider: 'google' });
    let now = NOW;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const job = (await leaseReviews(store, { sweepId: 's1', holder: 'A', now, leaseMs: LEASE }))!;
      expect(job).not.toBeNull();
      expect(await failReviews(store, { jobId: job.id, holder: 'A', now, message: 'the list stopped growing', maxAttempts: 2, random: () => 0 })).toBe(true);
      now += 1;
    }
    expect(await countReviews(store, 's1')).toEqual({ places: 1, done: 0, failed: 1, reviews: 0 });
    const events = await store.listEvents('s1');
    expect(events.some((e) => /not read to a proven end after 2 attempts: the list stopped growing/.test(e.message))).toBe(true);
  });

  it('a restart gives the old session\u2019s leases back at once', async () => {
    const store = await seeded([stored('1'), stored('2')]);
    await enqueueReviews(store, 's1', NOW, { provider: 'google' });
    await leaseReviews(store, { sweepId: 's1', holder: 'old', now: NOW, leaseMs: LEASE });
    expect(await releaseReviewLeases(store, NOW + 1)).toBe(1);
    expect(await leaseReviews(store, { sweepId: 's1', holder: 'A', now: NOW + 2, leaseMs: LEASE })).not.toBeNull();
    expect(await leaseReviews(store, { sweepId: 's1', holder: 'B', now: NOW + 2, leaseMs: LEASE })).not.toBeNull();
  });
});
