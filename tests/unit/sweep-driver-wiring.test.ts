import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PageDriver } from '../../utils/browser/page-driver';
import { parseSearchQuery, parseView } from '../../utils/providers/google/urls';
import { fromRecord, openStore, withQueueKey, type CommitCellInput, type Store } from '../../utils/store';
import { COLLECT_TIMEOUT_MS, runWorker, type DriverDeps } from '../../utils/sweep/driver';
import { DISK_FULL_KEY, diskFullOf, readDiskFull } from '../../utils/sweep/disk-full';
import { createPacer, mapHostOf, type Pacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import type { Sweep, SweepSettings } from '../../utils/domain/sweep';
import { seededRandom } from '../helpers/random';
import { createSimPageDriver, type SimPageDriver } from '../helpers/sim-page-driver';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 3, places: 8000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 4 });
const VIEWPORT = { width: 1280, height: 800, panelWidth: 408 };
const AREA = '37.55,126.96,37.58,127.00';
let dbs = 0;

afterEach(() => {
  vi.restoreAllMocks();
});

async function setup(o: { settings?: Partial<SweepSettings>; sim?: Parameters<typeof createSimPageDriver>[1] extends infer S ? Partial<S> : never } = {}) {
  const store = await openStore({ name: `driver-wiring-${++dbs}` });
  const clock = { now: 1_000_000 };
  const sleep = async (ms: number) => {
    clock.now += Math.max(0, ms);
    await Promise.resolve();
  };
  const settings: SweepSettings = { ...DEFAULT_SETTINGS, delayMs: 2000, jitterMs: 0, ...o.settings };
  const plan = planSweep({ areaText: AREA, keywordsText: 'cafe', settings, viewport: VIEWPORT, origin: null }, 'w1', clock.now);
  if (!plan.ok) throw new Error(plan.error.message);
  const sweep = await store.createSweep(plan.sweep, plan.cells);
  const random = seededRandom(5);
  const page = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false }, random, ...o.sim });
  const pacer = createPacer({ now: () => clock.now, sleep, random, timing: () => settings });
  const attention: [string, string][] = [];
  const deps: DriverDeps = {
    store,
    page,
    pacer,
    now: () => clock.now,
    sleep,
    random,
    attention: (s, reason) => attention.push([s.id, reason]),
  };
  return { store, sweep, page, pacer, deps, clock, attention };
}

/** Every commit, with the page it was made from. */
function recordCommits(store: Store): CommitCellInput[] {
  const commits: CommitCellInput[] = [];
  const real = store.commitCell.bind(store);
  store.commitCell = async (input) => {
    commits.push(input);
    return real(input);
  };
  return commits;
}

describe('the driver passes the search URL to the pacer', () => {
  it('acquire, penalise and reward name the search URL host; penalties are per host', async () => {
    const { deps, sweep, page } = await setup({ sim: { errorRate: 0.3 } });
    const calls: [string, string | undefined][] = [];
    const real = deps.pacer;
    const pacer: Pacer = {
      acquire: (t) => {
        calls.push(['acquire', t]);
        return real.acquire(t);
      },
      penalise: (t) => {
        calls.push(['penalise', t]);
        return real.penalise(t);
      },
      reward: (t) => {
        calls.push(['reward', t]);
        return real.reward(t);
      },
      penaltyOf: (t) => real.penaltyOf(t),
    };
    expect(await runWorker({ ...deps, pacer }, sweep.id, 1)).toBe('finished');
    expect(page.loads).toBeGreaterThan(3);
    expect(calls.every(([, t]) => t !== undefined && mapHostOf(t) === 'www.google.com')).toBe(true);
    const penalised = calls.filter(([k]) => k === 'penalise');
    const rewarded = calls.filter(([k]) => k === 'reward');
    expect(penalised.length).toBeGreaterThan(0);
    expect(rewarded.length).toBeGreaterThan(0);
    // Each names the very page that failed or succeeded.
    for (const [, t] of [...penalised, ...rewarded]) expect(parseSearchQuery(t!)).toBe('cafe');
    expect(real.penaltyOf('map.naver.com')).toBe(0);
  }, 20_000);
});

describe('leases cover a visit; a refused renewal ends it', () => {
  it('the lease covers the load timeout plus the collection bound, whatever the options say', async () => {
    const { deps, sweep, store, clock } = await setup({ settings: { cellTimeoutMs: 10_000 } });
    const leases: number[] = [];
    const page: PageDriver = {
      ...deps.page,
      async load(tabId, url, timeoutMs) {
        const [held] = await store.listCells(sweep.id, 'leased');
        leases.push(held!.leaseUntil - clock.now - timeoutMs);
        await store.patchSweep(sweep.id, { status: 'paused', pauseReason: 'user' });
        return deps.page.load(tabId, url, timeoutMs);
      },
    };
    await runWorker({ ...deps, page }, sweep.id, 1);
    expect(leases).toHaveLength(1);
    // After the load's own timeout, the lease still has the whole collection (and a margin) to run.
    expect(leases[0]).toBeGreaterThanOrEqual(COLLECT_TIMEOUT_MS);
  });

  it('a renewal refused after the load (another loop has the cell) ends the visit: no collection, no commit', async () => {
    const { deps, sweep, store } = await setup();
    const commits = recordCommits(store);
    let loads = 0;
    let collectedFirst = false;
    let taken: string | null = null;
    const pause = () => store.patchSweep(sweep.id, { status: 'paused', pauseReason: 'user' });
    const page: PageDriver = {
      ...deps.page,
      async load(tabId, url, timeoutMs) {
        if (++loads === 1) {
          // While this loop loads, its lease runs out and another loop takes the cell.
          const [held] = await store.listCells(sweep.id, 'leased');
          taken = held!.id;
          await store.transact(['cells'], 'readwrite', async (tx) => {
            const r = (await tx.objectStore('cells').get(held!.id))!;
            await tx.objectStore('cells').put(withQueueKey({ ...fromRecord(r), leaseHolder: 'loop:other', leaseUntil: Number.MAX_SAFE_INTEGER }));
          });
        } else {
          await pause();
        }
        return deps.page.load(tabId, url, timeoutMs);
      },
      async collect(...args) {
        if (loads === 1) collectedFirst = true;
        return deps.page.collect(...args);
      },
    };
    // Nothing else to lease (or the next visit): the test ends the loop by pausing.
    const sleep = async (ms: number) => {
      await pause();
      await deps.sleep(ms);
    };
    expect(await runWorker({ ...deps, page, sleep }, sweep.id, 1)).toBe('not-running');
    expect(collectedFirst).toBe(false);
    expect(commits.filter((c) => c.cellId === taken)).toEqual([]);
    expect(await store.getCell(taken!)).toMatchObject({ status: 'leased', leaseHolder: 'loop:other', attempts: 0 });
  });
});

describe('one page per cell', () => {
  /** Each loop gets its own view of the one tab: what it asked to load last. */
  function loopPage(shared: SimPageDriver, requested: Map<string, string>, holder: string): PageDriver {
    return {
      ...shared,
      load(tabId, url, timeoutMs) {
        requested.set(holder, url);
        return shared.load(tabId, url, timeoutMs);
      },
    };
  }

  /** Every commit, with what its loop had last asked to load when it committed. */
  function recordAsked(store: Store, requested: Map<string, string>): { input: CommitCellInput; asked: string | undefined }[] {
    const commits: { input: CommitCellInput; asked: string | undefined }[] = [];
    const real = store.commitCell.bind(store);
    store.commitCell = async (input) => {
      commits.push({ input, asked: requested.get(input.holder) });
      return real(input);
    };
    return commits;
  }

  /** The commit's page is the committing loop's own search (same query, same centre). */
  function ownPage(commit: CommitCellInput, requested: string | undefined): boolean {
    if (!requested || !commit.url) return false;
    const a = parseView(commit.url);
    const b = parseView(requested);
    return parseSearchQuery(commit.url) === parseSearchQuery(requested) && !!a && !!b && Math.abs(a.lat - b.lat) < 1e-6 && Math.abs(a.lng - b.lng) < 1e-6;
  }

  it("two loops forced onto one tab: no cell is committed with the other loop's page", async () => {
    const { deps, sweep, store, page } = await setup({ settings: { delayMs: 0 } });
    const requested = new Map<string, string>();
    const commits = recordAsked(store, requested);
    // Both loops on tab 1: each loads its cell, and the other's load replaces the page before it collects.
    const slowCollect = (p: PageDriver): PageDriver => ({
      ...p,
      async collect(tabId, options, timeoutMs) {
        await new Promise((r) => setTimeout(r, 1));
        return p.collect(tabId, options, timeoutMs);
      },
    });
    const exits = await Promise.all(
      ['loop:a', 'loop:b'].map((holder) => runWorker({ ...deps, page: slowCollect(loopPage(page, requested, holder)) }, sweep.id, 1, holder)),
    );
    expect(exits).toContain('finished');
    expect(commits.length).toBeGreaterThan(0);
    const foreign = commits.filter((c) => !ownPage(c.input, c.asked));
    expect(foreign.map((c) => [c.input.cellId, c.input.url, c.asked])).toEqual([]);
    expect((await store.getSweep(sweep.id))?.status).toBe('finished');
  }, 30_000);

  it('a navigation during collection (the person pressed Back): refused, the cell retried and committed from its own page', async () => {
    const { deps, sweep, store, page } = await setup();
    const requested = new Map<string, string>();
    const commits = recordAsked(store, requested);
    const urls: string[] = [];
    let backs = 0;
    const base = loopPage(page, requested, 'loop:a');
    const withBack: PageDriver = {
      ...base,
      async load(tabId, url, timeoutMs) {
        urls.push(url);
        return base.load(tabId, url, timeoutMs);
      },
      async collect(tabId, options, timeoutMs) {
        // On the 3rd and 5th page, the person presses Back: the previous search shows instead.
        if ((urls.length === 3 || urls.length === 5) && backs < urls.length - 2) {
          backs++;
          await page.load(tabId, urls[urls.length - 2]!, timeoutMs);
        }
        return base.collect(tabId, options, timeoutMs);
      },
    };
    expect(await runWorker({ ...deps, page: withBack }, sweep.id, 1, 'loop:a')).toBe('finished');
    expect(backs).toBe(2);
    expect(commits.filter((c) => !ownPage(c.input, c.asked)).map((c) => c.input.cellId)).toEqual([]);
    const retried = (await store.listEvents(sweep.id, 1000)).filter((e) => e.kind === 'cell-retry' && /instead of this cell's view/.test(e.message));
    expect(retried).toHaveLength(2);
  }, 30_000);
});

describe("not the cell's fault: one place, one transaction", () => {
  it('a captcha page releases the cell, pauses the sweep and tells the user once', async () => {
    const { deps, sweep, store } = await setup();
    let loads = 0;
    const page: PageDriver = {
      ...deps.page,
      async load(tabId, url, timeoutMs) {
        if (++loads === 2) return { url: 'https://www.google.com/sorry/index?continue=x' };
        return deps.page.load(tabId, url, timeoutMs);
      },
    };
    expect(await runWorker({ ...deps, page }, sweep.id, 1)).toBe('paused');
    expect(await store.getSweep(sweep.id)).toMatchObject({ status: 'paused', pauseReason: 'captcha' });
    expect(await store.listCells(sweep.id, 'leased')).toEqual([]);
    const released = (await store.listEvents(sweep.id)).filter((e) => e.kind === 'cell-released');
    expect(released.map((e) => e.errorKind)).toEqual(['blocked']);
    expect((await store.getCell(released[0]!.cellId!))?.attempts).toBe(0);
  });
});

describe('disk full mid-sweep', () => {
  it('writes start failing with QuotaExceededError: the pause is recorded in storage.local, the last commit intact', async () => {
    const { deps, sweep, store } = await setup();
    const real = store.commitCell.bind(store);
    let committed = 0;
    let full = false;
    store.commitCell = async (input) => {
      const r = await real(input);
      if (r.applied && ++committed === 2) {
        // From now on every IndexedDB write is refused, as on a full disk.
        full = true;
        const put = IDBObjectStore.prototype.put;
        const add = IDBObjectStore.prototype.add;
        vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
          if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return put.apply(this, args);
        });
        vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args) {
          if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return add.apply(this, args);
        });
      }
      return r;
    };
    const attention: string[] = [];
    const exit = await runWorker(
      {
        ...deps,
        attention: (_s, reason) => attention.push(reason),
        diskFull: (sweepId, error) => fakeBrowser.storage.local.set({ [DISK_FULL_KEY]: diskFullOf(sweepId, error) }),
      },
      sweep.id,
      1,
    );
    expect(exit).toBe('paused');
    expect(attention).toEqual(['quota']);
    const flag = readDiskFull((await fakeBrowser.storage.local.get(DISK_FULL_KEY))[DISK_FULL_KEY]);
    expect(flag).toMatchObject({ sweepId: sweep.id });
    expect(flag!.message).toMatch(/disk is full/i);
    full = false;
    vi.restoreAllMocks();
    // The last commit is intact: two cells settled, their places stored, nothing half-written.
    const after: Sweep = (await store.getSweep(sweep.id))!;
    const settled = (await store.listCells(sweep.id)).filter((c) => c.status === 'done' || c.status === 'split' || c.status === 'saturated');
    expect(settled).toHaveLength(2);
    expect(after.counters.listingsNew).toBe(await store.countListings(sweep.id));
    expect(after.counters.listingsNew).toBeGreaterThan(0);
    // IndexedDB refused the pause itself: the flag is what says it.
    expect(after.status).toBe('running');
  }, 20_000);

  it('a quota error while leasing pauses too', async () => {
    const { deps, sweep, store } = await setup();
    const flags: string[] = [];
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'cells') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    });
    const exit = await runWorker({ ...deps, diskFull: async (id) => void flags.push(id) }, sweep.id, 1);
    expect(exit).toBe('paused');
    expect(flags).toEqual([sweep.id]);
    vi.restoreAllMocks();
    expect(await store.getSweep(sweep.id)).toMatchObject({ status: 'paused', pauseReason: 'quota' });
    expect(await store.listCells(sweep.id, 'leased')).toEqual([]);
  });
});
