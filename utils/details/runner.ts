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
import type { PlaceJob } from './records';
import type { ProviderId } from '../domain/place';

import type { SiteAccess } from '../browser/host-access';

/** What the loop needs of a worker tab: the sweep's page load, and the place reader. */
export interface PlacePageDriver {
  /** Navigate and wait for the load; rejects with a TimeoutError after `timeoutMs`. */
  load(tabId: number, url: string, timeoutMs: number): Promise<{ url: string }>;
  exists(tabId: number): Promise<boolean>;
  /** The content script's reading of the place the page shows (DetailsProtocol.collectPlace). */
  collectPlace(tabId: number, req: CollectPlaceRequest, timeoutMs: number): Promise<Listing | null>;
  /** The address the tab shows now (a share link's page may send the browser on by script). Absent: the load's is the last word. */
  currentUrl?(tabId: number): Promise<string>;
}

export interface DetailsDeps {
  store: Store;
  page: PlacePageDriver;
  pacer: Pacer;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** May MapSweep read the map sites now (utils/browser/host-access.ts)? Absent: always. */
  hostAccess?: SiteAccess;
}

export type DetailsExit =
  /** Every job is done or left failed. */
  | 'finished'
  /** The sweep is gone, or not finished any more (reopened: its cells come first). */
  | 'not-finished'
  /** The site answered with a captcha or consent page: the lease went back, the pass waits for the user. */
  | 'blocked'
  /** The map hosts were withdrawn (Firefox): the job went back untouched, the pass waits for the person. */
  | 'no-host-access'
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
  return leaseMsFor(loadTimeoutOf(sweep));
}

/** A place visit's lease for a load timeout of `loadTimeoutMs`: the visit at its limits plus a margin. */
export function leaseMsFor(loadTimeoutMs: number): number {
  return loadTimeoutMs + PLACE_SETTLE_MS + COLLECT_MARGIN_MS + LEASE_MARGIN_MS;
}

/** What a place visit may take, read again at every turn (null: the work is no longer wanted). */
export interface VisitLimits {
  loadTimeoutMs: number;
  leaseMs: number;
  maxAttempts: number;
}

/** One queue of place pages (a `placeQueue` range, named by its "sweepId"), and the site whose lane its loads wait in. */
export interface PlaceQueueRef {
  queueId: string;
  provider: ProviderId;
}

/**
 * Where the loop takes its place pages from: a finished sweep's queue (the details pass), or a
 * list's queues, one per site (utils/lists). The loop itself (pacing, lease, load, block page,
 * read, the key check, fail with backoff) is this module's, once.
 */
export interface PlaceQueueSource {
  /** Names the loop's lease holders ("details", "list"). */
  name: string;
  /** The limits of a visit, or null when the work is no longer wanted (its sweep reopened, its list paused or gone). */
  limits(): Promise<VisitLimits | null>;
  queues: readonly PlaceQueueRef[];
  /**
   * The place the loaded page is to show. Absent: the job's own key. A list's share link names its
   * place only once opened: its source reads the page the link landed on (or says why not), and
   * names the place's own page to load next (`reload`, in another turn of the lane), so the place is
   * read where its reader knows the page, whatever form of page the link landed on; or says the
   * place was read already (`read`: settleRead, no second load), or that the page went on to a
   * block or consent page (`blocked`: the pass waits for the person, no attempt counted).
   */
  target?(
    job: PlaceJob,
    landedUrl: string,
    tabId: number,
  ): Promise<{ key: string; reload?: string } | { read: string } | { error: string } | { blocked: true }>;
  /** Lanes a job's load takes besides its site's place pages' (a share link lands on the site's other hosts). */
  moreLanes?(job: PlaceJob): string[];
  /** A job whose place this source has read already (target said `read`): settled with it, no load. */
  settleRead?(req: { job: PlaceJob; holder: string; now: number; key: string }): Promise<unknown>;
  /** The page's reading of the place, committed with the job in one strict transaction. */
  commit(req: { job: PlaceJob; holder: string; now: number; listing: Listing }): Promise<unknown>;
}

export async function runDetails(deps: DetailsDeps, sweepId: string, tabId: number, opts: DetailsRunOptions = {}): Promise<DetailsExit> {
  const first = await deps.store.getSweep(sweepId);
  if (!first) return 'not-finished';
  const source: PlaceQueueSource = {
    name: 'details',
    queues: [{ queueId: sweepId, provider: providerFor(first.provider).id }],
    async limits() {
      const sweep = await deps.store.getSweep(sweepId);
      if (sweep?.status !== 'finished') return null;
      return { loadTimeoutMs: loadTimeoutOf(sweep), leaseMs: placeLeaseMs(sweep), maxAttempts: sweep.settings.maxAttempts };
    },
    commit: (req) => commitPlace(deps.store, { jobId: req.job.id, holder: req.holder, now: req.now, listing: req.listing }),
  };
  return runPlaceQueue(deps, source, tabId, opts);
}

/**
 * The loop over place pages, in one tab: each turn picks the queue whose next job is available
 * soonest, takes the pacer's turn for that site's place pages, leases the job inside the turn
 * (so the pacer's wait never eats into the lease), loads its page, reads the place and commits.
 */
export async function runPlaceQueue(deps: DetailsDeps, source: PlaceQueueSource, tabId: number, opts: DetailsRunOptions = {}): Promise<DetailsExit> {
  const holder = opts.holder ?? `${source.name}:${tabId}:${Math.floor(deps.random() * 36 ** 6).toString(36)}`;
  for (;;) {
    if (opts.stopped?.()) return 'stopped';
    if (!(await deps.page.exists(tabId))) return 'tab-closed';
    const next = await soonestQueue(deps.store, source.queues);
    if (!next) return (await source.limits()) ? 'finished' : 'not-finished';
    const lane = detailsLaneUrl(next.queue.provider);
    const release = await deps.pacer.acquire(lane);
    let limits: VisitLimits | null = null;
    let job: PlaceJob | null = null;
    try {
      limits = await source.limits();
      if (!limits) return 'not-finished';
      job = await leasePlace(deps.store, { sweepId: next.queue.queueId, holder, now: deps.now(), leaseMs: limits.leaseMs });
    } finally {
      if (!job) release();
    }
    if (!job) {
      // What is left waits out a backoff or is leased by another loop (the wait after the host's turn, as it overlaps it).
      await deps.sleep(idleWaitMs({ open: next.open, nextAvailableAt: next.at }, deps.now()));
      continue;
    }
    const leased = job;
    const maxAttempts = limits.maxAttempts;
    /**
     * The place's own failure, an attempt counted; unless the map hosts were withdrawn meanwhile
     * (Firefox), which is no fault of the place: then it goes back untouched and the loop stops.
     */
    const fail = async (message: string): Promise<'no-host-access' | null> => {
      if (deps.hostAccess && !(await deps.hostAccess(providerFor(leased.provider)))) {
        await releasePlace(deps.store, { jobId: leased.id, holder, now: deps.now() });
        return 'no-host-access';
      }
      await failPlace(deps.store, { jobId: leased.id, holder, now: deps.now(), message, maxAttempts, random: deps.random });
      return null;
    };
    // A job whose page may send the browser on to another of the site's hosts (a share link) waits
    // for those hosts' turns too, always after this one (no two loops can wait on each other).
    const more: (() => void)[] = [];
    for (const other of source.moreLanes?.(leased) ?? []) if (other !== lane) more.push(await deps.pacer.acquire(other));
    const releaseAll = () => {
      release();
      for (const r of more) r();
    };
    if (deps.hostAccess && !(await deps.hostAccess(providerFor(leased.provider)))) {
      releaseAll();
      await releasePlace(deps.store, { jobId: leased.id, holder, now: deps.now() });
      return 'no-host-access';
    }
    let loadedUrl: string;
    try {
      loadedUrl = (await deps.page.load(tabId, leased.url, limits.loadTimeoutMs)).url;
    } catch (e) {
      releaseAll();
      deps.pacer.penalise(lane);
      if (await fail(e instanceof TimeoutError ? `timeout: ${errorText(e)}` : errorText(e))) return 'no-host-access';
      continue;
    }
    if (providerFor(leased.provider).blockedPageKind(loadedUrl)) {
      releaseAll();
      // Not the place's fault: no attempt counted, the pass waits for the user (as a sweep pauses).
      await releasePlace(deps.store, { jobId: leased.id, holder, now: deps.now() });
      return 'blocked';
    }
    // Where the page went on to (a share link's landing) is still this turn's load.
    type Target = Awaited<ReturnType<NonNullable<PlaceQueueSource['target']>>>;
    const own: Target = { key: leased.key };
    const target: Target = await (source.target ? source.target(leased, loadedUrl, tabId) : Promise.resolve(own)).finally(releaseAll);
    if ('blocked' in target) {
      await releasePlace(deps.store, { jobId: leased.id, holder, now: deps.now() });
      return 'blocked';
    }
    if ('error' in target) {
      if (await fail(target.error)) return 'no-host-access';
      continue;
    }
    if ('read' in target) {
      deps.pacer.reward(lane);
      await source.settleRead?.({ job: leased, holder, now: deps.now(), key: target.read });
      continue;
    }
    if (target.reload) {
      const again = await deps.pacer.acquire(lane);
      try {
        loadedUrl = (await deps.page.load(tabId, target.reload, limits.loadTimeoutMs)).url;
      } catch (e) {
        deps.pacer.penalise(lane);
        if (await fail(e instanceof TimeoutError ? `timeout: ${errorText(e)}` : errorText(e))) return 'no-host-access';
        continue;
      } finally {
        again();
      }
      if (providerFor(leased.provider).blockedPageKind(loadedUrl)) {
        await releasePlace(deps.store, { jobId: leased.id, holder, now: deps.now() });
        return 'blocked';
      }
    }
    let listing: Listing | null;
    try {
      listing = await deps.page.collectPlace(
        tabId,
        { key: target.key, provider: leased.provider, settleMs: PLACE_SETTLE_MS },
        PLACE_SETTLE_MS + COLLECT_MARGIN_MS,
      );
    } catch (e) {
      deps.pacer.penalise(lane);
      if (await fail(errorText(e))) return 'no-host-access';
      continue;
    }
    if (!listing) {
      if (await fail('the page showed no place')) return 'no-host-access';
      continue;
    }
    if (listing.key !== target.key) {
      if (await fail(`the page showed another place (${listing.key})`)) return 'no-host-access';
      continue;
    }
    deps.pacer.reward(lane);
    await source.commit({ job: leased, holder, now: deps.now(), listing });
  }
}

/** The queue whose next job is available soonest (with when, and how many jobs are open in all), or null when none has an open job. */
async function soonestQueue(store: Store, queues: readonly PlaceQueueRef[]): Promise<{ queue: PlaceQueueRef; at: number; open: number } | null> {
  let best: { queue: PlaceQueueRef; at: number } | null = null;
  let open = 0;
  for (const queue of queues) {
    const c = await countPlaces(store, queue.queueId);
    open += c.pending + c.leased;
    if (c.pending + c.leased > 0 && (!best || c.nextAvailableAt < best.at)) best = { queue, at: c.nextAvailableAt };
  }
  return best && open > 0 ? { ...best, open } : null;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
