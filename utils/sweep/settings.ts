import type { SweepSettings } from './types';

/**
 * Polite defaults: one page load at a time per map host, at least 2 s apart plus up to
 * 1.5 s of jitter, so a sweep looks like a patient person rather than a crawler.
 */
export const DEFAULT_SETTINGS: SweepSettings = {
  delayMs: 2000,
  jitterMs: 1500,
  cellTimeoutMs: 120_000,
  scrollPauseMs: 800,
  maxAttempts: 4,
  workers: 1,
  dedicatedWindow: false,
  maxCells: 20_000,
};

const LIMITS: { [K in keyof SweepSettings]: SweepSettings[K] extends number ? [number, number] : null } = {
  delayMs: [0, 60_000],
  jitterMs: [0, 60_000],
  cellTimeoutMs: [10_000, 600_000],
  scrollPauseMs: [50, 10_000],
  maxAttempts: [1, 20],
  workers: [1, 3],
  dedicatedWindow: null,
  maxCells: [1, 100_000],
};

/** Settings from storage (possibly old or hand-edited): unknown keys dropped, numbers clamped. */
export function normaliseSettings(raw: unknown): SweepSettings {
  const out: SweepSettings = { ...DEFAULT_SETTINGS };
  if (!raw || typeof raw !== 'object') return out;
  const given = raw as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SweepSettings)[]) {
    const value = given[key];
    const limits = LIMITS[key];
    if (limits && typeof value === 'number' && Number.isFinite(value)) {
      (out[key] as number) = Math.min(limits[1], Math.max(limits[0], Math.round(value)));
    } else if (!limits && typeof value === 'boolean') {
      (out[key] as boolean) = value;
    }
  }
  return out;
}
