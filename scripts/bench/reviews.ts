/**
 * The reviews pass's cost at the default pacing (issue 38): reviews per hour, and what a place of
 * 1,000 reviews costs. The shipped loop, judge, queue, store (fake-indexeddb) and pacer (2 s +
 * up to 1.5 s jitter per step) run on a virtual clock against a modelled Google Reviews tab:
 * batches of 10 per scroll, a sort menu (two presses), "More" on a fifth of the texts, a load of
 * 1.5 s and 0.3 s per step. The page is a model of the tab's *costs* (steps and their times),
 * not of its content: what the pass reads is proven on the replica (tests/browser/reviews.test.ts).
 * Medians over seeds.
 * `node --import tsx scripts/bench/reviews.ts [--seeds=1,2,3]`
 */
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { createPacer } from '../../utils/queue/pacing';
import { enqueueReviews } from '../../utils/reviews/queue';
import { runReviews, type ReviewsPageDriver } from '../../utils/reviews/runner';
import { openStore } from '../../utils/store';
import { makeCell, makeListing, makeSweep } from '../../tests/helpers/store-records';
import { GOOGLE_TAB, modelledTab, type TabModel } from '../../tests/helpers/reviews-tab';
import { installFakeIndexedDb, numbersOf, runSection } from './standalone';
import { median, round, tableRows } from './stats';

const LOAD_MS = 1_500;
const STEP_MS = 300;

/** A seeded uniform draw in [0, 1) (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ReviewsRun {
  seed: number;
  places: number;
  reviews: number;
  hours: number;
  reviewsPerHour: number;
  placesPerHour: number;
  steps: number;
}

/**
 * Each site's list as its costs (what the replicas offer by default; the live batch sizes are
 * unsure [?]): Naver's 최신순 is one tab press and its pages 10; Kakao's answers carry whole texts
 * (nothing to open), one press of 최신순, and "더보기" brings 5 in the replica's default (10 under
 * its other switch).
 */
const SITES: { site: string; model: TabModel }[] = [
  { site: 'Google', model: GOOGLE_TAB },
  { site: 'Naver', model: { batch: 10, sortPresses: 1, longShare: 0.3 } },
  { site: 'Kakao', model: { batch: 5, sortPresses: 1, longShare: 0 } },
];

/** `places` places of `totals(i)` reviews each, at `perPlace`, on a virtual clock. */
async function measure(
  seed: number,
  places: number,
  totals: (i: number, random: () => number) => number,
  perPlace: number,
  model: TabModel = GOOGLE_TAB,
): Promise<ReviewsRun> {
  const random = rng(seed);
  let t = Date.UTC(2026, 11, 1);
  const now = () => t;
  const sleep = async (ms: number) => {
    t += Math.max(0, ms);
  };
  const store = await openStore({ name: `reviews-bench-${seed}-${places}-${perPlace}-${model.batch}-${model.sortPresses}`, now });
  await store.createSweep(makeSweep('s', { status: 'finished' }), [makeCell('s', 'r0c0')]);
  const reviewsOf = new Map<string, number>();
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (let i = 0; i < places; i++) {
      const l = makeListing(String(1_000_000 + i), { reviews: null });
      reviewsOf.set(l.key, totals(i, random));
      await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] });
    }
  });
  await enqueueReviews(store, 's', now(), { provider: 'google' });
  const pacer = createPacer({ now, sleep, random, timing: () => ({ delayMs: DEFAULT_SETTINGS.delayMs, jitterMs: DEFAULT_SETTINGS.jitterMs }) });
  const tabs = new Map<string, ReturnType<typeof modelledTab>>();
  let steps = 0;
  let current = '';
  const page: ReviewsPageDriver = {
    exists: async () => true,
    async load(_tab, url) {
      t += LOAD_MS;
      current = url;
      return { url };
    },
    async step(_tab, req) {
      t += STEP_MS;
      steps++;
      const key = `${req.key}@${current}`;
      let tab = tabs.get(key);
      if (!tab) {
        tab = modelledTab(reviewsOf.get(req.key) ?? 0, random, model);
        tabs.set(key, tab);
      }
      return tab(req.action);
    },
  };
  const start = t;
  const exit = await runReviews(
    { store, page, pacer, now, sleep, random },
    's',
    1,
    { limits: { perPlace, since: null }, keepAuthor: false, maxAttempts: 3, loadTimeoutMs: 30_000 },
    { holder: 'bench' },
  );
  if (exit !== 'finished') throw new Error(`the pass ended ${exit}`);
  const reviews = await store.transact(['reviews'], 'readonly', (tx) => tx.objectStore('reviews').count());
  store.close();
  const hours = (t - start) / 3_600_000;
  return { seed, places, reviews, hours: round(hours, 3), reviewsPerHour: Math.round(reviews / hours), placesPerHour: Math.round(places / hours), steps };
}

export interface SiteFigures {
  site: string;
  /** 40 places of 0–300 reviews at the default limit (50). */
  defaultLimit: { reviewsPerHour: number; placesPerHour: number; stepsPerPlace: number };
  /** One place of 1,000 reviews read whole. */
  thousand: { minutes: number; steps: number };
}

export interface ReviewsFigures {
  seeds: number[];
  sites: SiteFigures[];
  runs: ReviewsRun[];
}

export async function measureReviews(argv: string[] = []): Promise<ReviewsFigures> {
  await installFakeIndexedDb();
  const seeds = numbersOf(argv, 'seeds') ?? [1, 2, 3];
  const all: ReviewsRun[] = [];
  const sites: SiteFigures[] = [];
  for (const { site, model } of SITES) {
    const runs: ReviewsRun[] = [];
    const thousands: ReviewsRun[] = [];
    for (const seed of seeds) {
      runs.push(await measure(seed, 40, (_, random) => Math.floor(random() * 301), DEFAULT_SETTINGS.reviewsPerPlace, model));
      thousands.push(await measure(seed, 1, () => 1_000, 1_000, model));
    }
    sites.push({
      site,
      defaultLimit: {
        reviewsPerHour: median(runs.map((r) => r.reviewsPerHour)),
        placesPerHour: median(runs.map((r) => r.placesPerHour)),
        stepsPerPlace: round(median(runs.map((r) => r.steps / r.places)), 1),
      },
      thousand: { minutes: round(median(thousands.map((r) => r.hours * 60)), 1), steps: median(thousands.map((r) => r.steps)) },
    });
    all.push(...runs, ...thousands);
  }
  return { seeds, sites, runs: all };
}

export function formatReviewsTable(f: ReviewsFigures): string {
  const { header, row } = tableRows(
    [['reviews (default pacing 2 s + up to 1.5 s per step), median', 58], ...f.sites.map((s) => [s.site, 10] as [string, number])],
    1,
  );
  const each = (pick: (s: SiteFigures) => string) => f.sites.map(pick);
  return [
    header,
    row(['reviews per hour (limit 50; places of 0-300)', ...each((s) => s.defaultLimit.reviewsPerHour.toLocaleString('en-US'))]),
    row(['places per hour', ...each((s) => s.defaultLimit.placesPerHour.toLocaleString('en-US'))]),
    row(['steps per place', ...each((s) => String(s.defaultLimit.stepsPerPlace))]),
    row(['a place of 1,000 reviews read whole', ...each((s) => `${s.thousand.minutes} min`)]),
    row(['  its steps', ...each((s) => String(s.thousand.steps))]),
    `seeds: ${f.seeds.join(', ')}`,
  ].join('\n');
}

runSection(import.meta.url, 'reviews', measureReviews, formatReviewsTable);
