import type { AllSettings } from '../config/settings';
import type { WxtBrowser as Browser } from 'wxt/browser';
import type { PageDriver } from '../browser/page-driver';
import { findMapTab, openWorkerWindow } from '../browser/tabs';
import { providerFor } from '../providers/registry';
import { releaseSessionLeases } from '../queue/release-session';
import { runWorker, type DriverDeps, type WorkerExit } from './driver';
import { isDiskFull } from './disk-full';
import { createSweepCommands, NO_HOST_ACCESS } from './commands';
import { createBrowsingCommits } from './browsing-commits';
import { transition } from './status-machine';
import type { Sweep, SweepStatus } from '../domain/sweep';
import type { SavedSearch } from '../domain/saved-search';
import type { StartOutcome } from '../schedule/scheduler';
import { createDetailsPass } from '../details/wire';
import { createPlacePageDriver, sendCollectPlace } from '../details/page';
import { createReviewsPageDriver, createReviewsPass } from '../reviews/wire';
import { storedPauses } from '../config/storage-keys';
import type { GuardApi } from '../browser/tab-guard';
import { allLists, createListCommands, createListDriver, type PlaceList } from '../lists';
import { NO_HOST_ACCESS_MESSAGE } from '../browser/host-access';

/**
 * The background's command side. Sweep state lives in the store; the only things kept in
 * memory are which sweeps this service-worker instance is driving right now, and the worker
 * tab ids live in session storage (they are only valid until the browser restarts, which is
 * exactly session storage's lifetime).
 */
export interface ControllerDeps extends Omit<DriverDeps, 'page'> {
  browser: Browser;
  page: PageDriver;
  /** The options as they are now (normaliseSettings). */
  settings(): Promise<AllSettings>;
  newId(): string;
  /** A list finished, or waits for the person (utils/lists). */
  listAttention?(list: PlaceList, reason: 'finished' | 'blocked' | 'host-access'): void;
}

/** Wakes a stopped service worker while a sweep runs (30 s is Chrome's shortest period). */
export const WATCHDOG_ALARM = 'watchdog';

const WORKERS_KEY = (sweepId: string) => `workers:${sweepId}`;

/** A worker loop that throws is restarted this many times, then left stopped (and recorded). */
export const LOOP_RESTARTS = 1;

export function createController(deps: ControllerDeps) {
  /** Sweeps this instance drives: an entry stays until every one of the sweep's loops has settled. */
  const driving = new Map<string, Promise<void>>();
  /** Tabs a loop of this instance runs in: one loop per tab, whatever the sweep. */
  const tabLoops = new Set<number>();
  /** Numbers this instance's loops, so two loops never share a holder id even with a fixed newId. */
  let loops = 0;
  /** The optional pass over a finished sweep's place pages (utils/details), in the sweep's worker tab. */
  const details = createDetailsPass({
    store: deps.store,
    page: createPlacePageDriver(deps.page, sendCollectPlace, deps.sleep),
    pacer: deps.pacer,
    now: deps.now,
    sleep: deps.sleep,
    random: deps.random,
    newId: deps.newId,
    hostAccess: deps.hostAccess,
    attention: (s, exit) => {
      if (exit === 'blocked') deps.attention(s, 'blocked');
      if (exit === 'no-host-access') deps.attention(s, 'host-access');
    },
  });
  /** The optional reviews pass (utils/reviews), after the place details, in the same tab. */
  const reviews = createReviewsPass({
    store: deps.store,
    page: createReviewsPageDriver(deps.page, deps.sleep),
    pacer: deps.pacer,
    now: deps.now,
    sleep: deps.sleep,
    random: deps.random,
    newId: deps.newId,
    hostAccess: deps.hostAccess,
    attention: (s, exit) => deps.attention(s, exit === 'limited' ? 'reviews-signed-out' : exit === 'no-host-access' ? 'host-access' : 'blocked'),
    paused: storedPauses(deps.browser.storage.local),
  });
  /** Lists of places (utils/lists), each collected in a window of its own. */
  const lists = createListDriver({
    store: deps.store,
    page: { ...createPlacePageDriver(deps.page, sendCollectPlace, deps.sleep), currentUrl: async (tabId) => (await deps.browser.tabs.get(tabId)).url ?? '' },
    pacer: deps.pacer,
    now: deps.now,
    sleep: deps.sleep,
    random: deps.random,
    reviewsPage: createReviewsPageDriver(deps.page, deps.sleep),
    workerTab: listTab,
    guardApi: (deps.browser as unknown as { declarativeNetRequest?: GuardApi }).declarativeNetRequest,
    hostAccess: deps.hostAccess,
    attention: (list, reason) => deps.listAttention?.(list, reason),
  });
  /** The passes over a finished sweep's places, in this order, one after the other in its tab. */
  const passes = [details, reviews] as const;
  async function afterSweep(sweepId: string, tabId: number): Promise<void> {
    for (const pass of passes) {
      const exit = await pass.start(sweepId, tabId);
      // The user must act (a block page, signed out), the tab went, or another chain holds it: the rest waits.
      if (exit !== 'finished' && exit !== 'off') return;
    }
  }

  async function savedWorkers(sweepId: string): Promise<number[]> {
    const key = WORKERS_KEY(sweepId);
    return ((await deps.browser.storage.session.get(key))[key] as number[] | undefined) ?? [];
  }

  /** The saved worker tabs of the sweeps in `statuses` (but `except`), and the details pass's. */
  async function tabsOfSweeps(statuses: readonly SweepStatus[], except?: string): Promise<Set<number>> {
    const used = new Set<number>();
    for (const sweep of await deps.store.listSweeps()) {
      if (sweep.id === except || !statuses.includes(sweep.status)) continue;
      for (const id of await savedWorkers(sweep.id)) used.add(id);
    }
    for (const pass of passes) for (const id of pass.tabsInUse()) used.add(id);
    for (const id of lists.tabsInUse()) used.add(id);
    for (const list of await allLists(deps.store)) {
      // The list asking for its own tab is not kept from it (`except`), as a sweep is not.
      if (list.id === except) continue;
      if (list.status === 'running' || (list.status === 'paused' && statuses.includes('paused'))) for (const id of await savedWorkers(list.id)) used.add(id);
    }
    return used;
  }

  /**
   * A list's worker tab: the one it had this session if it is still open and free, else a new
   * window's blank tab (nothing loaded until the list's first place takes its turn). Saved at once,
   * so the tab's pages are the list's, never the person's browsing.
   */
  async function listTab(list: PlaceList): Promise<number | null> {
    const busy = await tabsInUse(list.id);
    for (const id of await savedWorkers(list.id)) if (!busy.has(id) && (await deps.page.exists(id))) return id;
    const win = await deps.browser.windows.create({ url: 'about:blank', focused: false, width: 1280, height: 900 });
    const id = win?.tabs?.[0]?.id;
    if (id === undefined) return null;
    await deps.browser.storage.session.set({ [WORKERS_KEY(list.id)]: [id] });
    return id;
  }

  /** Tabs that running sweeps other than `except` drive: one tab never serves two sweeps. */
  const tabsInUse = (except?: string) => tabsOfSweeps(['running'], except);

  async function workerTabs(sweep: Sweep): Promise<number[]> {
    const busy = await tabsInUse(sweep.id);
    const alive: number[] = [];
    for (const id of await savedWorkers(sweep.id)) if (!busy.has(id) && (await deps.page.exists(id))) alive.push(id);
    if (alive.length > 0) return alive;
    let ids: number[];
    const provider = providerFor(sweep.provider);
    if (sweep.settings.dedicatedWindow || sweep.settings.workers > 1) {
      ids = await openWorkerWindow(deps.browser, sweep.settings.workers, {
        url: provider.startUrl,
        // Saved as soon as the tabs exist: their start page is the sweep's (never browsing), and
        // a loop started meanwhile (the watchdog) finds them instead of opening a second window.
        opened: (opened) => deps.browser.storage.session.set({ [WORKERS_KEY(sweep.id)]: opened }),
        // The sweep's own lane (its searches' host), whatever host the start page is on.
        turn: () => deps.pacer.acquire(provider.laneUrl),
        load: (tabId, url) => deps.page.load(tabId, url, sweep.settings.cellTimeoutMs),
      });
    } else {
      const tab = await findMapTab(deps.browser, provider.tabPatterns, busy);
      ids = tab ? [tab.id] : [];
    }
    await deps.browser.storage.session.set({ [WORKERS_KEY(sweep.id)]: ids });
    return ids;
  }

  /** Start loops for every running sweep this instance is not driving yet. Safe to call often. */
  async function ensureDriving(): Promise<void> {
    const sweeps = await deps.store.listSweeps();
    const running = sweeps.filter((s) => s.status === 'running');
    // Finished sweeps whose passes are due (after a restart, or never started).
    const due = new Map<string, Sweep>();
    for (const pass of passes) for (const s of await pass.resumable()) due.set(s.id, s);
    for (const s of due.values()) {
      if (passes.some((p) => p.isDriving(s.id))) continue;
      // Its site's hosts withheld (Firefox): the pass waits, with no window opened and nothing loaded, until they are granted.
      if (!(await siteAccess(s))) continue;
      const [tab] = await workerTabs(s);
      if (tab !== undefined) void afterSweep(s.id, tab);
    }
    const listsRunning = await lists.ensure();
    if (running.length === 0 && due.size === 0 && !listsRunning) {
      await deps.browser.alarms.clear(WATCHDOG_ALARM);
      return;
    }
    await deps.browser.alarms.create(WATCHDOG_ALARM, { periodInMinutes: 0.5 });
    for (const sweep of running) {
      if (driving.has(sweep.id)) continue;
      // Paused for a full disk, though IndexedDB may have refused to write the pause itself.
      if (await isDiskFull(deps.browser.storage.local, sweep.id)) continue;
      const loop = drive(sweep)
        .catch((e) => console.error('MapSweep: driving a sweep failed', e))
        .finally(() => driving.delete(sweep.id));
      driving.set(sweep.id, loop);
    }
  }

  /** May this sweep's site be read now (utils/browser/host-access.ts)? */
  async function siteAccess(sweep: Sweep): Promise<boolean> {
    return !deps.hostAccess || (await deps.hostAccess(providerFor(sweep.provider)));
  }

  async function drive(sweep: Sweep): Promise<void> {
    // However it came to run (Resume, a schedule, a team join, Retry failed, a browser start): its
    // site's hosts withheld, it pauses with the reason before any window is opened or page loaded.
    if (!(await siteAccess(sweep))) {
      const paused = await transition(deps.store, sweep.id, {
        event: 'pause',
        reason: 'host-access',
        problem: { kind: 'internal', message: NO_HOST_ACCESS_MESSAGE, at: deps.now() },
      });
      if (paused.ok) deps.attention(paused.sweep, 'host-access');
      return;
    }
    const tabs = await workerTabs(sweep);
    if (tabs.length === 0) {
      await transition(deps.store, sweep.id, {
        event: 'pause',
        reason: 'user',
        problem: { kind: 'navigation', message: `Open ${providerFor(sweep.provider).displayName} in a tab, then press Resume.`, at: deps.now() },
      });
      return;
    }
    // One loop per tab: a tab that already has a loop of this instance gets no second one.
    const free = tabs.filter((id) => !tabLoops.has(id));
    // Supervised: a loop that throws never ends its siblings early (nor this sweep's entry in
    // `driving`, which would let the watchdog start duplicates beside them).
    const exits = await Promise.allSettled(free.map((tabId) => supervise(sweep.id, tabId)));
    if (exits.length === 0) return;
    // Finished: the passes over its places (when on) run next, in the same tab.
    if (exits.some((e) => e.status === 'fulfilled' && e.value === 'finished')) void afterSweep(sweep.id, free[0]!);
    if (exits.every((e) => e.status === 'fulfilled' && e.value === 'tab-closed')) {
      await deps.browser.storage.session.remove(WORKERS_KEY(sweep.id));
      await transition(deps.store, sweep.id, {
        event: 'pause',
        reason: 'user',
        problem: { kind: 'navigation', message: 'The map tab was closed. Press Resume to continue in another Google Maps tab.', at: deps.now() },
      });
    } else if (exits.every((e) => e.status === 'rejected')) {
      // Every loop gave up: say so rather than let the watchdog restart them every 30 s.
      const reason = (exits[0] as PromiseRejectedResult).reason;
      await transition(deps.store, sweep.id, {
        event: 'fail',
        problem: { kind: 'internal', message: `The sweep stopped on an unexpected error: ${errorText(reason)}`, at: deps.now() },
      }).catch(() => {});
    }
  }

  /** One tab's loop, with its own holder id; restarted LOOP_RESTARTS times if it throws, each time recorded. */
  async function supervise(sweepId: string, tabId: number): Promise<WorkerExit> {
    tabLoops.add(tabId);
    try {
      for (let restarts = 0; ; restarts++) {
        const holder = `loop:${++loops}:${deps.newId()}`;
        try {
          return await runWorker(deps, sweepId, tabId, holder);
        } catch (e) {
          const again = restarts < LOOP_RESTARTS;
          await deps.store
            .addEvent({
              sweepId,
              at: deps.now(),
              kind: 'error',
              message: `The worker loop in tab ${tabId} stopped on an unexpected error (${again ? 'restarted' : 'not restarted again'}): ${errorText(e)}`,
            })
            .catch(() => {});
          if (!again) throw e;
        }
      }
    } finally {
      tabLoops.delete(tabId);
    }
  }

  /**
   * After a browser restart nothing runs by itself: running sweeps show as paused until Resume.
   * The old session's leases are given back at once (see releaseSessionLeases), so Resume
   * loads the next cell after the pacing delay instead of waiting for a lease to expire.
   */
  async function onBrowserStart(): Promise<void> {
    await releaseSessionLeases(deps.store, deps.now());
    for (const pass of passes) await pass.onRestart();
    await lists.onBrowserStart();
    for (const sweep of await deps.store.listSweeps()) {
      if (sweep.status === 'running') await transition(deps.store, sweep.id, { event: 'pause', reason: 'restart' });
    }
  }

  /**
   * After a service-worker restart the sweep goes on by itself, but the loops of the stopped
   * worker are gone with it (MV3 runs one worker): their leases are given back at once, so the
   * cell it was visiting is searched again after the pacing delay, not after its lease expires
   * (up to the load timeout + collection bound + margin, ~3 min).
   */
  async function onWorkerStart(): Promise<void> {
    await releaseSessionLeases(deps.store, deps.now());
    for (const pass of passes) await pass.onRestart();
  }

  /** A command's status change, through the one table, guarded by the status it expects (in one transaction). */
  const { commands, planFor } = createSweepCommands({
    ...deps,
    passes: {
      stop: (id) => {
        for (const p of passes) p.stop(id);
      },
    },
    reviews,
    tabsInUse,
    ensureDriving,
  });

  const listCommands = createListCommands({
    store: deps.store,
    now: deps.now,
    newListId: () =>
      `list-${deps
        .newId()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')}`,
    settings: deps.settings,
    stop: (id) => lists.stop(id),
    ensureDriving,
  });

  const commitBrowsing = createBrowsingCommits({ browser: deps.browser, store: deps.store, now: deps.now, tabsInUse });

  /**
   * A scheduled re-collection's sweep, with the id its run fixed. It runs in a window of its
   * own so it never takes over the tab the person is using. A duplicate id throws (the store's
   * 'exists'): the scheduler reads that as "already started".
   */
  async function startSavedSearch(search: SavedSearch, sweepId: string): Promise<StartOutcome> {
    // Its own site, never the tab's: a saved search runs unattended.
    const plan = await planFor({ areaText: search.areaText, keywordsText: search.keywordsText, provider: providerFor(search.provider).id }, sweepId, {
      dedicatedWindow: true,
    });
    if (!plan.ok) return { ok: false, error: { code: plan.error.code, message: plan.error.message } };
    // Not started, with the reason in the run's record: a run paused for access would hold back every later one.
    if (!(await siteAccess(plan.sweep))) return { ok: false, error: NO_HOST_ACCESS };
    await deps.store.createSweep(plan.sweep, plan.cells);
    await ensureDriving();
    return { ok: true };
  }

  /**
   * A tab a sweep drives or will drive again (running, or paused: Resume goes on in its tabs, and
   * a page reloaded there meanwhile, a captcha solved there, is still the sweep's), or a details
   * pass drives: its pages are never the person's browsing (asked by content scripts before they
   * collect while browsing).
   */
  async function isSweepTab(tabId: number): Promise<boolean> {
    return (await tabsOfSweeps(['running', 'paused'])).has(tabId);
  }

  return { commands, listCommands, ensureDriving, onBrowserStart, onWorkerStart, commitBrowsing, isSweepTab, startSavedSearch };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
