/**
 * Firefox's Manifest V3 leaves the map hosts to the person, who may withhold or withdraw them:
 * a sweep never starts, resumes, nor reports a cell without them (utils/browser/host-access.ts).
 */
import { describe, expect, it } from 'vitest';
import { hasHostAccess } from '../../utils/browser/host-access';
import type { PageDriver } from '../../utils/browser/page-driver';
import { PROVIDERS } from '../../utils/providers/registry';
import { googleProvider } from '../../utils/providers/google/provider';
import { naverProvider } from '../../utils/providers/naver/provider';
import { kakaoProvider } from '../../utils/providers/kakao/provider';
import config from '../../wxt.config';
import { createSweepCommands } from '../../utils/sweep/commands';
import { createController } from '../../utils/sweep/controller';
import { runWorker, type DriverDeps } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS, normaliseSettings } from '../../utils/config/settings';
import { openStore } from '../../utils/store';
import { transition } from '../../utils/sweep/status-machine';
import { sweepProgress } from '../../utils/sweep/progress';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { seededRandom } from '../helpers/random';
import { createSimPageDriver } from '../helpers/sim-page-driver';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 5, places: 3000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 3 });
const VIEWPORT = { width: 1280, height: 800, panelWidth: 408 };

async function plannedSweep(name: string) {
  const store = await openStore({ name });
  const settings = { ...DEFAULT_SETTINGS, delayMs: 2000, jitterMs: 0 };
  const plan = planSweep({ areaText: '37.55,126.96,37.58,127.00', keywordsText: 'cafe', settings, viewport: VIEWPORT, origin: null }, 's1', 1_000_000);
  if (!plan.ok) throw new Error(plan.error.message);
  const sweep = await store.createSweep(plan.sweep, plan.cells);
  return { store, sweep, settings };
}

describe('map host access', () => {
  it('withdrawn mid-sweep: the sweep pauses with its reason, the cell goes back with no attempt counted, nothing more is loaded', async () => {
    const { store, sweep, settings } = await plannedSweep('host-access-driver');
    let clock = 1_000_000;
    const sleep = async (ms: number) => {
      clock += Math.max(0, ms);
      await Promise.resolve();
    };
    const page = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } });
    const random = seededRandom(4);
    let granted = true;
    const attention: string[] = [];
    const deps: DriverDeps = {
      store,
      page,
      pacer: createPacer({ now: () => clock, random, timing: () => settings, sleep }),
      now: () => clock,
      sleep,
      random,
      attention: (_s, reason) => void attention.push(reason),
      hostAccess: async () => {
        // Withdrawn after the second page load (the person in about:addons).
        if (page.loads >= 2) granted = false;
        return granted;
      },
    };
    expect(await runWorker(deps, sweep.id, 1)).toBe('paused');
    expect(page.loads).toBe(2);
    const paused = await store.getSweep(sweep.id);
    expect(paused).toMatchObject({ status: 'paused', pauseReason: 'host-access' });
    expect(sweepProgress(paused!, clock).warnings).toContainEqual({ kind: 'host_access', message: expect.stringContaining('Allow access to the map sites') });
    expect(attention).toEqual(['host-access']);
    const cells = await store.listCells(sweep.id);
    expect(cells.filter((c) => c.status === 'leased')).toEqual([]);
    // The cells read are committed (done or split); no cell carries an attempt for the withdrawal.
    expect(cells.filter((c) => c.status !== 'pending').length).toBeGreaterThanOrEqual(1);
    expect(cells.filter((c) => c.status !== 'done' && c.attempts > 0)).toEqual([]);

    // Granted again and resumed: the sweep goes on to the end.
    granted = true;
    deps.hostAccess = async () => true;
    expect((await transition(store, sweep.id, { event: 'resume' })).ok).toBe(true);
    expect(await runWorker(deps, sweep.id, 1)).toBe('finished');
  }, 30_000);

  it('withdrawn during a visit: the failed read is no fault of the cell, which goes back with no attempt (never quarantined)', async () => {
    const { store, sweep } = await plannedSweep('host-access-mid-visit');
    // One attempt per cell: a counted failure would quarantine it at once.
    await store.patchSweep(sweep.id, { settings: { ...sweep.settings, maxAttempts: 1 } });
    let clock = 1_000_000;
    const sleep = async (ms: number) => {
      clock += Math.max(0, ms);
      await Promise.resolve();
    };
    const sim = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } });
    let withdrawn = false;
    const page: PageDriver = {
      ...sim,
      load: sim.load.bind(sim),
      async collect(tabId, options, timeoutMs) {
        // Withdrawn while the second page loads: its content script never answers.
        if (sim.loads >= 2) withdrawn = true;
        if (withdrawn) throw new Error('Could not establish connection. Receiving end does not exist.');
        return sim.collect(tabId, options, timeoutMs);
      },
    };
    const random = seededRandom(4);
    const deps: DriverDeps = {
      store,
      page,
      pacer: createPacer({ now: () => clock, random, timing: () => ({ delayMs: 2000, jitterMs: 0 }), sleep }),
      now: () => clock,
      sleep,
      random,
      attention: () => {},
      hostAccess: async () => !withdrawn,
    };
    expect(await runWorker(deps, sweep.id, 1)).toBe('paused');
    expect(await store.getSweep(sweep.id)).toMatchObject({ status: 'paused', pauseReason: 'host-access' });
    const cells = await store.listCells(sweep.id);
    expect(cells.filter((c) => c.status === 'quarantined' || c.status === 'leased')).toEqual([]);
    expect(cells.filter((c) => c.status === 'pending' && c.attempts > 0)).toEqual([]);
  }, 30_000);

  it('withheld: Start and Resume are refused with the reason, and nothing is created or resumed', async () => {
    fakeBrowser.reset();
    const { store, sweep } = await plannedSweep('host-access-commands');
    await transition(store, sweep.id, { event: 'pause', reason: 'user' });
    let driving = 0;
    const { commands } = createSweepCommands({
      browser: fakeBrowser,
      store,
      now: () => 2_000_000,
      newId: () => 's2',
      settings: async () => normaliseSettings({}),
      passes: { stop: () => {} },
      reviews: { resume: async () => {} },
      tabsInUse: async () => new Set(),
      ensureDriving: async () => void driving++,
      hostAccess: async () => false,
    });
    const start = await commands.startSweep({ areaText: '37.55,126.96,37.58,127.00', keywordsText: 'cafe', provider: 'google' });
    expect(start).toMatchObject({ ok: false, error: { code: 'no-host-access' } });
    expect((await store.listSweeps()).map((s) => s.id)).toEqual(['s1']);
    expect(await commands.resumeSweep(sweep.id)).toMatchObject({ ok: false, error: { code: 'no-host-access' } });
    expect((await store.getSweep(sweep.id))?.status).toBe('paused');
    expect(driving).toBe(0);
  });

  it('however a sweep comes to run (Resume, a schedule, a team join, Retry failed, a browser start): without its hosts it pauses before any window or page', async () => {
    fakeBrowser.reset();
    const { store, sweep } = await plannedSweep('host-access-controller');
    const opened: string[] = [];
    const browser = fakeBrowser as unknown as { windows: { create: (o: unknown) => Promise<unknown> } };
    browser.windows.create = async (o) => {
      opened.push(JSON.stringify(o));
      return { id: 1, tabs: [{ id: 2 }] };
    };
    const attention: string[] = [];
    const controller = createController({
      browser: fakeBrowser,
      store,
      pacer: createPacer({ now: () => 2_000_000, sleep: async () => {}, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) }),
      page: createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } }),
      now: () => 2_000_000,
      sleep: async () => {},
      random: () => 0,
      newId: () => 'n1',
      settings: async () => normaliseSettings({ dedicatedWindow: true }),
      attention: (_s, reason) => void attention.push(reason),
      hostAccess: async () => false,
    });
    await controller.ensureDriving();
    await expect.poll(async () => (await store.getSweep(sweep.id))?.pauseReason, { timeout: 5000 }).toBe('host-access');
    expect(opened).toEqual([]);
    expect(attention).toEqual(['host-access']);
    // A saved search's run is not started, with the reason (a paused run would hold back every later one).
    const run = await controller.startSavedSearch(
      {
        id: 'ss',
        name: 'cafes',
        areaText: '37.55,126.96,37.58,127.00',
        keywordsText: 'cafe',
        provider: 'google',
        repeat: 'daily',
        hour: 3,
        weekday: 0,
        thresholdDays: 30,
        createdAt: 0,
        lastRunAt: null,
        lastSuccessfulRunAt: null,
        lastNewPlaceAt: null,
      } as never,
      'scheduled-1',
    );
    expect(run).toMatchObject({ ok: false, error: { code: 'no-host-access' } });
    expect(await store.getSweep('scheduled-1')).toBeUndefined();
  });

  it('asks the browser for exactly the hosts given; a browser that cannot say, or no hosts, is "not granted"', async () => {
    const asked: string[][] = [];
    const api = (contains: (o: string[]) => Promise<boolean>) => ({
      permissions: {
        contains: (p: { origins: string[] }) => {
          asked.push(p.origins);
          return contains(p.origins);
        },
      },
    });
    const hosts = ['https://map.naver.com/*', 'https://map.kakao.com/*'];
    expect(
      await hasHostAccess(
        api(async () => true),
        hosts,
      ),
    ).toBe(true);
    expect(asked.at(-1)).toEqual(hosts);
    expect(
      await hasHostAccess(
        api(async () => false),
        hosts,
      ),
    ).toBe(false);
    expect(
      await hasHostAccess(
        api(() => Promise.reject(new Error('no'))),
        hosts,
      ),
    ).toBe(false);
    expect(
      await hasHostAccess(
        api(async () => true),
        [],
      ),
    ).toBe(false);
  });

  it("one site's hosts withheld stops that site's sweeps only (Firefox grants hosts one by one; Chrome's \"on specific sites\")", async () => {
    const granted = new Set(naverProvider.hostAccess);
    const access = (site: { hostAccess: readonly string[] }) =>
      hasHostAccess({ permissions: { contains: async (p) => p.origins.every((o) => granted.has(o)) } }, site.hostAccess);
    expect(await access(naverProvider)).toBe(true);
    expect(await access(googleProvider)).toBe(false);
    expect(await access(kakaoProvider)).toBe(false);
  });

  it("every site's hosts are the manifest's (each one asked for at install or by the popup's button)", () => {
    const manifest = (config.manifest as (env: { browser: string }) => { host_permissions: string[] })({ browser: 'firefox' });
    for (const p of PROVIDERS) for (const h of p.hostAccess) expect(manifest.host_permissions, `${p.id}: ${h}`).toContain(h);
  });
});
