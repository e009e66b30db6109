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
}

export function isBrowsingEnabled(value: unknown): boolean {
  return value !== false;
}

export function readTotals(value: unknown): BrowsingTotals {
  const v = (value ?? {}) as Partial<BrowsingTotals>;
  return {
    seen: Number.isFinite(v.seen) ? (v.seen as number) : 0,
    added: Number.isFinite(v.added) ? (v.added as number) : 0,
  };
}

/** Session flag the driver sets while a sweep's worker tab is hidden (and may be slowed down). */
export function pageHiddenKey(sweepId: string): string {
  return `pageHidden:${sweepId}`;
}
