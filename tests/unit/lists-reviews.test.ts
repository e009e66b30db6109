/**
 * Reviews of a list's places (issue 40, utils/lists/reviews.ts): asked once the list is collected,
 * for the places the filters of the moment keep, one reviews queue per site; read by the one
 * reviews loop in the list's tab after its places; the list finished only when they are; the
 * signed-out view pauses it with that reason; asking on a list still collecting is refused and
 * changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Listing } from '../../utils/domain/listing';
import type { PlacePageDriver } from '../../utils/details/runner';
import { parsePlaceList, readLine } from '../../utils/input';
import { askListReviews, createList, createListDriver, getList, listQueueId, listTransition, type ReadList } from '../../utils/lists';
import type { ReviewsStepRequest } from '../../utils/messaging/reviews-protocol';
import { createPacer } from '../../utils/queue/pacing';
import { countReviews } from '../../utils/reviews/queue';
import type { ReviewsPageDriver } from '../../utils/reviews/runner';
import { openStore } from '../../utils/store';
import { fakeClock } from '../helpers/details-sim';
import { modelledTab } from '../helpers/reviews-tab';
import { makeListing } from '../helpers/store-records';

const LIMITS = { reviewsPerPlace: 20, reviewsSince: '', reviewsKeepAuthor: false };
/** Reviews each place has (by its id's last digit). */
const TOTAL = (key: string) => [12, 3, 30, 0, 8, 5, 9, 1, 2, 7][Number(key.slice(-1))]!;
let n = 0;

function place(key: string): Listing {
  const [provider, id] = key.split(':') as ['google' | 'naver' | 'kakao', string];
  const base = makeListing(id!, {
    phone: '02-1',
    website: 'https://a.example',
    hours: 'x',
    address: 'Full 1',
    reviews: TOTAL(key),
    rating: id!.endsWith('1') ? 2.0 : 4.5,
  });
  if (provider === 'google') return base;
  const url = `https://place.map.kakao.com/${id}`;
  return { ...base, key, provider, providerId: id!, cid: null, url, roadAddress: 'r', lotAddress: 'l' };
}

function placePages(): PlacePageDriver {
  let url = '';
  return {
    async load(_t, to) {
      url = to;
      return { url };
    },
    exists: async () => true,
    async collectPlace() {
      const v = readLine(url);
      return v.kind === 'place' ? place(v.place.key) : null;
    },
  };
}

function reviewsPages(opts: { signedOut?: boolean } = {}) {
  const tabs = new Map<string, ReturnType<typeof modelledTab>>();
  const read = new Set<string>();
  let url = '';
  const page: ReviewsPageDriver = {
    exists: async () => true,
    async load(_t, to) {
      url = to;
      tabs.delete(url);
      return { url };
    },
    step(_t, req: ReviewsStepRequest) {
      read.add(req.key);
      let t = tabs.get(url);
      if (!t) {
        t = modelledTab(TOTAL(req.key), () => 0.5);
        tabs.set(url, t);
      }
      const view = t(req.action);
      return Promise.resolve(opts.signedOut ? { ...view, page: 'limited' as const } : view);
    },
  };
  return { page, read };
}

async function collected(text: string, reviews: ReturnType<typeof reviewsPages>) {
  const store = await openStore({ name: `lists-reviews-${++n}` });
  const clock = fakeClock();
  const list = parsePlaceList(text) as ReadList;
  await createList(store, { id: 'list-rev1', name: 'R', list, settings: { maxAttempts: 2, loadTimeoutMs: 30_000 }, now: clock.now() });
  const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 1000, jitterMs: 0 }) });
  const driver = createListDriver({
    store,
    page: placePages(),
    reviewsPage: reviews.page,
    pacer,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    workerTab: async () => 1,
  });
  const settled = async () => {
    for (let i = 0; i < 400; i++) {
      const l = await getList(store, 'list-rev1');
      if (l && l.status !== 'running') return l;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('the list never settled');
  };
  await driver.ensure();
  expect((await settled()).status).toBe('finished');
  return { store, clock, driver, settled };
}

const TEXT = 'google:1111111110\ngoogle:1111111111\nkakao:2222222222\nkakao:2222222224\nkakao:2222222223';

describe("a list's reviews", () => {
  it('are read after its places, for the places the filters keep, in one queue per site, and the list finishes when they are', async () => {
    const reviews = reviewsPages();
    const { store, clock, driver, settled } = await collected(TEXT, reviews);
    // Before Read reviews, none.
    expect(reviews.read.size).toBe(0);
    const keep = (l: Listing) => (l.rating ?? 5) >= 4;
    const asked = await askListReviews(store, { listId: 'list-rev1', limits: LIMITS, now: clock.now(), keep });
    // google:…1 is left out by the filter; kakao:…3 has no reviews to read.
    expect(asked).toEqual({ ok: true, reopened: 0, added: 3 });
    expect((await getList(store, 'list-rev1'))!.status).toBe('running');
    await driver.ensure();
    const done = await settled();
    expect(done.status).toBe('finished');
    expect([...reviews.read].sort()).toEqual(['google:1111111110', 'kakao:2222222222', 'kakao:2222222224']);
    expect(await countReviews(store, listQueueId('list-rev1', 'google'))).toMatchObject({ places: 1, done: 1, reviews: 12 });
    expect(await countReviews(store, listQueueId('list-rev1', 'kakao'))).toMatchObject({ places: 2, done: 2, reviews: 20 + 8 });
    // Asked again: each read place reopened (to read what is new), nothing added.
    expect(await askListReviews(store, { listId: 'list-rev1', limits: LIMITS, now: clock.now(), keep })).toEqual({ ok: true, reopened: 3, added: 0 });
    store.close();
  });

  it('signed out, the list pauses with that reason; asked while it collects, it is refused and nothing changes', async () => {
    const reviews = reviewsPages({ signedOut: true });
    const { store, clock, driver, settled } = await collected(TEXT, reviews);
    await askListReviews(store, { listId: 'list-rev1', limits: LIMITS, now: clock.now() });
    await driver.ensure();
    const paused = await settled();
    expect(paused).toMatchObject({ status: 'paused', problem: { kind: 'signed-out' } });
    expect(await askListReviews(store, { listId: 'list-rev1', limits: LIMITS, now: clock.now() })).toEqual({ ok: false, reason: 'not-collected' });
    expect(await askListReviews(store, { listId: 'list-none', limits: LIMITS, now: clock.now() })).toEqual({ ok: false, reason: 'no-list' });
    // Stopped before its places were all read: asking must not start collecting them again.
    await listTransition(store, 'list-rev1', { event: 'stop' }, clock.now());
    expect(await askListReviews(store, { listId: 'list-rev1', limits: LIMITS, now: clock.now() })).toEqual({ ok: false, reason: 'not-collected' });
    expect((await getList(store, 'list-rev1'))!.status).toBe('stopped');
    store.close();
  });
});
