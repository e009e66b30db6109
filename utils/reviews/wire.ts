/**
 * The reviews pass as the controller drives it: a pass over a finished sweep's places
 * (utils/queue/sweep-pass.ts) whose queue is the places whose reviews are to be read (queue.ts)
 * and whose loop reads them (runner.ts), after the place-details pass in the same tab.
 */
import type { PageDriver } from '../browser/page-driver';
import { askUntilAnswered } from '../browser/ask-tab';
import type { Sweep } from '../domain/sweep';
import { calendarDay, DEFAULT_SETTINGS } from '../config/settings';
import type { ReviewsPause } from '../config/storage-keys';
import { sendReviewsMessage } from '../messaging/reviews-protocol';
import { providerFor, SITE_FILTER_CONTEXT } from '../providers/registry';
import { keeper, sweepFilter } from '../filters';
import { createSweepPass, type PassStart } from '../queue/sweep-pass';
import { countOpenReviews, countReviews, enqueueReviews, isReviewsQueued, releaseReviewLeases } from './queue';
import { runReviews, type ReviewsDeps, type ReviewsExit, type ReviewsPageDriver, type ReviewsSettings } from './runner';

/** Whether a sweep was started with the reviews pass on (sweeps from before the setting: off). */
export function reviewsOn(settings: unknown): boolean {
  return typeof settings === 'object' && settings !== null && (settings as { reviews?: unknown }).reviews === true;
}

/** The pass's limits as the sweep was started with them. */
export function reviewsSettingsOf(sweep: Sweep): ReviewsSettings {
  const s = sweep.settings as Sweep['settings'] & { reviewsPerPlace?: unknown; reviewsSince?: unknown; reviewsKeepAuthor?: unknown };
  const perPlace =
    typeof s.reviewsPerPlace === 'number' && Number.isInteger(s.reviewsPerPlace) && s.reviewsPerPlace >= 1
      ? s.reviewsPerPlace
      : DEFAULT_SETTINGS.reviewsPerPlace;
  return {
    limits: { perPlace, since: calendarDay(s.reviewsSince) },
    keepAuthor: s.reviewsKeepAuthor === true,
    maxAttempts: Number.isInteger(s.maxAttempts) && s.maxAttempts >= 1 ? s.maxAttempts : DEFAULT_SETTINGS.maxAttempts,
    loadTimeoutMs: Number.isFinite(s.cellTimeoutMs) && s.cellTimeoutMs > 0 ? s.cellTimeoutMs : DEFAULT_SETTINGS.cellTimeoutMs,
  };
}

/** The worker tab's top frame answers each step (its iframes' content scripts never do). */
export function createReviewsPageDriver(
  page: Pick<PageDriver, 'load' | 'exists'>,
  sleep: (ms: number) => Promise<void>,
  now: () => number = Date.now,
): ReviewsPageDriver {
  return {
    load: (tabId, url, timeoutMs) => page.load(tabId, url, timeoutMs),
    exists: (tabId) => page.exists(tabId),
    step: (tabId, req, timeoutMs) =>
      askUntilAnswered(() => sendReviewsMessage('reviewsStep', req, { tabId, frameId: 0 }), timeoutMs, "The reviews page's content script", sleep, now),
  };
}

export interface ReviewsPassDeps extends ReviewsDeps {
  newId(): string;
  /** The pass stopped for a reason the user must act on: a block page, or Google's signed-out view. */
  attention?(sweep: Sweep, exit: 'blocked' | 'limited' | 'no-host-access'): void;
  /**
   * Sweeps whose pass waits for the user (signed out: reading again would only show the same 5
   * reviews; a block page: it would only be loaded again), not started again until `resume`
   * clears it. Kept outside IndexedDB by the caller.
   */
  paused: {
    get(sweepId: string): Promise<ReviewsPause | null>;
    set(sweepId: string, reason: ReviewsPause): Promise<void>;
    clear(sweepId: string): Promise<void>;
  };
}

export type ReviewsStart = PassStart<ReviewsExit>;

export function createReviewsPass(deps: ReviewsPassDeps) {
  const pass = createSweepPass<ReviewsExit>(
    {
      name: 'reviews',
      on: (sweep) => reviewsOn(sweep.settings) && !!providerFor(sweep.provider).reviews,
      waiting: async (sweepId) => (await deps.paused.get(sweepId)) !== null,
      // Only the places that pass the sweep's filters are read (utils/filters).
      fill: (sweep) =>
        enqueueReviews(deps.store, sweep.id, deps.now(), {
          provider: providerFor(sweep.provider).id,
          lang: sweep.settings.lang,
          keep: keeper(sweepFilter(sweep), SITE_FILTER_CONTEXT),
        }),
      isFilled: (sweepId) => isReviewsQueued(deps.store, sweepId),
      open: async (sweepId) => (await countOpenReviews(deps.store, sweepId)).open,
      run: async (sweepId, tabId, opts) => {
        const sweep = await deps.store.getSweep(sweepId);
        return sweep ? runReviews(deps, sweepId, tabId, reviewsSettingsOf(sweep), opts) : 'not-finished';
      },
      releaseAll: () => releaseReviewLeases(deps.store, deps.now()),
    },
    {
      store: deps.store,
      newId: deps.newId,
      ended: (sweep, exit) => {
        // The person must act (sign in, answer the page, allow the map sites): the pass waits for Resume reviews.
        if (exit === 'blocked' || exit === 'limited' || exit === 'no-host-access') {
          void deps.paused.set(sweep.id, PAUSE_OF_EXIT[exit]);
          deps.attention?.(sweep, exit);
        }
      },
    },
  );
  return {
    ...pass,
    /** The user signed in (or solved the page): the sweep's pass may run again. */
    resume: (sweepId: string) => deps.paused.clear(sweepId),
    /** A sweep's reviews progress, for the popup: places done of those queued, and reviews stored. */
    progress: (sweepId: string) => countReviews(deps.store, sweepId),
  };
}

export type ReviewsPass = ReturnType<typeof createReviewsPass>;

const PAUSE_OF_EXIT: Record<'blocked' | 'limited' | 'no-host-access', ReviewsPause> = {
  blocked: 'blocked',
  limited: 'signed-out',
  'no-host-access': 'host-access',
};
