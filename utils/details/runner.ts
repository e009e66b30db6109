/**
 * The place-details loop: one per worker tab, all state in the store (utils/details/queue.ts),
 * shaped like the sweep driver (utils/sweep/driver.ts). Each turn takes the pacer's turn for
 * the place pages' host, leases the place available soonest, loads its page (one paced load
 * per place), asks the content script for the place (`collectPlace`), and commits the merge
 * in one strict transaction, or records the failure (backoff, then left after maxAttempts).
 * The service worker may die at any line: a lease never committed runs out and the place is
 * handed out again; nothing committed is loaded twice.
 */
import { TimeoutError } from '../browser/page-driver';
import type { Listing } from '../domain/listing';
import { providerFor } from '../providers/registry';
import type { Store } from '../store';
import type { Pacer } from '../queue/pacing';
import { DEFAULT_SETTINGS } from '../config/settings';
import type { Sweep } from '../domain/sweep';
import { detailsLaneUrl } from './needs';
import type { CollectPlaceRequest } from '../messaging/details-protocol';
import { idleWaitMs } from '../queue/jobs';
import { commitPlace, countPlaces, failPlace, leasePlace, releasePlace } from './queue';

/** What the loop needs of a worker tab: the sweep's page load, and the place reader. */
export interface PlacePageDriver {
  /** Navigate and wait for the load; rejects with a TimeoutError after `timeoutMs`. */
  load(tabId: number, url: string, timeoutMs: number): Promise<{ url: string }>;
  exists(tabId: number): Promise<boolean>;
  /** The content script's reading of the place the page shows (DetailsProtocol.collectPlace). */
  collectPlace(tabId: number, req: CollectPlaceRequest, timeoutMs: number): Promise<Listing | null>;
}

export interface DetailsDeps {
  store: Store;
  page: PlacePageDriver;
  pacer: Pacer;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export type DetailsExit =
  /** Every job is done or left failed. */
  | 'finished'
  /** The sweep is gone, or not finished any more (reopened: its cells come first). */
  | 'not-finished'
  /** The site answered with a captcha or consent page: the lease went back, the pass waits for the user. */
  | 'blocked'
  | 'tab-closed'
  /** `stop()` was asked (another sweep needs the tab, the user). */
  | 'stopped';

export interface DetailsRunOptions {
  /** This loop's lease holder id (unique per loop). */
  holder?: string;
  /** Asked before each place: true ends the loop after the place in hand. */
  stopped?(): boolean;
}

/** Wait this long at most for a place page to show its place. */
export const PLACE_SETTLE_MS = 15_000;
/** The content script's answer may take the settle time plus this margin. */
const COLLECT_MARGIN_MS = 10_000;
/** Slack on top of a visit's limits. */
const LEASE_MARGIN_MS = 30_000;

function loadTimeoutOf(sweep: Pick<Sweep, 'settings'>): number {
  const t = sweep.settings.cellTimeoutMs;
  return Number.isFinite(t) && t > 0 ? t : DEFAULT_SETTINGS.cellTimeoutMs;
}

/** A place visit at its limits (load timeout, then the read) plus a margin: a lease never runs out while its loop is inside them. */
export function placeLeaseMs(sweep: Pick<Sweep, 'settings'>): number {
  return loadTimeoutOf(sweep) + PLACE_SETTLE_MS + COLLECT_MARGIN_MS + LEASE_MARGIN_MS;
}

export async function runDetails(deps: DetailsDeps, sweepId: string, tabId: number, opts: DetailsRunOptions = {}): Promise<DetailsExit> {
  const holder = opts.holder ?? `details:${tabId}:${Math.floor(deps.random() * 36 ** 6).toString(36)}`;
  const first = await deps.store.getSweep(sweepId);
  if (!first) return 'not-finished';
  const provider = providerFor(first.provider);
  const lane = detailsLaneUrl(provider.id);
  for (;;) {
    if (opts.stopped?.()) return 'stopped';
    if (!(await deps.page.exists(tabId))) return 'tab-closed';
    // The place is leased inside this loop's turn for the host, so the pacer's wait never eats into the lease.
    const release = await deps.pacer.acquire(lane);
    let sweep: Sweep | undefined;
    let job = null;
    try {
      sweep = await deps.store.getSweep(sweepId);
      if (sweep?.status !== 'finished') return 'not-finished';
      job = await leasePlace(deps.store, { sweepId, holder, now: deps.now(), leaseMs: placeLeaseMs(sweep) });
    } finally {
      if (!job) release();
    }
    if (!job) {
      const counts = await countPlaces(deps.store, sweepId);
      if (counts.pending + counts.leased === 0) return 'finished';
      // What is left waits out a backoff or is leased by another loop.
      await deps.sleep(idleWaitMs({ open: counts.pending + counts.leased, nextAvailableAt: counts.nextAvailableAt }, deps.now()));
      continue;
    }

    const fail = (message: string) =>
      failPlace(deps.store, { jobId: job.id, holder, now: deps.now(), message, maxAttempts: sweep.settings.maxAttempts, random: deps.random });
    let loadedUrl: string;
    try {
      loadedUrl = (await deps.page.load(tabId, job.url, loadTimeoutOf(sweep))).url;
    } catch (e) {
      release();
      deps.pacer.penalise(lane);
      await fail(e instanceof TimeoutError ? `timeout: ${errorText(e)}` : errorText(e));
      continue;
    }
    release();
    if (provider.blockedPageKind(loadedUrl)) {
      // Not the place's fault: no attempt counted, the pass waits for the user (as a sweep pauses).
      await releasePlace(deps.store, { jobId: job.id, holder, now: deps.now() });
      return 'blocked';
    }
    let listing: Listing | null;
    try {
      listing = await deps.page.collectPlace(tabId, { key: job.key, provider: job.provider, settleMs: PLACE_SETTLE_MS }, PLACE_SETTLE_MS + COLLECT_MARGIN_MS);
    } catch (e) {
      deps.pacer.penalise(lane);
      await fail(errorText(e));
      continue;
    }
    if (!listing) {
      await fail('the page showed no place');
      continue;
    }
    if (listing.key !== job.key) {
      await fail(`the page showed another place (${listing.key})`);
      continue;
    }
    deps.pacer.reward(lane);
    await commitPlace(deps.store, { jobId: job.id, holder, now: deps.now(), listing });
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
