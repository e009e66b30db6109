/**
 * The 'known' stop (utils/reviews/judge.ts): a stored review ends a newest-first reading only
 * where the stored newest-first run reaches the limit; a later sweep with a higher limit reads on.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewsStepRequest } from '../../utils/messaging/reviews-protocol';
import { createPacer } from '../../utils/queue/pacing';
import { enqueueReviews } from '../../utils/reviews/queue';
import { runReviews, type ReviewsPageDriver } from '../../utils/reviews/runner';
import { openStore } from '../../utils/store';
import { modelledTab } from '../helpers/reviews-tab';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

describe('the known stop', () => {
  it('a later sweep with a higher per-place limit reads the reviews past the old limit', async () => {
    const clock = { t: Date.UTC(2026, 11, 1) };
    const store = await openStore({ factory: freshFactory(), name: 'reviews-known', now: () => clock.t });
    for (const s of ['s1', 's2']) await store.createSweep(makeSweep(s, { status: 'finished' }), [makeCell(s, 'r0c0')]);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      const l = makeListing('100', { reviews: null });
      await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s1', 's2'], keywords: [], cells: [] });
    });
    const sleep = async (ms: number) => {
      clock.t += Math.max(0, ms);
    };
    const pacer = createPacer({ now: () => clock.t, sleep, random: () => 0, timing: () => ({ delayMs: 1000, jitterMs: 0 }) });
    const tabFor = () => {
      let t: ReturnType<typeof modelledTab> | null = null;
      const page: ReviewsPageDriver = {
        exists: async () => true,
        async load(_tab, url) {
          t = null;
          return { url };
        },
        async step(_tab, req: ReviewsStepRequest) {
          t ??= modelledTab(40, () => 0.5);
          return t(req.action);
        },
      };
      return page;
    };
    const run = async (sweepId: string, perPlace: number) => {
      await enqueueReviews(store, sweepId, clock.t, { provider: 'google' });
      const deps = { store, page: tabFor(), pacer, now: () => clock.t, sleep, random: () => 0.5 };
      return runReviews(deps, sweepId, 1, { limits: { perPlace, since: null }, keepAuthor: false, maxAttempts: 3, loadTimeoutMs: 10_000 }, { holder: 'A' });
    };
    expect(await run('s1', 10)).toBe('finished');
    const count = () => store.transact(['reviews'], 'readonly', (tx) => tx.objectStore('reviews').count());
    expect(await count()).toBe(10);
    expect(await run('s2', 30)).toBe('finished');
    expect(await count()).toBe(30);
  });
});
