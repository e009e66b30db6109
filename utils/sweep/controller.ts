import type { WxtBrowser as Browser } from 'wxt/browser';
import { bboxFromView, DEFAULT_VIEWPORT, formatCorners } from '../geo';
import type { PageDriver } from '../browser/page-driver';
import { RESULTS_PANEL_WIDTH } from '../browser/page-driver';
import { findMapTab, openWorkerWindow } from '../browser/tabs';
import type { CommandTable, EstimateReply, Reply, StartRequest, SweepCommandMap } from '../messaging/protocol';
import { parseView } from '../providers/google/urls';
import { retryQuarantined } from '../queue';
import { releaseSessionLeases } from '../queue/release-session';
import { runWorker, type DriverDeps } from './driver';
import { planSweep } from './plan';
import type { Sweep, SweepSettings } from './types';
import type { Listing } from '../listing/types';
import type { SavedSearch } from '../schedule/types';
import type { StartOutcome } from '../schedule/scheduler';
import { BROWSING_STATS_KEY, readTotals } from './storage-keys';

/**
 * The background's command side. Sweep state lives in the store; the only things kept in
 * memory are which sweeps this service-worker instance is driving right now, and the worker
 * tab ids live in session storage (they are only valid until the browser restarts, which is
 * exactly session storage's lifetime).
 */
export interface ControllerDeps extends Omit<DriverDeps, 'page'> {
  browser: Browser;
  page: PageDriver;
  settings(): Promise<SweepSettings>;
  newId(): string;
}


/** Wakes a stopped service worker while a sweep runs (30 s is Chrome's shortest period). */
export const WATCHDOG_ALARM = 'watchdog';

const WORKERS_KEY = (sweepId: string) => `workers:${sweepId}`;

export function createController(deps: ControllerDeps) {
  const driving = new Map<string, Promise<void>>();

  async function planFor(req: StartRequest, id = deps.newId(), overrides: Partial<SweepSettings> = {}) {
    const tab = await findMapTab(deps.browser);
    const viewport = tab
      ? { width: tab.width, height: tab.height, panelWidth: RESULTS_PANEL_WIDTH }
      : DEFAULT_VIEWPORT;
    const origin = tab ? parseView(tab.url) : null;
    const settings = { ...(await deps.settings()), ...overrides };
    return { tab, plan: planSweep({ ...req, settings, viewport, origin }, id, deps.now()) };
  }

  async function savedWorkers(sweepId: string): Promise<number[]> {
    const key = WORKERS_KEY(sweepId);
    return ((await deps.browser.storage.session.get(key))[key] as number[] | undefined) ?? [];
  }

  /** Tabs that running sweeps other than `except` drive: one tab never serves two sweeps. */
  async function tabsInUse(except?: string): Promise<Set<number>> {
    const used = new Set<number>();
    for (const sweep of await deps.store.listSweeps()) {
      if (sweep.id === except || sweep.status !== 'running') continue;
      for (const id of await savedWorkers(sweep.id)) used.add(id);
    }
    return used;
  }

  async function workerTabs(sweep: Sweep): Promise<number[]> {
    const busy = await tabsInUse(sweep.id);
    const alive: number[] = [];
    for (const id of await savedWorkers(sweep.id)) if (!busy.has(id) && (await deps.page.exists(id))) alive.push(id);
    if (alive.length > 0) return alive;
    let ids: number[];
    if (sweep.settings.dedicatedWindow || sweep.settings.workers > 1) {
      ids = await openWorkerWindow(deps.browser, sweep.settings.workers);
    } else {
      const tab = await findMapTab(deps.browser, busy);
      ids = tab ? [tab.id] : [];
    }
    await deps.browser.storage.session.set({ [WORKERS_KEY(sweep.id)]: ids });
    return ids;
  }

  /** Start loops for every running sweep this instance is not driving yet. Safe to call often. */
  async function ensureDriving(): Promise<void> {
    const sweeps = await deps.store.listSweeps();
    const running = sweeps.filter((s) => s.status === 'running');
    if (running.length === 0) {
      await deps.browser.alarms.clear(WATCHDOG_ALARM);
      return;
    }
    await deps.browser.alarms.create(WATCHDOG_ALARM, { periodInMinutes: 0.5 });
    for (const sweep of running) {
      if (driving.has(sweep.id)) continue;
      const loop = drive(sweep).finally(() => driving.delete(sweep.id));
      driving.set(sweep.id, loop);
    }
  }

  async function drive(sweep: Sweep): Promise<void> {
    const tabs = await workerTabs(sweep);
    if (tabs.length === 0) {
      await deps.store.patchSweep(sweep.id, {
        status: 'paused',
        pauseReason: 'user',
        problem: { kind: 'navigation', message: 'Open Google Maps in a tab, then press Resume.', at: deps.now() },
      });
      return;
    }
    const exits = await Promise.all(tabs.map((tabId) => runWorker(deps, sweep.id, tabId)));
    if (exits.every((e) => e === 'tab-closed')) {
      await deps.browser.storage.session.remove(WORKERS_KEY(sweep.id));
      await deps.store.patchSweep(sweep.id, {
        status: 'paused',
        pauseReason: 'user',
        problem: { kind: 'navigation', message: 'The map tab was closed. Press Resume to continue in another Google Maps tab.', at: deps.now() },
      });
    }
  }

  /**
   * After a browser restart nothing runs by itself: running sweeps show as paused until Resume.
   * The old session's leases are given back at once (see releaseSessionLeases), so Resume
   * loads the next cell after the pacing delay instead of waiting for a lease to expire.
   */
  async function onBrowserStart(): Promise<void> {
    await releaseSessionLeases(deps.store, deps.now());
    for (const sweep of await deps.store.listSweeps()) {
      if (sweep.status === 'running') await deps.store.patchSweep(sweep.id, { status: 'paused', pauseReason: 'restart' });
    }
  }

  async function setStatus(sweepId: string, from: Sweep['status'][], patch: Partial<Sweep>): Promise<Reply> {
    const sweep = await deps.store.getSweep(sweepId);
    if (!sweep) return { ok: false, error: { code: 'no-sweep', message: 'That sweep no longer exists.' } };
    if (!from.includes(sweep.status)) {
      return { ok: false, error: { code: 'bad-state', message: `The sweep is ${sweep.status}.`, params: { status: sweep.status } } };
    }
    await deps.store.patchSweep(sweepId, patch);
    return { ok: true };
  }

  const commands: CommandTable<SweepCommandMap> = {
    async estimate(req) {
      const { plan } = await planFor(req);
      return plan.ok ? { ok: true, estimate: plan.estimate } : plan;
    },
    async startSweep(req) {
      const { tab, plan } = await planFor(req);
      if (!plan.ok) return plan;
      if (!plan.sweep.settings.dedicatedWindow && plan.sweep.settings.workers <= 1) {
        if (!tab) {
          return { ok: false, error: { code: 'no-map-tab', message: 'Open Google Maps in a tab first: MapSweep works in the map you have open.' } };
        }
        if ((await tabsInUse()).has(tab.id)) {
          return {
            ok: false,
            error: { code: 'map-tab-busy', message: 'Another sweep is using that Google Maps tab. Open another one, or pause that sweep first.' },
          };
        }
      }
      await deps.store.createSweep(plan.sweep, plan.cells);
      await ensureDriving();
      return { ok: true, sweepId: plan.sweep.id, estimate: plan.estimate as EstimateReply };
    },
    async pauseSweep(id) {
      return setStatus(id, ['running'], { status: 'paused', pauseReason: 'user' });
    },
    async resumeSweep(id) {
      const reply = await setStatus(id, ['paused', 'failed'], { status: 'running', pauseReason: null, problem: null });
      if (reply.ok) {
        await deps.browser.action.setBadgeText({ text: '' });
        await ensureDriving();
      }
      return reply;
    },
    async stopSweep(id) {
      return setStatus(id, ['running', 'paused', 'failed'], { status: 'stopped', pauseReason: null });
    },
    async retryFailed(id) {
      const cells = await retryQuarantined(deps.store, id, deps.now());
      const sweep = await deps.store.getSweep(id);
      if (sweep && sweep.status === 'finished' && cells > 0) {
        await deps.store.patchSweep(id, { status: 'running' });
        await ensureDriving();
      }
      return { ok: true, cells };
    },
    async useMapView() {
      const tab = await findMapTab(deps.browser);
      const view = tab ? parseView(tab.url) : null;
      if (!tab || !view) {
        return { ok: false, error: { code: 'no-map-view', message: 'Open Google Maps in a tab and move the map to the area first.' } };
      }
      const area = bboxFromView(view, { width: tab.width, height: tab.height, panelWidth: RESULTS_PANEL_WIDTH });
      if (!area.ok) return area;
      const b = area.area.bbox;
      const f = (n: number) => Number(n.toFixed(6));
      return { ok: true, areaText: formatCorners({ south: f(b.south), west: f(b.west), north: f(b.north), east: f(b.east) }) };
    },
  };

  /**
   * Listings a browsing tab saw. Tabs a running sweep drives are skipped: their pages are the
   * sweep's, and counting them as "seen while browsing" would mislead.
   */
  // Browsing batches from several tabs are handled one at a time: the totals are read, added
  // to and written back, and two at once would lose an increment.
  let browsingQueue: Promise<void> = Promise.resolve();
  function commitBrowsing(tabId: number, listings: Listing[]): Promise<void> {
    const next = browsingQueue.then(async () => {
      const read = async () => readTotals((await deps.browser.storage.local.get(BROWSING_STATS_KEY))[BROWSING_STATS_KEY]);
      let result: { added: number; seen: number };
      try {
        if ((await tabsInUse()).has(tabId)) return;
        result = await deps.store.commitBrowsing(listings, deps.now());
      } catch (e) {
        // Counted and shown in the popup; the rejection tells the tab to keep the batch and retry.
        const lastFailure = { at: deps.now(), message: e instanceof Error ? e.message : String(e) };
        await read()
          .then((totals) => deps.browser.storage.local.set({ [BROWSING_STATS_KEY]: { ...totals, failed: totals.failed + 1, lastFailure } }))
          .catch(() => {}); // the commit's own error is the one to report
        throw e;
      }
      const totals = await read();
      await deps.browser.storage.local.set({
        [BROWSING_STATS_KEY]: { ...totals, seen: totals.seen + result.added + result.seen, added: totals.added + result.added, lastSavedAt: deps.now() },
      });
    });
    browsingQueue = next.catch(() => {});
    return next;
  }

  /**
   * A scheduled re-collection's sweep, with the id its run fixed. It runs in a window of its
   * own so it never takes over the tab the person is using. A duplicate id throws (the store's
   * 'exists'): the scheduler reads that as "already started".
   */
  async function startSavedSearch(search: SavedSearch, sweepId: string): Promise<StartOutcome> {
    const { plan } = await planFor({ areaText: search.areaText, keywordsText: search.keywordsText }, sweepId, { dedicatedWindow: true });
    if (!plan.ok) return { ok: false, error: { code: plan.error.code, message: plan.error.message } };
    await deps.store.createSweep(plan.sweep, plan.cells);
    await ensureDriving();
    return { ok: true };
  }

  return { commands, ensureDriving, onBrowserStart, commitBrowsing, startSavedSearch };
}
