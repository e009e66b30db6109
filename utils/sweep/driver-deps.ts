import { DEFAULT_PLANNER_OPTIONS } from '../grid';
import type { PageDriver } from '../browser/page-driver';
import type { CollectOptions } from '../messaging/protocol';
import type { Store } from '../store';
import type { Pacer } from '../queue/pacing';
import { DEFAULT_SETTINGS } from '../config/settings';
import type { CellError, Sweep } from '../domain/sweep';
import type { CalibrationStore } from '../coverage/calibration';
import type { TeamGate } from './team-port';

import type { SiteAccess } from '../browser/host-access';

/**
 * What a sweep's worker loop is given (its store, page, pacer, clock, team), how it can end, and
 * the limits of one visit (the lease outlasts a whole visit at its configured limits).
 */

export interface DriverDeps {
  store: Store;
  page: PageDriver;
  pacer: Pacer;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** The worker tab's page was hidden (true) or visible (false) at its last visit. */
  pageHidden?(sweepId: string, hidden: boolean): void;
  /** What is known of each window size's searched rectangle (utils/coverage); absent: learnt for this worker's life only. */
  calibration?: CalibrationStore;
  /**
   * The disk is full: recorded outside IndexedDB (the background keeps a flag in storage.local
   * that the popup reads), because IndexedDB refusing writes may refuse the pause itself.
   */
  diskFull?(sweepId: string, error: CellError): Promise<void>;
  /** Badge, notification: the sweep needs the user (captcha, consent, page changed, team database) or finished. */
  attention(
    sweep: Sweep,
    reason: 'blocked' | 'consent' | 'signed-out' | 'reviews-signed-out' | 'extractor' | 'finished' | 'quota' | 'team' | 'host-access',
  ): void;
  /**
   * May MapSweep read the map sites now (utils/browser/host-access.ts)? Asked before every visit:
   * Firefox lets the person withdraw the map hosts mid-sweep. Absent: always (Chrome grants them at install).
   */
  hostAccess?: SiteAccess;
  /** A sweep shared with other browsers (utils/team): who searches each cell is decided in the team's database. */
  team?: TeamGate;
}

export type WorkerExit = 'not-running' | 'finished' | 'paused' | 'failed' | 'tab-closed';

/** Bounds of one collection; the scroll pause comes from the sweep's settings. */
export const COLLECT: Omit<CollectOptions, 'scrollPauseMs'> = { cap: DEFAULT_PLANNER_OPTIONS.cap, stallMs: 8000, maxMs: 90_000, settleMs: 15_000 };

/** The longest a collection may take: the content script's own bounds plus the message's margin. */
export const COLLECT_TIMEOUT_MS = COLLECT.maxMs + COLLECT.settleMs + 15_000;

/** Slack on top of a visit's limits (store writes, the judge, a busy worker). */
export const LEASE_MARGIN_MS = 30_000;

/**
 * A whole visit at its configured limits: the page load at its timeout, then the collection
 * at its bound, plus a margin. Whatever the options say (a short or unreadable load timeout),
 * a lease never runs out while its worker is still inside those limits; the lease is also
 * renewed after the load (see visitCell), and a renewal refused ends the visit.
 */
export function leaseMsOf(sweep: Pick<Sweep, 'settings'>): number {
  return loadTimeoutOf(sweep) + COLLECT_TIMEOUT_MS + LEASE_MARGIN_MS;
}

/** The page load's timeout: the sweep's option, or the default when it is not a usable number. */
export function loadTimeoutOf(sweep: Pick<Sweep, 'settings'>): number {
  const t = sweep.settings.cellTimeoutMs;
  return Number.isFinite(t) && t > 0 ? t : DEFAULT_SETTINGS.cellTimeoutMs;
}
