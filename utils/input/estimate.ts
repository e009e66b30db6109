/**
 * How long a list takes, said before the person confirms it: one paced place-page load per
 * place, as the place-details pass costs (utils/details/estimate.ts: the delay, half the jitter
 * on average, and ≈ 4 s to load and read the page; a test holds the two estimates equal). A
 * share link costs one more load, to open it and learn its place, so it counts twice (an upper
 * bound: a share naming a place already listed costs only the first).
 *
 * Loads on one host never overlap (utils/queue/pacing.ts), and a list is collected in one lane
 * per site, one place after another, so the figure is a plain sum. At the defaults
 * (DEFAULT_SETTINGS: 2 s delay + 1.5 s jitter) that is 6.75 s a place: 10,000 places ≈ 18.75 h.
 */
import { DEFAULT_SETTINGS } from '../config/settings';

/** Seconds a place page takes beyond the pacing delay: = SECONDS_PER_PLACE_WORK of utils/details/estimate.ts. */
export const LIST_SECONDS_PER_LOAD_WORK = 4;

export interface ListPacing {
  /** The least time between two loads on one host (the options' delay), ms. */
  delayMs: number;
  /** Up to this much more, at random (its mean, half, is counted), ms. */
  jitterMs: number;
}

export interface ListEstimate {
  /** Page loads: one per place, two per share link. */
  loads: number;
  seconds: number;
  /** Whole minutes, rounded up. */
  minutes: number;
}

export function estimateList(counts: { places: number; shares?: number }, pacing: ListPacing = DEFAULT_SETTINGS): ListEstimate {
  const places = wholeCount(counts.places);
  const shares = wholeCount(counts.shares ?? 0);
  const delay = Number.isFinite(pacing.delayMs) && pacing.delayMs > 0 ? pacing.delayMs : 0;
  const jitter = Number.isFinite(pacing.jitterMs) && pacing.jitterMs > 0 ? pacing.jitterMs : 0;
  const loads = places + 2 * shares;
  const seconds = Math.round(loads * (LIST_SECONDS_PER_LOAD_WORK + (delay + jitter / 2) / 1000));
  return { loads, seconds, minutes: Math.ceil(seconds / 60) };
}

function wholeCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : 0;
}
