import type { Sweep } from '../domain/sweep';

/** What the popup shows about a sweep, derived from the stored record alone. */
export interface Progress {
  cellsClosed: number;
  cellsKnown: number;
  /** 0..1; cells known grows as crowded cells split, so this can move backwards a little. */
  fraction: number;
  listings: number;
  /** New listings per hour over the sweep's running time so far (null until there is a figure). */
  perHour: number | null;
  /** Seconds left at the current pace, for the cells known now (a lower bound while cells split). */
  etaSeconds: number | null;
  warnings: Warning[];
}

export type Warning =
  /** `signed_out`: Google's limited view (pauseReason 'signed-out'); spelled so that `warning_${kind}` is a valid message name. */
  | { kind: 'captcha' | 'consent' | 'signed_out' | 'extractor' | 'quota' | 'restart'; message: string }
  /** The map hosts were withdrawn (Firefox: pauseReason 'host-access'). */
  | { kind: 'host_access'; message: string }
  /** The team database refused this browser (pauseReason 'team'): `message` is why, and what to do. */
  | { kind: 'team'; message: string }
  | { kind: 'saturated'; count: number }
  | { kind: 'quarantined'; count: number }
  /** The closing audit found places the sweep had missed (and searched the affected cells again). */
  | { kind: 'audit'; missed: number; reopened: number }
  /** Listings the store refused while it saved the rest of their cells; the first few distinct reasons. */
  | { kind: 'refused'; count: number; reasons: string[] }
  | { kind: 'stale'; minutes: number };

/** Minutes without a new listing, while running, before the popup says so. */
const STALE_MINUTES = 20;

export function sweepProgress(sweep: Sweep, now: number): Progress {
  const c = sweep.counters;
  const closed = c.cellsDone + c.cellsSplit + c.cellsSaturated + c.cellsQuarantined + c.cellsOutside;
  const elapsedH = Math.max(0, (sweep.updatedAt - sweep.createdAt) / 3_600_000);
  const searched = c.cellsDone + c.cellsSplit + c.cellsSaturated;
  const perHour = elapsedH > 0.01 && c.listingsNew > 0 ? c.listingsNew / elapsedH : null;
  const cellsPerSecond = elapsedH > 0 && searched > 0 ? searched / (elapsedH * 3600) : null;
  const open = Math.max(0, c.cellsKnown - closed);
  const warnings: Warning[] = [];
  if (sweep.pauseReason === 'captcha' || sweep.pauseReason === 'consent' || sweep.pauseReason === 'quota' || sweep.pauseReason === 'restart') {
    warnings.push({ kind: sweep.pauseReason, message: sweep.problem?.message ?? '' });
  }
  if (sweep.pauseReason === 'team') warnings.push({ kind: 'team', message: sweep.problem?.message ?? '' });
  if (sweep.pauseReason === 'host-access') warnings.push({ kind: 'host_access', message: sweep.problem?.message ?? '' });
  if (sweep.pauseReason === 'signed-out') warnings.push({ kind: 'signed_out', message: sweep.problem?.message ?? '' });
  if (sweep.status === 'failed') warnings.push({ kind: 'extractor', message: sweep.problem?.message ?? '' });
  if (c.cellsSaturated > 0) warnings.push({ kind: 'saturated', count: c.cellsSaturated });
  if (c.cellsQuarantined > 0) warnings.push({ kind: 'quarantined', count: c.cellsQuarantined });
  if ((c.listingsRefused ?? 0) > 0) warnings.push({ kind: 'refused', count: c.listingsRefused!, reasons: sweep.refusedReasons ?? [] });
  if ((sweep.audit?.missed ?? 0) > 0) warnings.push({ kind: 'audit', missed: sweep.audit!.missed, reopened: sweep.audit!.reopened });
  if (sweep.status === 'running') {
    const since = sweep.lastNewListingAt ?? sweep.createdAt;
    const minutes = Math.floor((now - since) / 60_000);
    if (minutes >= STALE_MINUTES) warnings.push({ kind: 'stale', minutes });
  }
  return {
    cellsClosed: closed,
    cellsKnown: c.cellsKnown,
    fraction: c.cellsKnown > 0 ? closed / c.cellsKnown : 0,
    listings: c.listingsNew,
    perHour,
    etaSeconds: cellsPerSecond ? open / cellsPerSecond : null,
    warnings,
  };
}
