/**
 * What the place-details pass costs, said before Start: one paced page load per place, each
 * the pacing delay (its mean: delay + half the jitter, as the sweep's own estimate counts it:
 * utils/sweep/plan.ts) plus ~4 s of loading and reading the place page.
 */
import type { SweepSettings } from '../domain/sweep';

/** Seconds a place page takes beyond the pacing delay: the load and the read. */
export const SECONDS_PER_PLACE_WORK = 4;

export interface DetailsEstimate {
  /** Page loads (= searches of the site): one per place. */
  loads: number;
  seconds: number;
  /** Seconds each place adds. */
  secondsPerPlace: number;
}

export function secondsPerPlace(settings: Pick<SweepSettings, 'delayMs' | 'jitterMs'>): number {
  const delay = Number.isFinite(settings.delayMs) && settings.delayMs > 0 ? settings.delayMs : 0;
  const jitter = Number.isFinite(settings.jitterMs) && settings.jitterMs > 0 ? settings.jitterMs : 0;
  return SECONDS_PER_PLACE_WORK + (delay + jitter / 2) / 1000;
}

/** The pass over `places` places (those needsDetails() picks; before a sweep, the places it expects). */
export function estimateDetails(places: number, settings: Pick<SweepSettings, 'delayMs' | 'jitterMs'>): DetailsEstimate {
  const n = Number.isFinite(places) && places > 0 ? Math.ceil(places) : 0;
  const per = secondsPerPlace(settings);
  // Loads on one host never overlap (the pacer), whatever the number of worker tabs.
  return { loads: n, seconds: Math.round(n * per), secondsPerPlace: per };
}
