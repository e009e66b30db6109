/**
 * The reviews loop (issue 38): one per worker tab, all state in the store (utils/reviews/queue.ts),
 * shaped like the place-details loop (utils/details/runner.ts). For each place: lease it, load its
 * reviews page in the site's lane, then step through the page (open the Reviews tab, choose newest
 * first, scroll for the next batch, open long texts), each step that makes the page fetch or change
 * waiting its turn in the same lane, until judge.ts sees the page's proof of an end; then one strict
 * commit. A reading without proof is a failed attempt (retried after a backoff, then left and
 * reported). The signed-out limited view pauses the pass for the user to sign in. The service
 * worker may die at any line: a lease never committed runs out and the place is read again.
 */
import { TimeoutError } from '../browser/page-driver';
import type { RatingDistribution, Review } from '../domain/review';
import type { ReviewsStepRequest, ReviewsView } from '../messaging/reviews-protocol';
import { providerFor } from '../providers/registry';
import { idleWaitMs, renewJob } from '../queue/jobs';
import type { Pacer } from '../queue/pacing';
import type { Store } from '../store';
import { checkedDistribution } from './distribution';
import { afterStep, newHistory, nextStep, type ReviewLimits } from './judge';
import { commitReviews, countOpenReviews, failReviews, leaseReviews, REVIEW_JOBS, releaseReviews, storedReviews } from './queue';
import type { ReviewJob } from './records';
import type { ProviderId } from '../domain/place';
import { reviewIdsOf, reviewOf } from './review-of';

import type { SiteAccess } from '../browser/host-access';

/** What the loop needs of a worker tab. */
export interface ReviewsPageDriver {
  load(tabId: number, url: string, timeoutMs: number): Promise<{ url: string }>;
  exists(tabId: number): Promise<boolean>;
  /** One step on the page (ReviewsProtocol.reviewsStep); rejects with a TimeoutError after `timeoutMs`. */
  step(tabId: number, req: ReviewsStepRequest, timeoutMs: number): Promise<ReviewsView>;
}

export interface ReviewsSettings {
  limits: ReviewLimits;
  keepAuthor: boolean;
  maxAttempts: number;
  loadTimeoutMs: number;
}

export interface ReviewsDeps {
  store: Store;
  page: ReviewsPageDriver;
  pacer: Pacer;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** May MapSweep read the map sites now (utils/browser/host-access.ts)? Absent: always. */
  hostAccess?: SiteAccess;
}

/** 'no-host-access': the map hosts were withdrawn (Firefox); the place went back untouched. */
export type ReviewsExit = 'finished' | 'not-finished' | 'blocked' | 'limited' | 'no-host-access' | 'tab-closed' | 'stopped';

/** How long one step may wait for the page to show what it brought (a batch, an open text). */
export const STEP_SETTLE_MS = 6_000;
/** Steps per place at most: a list of thousands at 10 a batch, with room for expanders. */
const MAX_STEPS = 400;
const STEP_MARGIN_MS = 5_000;

export async function runReviews(
  deps: ReviewsDeps,
  sweepId: string,
  tabId: number,
  settings: ReviewsSettings,
  opts: { holder: string; stopped?(): boolean },
): Promise<ReviewsExit> {
  const sweep = await deps.store.getSweep(sweepId);
  if (!sweep) return 'not-finished';
  const source: ReviewQueueSource = {
    queues: [{ queueId: sweepId, provider: providerFor(sweep.provider).id }],
    going: async () => (await deps.store.getSweep(sweepId))?.status === 'finished',
  };
  return runReviewQueues(deps, source, tabId, settings, opts);
}

/** Where the loop takes its places from: a finished sweep's queue, or a list's queues, one per site (utils/lists). */
export interface ReviewQueueSource {
  /** The `reviewQueue` ranges (by their "sweepId") and the site each is of. */
  queues: readonly { queueId: string; provider: ProviderId }[];
  /** Whether the work is still wanted (the sweep finished, the list running); asked before each place. */
  going(): Promise<boolean>;
}

/**
 * The loop over the places of one or more queues, in one tab: each turn leases from the queue whose
 * next place is available soonest, and reads it (its steps paced in its site's reviews lane).
 */
export async function runReviewQueues(
  deps: ReviewsDeps,
  source: ReviewQueueSource,
  tabId: number,
  settings: ReviewsSettings,
  opts: { holder: string; stopped?(): boolean },
): Promise<ReviewsExit> {
  // A site this version does not read reviews of has nothing to read.
  const queues = source.queues.filter((q) => providerFor(q.provider).reviews?.laneUrl);
  const leaseMs = settings.loadTimeoutMs + 2 * (STEP_SETTLE_MS + STEP_MARGIN_MS) + 60_000;
  for (;;) {
    if (opts.stopped?.()) return 'stopped';
    if (!(await deps.page.exists(tabId))) return 'tab-closed';
    if (!(await source.going())) return 'not-finished';
    let job: ReviewJob | null = null;
    let soonest = Number.POSITIVE_INFINITY;
    let open = 0;
    for (const q of queues) {
      const counts = await countOpenReviews(deps.store, q.queueId);
      open += counts.open;
      if (counts.open > 0) soonest = Math.min(soonest, counts.nextAvailableAt);
    }
    if (open === 0) return 'finished';
    for (const q of queues) {
      job = await leaseReviews(deps.store, { sweepId: q.queueId, holder: opts.holder, now: deps.now(), leaseMs });
      if (job) break;
    }
    if (!job) {
      await deps.sleep(idleWaitMs({ open, nextAvailableAt: soonest }, deps.now()));
      continue;
    }
    if (deps.hostAccess && !(await deps.hostAccess(providerFor(job.provider)))) {
      await releaseReviews(deps.store, { jobId: job.id, holder: opts.holder, now: deps.now() });
      return 'no-host-access';
    }
    const lane = providerFor(job.provider).reviews!.laneUrl;
    const exit = await readPlace(deps, job, tabId, lane, settings, opts.holder, leaseMs);
    if (exit) return exit;
  }
}

/** One place's reading, committed or failed; an exit when the pass must stop. */
async function readPlace(
  deps: ReviewsDeps,
  job: ReviewJob,
  tabId: number,
  lane: string,
  settings: ReviewsSettings,
  holder: string,
  leaseMs: number,
): Promise<ReviewsExit | null> {
  /** The place's own failure, an attempt counted; unless the map hosts were withdrawn meanwhile (Firefox): then it goes back untouched. */
  const fail = async (message: string): Promise<'no-host-access' | null> => {
    if (deps.hostAccess && !(await deps.hostAccess(providerFor(job.provider)))) {
      await releaseReviews(deps.store, { jobId: job.id, holder, now: deps.now() });
      return 'no-host-access';
    }
    await failReviews(deps.store, { jobId: job.id, holder, now: deps.now(), message, maxAttempts: settings.maxAttempts, random: deps.random });
    return null;
  };
  const provider = providerFor(job.provider);
  /** A step in the site's lane: the page fetches or changes only in this loop's turn. */
  const paced = async <T>(work: () => Promise<T>): Promise<T> => {
    const release = await deps.pacer.acquire(lane);
    try {
      return await work();
    } finally {
      release();
    }
  };
  try {
    const loaded = await paced(() => deps.page.load(tabId, job.url, settings.loadTimeoutMs));
    if (provider.blockedPageKind(loaded.url)) {
      await releaseReviews(deps.store, { jobId: job.id, holder, now: deps.now() });
      return 'blocked';
    }
  } catch (e) {
    deps.pacer.penalise(lane);
    return fail(e instanceof TimeoutError ? `timeout: ${errorText(e)}` : errorText(e));
  }
  const stored = await storedReviews(deps.store, job.key);
  const readAt = deps.now();
  const ctx = { placeKey: job.key, provider: job.provider, readAt, keepAuthor: settings.keepAuthor };
  // The histogram may show on one step's page and not on a later one's (the overview, then the
  // list scrolled on): the last one that added up is kept for the commit.
  let distribution: RatingDistribution | null = null;
  const step = async (action: ReviewsStepRequest['action']) => {
    const view = await deps.page.step(tabId, { key: job.key, provider: job.provider, action, settleMs: STEP_SETTLE_MS }, STEP_SETTLE_MS + STEP_MARGIN_MS);
    distribution = checkedDistribution(view.distribution, view.total) ?? distribution;
    return view;
  };
  let history = newHistory();
  try {
    let view = await step('look');
    for (let n = 0; n < MAX_STEPS; n++) {
      const ids = reviewIdsOf(view.cards, job.key);
      const next = nextStep(
        view,
        settings.limits,
        history,
        (card, i) => {
          if (stored.ids.has(ids[i]!.id)) return 'known';
          const since = settings.limits.since;
          const day = since ? reviewOf(card, ctx).date?.iso : null;
          return since && day && day < since ? 'since' : null;
        },
        stored,
      );
      if (next.kind === 'limited') {
        await releaseReviews(deps.store, { jobId: job.id, holder, now: deps.now() });
        return 'limited';
      }
      if (next.kind === 'unknown') return await fail(next.reason);
      if (next.kind === 'done') {
        const reviews: Review[] = view.cards.slice(0, next.take).map((c, i) => reviewOf(c, ctx, ids[i]));
        await commitReviews(deps.store, { jobId: job.id, holder, now: deps.now(), reviews, end: next.end, sortedNewest: next.sortedNewest, distribution });
        deps.pacer.reward(lane);
        return null;
      }
      const before = view;
      if (next.action === 'look') {
        // The page is loading a batch: look again shortly, nothing pressed.
        await deps.sleep(500);
        view = await step('look');
      } else view = await paced(() => step(next.action));
      history = afterStep(history, next.action, before, view);
      // A long list is many steps: the lease follows the reading.
      if (!(await renewJob(deps.store, REVIEW_JOBS, { id: job.id, holder, now: deps.now(), leaseMs }))) return null;
    }
    return await fail(`no end after ${MAX_STEPS} steps`);
  } catch (e) {
    deps.pacer.penalise(lane);
    return fail(errorText(e));
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
