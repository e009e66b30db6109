/**
 * The place-details loop (utils/details/runner.ts) with injected deps, as the sweep driver's
 * tests do: one paced load at a time per host (two loops of one sweep never overlap their
 * loads; another site's place pages have a lane of their own), failing pages retried with
 * backoff then left, a block page pausing without an attempt, a loop killed mid-place resumed
 * by the next one without losing or repeating committed work; and the estimate.
 */
import { describe, expect, it } from 'vitest';
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { openStore, type Store } from '../../utils/store';
import { countPlaces, enqueueDetails, releasePlaceLeases } from '../../utils/details/queue';
import { placeLeaseMs, runDetails, type PlacePageDriver } from '../../utils/details/runner';
import { estimateDetails, secondsPerPlace, SECONDS_PER_PLACE_WORK } from '../../utils/details/estimate';
import { createDetailsPass, placeDetailsOn } from '../../utils/details/wire';
import { createPacer } from '../../utils/queue/pacing';
import { DEFAULT_SETTINGS, normaliseSettings } from '../../utils/config/settings';
import { fakeClock } from '../helpers/details-sim';
import { makeCell, makeListing, makeSweep } from './store-fixtures';

const DELAY = 3000;

let n = 0;
async function storeWith(sweeps: { id: string; provider: 'google' | 'kakao'; places: number; placeDetails?: boolean }[]): Promise<Store> {
  const store = await openStore({ name: `details-runner-${++n}` });
  for (const [k, s] of sweeps.entries()) {
    await store.createSweep(
      makeSweep(s.id, {
        status: 'finished',
        provider: s.provider,
        settings: { ...makeSweep(s.id).settings, delayMs: DELAY, jitterMs: 0, placeDetails: s.placeDetails ?? true } as never,
      }),
      [makeCell(s.id, 'r0c0')],
    );
    await store.transact(['listings'], 'readwrite', async (tx) => {
      for (let i = 0; i < s.places; i++) {
        const id = String(100000 + 1000 * k + i);
        const base: Listing =
          s.provider === 'google'
            ? makeListing(id)
            : { ...makeListing(id), key: `kakao:${id}`, provider: 'kakao', providerId: id, cid: null, url: `https://place.map.kakao.com/${id}` };
        await tx.objectStore('listings').put({ ...base, firstSeen: 1, lastSeen: 1, collections: [s.id], keywords: ['k'], cells: [] } satisfies StoredListing);
      }
    });
  }
  return store;
}

interface Load {
  host: string;
  start: number;
  end: number;
  url: string;
}

/** Place pages that answer with the stored place plus a phone; `fail` makes loads fail. */
function fakePages(
  store: Store,
  clock: ReturnType<typeof fakeClock>,
  opts: { fail?: (url: string) => boolean; finalUrl?: (url: string) => string; hang?: (loadNo: number) => boolean } = {},
) {
  const loads: Load[] = [];
  const at = new Map<number, string>();
  const page: PlacePageDriver = {
    async load(tabId, url) {
      const start = clock.now();
      if (opts.hang?.(loads.length + 1)) return new Promise<never>(() => {});
      await clock.sleep(1000);
      loads.push({ host: new URL(url).host, start, end: clock.now(), url });
      if (opts.fail?.(url)) throw new Error('HTTP 503');
      at.set(tabId, url);
      return { url: opts.finalUrl?.(url) ?? url };
    },
    async exists() {
      return true;
    },
    async collectPlace(_tabId, req) {
      const l = await store.getListing(req.key);
      return l ? { ...l, phone: `02-555-${req.key.slice(-4)}` } : null;
    },
  };
  return { page, loads };
}

const overlaps = (loads: Load[]) => loads.some((a, i) => loads.some((b, j) => i !== j && a.start < b.end && b.start < a.end));

describe('the place-details loop', () => {
  it('loads one place page at a time per host, ≥ the delay apart, even with two loops; another host has its own lane', async () => {
    const store = await storeWith([
      { id: 'g', provider: 'google', places: 6 },
      { id: 'k', provider: 'kakao', places: 4 },
    ]);
    const clock = fakeClock();
    for (const id of ['g', 'k']) await enqueueDetails(store, id, clock.now(), { provider: id === 'g' ? 'google' : 'kakao' });
    const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: DELAY, jitterMs: 0 }) });
    const { page, loads } = fakePages(store, clock);
    const deps = { store, page, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 };
    const exits = await Promise.all([runDetails(deps, 'g', 1), runDetails(deps, 'g', 2), runDetails(deps, 'k', 3)]);
    expect(exits).toEqual(['finished', 'finished', 'finished']);
    const google = loads.filter((l) => l.host === 'www.google.com');
    const kakao = loads.filter((l) => l.host === 'place.map.kakao.com');
    expect(google).toHaveLength(6);
    expect(kakao).toHaveLength(4);
    // Each place once; within a host never two at once, and each start ≥ the delay after the previous end.
    expect(new Set(loads.map((l) => l.url)).size).toBe(10);
    for (const lane of [google, kakao]) {
      expect(overlaps(lane)).toBe(false);
      const sorted = [...lane].sort((a, b) => a.start - b.start);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.start - sorted[i - 1]!.end).toBeGreaterThanOrEqual(DELAY);
    }
    // The two hosts' lanes do not wait for each other: across hosts, a load may follow another sooner than the delay.
    const both = [...google, ...kakao].sort((a, b) => a.start - b.start);
    expect(both.slice(1).some((l, i) => l.start - both[i]!.end < DELAY)).toBe(true);
    for (const key of ['google:100000', 'kakao:101003']) expect((await store.getListing(key))!.phone).toMatch(/^02-555-/);
    store.close();
  });

  it('retries a failing place page with backoff, then leaves it, and goes on with the others: maxAttempts loads of it, never a loop', async () => {
    const store = await storeWith([{ id: 'g', provider: 'google', places: 3 }]);
    const clock = fakeClock();
    await enqueueDetails(store, 'g', clock.now(), { provider: 'google' });
    const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: DELAY, jitterMs: 0 }) });
    const bad = (url: string) => url.includes('cid=100001');
    const { page, loads } = fakePages(store, clock, { fail: bad });
    const exit = await runDetails({ store, page, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.9 }, 'g', 1);
    expect(exit).toBe('finished');
    const badLoads = loads.filter((l) => bad(l.url));
    // makeSweep's maxAttempts is 3.
    expect(badLoads).toHaveLength(3);
    // Backoff: each retry waits longer than the one before (beyond the host's own pacing).
    const gaps = badLoads.slice(1).map((l, i) => l.start - badLoads[i]!.end);
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
    expect(gaps[0]!).toBeGreaterThanOrEqual(DELAY);
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 2, failed: 1, pending: 0, leased: 0 });
    expect((await store.getListing('google:100001'))!.phone).toBeNull();
    store.close();
  });

  it('stops at a block page without counting an attempt: the place is loaded again once the user solved it', async () => {
    const store = await storeWith([{ id: 'g', provider: 'google', places: 2 }]);
    const clock = fakeClock();
    await enqueueDetails(store, 'g', clock.now(), { provider: 'google' });
    const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    let blocked = true;
    const { page, loads } = fakePages(store, clock, {
      finalUrl: (u) => (blocked ? `https://www.google.com/sorry/index?continue=${encodeURIComponent(u)}` : u),
    });
    const deps = { store, page, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 };
    expect(await runDetails(deps, 'g', 1)).toBe('blocked');
    expect(await countPlaces(store, 'g')).toMatchObject({ pending: 2, leased: 0, failed: 0 });
    blocked = false;
    expect(await runDetails(deps, 'g', 1)).toBe('finished');
    expect(loads).toHaveLength(3);
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 2 });
    store.close();
  });

  it('the map hosts withdrawn (Firefox): no page is loaded, no attempt counted, the pass says why; allowed again, it goes on', async () => {
    const store = await storeWith([{ id: 'g', provider: 'google', places: 3 }]);
    const clock = fakeClock();
    await enqueueDetails(store, 'g', clock.now(), { provider: 'google' });
    const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    const { page, loads } = fakePages(store, clock);
    // Withdrawn once the first place page was read (the person in about:addons).
    const deps = { store, page, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5, hostAccess: async () => loads.length < 1 };
    expect(await runDetails(deps, 'g', 1)).toBe('no-host-access');
    expect(loads).toHaveLength(1);
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 1, pending: 2, leased: 0, failed: 0 });
    expect(await runDetails({ ...deps, hostAccess: async () => true }, 'g', 1)).toBe('finished');
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 3, failed: 0 });
    store.close();
  });

  it('withdrawn while a place page loads: its failure is no fault of the place, which goes back with no attempt', async () => {
    const store = await storeWith([{ id: 'g', provider: 'google', places: 3 }]);
    const clock = fakeClock();
    await enqueueDetails(store, 'g', clock.now(), { provider: 'google' });
    const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    let withdrawn = false;
    // The second place's page fails to load because the hosts went meanwhile.
    const { page } = fakePages(store, clock, {
      fail: (url) => {
        if (url.includes('cid=100001')) withdrawn = true;
        return withdrawn;
      },
    });
    const deps = { store, page, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5, hostAccess: async () => !withdrawn };
    expect(await runDetails(deps, 'g', 1)).toBe('no-host-access');
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 1, pending: 2, leased: 0, failed: 0 });
    const jobs = await store.transact(['placeQueue'], 'readonly', (tx) => tx.objectStore('placeQueue').getAll());
    expect(jobs.filter((j) => j.attempts > 0 || j.lastError)).toEqual([]);
    store.close();
  });

  it('a loop killed mid-place: the next one (after a restart) loads that place again and nothing committed twice', async () => {
    const store = await storeWith([{ id: 'g', provider: 'google', places: 5 }]);
    const clock = fakeClock();
    await enqueueDetails(store, 'g', clock.now(), { provider: 'google' });
    const pacer = () => createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    // The 3rd load never returns: the service worker died during it.
    const first = fakePages(store, clock, { hang: (k) => k === 3 });
    void runDetails({ store, page: first.page, pacer: pacer(), now: clock.now, sleep: clock.sleep, random: () => 0.5 }, 'g', 1);
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
    expect(first.loads).toHaveLength(2);
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 2, leased: 1, pending: 2 });
    // Without a restart notice, the place comes back once its lease has run out…
    const later = fakePages(store, clock);
    const sweep = (await store.getSweep('g'))!;
    clock.advance(placeLeaseMs(sweep) + 1);
    // …and after one, at once (releasePlaceLeases). Either way: the three left, each once.
    await releasePlaceLeases(store, clock.now());
    expect(await runDetails({ store, page: later.page, pacer: pacer(), now: clock.now, sleep: clock.sleep, random: () => 0.5 }, 'g', 2)).toBe('finished');
    expect(later.loads).toHaveLength(3);
    expect(new Set([...first.loads, ...later.loads].map((l) => l.url)).size).toBe(5);
    expect(await countPlaces(store, 'g')).toMatchObject({ done: 5, leased: 0, pending: 0 });
    store.close();
  });

  it('is started by the pass only for finished sweeps with the setting on, once per sweep, never two on one tab', async () => {
    const store = await storeWith([
      { id: 'on', provider: 'google', places: 2 },
      { id: 'off', provider: 'google', places: 2, placeDetails: false },
    ]);
    const clock = fakeClock();
    const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    const { page, loads } = fakePages(store, clock);
    let ids = 0;
    const finishedWith: string[] = [];
    const pass = createDetailsPass({
      store,
      page,
      pacer,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
      newId: () => `id${++ids}`,
      attention: (s, exit) => finishedWith.push(`${s.id}:${exit}`),
    });
    expect((await pass.resumable()).map((s) => s.id)).toEqual(['on']);
    expect(await pass.start('off', 1)).toBe('off');
    const run = pass.start('on', 1);
    expect(await pass.start('on', 2)).toBe('already-running');
    expect(pass.tabsInUse()).toEqual(new Set([1]));
    expect(await run).toBe('finished');
    expect(loads).toHaveLength(2);
    expect(finishedWith).toEqual(['on:finished']);
    expect(await pass.resumable()).toEqual([]);
    expect(pass.tabsInUse().size).toBe(0);
    store.close();
  });
});

describe('the setting and the estimate', () => {
  it('is off by default, kept as a boolean, and read as off on sweeps from before it', () => {
    expect(DEFAULT_SETTINGS.placeDetails).toBe(false);
    expect(normaliseSettings({}).placeDetails).toBe(false);
    expect(normaliseSettings({ placeDetails: true }).placeDetails).toBe(true);
    expect(normaliseSettings({ placeDetails: 'yes' }).placeDetails).toBe(false);
    expect(placeDetailsOn(makeSweep('old').settings)).toBe(false);
    expect(placeDetailsOn({ ...makeSweep('new').settings, placeDetails: true })).toBe(true);
  });

  it('costs one page load per place, each the mean pacing delay plus ~4 s', () => {
    expect(SECONDS_PER_PLACE_WORK).toBe(4);
    expect(secondsPerPlace({ delayMs: 2000, jitterMs: 1500 })).toBeCloseTo(6.75);
    expect(estimateDetails(120, { delayMs: 2000, jitterMs: 1500 })).toEqual({ loads: 120, seconds: 810, secondsPerPlace: 6.75 });
    expect(estimateDetails(0, DEFAULT_SETTINGS)).toMatchObject({ loads: 0, seconds: 0 });
    expect(estimateDetails(-3, DEFAULT_SETTINGS).loads).toBe(0);
    expect(estimateDetails(10, { delayMs: Number.NaN, jitterMs: -1 })).toEqual({ loads: 10, seconds: 40, secondsPerPlace: 4 });
  });
});
