/**
 * Read reviews after the fact (utils/reviews/ask.ts): a finished sweep the pass was off for is
 * turned on with the limits asked for, and a sweep read before has its places opened again, in one
 * transaction; a sweep still running is refused and nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { askForReviews } from '../../utils/reviews/ask';
import { commitReviews, countReviews, enqueueReviews, failReviews, leaseReviews } from '../../utils/reviews/queue';
import { reviewJobId } from '../../utils/reviews/records';
import { reviewsOn, reviewsSettingsOf } from '../../utils/reviews/wire';
import { keeper, NO_FILTER } from '../../utils/filters';
import { SITE_FILTER_CONTEXT } from '../../utils/providers/registry';
import { openStore, type Store } from '../../utils/store';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const NOW = Date.UTC(2026, 11, 1);
const LIMITS = { reviewsPerPlace: 7, reviewsSince: '2025-01-01', reviewsKeepAuthor: false };

async function setUp(status: 'finished' | 'running', places: string[], reviews = false, filters?: object): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: `reviews-ask-${Math.random()}`, now: () => NOW });
  for (const id of ['s', 'other']) {
    const sweep = makeSweep(id, { status });
    await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews, ...(filters ? { filters } : {}) } as typeof sweep.settings }, [
      makeCell(id, 'r0c0'),
    ]);
  }
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (const p of places) {
      const l = makeListing(p, { reviews: null });
      await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s', 'other'], keywords: [], cells: [] });
    }
  });
  return store;
}

describe('Read reviews on a finished sweep', () => {
  it('turns the pass on for a sweep it was off for, with the limits asked for', async () => {
    const store = await setUp('finished', ['1', '2']);
    expect(reviewsOn((await store.getSweep('s'))!.settings)).toBe(false);
    expect(await askForReviews(store, { sweepId: 's', limits: LIMITS, now: NOW, provider: 'google' })).toEqual({ ok: true, reopened: 0, added: 2 });
    const sweep = (await store.getSweep('s'))!;
    expect(reviewsOn(sweep.settings)).toBe(true);
    expect(reviewsSettingsOf(sweep).limits).toEqual({ perPlace: 7, since: '2025-01-01' });
    expect(reviewsOn((await store.getSweep('other'))!.settings)).toBe(false);
    // Its places are queued now, and the queue marked filled: the pass does not fill it again.
    expect(await countReviews(store, 's')).toMatchObject({ places: 2, done: 0 });
  });

  it('reads the places that pass the filters of the moment: one they leave out is not read again, one they now keep is queued; the sweep keeps its own filters', async () => {
    const own = { ...NO_FILTER, excludeNames: ['Cafe Two'] };
    const store = await setUp('finished', ['1', '2'], true, own);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      for (const [id, name] of [
        ['1', 'Starbucks Gangnam'],
        ['2', 'Cafe Two'],
      ] as const) {
        const l = makeListing(id, { name, reviews: null });
        await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] });
      }
    });
    // The sweep's own filters left out Cafe Two when its pass filled the queue.
    await enqueueReviews(store, 's', NOW, { provider: 'google', keep: keeper(own, SITE_FILTER_CONTEXT) });
    const j = (await leaseReviews(store, { sweepId: 's', holder: 'h', now: NOW, leaseMs: 60_000 }))!;
    await commitReviews(store, { jobId: j.id, holder: 'h', now: NOW, reviews: [], end: 'ended', sortedNewest: true });
    // Now the user's filters leave out Starbucks and keep Cafe Two.
    const keep = keeper({ ...NO_FILTER, excludeNames: ['Starbucks'] }, SITE_FILTER_CONTEXT);
    expect(await askForReviews(store, { sweepId: 's', limits: LIMITS, now: NOW + 1, provider: 'google', keep })).toEqual({ ok: true, reopened: 0, added: 1 });
    const jobs = await store.transact(['reviewQueue'], 'readonly', (tx) =>
      Promise.all(['google:1', 'google:2'].map((k) => tx.objectStore('reviewQueue').get(reviewJobId('s', k)))),
    );
    expect(jobs.map((x) => x?.status)).toEqual(['done', 'pending']);
    expect(((await store.getSweep('s'))!.settings as { filters?: unknown }).filters).toEqual(own);
  });

  it('opens again the places read or given up before, and no other sweep\u2019s', async () => {
    const store = await setUp('finished', ['1', '2', '3'], true);
    for (const id of ['s', 'other']) await enqueueReviews(store, id, NOW, { provider: 'google' });
    // s: one place done, one failed for good, one still leased; other: one done.
    const a = (await leaseReviews(store, { sweepId: 's', holder: 'h', now: NOW, leaseMs: 60_000 }))!;
    await commitReviews(store, { jobId: a.id, holder: 'h', now: NOW, reviews: [], end: 'ended', sortedNewest: true });
    const b = (await leaseReviews(store, { sweepId: 's', holder: 'h', now: NOW, leaseMs: 60_000 }))!;
    await failReviews(store, { jobId: b.id, holder: 'h', now: NOW, message: 'the list stopped growing', maxAttempts: 1, random: () => 0.5 });
    const c = (await leaseReviews(store, { sweepId: 's', holder: 'h', now: NOW, leaseMs: 60_000 }))!;
    const o = (await leaseReviews(store, { sweepId: 'other', holder: 'h', now: NOW, leaseMs: 60_000 }))!;
    await commitReviews(store, { jobId: o.id, holder: 'h', now: NOW, reviews: [], end: 'ended', sortedNewest: true });
    expect(await countReviews(store, 's')).toMatchObject({ places: 3, done: 1, failed: 1 });

    expect(await askForReviews(store, { sweepId: 's', limits: LIMITS, now: NOW + 1, provider: 'google' })).toEqual({ ok: true, reopened: 2, added: 0 });
    expect(await countReviews(store, 's')).toMatchObject({ places: 3, done: 0, failed: 0 });
    const jobs = await store.transact(['reviewQueue'], 'readonly', (tx) => Promise.all([a, b, c].map((j) => tx.objectStore('reviewQueue').get(j.id))));
    expect(jobs.map((j) => [j!.status, j!.attempts, j!.lastError])).toEqual([
      ['pending', 0, null],
      ['pending', 0, null],
      ['leased', 0, null],
    ]);
    // The reopened are available at once (their queue key says so); the other sweep's stays done.
    expect((await leaseReviews(store, { sweepId: 's', holder: 'h2', now: NOW + 1, leaseMs: 60_000 }))?.id).toMatch(/^s\|/);
    expect(await countReviews(store, 'other')).toMatchObject({ done: 1 });
    expect(await store.transact(['reviewQueue'], 'readonly', (tx) => tx.objectStore('reviewQueue').count(reviewJobId('s', '#queued')))).toBe(1);
  });

  it('a sweep still running is refused, and nothing changes', async () => {
    const store = await setUp('running', ['1']);
    expect(await askForReviews(store, { sweepId: 's', limits: LIMITS, now: NOW, provider: 'google' })).toEqual({ ok: false, reason: 'not-finished' });
    expect(reviewsOn((await store.getSweep('s'))!.settings)).toBe(false);
    expect(await askForReviews(store, { sweepId: 'gone', limits: LIMITS, now: NOW, provider: 'google' })).toEqual({ ok: false, reason: 'no-sweep' });
  });
});
