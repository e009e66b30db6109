/**
 * Keys in extension storage that the popup and the background share (small UI state; sweep
 * state itself lives in IndexedDB).
 */
/** The popup's "Collect while browsing" switch, in storage.local; on unless turned off. */
export const BROWSING_ENABLED_KEY = 'collectWhileBrowsing';
/** Running totals for the popup: places collected while browsing, and how many were new to the store. */
export const BROWSING_STATS_KEY = 'browsingStats';

export interface BrowsingTotals {
  /** Listings sent by browsing tabs (a place seen twice counts twice). */
  seen: number;
  /** Listings that were not in the store before browsing found them. */
  added: number;
  /** Browsing batches whose commit failed (the tab keeps each and sends it again). */
  failed: number;
  /** The latest failed commit; shown while no commit has succeeded since. */
  lastFailure: { at: number; message: string } | null;
  lastSavedAt: number | null;
}

/** The failure to show in the popup: the latest one, unless a commit went through after it. */
export function unresolvedFailure(t: BrowsingTotals): BrowsingTotals['lastFailure'] {
  if (!t.lastFailure) return null;
  return t.lastSavedAt !== null && t.lastSavedAt >= t.lastFailure.at ? null : t.lastFailure;
}

export function isBrowsingEnabled(value: unknown): boolean {
  return value !== false;
}

export function readTotals(value: unknown): BrowsingTotals {
  const v = (value ?? {}) as Partial<BrowsingTotals>;
  const f = v.lastFailure;
  return {
    seen: Number.isFinite(v.seen) ? (v.seen as number) : 0,
    added: Number.isFinite(v.added) ? (v.added as number) : 0,
    failed: Number.isFinite(v.failed) ? (v.failed as number) : 0,
    lastFailure: f && typeof f === 'object' && Number.isFinite(f.at) && typeof f.message === 'string' ? { at: f.at, message: f.message } : null,
    lastSavedAt: Number.isFinite(v.lastSavedAt) ? (v.lastSavedAt as number) : null,
  };
}

/** Session flag the driver sets while a sweep's worker tab is hidden (and may be slowed down). */
export function pageHiddenKey(sweepId: string): string {
  return `pageHidden:${sweepId}`;
}

/**
 * How many runs of each saved search are kept (storage.local). Every run is a sweep of its
 * own (cells, log, and its collection on every listing it found) plus its change list: months
 * of daily runs would fill the disk. Older runs are deleted when a run completes.
 */
export const KEEP_RUNS_KEY = 'keepRuns';
export const DEFAULT_KEEP_RUNS = 10;
/** At least the run just finished and the one it was compared with; at most about three years of daily runs. */
export const KEEP_RUNS_LIMITS: [min: number, max: number] = [2, 1000];

export function readKeepRuns(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return DEFAULT_KEEP_RUNS;
  return Math.min(KEEP_RUNS_LIMITS[1], Math.max(KEEP_RUNS_LIMITS[0], Math.round(value)));
}

/**
 * "Collect while browsing" in incognito windows too (storage.local); off unless turned on:
 * a private window is private, and the extension keeps nothing from it by default.
 */
export const BROWSING_INCOGNITO_KEY = 'collectInIncognito';

export function isIncognitoAllowed(value: unknown): boolean {
  return value === true;
}

/** A sweep whose reviews pass waits for the user to sign in (utils/reviews/wire.ts). */
export function reviewsPausedKey(sweepId: string): string {
  return `reviewsPaused:${sweepId}`;
}

/** Why a sweep's reviews pass waits for the user (utils/reviews/wire.ts). */
export type ReviewsPause = 'signed-out' | 'blocked' | 'host-access';

export function readReviewsPause(value: unknown): ReviewsPause | null {
  return value === 'signed-out' || value === 'blocked' || value === 'host-access' ? value : null;
}

/** Per-sweep reasons in storage.local (outside IndexedDB: a wait the user ends, never a sweep's data). */
export function storedPauses(local: {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}) {
  return {
    get: async (sweepId: string) => readReviewsPause((await local.get(reviewsPausedKey(sweepId)))[reviewsPausedKey(sweepId)]),
    set: (sweepId: string, reason: ReviewsPause) => local.set({ [reviewsPausedKey(sweepId)]: reason }),
    clear: (sweepId: string) => local.remove(reviewsPausedKey(sweepId)),
  };
}
