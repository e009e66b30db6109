/** First retry waits up to 5 s; each further failure doubles the ceiling. */
export const BACKOFF_BASE_MS = 5_000;
/** No retry waits longer than 10 minutes. */
export const BACKOFF_CAP_MS = 600_000;

/**
 * Exponential backoff with full jitter: a delay drawn uniformly from [0, min(cap, base·2^(attempt−1))).
 * Full jitter (rather than a fixed doubling) keeps several workers that failed together — the
 * site slowed down for all of them — from coming back together.
 *
 * @param attempt failures so far, from 1 (a smaller value counts as 1)
 * @param random a uniform draw in [0, 1) (the caller's Math.random, or a seeded one in tests)
 */
export function backoffDelay(attempt: number, random: number, base: number = BACKOFF_BASE_MS, cap: number = BACKOFF_CAP_MS): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  // 2 ** n overflows to Infinity for huge n, which Math.min turns into the cap.
  const ceiling = Math.min(cap, base * 2 ** (n - 1));
  const r = Number.isFinite(random) ? Math.min(Math.max(random, 0), 1) : 0;
  // r = 1 is outside [0, 1) but some generators produce it; it must not reach the ceiling.
  return Math.min(Math.floor(r * ceiling), Math.max(0, Math.ceil(ceiling) - 1));
}
