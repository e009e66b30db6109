/**
 * The contacts pass as the background drives it (issue 23): a few loops, each leasing a website
 * from the store (utils/contacts/queue.ts), visiting it (visit.ts) and settling it in one strict
 * transaction. All queue state is in the store and the pass's own state (running or paused, and
 * why) in `state`, so a killed worker or browser resumes where the last commit left it, and a
 * site committed is never fetched again before its re-check date.
 *
 * Without the user's grant of the optional host permission nothing is fetched: the pass pauses
 * with reason `permission` at start and the moment the grant is withdrawn (in-flight visits are
 * aborted and their sites given back, no attempt counted).
 */
import { keeper, type PlaceFilter } from '../filters';
import { SITE_FILTER_CONTEXT } from '../providers/registry';
import type { Store } from '../store';
import { createHostLanes, hostLane, type HostLanes } from './host-lanes';
import type { ContactSite } from './records';
import type { FetchFn } from './fetch-page';
import { idleWaitMs } from '../queue/jobs';
import { commitSite, countOpenSites, enqueueContacts, failSite, leaseSite, releaseContactLeases, releaseSite, type ContactEnqueueResult } from './queue';
import { visitSite, type VisitResult } from './visit';
import type { NetworkWatch } from './network-watch';

export type ContactsPauseReason = 'user' | 'permission';

/** The pass's own state, kept outside the store (storage.local): what Resume means. */
export type ContactsPassState = { status: 'idle' } | { status: 'running' } | { status: 'paused'; reason: ContactsPauseReason };

export interface ContactsSettings {
  /** Loops visiting sites at once (each site is one request at a time). */
  concurrency: number;
  /** Between two requests to one host, at least this long. */
  gapMs: number;
  /** Failed visits before a site is left failed. */
  maxAttempts: number;
  /** A checked site is visited again after this many days. */
  recheckDays: number;
  /** The filters of the moment (utils/filters): only the websites of places that pass are read. */
  filters?: PlaceFilter;
}

export const DEFAULT_CONTACTS_SETTINGS: ContactsSettings = { concurrency: 4, gapMs: 1000, maxAttempts: 3, recheckDays: 30 };

export interface ContactsPassDeps {
  store: Store;
  fetch: FetchFn;
  /** What the browser's network saw of the pass's requests (network-watch.ts); absent in tests that have no browser. */
  watch?: NetworkWatch;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  newId(): string;
  /** Whether the user has granted the optional host permission the pass fetches under. */
  hasPermission(): Promise<boolean>;
  loadState(): Promise<ContactsPassState>;
  saveState(state: ContactsPassState): Promise<void>;
  settings(): Promise<ContactsSettings>;
}

/**
 * Lease long enough for a visit at its bounds: a robots.txt per origin and 4 pages, 10 s each,
 * with their host-lane waits (about 90 s at worst), and a wide margin.
 */
const SITE_LEASE_MS = 5 * 60_000;
/** Store failures in a row after which a loop ends rather than spin. */
const MAX_LOOP_FAILURES = 5;

export function createContactsPass(deps: ContactsPassDeps) {
  /** The run of loops under way (winding down once its signal is aborted), or null. */
  let current: { abort: AbortController; done: Promise<void> } | null = null;
  /** Asked to run while a run was under way: when it ends, it runs again if the state says running. */
  let again = false;

  /** Queue a collection's websites (all listings: undefined) and run the pass. */
  async function start(collection?: string): Promise<ContactEnqueueResult | { refused: 'permission' }> {
    const settings = await deps.settings();
    const keep = settings.filters ? keeper(settings.filters, SITE_FILTER_CONTEXT) : undefined;
    const queued = await enqueueContacts(deps.store, { collection, now: deps.now(), recheckDays: settings.recheckDays, keep });
    if (!(await deps.hasPermission())) {
      await deps.saveState({ status: 'paused', reason: 'permission' });
      return { refused: 'permission' };
    }
    await deps.saveState({ status: 'running' });
    ensureRunning();
    return queued;
  }

  async function pause(reason: ContactsPauseReason): Promise<void> {
    await deps.saveState({ status: 'paused', reason });
    current?.abort.abort();
    await current?.done;
  }

  /** At a worker start: an old session's leases given back, and a running pass runs again. */
  async function onStartup(): Promise<void> {
    await releaseContactLeases(deps.store, deps.now());
    await revive();
  }

  /** A running pass that no loop drives (the worker was stopped and woken) runs again. */
  async function revive(): Promise<void> {
    if ((await deps.loadState()).status === 'running') ensureRunning();
  }

  function ensureRunning(): void {
    if (current) {
      // Under way or winding down: its loops may have just seen an empty queue, so look again after it.
      again = true;
      return;
    }
    const abort = new AbortController();
    const done = run(abort.signal)
      .catch((e: unknown) => console.warn('MapSweep: the contacts pass stopped', e))
      .finally(() => {
        current = null;
        if (!again) return;
        again = false;
        void revive();
      });
    current = { abort, done };
  }

  async function run(signal: AbortSignal): Promise<void> {
    const settings = await deps.settings();
    const lanes = createHostLanes({ gapMs: settings.gapMs, concurrency: settings.concurrency, now: deps.now, sleep: deps.sleep });
    const visiting = new Set<string>();
    await Promise.allSettled(Array.from({ length: Math.max(1, settings.concurrency) }, () => loop(signal, lanes, settings, visiting)));
    if (signal.aborted || again) return;
    // Sites queued while the loops were ending (a start racing the last lease) make this run again.
    if ((await countOpenSites(deps.store)).open > 0) {
      again = true;
      return;
    }
    if ((await deps.loadState()).status === 'running') await deps.saveState({ status: 'idle' });
  }

  async function loop(signal: AbortSignal, lanes: HostLanes, settings: ContactsSettings, visiting: Set<string>): Promise<void> {
    const holder = `contacts:${deps.newId()}`;
    let failures = 0;
    while (!signal.aborted) {
      let site: ContactSite | null = null;
      try {
        if (!(await deps.hasPermission())) {
          await pauseFrom(signal, 'permission');
          return;
        }
        site = await leaseSite(deps.store, { holder, now: deps.now(), leaseMs: SITE_LEASE_MS, except: (url) => visiting.has(hostLane(url)) });
        if (!site) {
          const open = await countOpenSites(deps.store);
          if (open.open === 0) return;
          // What is left waits out a backoff, or is another loop's.
          await deps.sleep(idleWaitMs(open, deps.now(), 250), signal).catch(() => {});
          continue;
        }
        await visitLeased(site, holder, signal, lanes, settings, visiting);
        failures = 0;
      } catch (e) {
        // The store refused something (a full disk, a damaged record): the site goes back, the
        // loop waits and goes on; a loop that keeps failing ends rather than spin.
        console.warn('MapSweep: a contacts visit failed', e);
        if (site) await releaseSite(deps.store, { url: site.url, holder, now: deps.now() }).catch(() => false);
        if (++failures >= MAX_LOOP_FAILURES) return;
        await deps.sleep(1000 * failures, signal).catch(() => {});
      }
    }
  }

  async function visitLeased(
    site: ContactSite,
    holder: string,
    signal: AbortSignal,
    lanes: HostLanes,
    settings: ContactsSettings,
    visiting: Set<string>,
  ): Promise<void> {
    const lane = hostLane(site.url);
    visiting.add(lane);
    try {
      // A page the readers choke on is that site's failure, never the pass's: the rest goes on.
      const result = await visitSite({ fetch: deps.fetch, lanes, signal, ...(deps.watch ? { watch: deps.watch } : {}) }, site.url).catch(
        (e: unknown): VisitResult => ({
          kind: 'failed',
          failure: { kind: 'permanent', message: `could not read the site: ${e instanceof Error ? e.message : String(e)}` },
        }),
      );
      if (result.kind === 'stopped' || signal.aborted) await releaseSite(deps.store, { url: site.url, holder, now: deps.now() });
      else if (result.kind === 'found') await commitSite(deps.store, { url: site.url, holder, now: deps.now(), findings: result.findings });
      else
        await failSite(deps.store, {
          url: site.url,
          holder,
          now: deps.now(),
          failure: result.failure,
          ...(result.kind === 'partial' ? { partial: result.findings } : {}),
          maxAttempts: settings.maxAttempts,
          random: deps.random,
        });
    } finally {
      visiting.delete(lane);
    }
  }

  async function pauseFrom(signal: AbortSignal, reason: ContactsPauseReason): Promise<void> {
    if (!signal.aborted) await deps.saveState({ status: 'paused', reason });
    current?.abort.abort();
  }

  return {
    start,
    pause,
    /** Resume a paused pass (the permission is asked again by the page that calls this). */
    async resume(): Promise<'running' | 'permission'> {
      if (!(await deps.hasPermission())) {
        await deps.saveState({ status: 'paused', reason: 'permission' });
        return 'permission';
      }
      await deps.saveState({ status: 'running' });
      ensureRunning();
      return 'running';
    },
    onStartup,
    /** The watchdog's tick: a running pass no loop drives runs again. */
    revive,
    /** The grant was withdrawn: in-flight visits end, their sites go back, the pass waits. */
    onPermissionRemoved: () => pause('permission'),
    isRunning: () => current !== null,
    /** Resolves when the loops have ended, a run asked for meanwhile included (tests, the bench). */
    async idle(): Promise<void> {
      while (current) await current.done;
    },
  };
}

export type ContactsPass = ReturnType<typeof createContactsPass>;
