/**
 * A place's rating histogram outlives a reading that does not see it (utils/reviews/distribution.ts,
 * queue.ts commitReviews), from a skeptical review that made the first version fail.
 */
import { expect, it } from 'vitest';
import { askForReviews } from '../../utils/reviews/ask';
import { commitReviews, enqueueReviews, leaseReviews } from '../../utils/reviews/queue';
import { storedDistributions } from '../../utils/reviews/distribution';
import { openStore } from '../../utils/store';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const NOW = Date.UTC(2026, 11, 1);
it('Read new reviews keeps the histogram an earlier reading kept: while the place is open again, and after a reading that saw none (both erased it before)', async () => {
  const store = await openStore({ factory: freshFactory(), name: `zz-${Math.random()}`, now: () => NOW });
  const sweep = makeSweep('s', { status: 'finished' });
  await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews: true } as typeof sweep.settings }, [makeCell('s', 'r0c0')]);
  const l = makeListing('1', { reviews: null });
  await store.transact(['listings'], 'readwrite', (tx) =>
    tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] }),
  );
  await enqueueReviews(store, 's', NOW, { provider: 'google' });
  let j = (await leaseReviews(store, { sweepId: 's', holder: 'h', now: NOW, leaseMs: 60_000 }))!;
  await commitReviews(store, { jobId: j.id, holder: 'h', now: NOW, reviews: [], end: 'ended', sortedNewest: true, distribution: [1, 2, 3, 4, 5] });
  const places = [{ key: 'google:1', collections: ['s'] }];
  expect((await storedDistributions(store, places)).get('google:1')).toEqual([1, 2, 3, 4, 5]);
  await askForReviews(store, { sweepId: 's', limits: { reviewsPerPlace: 5, reviewsSince: '', reviewsKeepAuthor: false }, now: NOW + 1, provider: 'google' });
  const whileOpen = (await storedDistributions(store, places)).get('google:1');
  j = (await leaseReviews(store, { sweepId: 's', holder: 'h', now: NOW + 2, leaseMs: 60_000 }))!;
  await commitReviews(store, { jobId: j.id, holder: 'h', now: NOW + 3, reviews: [], end: 'known', sortedNewest: true, distribution: null });
  const after = (await storedDistributions(store, places)).get('google:1');
  expect(whileOpen).toEqual([1, 2, 3, 4, 5]);
  expect(after).toEqual([1, 2, 3, 4, 5]);
});

it('a histogram carried over keeps when it was seen: a fresher one read in another sweep wins', async () => {
  const store = await openStore({ factory: freshFactory(), name: `dist-at-${Math.random()}`, now: () => NOW });
  for (const id of ['a', 'b']) {
    const sweep = makeSweep(id, { status: 'finished' });
    await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews: true } as typeof sweep.settings }, [makeCell(id, 'r0c0')]);
  }
  const l = makeListing('1', { reviews: null });
  await store.transact(['listings'], 'readwrite', (tx) =>
    tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['a', 'b'], keywords: [], cells: [] }),
  );
  const read = async (sweepId: string, at: number, distribution: [number, number, number, number, number] | null) => {
    const j = (await leaseReviews(store, { sweepId, holder: 'h', now: at, leaseMs: 60_000 }))!;
    await commitReviews(store, { jobId: j.id, holder: 'h', now: at, reviews: [], end: 'ended', sortedNewest: true, distribution });
  };
  await enqueueReviews(store, 'a', NOW, { provider: 'google' });
  await enqueueReviews(store, 'b', NOW, { provider: 'google' });
  await read('a', NOW + 1, [1, 1, 1, 1, 1]);
  await read('b', NOW + 2, [2, 2, 2, 2, 2]);
  // Sweep a's place read again later, its page showing no histogram: a's old one is older than b's.
  await askForReviews(store, { sweepId: 'a', limits: { reviewsPerPlace: 5, reviewsSince: '', reviewsKeepAuthor: false }, now: NOW + 3, provider: 'google' });
  await read('a', NOW + 4, null);
  expect((await storedDistributions(store, [{ key: 'google:1', collections: ['a', 'b'] }])).get('google:1')).toEqual([2, 2, 2, 2, 2]);
});
