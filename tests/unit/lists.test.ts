/**
 * A list of places collected as a collection (issue 40, utils/lists): confirmed in one
 * transaction, read by the one place-page loop (one paced load per place, each site in its own
 * lane), each place stored once under its key (new places added, stored ones completed), share
 * links opened for the place they land on, a loop killed mid-list resumed without a place lost or
 * loaded twice, and deletion that keeps what other collections hold.
 */
import { describe, expect, it } from 'vitest';
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { openStore, StoreError, type Store } from '../../utils/store';
import { countPlaces, getPlaceJob } from '../../utils/details/queue';
import { placeJobId } from '../../utils/details/records';
import type { PlacePageDriver } from '../../utils/details/runner';
import { parsePlaceList, readLine } from '../../utils/input';
import {
  askListReviews,
  createList,
  deleteList,
  getList,
  listFailures,
  listProgress,
  listQueueId,
  listTransition,
  runList,
  shareKey,
  type ReadList,
} from '../../utils/lists';
import { createPacer } from '../../utils/queue/pacing';
import { fakeClock } from '../helpers/details-sim';
import { makeListing } from '../helpers/store-records';

const DELAY = 2000;
const SETTINGS = { maxAttempts: 3, loadTimeoutMs: 30_000 };
let n = 0;

function place(key: string): Listing {
  const [provider, id] = key.split(':') as ['google' | 'naver' | 'kakao', string];
  const base = makeListing(id!, {
    phone: `02-555-${id!.slice(-4)}`,
    website: `https://${id}.example.com`,
    hours: 'Mon 9-18',
    address: `${id} Full Road, Seoul`,
  });
  if (provider === 'google') return base;
  const url = provider === 'kakao' ? `https://place.map.kakao.com/${id}` : `https://map.naver.com/p/entry/place/${id}`;
  return { ...base, key, provider, providerId: id!, cid: null, url, roadAddress: `${id} Full Road`, lotAddress: `${id} Lot` };
}

function read(text: string): ReadList {
  const r = parsePlaceList(text);
  if (r.status !== 'read') throw new Error(r.status);
  return r;
}

interface Load {
  host: string;
  url: string;
  start: number;
  end: number;
}

/**
 * Pages of a small world: a place page shows its place (what readLine reads from its address), a
 * share link lands where `shares` says, at once (`redirect`) or by script after 1 s.
 */
function pages(
  clock: ReturnType<typeof fakeClock>,
  opts: { shares?: Record<string, string>; byScript?: boolean; other?: (url: string) => string | null; dieAfter?: number } = {},
) {
  const current = new Map<number, { url: string; at: number }>();
  const loads: Load[] = [];
  const driver: PlacePageDriver = {
    async load(tabId, url) {
      // Killed: the loop never hears of this load again.
      if (opts.dieAfter !== undefined && loads.length >= opts.dieAfter) await new Promise(() => {});
      const start = clock.now();
      await clock.sleep(500);
      loads.push({ host: new URL(url).host, url, start, end: clock.now() });
      const landing = opts.shares?.[url];
      if (landing && opts.byScript) {
        current.set(tabId, { url, at: clock.now() });
        return { url };
      }
      current.set(tabId, { url: landing ?? url, at: clock.now() });
      return { url: landing ?? url };
    },
    async exists() {
      return true;
    },
    async currentUrl(tabId) {
      const c = current.get(tabId)!;
      const landing = opts.shares?.[c.url];
      return landing && clock.now() - c.at >= 1000 ? landing : c.url;
    },
    async collectPlace(tabId) {
      const url = current.get(tabId)?.url ?? '';
      const other = opts.other?.(url);
      if (other) return place(other);
      const v = readLine(url);
      return v.kind === 'place' ? place(v.place.key) : null;
    },
  };
  return { driver, loads };
}

async function setup(text: string, opts: { stored?: StoredListing[]; id?: string } = {}) {
  const store = await openStore({ name: `lists-${++n}` });
  const clock = fakeClock();
  if (opts.stored) await store.transact(['listings'], 'readwrite', async (tx) => Promise.all(opts.stored!.map((l) => tx.objectStore('listings').put(l))));
  const list = await createList(store, { id: opts.id ?? 'list-abcd', name: 'Clients', list: read(text), settings: SETTINGS, now: clock.now() });
  const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: DELAY, jitterMs: 0 }) });
  return { store, clock, list, pacer };
}

async function collection(store: Store, id: string): Promise<StoredListing[]> {
  const out: StoredListing[] = [];
  for await (const batch of store.iterateListings(100, id)) out.push(...batch);
  return out;
}

const TEXT = [
  'https://www.google.com/maps?cid=1111111111',
  'naver:2222222',
  'https://place.map.kakao.com/3333333',
  'https://pcmap.place.naver.com/place/4444444/home',
  'kakao:5555555',
  'https://place.map.kakao.com/3333333',
  'not a place',
  'https://www.google.com/maps?cid=6666666666',
].join('\n');

describe('a list of places, collected', () => {
  it('stores each place once under its key in the named collection, one paced load per place, each site in its own lane', async () => {
    const { store, clock, list, pacer } = await setup(TEXT);
    expect(list).toMatchObject({
      status: 'running',
      sites: ['google', 'naver', 'kakao'],
      counts: { places: 6, shares: 0, bad: 1, duplicates: 1, storedBefore: 0 },
    });
    expect(list.bad).toEqual([{ line: 7, text: 'not a place', reason: expect.stringContaining('not a Google, Naver or Kakao place link') }]);
    const { driver, loads } = pages(clock);
    const exit = await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1);
    expect(exit).toBe('finished');
    expect(loads).toHaveLength(6);
    expect(new Set(loads.map((l) => l.url)).size).toBe(6);
    const stored = await collection(store, list.id);
    expect(stored.map((l) => l.key).sort()).toEqual(
      ['google:1111111111', 'google:6666666666', 'kakao:3333333', 'kakao:5555555', 'naver:2222222', 'naver:4444444'].sort(),
    );
    for (const l of stored) expect(l.phone).toBe(place(l.key).phone);
    // Within a host, each load starts ≥ the delay after the previous one ended.
    for (const host of new Set(loads.map((l) => l.host))) {
      const lane = loads.filter((l) => l.host === host);
      for (let i = 1; i < lane.length; i++) expect(lane[i]!.start - lane[i - 1]!.end).toBeGreaterThanOrEqual(DELAY);
    }
    expect(await listProgress(store, list)).toEqual({ open: 0, done: 6, failed: 0, total: 6 });
    store.close();
  });

  it('adds a place stored before to the collection without a load when its page could add nothing, and loads one that lacks something', async () => {
    const complete = {
      ...place('kakao:3333333'),
      sources: undefined,
      firstSeen: 1,
      lastSeen: 1,
      collections: ['s1'],
      keywords: ['k'],
      cells: [],
    } as StoredListing;
    const lacking = { ...place('naver:2222222'), phone: null, firstSeen: 1, lastSeen: 1, collections: ['s1'], keywords: ['k'], cells: [] } as StoredListing;
    const { store, clock, list, pacer } = await setup(TEXT, { stored: [complete, lacking] });
    expect(list.counts.storedBefore).toBe(1);
    const { driver, loads } = pages(clock);
    expect(await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1)).toBe('finished');
    expect(loads.map((l) => l.url)).not.toContain('https://place.map.kakao.com/3333333');
    expect(loads).toHaveLength(5);
    const naver = await store.getListing('naver:2222222');
    expect(naver).toMatchObject({ phone: place('naver:2222222').phone, collections: ['s1', list.id], keywords: ['k'] });
    expect((await store.getListing('kakao:3333333'))!.collections).toEqual(['s1', list.id]);
    store.close();
  });

  it("opens a share link, reads the place where it landed (by redirect or by script) from the place page, and settles that place's own line with it", async () => {
    for (const byScript of [false, true]) {
      const text = 'https://naver.me/abcDEF1\nnaver:7777777\nhttps://kko.to/zzZZ99\nhttps://naver.me/nowhere1';
      const { store, clock, list, pacer } = await setup(text);
      expect(list.counts).toMatchObject({ places: 1, shares: 3 });
      const shares = {
        'https://naver.me/abcDEF1': 'https://map.naver.com/p/entry/place/7777777?c=15.00,0,0,0,dh',
        'https://kko.to/zzZZ99': 'https://map.kakao.com/?itemId=8888888',
        'https://naver.me/nowhere1': 'https://map.naver.com/p/search/cafe',
      };
      const { driver, loads } = pages(clock, { shares, byScript });
      expect(await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1)).toBe('finished');
      const keys = (await collection(store, list.id)).map((l) => l.key).sort();
      expect(keys, `byScript ${byScript}`).toEqual(['kakao:8888888', 'naver:7777777']);
      // The share jobs say where they landed; the place named twice (its line, and a share link) cost one place-page load.
      const share = await getPlaceJob(store, placeJobId(listQueueId(list.id, 'naver'), shareKey('https://naver.me/abcDEF1')));
      expect(share).toMatchObject({ status: 'done', landed: 'naver:7777777' });
      expect(loads.filter((l) => l.url.includes('7777777') && l.host === 'pcmap.place.naver.com')).toHaveLength(1);
      // A share that lands on no place: failed with its reason after its attempts, never stored as anything.
      const nowhere = await getPlaceJob(store, placeJobId(listQueueId(list.id, 'naver'), shareKey('https://naver.me/nowhere1')));
      expect(nowhere).toMatchObject({ status: 'failed', attempts: 3 });
      expect(nowhere!.lastError).toMatch(/no place page/);
      store.close();
    }
  });

  it('never stores a place the page did not name: another place on the page is a failure, a contradiction of the stored place is dropped and logged', async () => {
    const stored = {
      ...place('kakao:3333333'),
      phone: null,
      name: 'Old Bakery',
      firstSeen: 1,
      lastSeen: 1,
      collections: ['s1'],
      keywords: [],
      cells: [],
    } as StoredListing;
    const { store, clock, list, pacer } = await setup('kakao:3333333\nkakao:5555555', { stored: [stored] });
    const { driver } = pages(clock, { other: (url) => (url.endsWith('5555555') ? 'kakao:9999999' : null) });
    expect(await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1)).toBe('finished');
    expect(await collection(store, list.id)).toEqual([]);
    expect(await store.getListing('kakao:9999999')).toBeUndefined();
    expect((await store.getListing('kakao:3333333'))!).toMatchObject({ name: 'Old Bakery', phone: null, collections: ['s1'] });
    const events = await store.listEvents(list.id);
    expect(events.some((e) => e.message.includes('kakao:3333333') && e.message.includes('disagrees'))).toBe(true);
    expect(await countPlaces(store, listQueueId(list.id, 'kakao'))).toMatchObject({ failed: 2, done: 0 });
    // What the list's row shows: each failed line, what it named and why.
    expect(await listFailures(store, list)).toEqual([
      { line: 1, entry: 'kakao:3333333', reason: expect.stringMatching(/disagrees|refused/) },
      { line: 2, entry: 'kakao:5555555', reason: expect.stringMatching(/another place \(kakao:9999999\)/) },
    ]);
    store.close();
  });

  it('after a kill mid-list, the next loop goes on from the last commit: nothing committed is loaded again, nothing is lost', async () => {
    const { store, clock, list, pacer } = await setup(TEXT);
    const first = pages(clock, { dieAfter: 3 });
    void runList({ store, page: first.driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1);
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 5));
    const before = (await collection(store, list.id)).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(6);
    // The dead loop's lease runs out (or is given back at the restart); a new loop finishes the list.
    clock.advance(10 * 60_000);
    const second = pages(clock);
    // A new service worker: a pacer of its own (the dead one's turn died with it).
    const fresh = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: DELAY, jitterMs: 0 }) });
    expect(await runList({ store, page: second.driver, pacer: fresh, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 2)).toBe('finished');
    expect((await collection(store, list.id)).length).toBe(6);
    const committedFirst = new Set(first.loads.map((l) => l.url));
    expect(second.loads.filter((l) => committedFirst.has(l.url))).toHaveLength(0);
    store.close();
  });

  it('stops at a pause: the loop ends after the place in hand, and the status table guards every change', async () => {
    const { store, clock, list, pacer } = await setup(TEXT);
    const { driver, loads } = pages(clock);
    const paused = {
      ...driver,
      load: async (tabId: number, url: string, t: number) => {
        const r = await driver.load(tabId, url, t);
        if (loads.length === 2)
          await listTransition(store, list.id, { event: 'pause', problem: { kind: 'user', message: 'Paused.', at: clock.now() } }, clock.now());
        return r;
      },
    };
    expect(await runList({ store, page: paused, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1)).toBe('not-finished');
    expect(loads).toHaveLength(2);
    expect((await getList(store, list.id))!.status).toBe('paused');
    expect(await listTransition(store, list.id, { event: 'finish' }, clock.now())).toEqual({ ok: false, status: 'paused' });
    expect((await listTransition(store, list.id, { event: 'resume' }, clock.now())).ok).toBe(true);
    expect(await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1)).toBe('finished');
    expect(loads).toHaveLength(6);
    store.close();
  });

  it('refuses a list with no name or nothing to collect, and writes nothing', async () => {
    const store = await openStore({ name: `lists-${++n}` });
    await expect(createList(store, { id: 'list-aaaa', name: '  ', list: read('naver:1234567'), settings: SETTINGS, now: 1 })).rejects.toBeInstanceOf(
      StoreError,
    );
    await expect(createList(store, { id: 'list-aaaa', name: 'x', list: read('not a place\n\n# comment'), settings: SETTINGS, now: 1 })).rejects.toThrow(
      /names no place/,
    );
    await expect(createList(store, { id: 'bad id', name: 'x', list: read('naver:1234567'), settings: SETTINGS, now: 1 })).rejects.toThrow(/Not a list id/);
    expect(await getList(store, 'list-aaaa')).toBeUndefined();
    expect(await countPlaces(store, listQueueId('list-aaaa', 'naver'))).toMatchObject({ total: 0 });
    store.close();
  });

  it('deletes a list with its queues and log; a place another collection holds stays, without the list', async () => {
    const other = { ...place('kakao:3333333'), phone: null, firstSeen: 1, lastSeen: 1, collections: ['s1'], keywords: [], cells: [] } as StoredListing;
    const { store, clock, list, pacer } = await setup(TEXT, { stored: [other] });
    const { driver } = pages(clock);
    await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1);
    expect(await deleteList(store, list.id)).toBe('running');
    await listTransition(store, list.id, { event: 'finish' }, clock.now());
    expect(await deleteList(store, list.id)).toBe('deleted');
    expect(await getList(store, list.id)).toBeUndefined();
    expect(await collection(store, list.id)).toEqual([]);
    expect((await store.getListing('kakao:3333333'))!.collections).toEqual(['s1']);
    expect(await store.getListing('naver:2222222')).toBeUndefined();
    for (const site of ['google', 'naver', 'kakao'] as const) expect((await countPlaces(store, listQueueId(list.id, site))).total).toBe(0);
    store.close();
  });

  it('a share that sends the browser on to a consent page pauses the list (no attempt counted), never fails the place', async () => {
    for (const byScript of [false, true]) {
      const { store, clock, list, pacer } = await setup('https://maps.app.goo.gl/abcDEF1');
      const shares = { 'https://maps.app.goo.gl/abcDEF1': 'https://consent.google.com/ml?continue=https://www.google.com/maps/place/x' };
      const { driver } = pages(clock, { shares, byScript });
      expect(await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1), `byScript ${byScript}`).toBe(
        'blocked',
      );
      const job = await getPlaceJob(store, placeJobId(listQueueId(list.id, 'google'), shareKey('https://maps.app.goo.gl/abcDEF1')));
      expect(job).toMatchObject({ status: 'pending', attempts: 0 });
      store.close();
    }
  });

  it("a share link's load (and where it lands) waits for the turn of the site's map pages too", async () => {
    const { store, clock, list, pacer } = await setup('https://kko.to/zzZZ99');
    const { driver, loads } = pages(clock, { shares: { 'https://kko.to/zzZZ99': 'https://map.kakao.com/?itemId=8888888' } });
    // A Kakao sweep's load is in progress on map.kakao.com's lane.
    const sweepTurn = await pacer.acquire('https://map.kakao.com/');
    const run = runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1);
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 2));
    expect(loads).toHaveLength(0);
    sweepTurn();
    expect(await run).toBe('finished');
    expect(loads.map((l) => l.url)).toEqual(['https://kko.to/zzZZ99', 'https://place.map.kakao.com/8888888']);
    store.close();
  });

  it("deletes a list's failures' log, its reviews jobs and the reviews of the places only it held", async () => {
    const { store, clock, list, pacer } = await setup('naver:2222222\nhttps://naver.me/nowhere1');
    const { driver } = pages(clock, { shares: { 'https://naver.me/nowhere1': 'https://map.naver.com/p/search/cafe' } });
    expect(await runList({ store, page: driver, pacer, now: clock.now, sleep: clock.sleep, random: () => 0.5 }, list, 1)).toBe('finished');
    const naverQueue = listQueueId(list.id, 'naver');
    expect((await store.listEvents(naverQueue)).length).toBeGreaterThan(0);
    await listTransition(store, list.id, { event: 'finish' }, clock.now());
    await askListReviews(store, { listId: list.id, limits: { reviewsPerPlace: 5, reviewsSince: '', reviewsKeepAuthor: true }, now: clock.now() });
    await store.transact(['reviews'], 'readwrite', (tx) =>
      tx.objectStore('reviews').put({ key: 'naver:2222222|r1', placeKey: 'naver:2222222', author: 'Kim' } as never),
    );
    await listTransition(store, list.id, { event: 'stop' }, clock.now());
    expect(await deleteList(store, list.id)).toBe('deleted');
    expect(await store.listEvents(naverQueue)).toEqual([]);
    expect(
      await store.transact(['reviewQueue', 'reviews'], 'readonly', async (tx) => [
        await tx.objectStore('reviewQueue').count(),
        await tx.objectStore('reviews').count(),
      ]),
    ).toEqual([0, 0]);
    store.close();
  });
});
