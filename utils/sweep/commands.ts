import type { WxtBrowser as Browser } from 'wxt/browser';
import { bboxFromView, DEFAULT_VIEWPORT, formatCorners } from '../geo';
import { RESULTS_PANEL_WIDTH } from '../browser/page-driver';
import { findMapTab } from '../browser/tabs';
import type { CommandTable, EstimateReply, Reply, StartRequest, SweepCommandMap, UserError } from '../messaging/protocol';
import { PROVIDERS, providerFor, providerOfUrl, SITE_FILTER_CONTEXT } from '../providers/registry';
import { keeper } from '../filters';
import type { MapProvider } from '../providers/types';
import type { ProviderId } from '../domain/place';
import { retryQuarantined } from '../queue';
import type { Transition } from '../domain/sweep-status';
import type { SweepSettings } from '../domain/sweep';
import type { Store } from '../store';
import { clearDiskFull } from './disk-full';
import { transition } from './status-machine';
import { planSweep } from './plan';
import type { AllSettings } from '../config/settings';
import { askForReviews } from '../reviews/ask';
import { NO_HOST_ACCESS_MESSAGE } from '../browser/host-access';

import type { SiteAccess } from '../browser/host-access';

/**
 * The popup's and dashboard's sweep commands (estimate, start, pause, resume, stop, delete,
 * retry, the map's view as an area): each checks what it is given and changes the store through
 * the status table (utils/domain/sweep-status.ts); the controller (controller.ts) drives what
 * they start.
 */
export interface SweepCommandDeps {
  browser: Browser;
  store: Store;
  now(): number;
  newId(): string;
  /** The options as they are now (a sweep copies them when it starts; Read reviews, its reviews' limits). */
  settings(): Promise<AllSettings>;
  /** The passes over a finished sweep's places, told when their sweep is deleted. */
  passes: { stop(sweepId: string): void };
  /** The reviews pass, resumed when the user signed in. */
  reviews: { resume(sweepId: string): Promise<void> };
  /** Tabs running sweeps other than `except` drive. */
  tabsInUse(except?: string): Promise<Set<number>>;
  /** Starts loops for every running sweep not driven yet. */
  ensureDriving(): Promise<void>;
  /** May MapSweep read the map sites (utils/browser/host-access.ts)? Absent: always. */
  hostAccess?: SiteAccess;
}

/** Start and Resume refuse while the map hosts are withheld (Firefox): nothing would be read. */
export const NO_HOST_ACCESS: UserError = { code: 'no-host-access', message: NO_HOST_ACCESS_MESSAGE };

export function createSweepCommands(deps: SweepCommandDeps) {
  /** The provider a request names, or the site of the map tab used last; null when it names none and no map tab is open. */
  async function providerOf(id: ProviderId | undefined): Promise<MapProvider | null> {
    if (id) return providerFor(id);
    const tab = await findMapTab(
      deps.browser,
      PROVIDERS.flatMap((p) => p.tabPatterns),
    );
    return providerOfUrl(tab?.url);
  }

  async function planFor(req: StartRequest, id = deps.newId(), overrides: Partial<SweepSettings> = {}) {
    const provider = await providerOf(req.provider);
    // No site named and no map open: there is no site to take, and none is guessed.
    if (!provider) return { ok: false as const, error: noMapSite() };
    const tab = await findMapTab(deps.browser, provider.tabPatterns);
    const viewport = provider.boundsSearch?.viewport ?? (tab ? { width: tab.width, height: tab.height, panelWidth: RESULTS_PANEL_WIDTH } : DEFAULT_VIEWPORT);
    const origin = tab ? provider.parseView(tab.url) : null;
    const settings = { ...(await deps.settings()), ...overrides };
    const plan = planSweep({ ...req, settings, viewport, origin, provider }, id, deps.now());
    return plan.ok ? { ...plan, tab, provider } : plan;
  }

  async function setStatus(sweepId: string, t: Transition): Promise<Reply> {
    const r = await transition(deps.store, sweepId, t);
    if (r.ok) return { ok: true };
    if (r.status === null) return { ok: false, error: { code: 'no-sweep', message: 'That sweep no longer exists.' } };
    return { ok: false, error: { code: 'bad-state', message: `The sweep is ${r.status}.`, params: { status: r.status } } };
  }

  const commands: CommandTable<SweepCommandMap> = {
    async estimate(req) {
      const plan = await planFor(req);
      return plan.ok ? { ok: true, estimate: plan.estimate } : plan;
    },
    async startSweep(req) {
      const plan = await planFor(req);
      if (!plan.ok) return plan;
      if (deps.hostAccess && !(await deps.hostAccess(plan.provider))) return { ok: false, error: NO_HOST_ACCESS };
      const { tab, provider } = plan;
      const site = provider.displayName;
      if (!plan.sweep.settings.dedicatedWindow && plan.sweep.settings.workers <= 1) {
        if (!tab) {
          return {
            ok: false,
            error: { code: 'no-map-tab', message: `Open ${site} in a tab first: MapSweep works in the map you have open.`, params: { site } },
          };
        }
        if ((await deps.tabsInUse()).has(tab.id)) {
          return {
            ok: false,
            error: { code: 'map-tab-busy', message: `Another sweep is using that ${site} tab. Open another one, or pause that sweep first.`, params: { site } },
          };
        }
      }
      await deps.store.createSweep(plan.sweep, plan.cells);
      await deps.ensureDriving();
      return { ok: true, sweepId: plan.sweep.id, estimate: plan.estimate as EstimateReply };
    },
    async pauseSweep(id) {
      return setStatus(id, { event: 'pause', reason: 'user' });
    },
    async resumeSweep(id) {
      const paused = await deps.store.getSweep(id);
      if (paused && deps.hostAccess && !(await deps.hostAccess(providerFor(paused.provider)))) return { ok: false, error: NO_HOST_ACCESS };
      const wasFull = await clearDiskFull(deps.browser.storage.local, id);
      let reply = await setStatus(id, { event: 'resume' });
      // Disk full, and IndexedDB refused the pause too: still 'running' there, and Resume goes on.
      if (!reply.ok && wasFull && (await deps.store.getSweep(id))?.status === 'running') reply = { ok: true };
      if (reply.ok) {
        await deps.browser.action.setBadgeText({ text: '' });
        await deps.ensureDriving();
      }
      return reply;
    },
    async stopSweep(id) {
      const reply = await setStatus(id, { event: 'stop' });
      if (reply.ok) await clearDiskFull(deps.browser.storage.local, id);
      return reply;
    },
    async deleteSweep(id) {
      deps.passes.stop(id);
      // Checked in the deleting transaction: a worker finishing a cell would otherwise commit
      // into a sweep that no longer exists.
      const deleted = await deps.store.deleteSweep(id, { unlessHeldAt: deps.now() });
      if (deleted === 'held') {
        return {
          ok: false,
          error: { code: 'sweep-busy', message: 'This sweep is still running, or a worker is finishing one of its cells. Stop it, then delete it.' },
        };
      }
      return { ok: true };
    },
    async resumeReviews(id) {
      await deps.reviews.resume(id);
      await deps.ensureDriving();
      return { ok: true };
    },
    /** Read a finished sweep's reviews now (the pass was off for it), or read them again for what is new. */
    async readReviews(id) {
      const sweep = await deps.store.getSweep(id);
      if (!sweep) return { ok: false, error: { code: 'no-sweep', message: 'This sweep no longer exists.' } };
      const provider = providerFor(sweep.provider);
      if (!provider.reviews) {
        return {
          ok: false,
          error: { code: 'no-reviews', message: `This version does not read ${provider.displayName}'s reviews.`, params: { site: provider.displayName } },
        };
      }
      const s = await deps.settings();
      const limits = { reviewsPerPlace: s.reviewsPerPlace, reviewsSince: s.reviewsSince, reviewsKeepAuthor: s.reviewsKeepAuthor };
      // The places the user would export now: those that pass the filters of the moment.
      const keep = keeper(s.filters, SITE_FILTER_CONTEXT);
      const asked = await askForReviews(deps.store, { sweepId: id, limits, now: deps.now(), provider: provider.id, lang: sweep.settings.lang, keep });
      if (!asked.ok) {
        return asked.reason === 'not-finished'
          ? {
              ok: false,
              error: { code: 'reviews-not-finished', message: 'Reviews are read once the sweep has finished: its places are not all known before.' },
            }
          : { ok: false, error: { code: 'no-sweep', message: 'This sweep no longer exists.' } };
      }
      // Asking is the user's answer to a pause too (they signed in, or solved the page).
      await deps.reviews.resume(id);
      await deps.ensureDriving();
      return { ok: true };
    },
    async retryFailed(id) {
      const cells = await retryQuarantined(deps.store, id, deps.now());
      // A finished sweep has work again; any other status stays as it is (the table's guard).
      if (cells > 0 && (await transition(deps.store, id, { event: 'reopen' })).ok) await deps.ensureDriving();
      return { ok: true, cells };
    },
    async useMapView(id) {
      const provider = await providerOf(id);
      if (!provider) return { ok: false, error: noMapSite() };
      const tab = await findMapTab(deps.browser, provider.tabPatterns);
      // Naver's address carries no centre: its area has to be typed (or drawn on the dashboard).
      const view = tab ? provider.parseView(tab.url) : null;
      if (!tab || !view) {
        const site = provider.displayName;
        return {
          ok: false,
          error: {
            code: 'no-map-view',
            message: `Open ${site} in a tab and move the map to the area first, or type the area: ${site}'s address does not say where the map is.`,
            params: { site },
          },
        };
      }
      const area = bboxFromView(view, { width: tab.width, height: tab.height, panelWidth: RESULTS_PANEL_WIDTH });
      if (!area.ok) return area;
      const b = area.area.bbox;
      const f = (n: number) => Number(n.toFixed(6));
      return { ok: true, areaText: formatCorners({ south: f(b.south), west: f(b.west), north: f(b.north), east: f(b.east) }) };
    },
  };

  return { commands, planFor };
}

/** A start or estimate that names no site while no map tab is open. */
function noMapSite(): UserError {
  const sites = PROVIDERS.map((p) => p.displayName).join(', ');
  return {
    code: 'no-map-site',
    message: `Choose the map site, or open one (${sites}) in a tab: with no map tab open there is no site to sweep.`,
    params: { sites },
  };
}
