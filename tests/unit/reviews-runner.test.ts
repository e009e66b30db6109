/**
 * The reviews loop in-process (utils/reviews/runner.ts) on modelled tabs (tests/helpers/reviews-tab.ts):
 * every step in the site's lane, a place committed once its page proved an end, and a loop killed
 * mid-place (its service worker gone) loses nothing: the place is read again after a restart, each
 * review kept once.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewsStepRequest } from '../../utils/messaging/reviews-protocol';
import { createPacer } from '../../utils/queue/pacing';
import { countReviews, enqueueReviews, releaseReviewLeases } from '../../utils/reviews/queue';
import { runReviews, type ReviewsPageDriver, type ReviewsSettings } from '../../utils/reviews/runner';
import { createReviewsPass } from '../../utils/reviews/wire';
import type { ReviewsPause } from '../../utils/config/storage-keys';
import { openStore, type Store } from '../../utils/store';
import { modelledTab } from '../helpers/reviews-tab';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const SETTINGS: ReviewsSettings = { limits: { perPlace: 25, since: null }, keepAuthor: false, maxAttempts: 3, loadTimeoutMs: 10_000 };
const TOTALS = [40, 7, 0, 25];

async function setUp(): Promise<{ store: Store; clock: { t: number } }> {
  const clock = { t: Date.UTC(2026, 11, 1) };
  const store = await openStore({ factory: freshFactory(), name: 'reviews-runner', now: () => clock.t });
  const sweep = makeSweep('s', { status: 'finished' });
  // The pass on, as the options would have copied it into the sweep.
  await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews: true } as typeof sweep.settings }, [makeCell('s', 'r0c0')]);
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (let i = 0; i < TOTALS.length; i++) {
      const l = makeListing(String(100 + i), { reviews: null });
      await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] });
    }
  });
  await enqueueReviews(store, 's', clock.t, { provider: 'google' });
  return { store, clock };
}

/** A worker tab of modelled pages; `dieAfter`: steps after which this worker's messages never return. */
function tab(clock: { t: number }, opts: { dieAfter?: number } = {}) {
  const tabs = new Map<string, ReturnType<typeof modelledTab>>();
  const log: { at: number; what: string }[] = [];
  let steps = 0;
  let url = '';
  const page: ReviewsPageDriver = {
    exists: async () => true,
    async load(_tab, to) {
      log.push({ at: clock.t, what: 'load' });
      url = to;
      tabs.delete(url);
      return { url };
    },
    step(_tab, req: ReviewsStepRequest) {
      if (opts.dieAfter !== undefined && steps >= opts.dieAfter) return new Promise(() => {});
      steps++;
      if (req.action !== 'look') log.push({ at: clock.t, what: req.action });
      let t = tabs.get(url);
      if (!t) {
        t = modelledTab(TOTALS[Number(/(\d+)$/.exec(req.key)![1]) - 100]!, () => 0.5);
        tabs.set(url, t);
      }
      return Promise.resolve(t(req.action));
    },
  };
  return { page, log };
}

/** The reviews pass's stored pauses, kept in a map the test reads. */
function pausesIn(pauses: Map<string, ReviewsPause>) {
  return {
    get: async (id: string) => pauses.get(id) ?? null,
    set: async (id: string, reason: ReviewsPause) => void pauses.set(id, reason),
    clear: async (id: string) => void pauses.delete(id),
  };
}

function deps(store: Store, clock: { t: number }, page: ReviewsPageDriver) {
  const sleep = async (ms: number) => {
    clock.t += Math.max(0, ms);
  };
  const pacer = createPacer({ now: () => clock.t, sleep, random: () => 0, timing: () => ({ delayMs: 1000, jitterMs: 0 }) });
  return { store, page, pacer, now: () => clock.t, sleep, random: () => 0.5 };
}

describe('the reviews loop', () => {
  it('reads every place to its proven end, every page load and step that makes the page change 1 s apart in the lane', async () => {
    const { store, clock } = await setUp();
    const { page, log } = tab(clock);
    expect(await runReviews(deps(store, clock, page), 's', 1, SETTINGS, { holder: 'A' })).toBe('finished');
    // 40 → the limit (25), 7 → ended, 0 → ended at once, 25 → ended.
    expect(await countReviews(store, 's')).toEqual({ places: 4, done: 4, failed: 0, reviews: 25 + 7 + 0 + 25 });
    for (let i = 1; i < log.length; i++) expect(log[i]!.at - log[i - 1]!.at, `${log[i - 1]!.what} → ${log[i]!.what}`).toBeGreaterThanOrEqual(1000);
  });

  it('killed mid-place: after a restart the place is read again and each review is kept once', async () => {
    const { store, clock } = await setUp();
    // The first worker dies in the middle of its first place (its step never answers).
    const first = tab(clock, { dieAfter: 4 });
    void runReviews(deps(store, clock, first.page), 's', 1, SETTINGS, { holder: 'old' });
    await new Promise((r) => setTimeout(r, 50));
    expect((await countReviews(store, 's')).done).toBe(0);
    // The browser restarts: the old session's lease goes back at once, and a new loop finishes.
    expect(await releaseReviewLeases(store, clock.t)).toBe(1);
    const second = tab(clock);
    expect(await runReviews(deps(store, clock, second.page), 's', 1, SETTINGS, { holder: 'new' })).toBe('finished');
    expect(await countReviews(store, 's')).toEqual({ places: 4, done: 4, failed: 0, reviews: 57 });
    const keys = await store.transact(['reviews'], 'readonly', (tx) => tx.objectStore('reviews').getAllKeys());
    expect(new Set(keys).size).toBe(57);
  });
});

describe('the reviews pass waits for the user', () => {
  it('a block page pauses the sweep\u2019s pass: not started again (nor its page loaded) until Resume reviews', async () => {
    const { store, clock } = await setUp();
    const pauses = new Map<string, ReviewsPause>();
    let loads = 0;
    const page: ReviewsPageDriver = {
      exists: async () => true,
      async load() {
        loads++;
        return { url: 'https://www.google.com/sorry/index?continue=x' };
      },
      step: () => Promise.reject(new Error('no step on a block page')),
    };
    const attention: string[] = [];
    const pass = createReviewsPass({
      ...deps(store, clock, page),
      newId: () => 'x',
      attention: (_s, exit) => attention.push(exit),
      paused: pausesIn(pauses),
    });
    expect(await pass.start('s', 1)).toBe('blocked');
    expect(attention).toEqual(['blocked']);
    expect(pauses.get('s')).toBe('blocked');
    expect(await pass.resumable()).toEqual([]);
    expect(await pass.start('s', 1)).toBe('off');
    expect(loads).toBe(1);
    await pass.resume('s');
    expect((await pass.resumable()).map((s) => s.id)).toEqual(['s']);
  });
});

describe('a date limit', () => {
  it('newest first, a place is done at its first review older than the day chosen', async () => {
    const { store, clock } = await setUp();
    const { page } = tab(clock);
    // The modelled reviews were written 1, 2, 3… days before the reading: since four days ago keeps the newest four or so.
    const since = new Date(clock.t - 4.5 * 86_400_000).toISOString().slice(0, 10);
    expect(await runReviews(deps(store, clock, page), 's', 1, { ...SETTINGS, limits: { perPlace: 25, since } }, { holder: 'A' })).toBe('finished');
    const reviews = await store.transact(['reviews'], 'readonly', (tx) => tx.objectStore('reviews').getAll());
    expect(reviews.length).toBeGreaterThan(0);
    for (const r of reviews) expect(r.date!.iso >= since, `${r.date!.said} → ${r.date!.iso}`).toBe(true);
    const jobs = await store.transact(['reviewQueue'], 'readonly', (tx) => tx.objectStore('reviewQueue').getAll());
    expect(jobs.filter((j) => j.result?.end === 'since').length).toBeGreaterThan(0);
  });

  it('the map hosts withdrawn (Firefox): the place goes back unread and the pass waits for Resume reviews, saying why', async () => {
    const { store, clock } = await setUp();
    const pauses = new Map<string, ReviewsPause>();
    const { page, log } = tab(clock);
    const attention: string[] = [];
    const pass = createReviewsPass({
      ...deps(store, clock, page),
      hostAccess: async () => false,
      newId: () => 'x',
      attention: (_s, exit) => attention.push(exit),
      paused: pausesIn(pauses),
    });
    expect(await pass.start('s', 1)).toBe('no-host-access');
    expect(log).toEqual([]);
    expect(attention).toEqual(['no-host-access']);
    expect(pauses.get('s')).toBe('host-access');
    expect(await countReviews(store, 's')).toMatchObject({ done: 0, failed: 0 });
  });
});
