/**
 * Issue 22's test on Naver: a replica place with 200 categories (an array in the list page's
 * Apollo state) and a 20,000-character name (in its card and its state), on the first page of a
 * crowded cell. The real collector (utils/providers/naver/collect.ts) reads the replica's list
 * page in a happy-dom window with the page's own script running (lazy batches as it scrolls),
 * and the real store commits the cell: it commits, with the place stored within the bounds.
 */
import 'fake-indexeddb/auto';
import { isDeepStrictEqual } from 'node:util';
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { collectNaverPage } from '../../utils/providers/naver/collect';
import { auditObservation } from '../../utils/domain/audit-page';
import type { BBox } from '../../utils/geo/types';
import { LIST_BOUNDS, TEXT_BOUNDS } from '../../utils/listing/bounds';
import { naverListUrl } from '../../utils/providers/naver/urls';
import { leaseNextCell } from '../../utils/queue';
import { openStore } from '../../utils/store';
import { naverPlaceOf } from '../replica/naver/data';
import { adsFor, naverSearch, pageOf } from '../replica/naver/search';
import { listPageHtml } from '../replica/naver/pages';
import { DEFAULT_NAVER_SWITCHES } from '../replica/naver/switches';
import { createWorld, type World, type WorldOptions } from '../replica/world';
import { makeCell, makeSweep, RESULT } from './store-fixtures';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const BASE: WorldOptions = { seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 };
/** Central Seoul: more cafés than one list holds. */
const BOX: BBox = { south: 37.56, west: 126.968, north: 37.573, east: 126.988 };
const S = DEFAULT_NAVER_SWITCHES;
const input = { query: '카페', bounds: BOX, centre: null };

/** The place listed first in the cell is made oversized (its index is the same in either world). */
const first = naverSearch(createWorld(BASE), input, S).results[0]!.place;
const world = createWorld({ ...BASE, oversized: { index: first.index, nameLength: 20_000, categories: 200 } });
const planted = naverPlaceOf(world.places[first.index]!);

const windows: Window[] = [];
afterAll(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

/** Page 1 of the cell's list in a happy-dom window, its own script running. */
function listWindow(w: World) {
  const outcome = naverSearch(w, input, S);
  const { items, pages } = pageOf(outcome.results, 1, S.pageSize);
  const html = listPageHtml({
    query: input.query,
    x: '126.9780000',
    y: '37.5665000',
    items,
    ads: adsFor(w, input, outcome, S),
    rendered: S.firstRender,
    page: 1,
    pages,
    total: outcome.results.length,
    pageSize: S.pageSize,
    lazyBatch: S.lazyBatch,
    lazyDelayMs: 10,
    pagerWindow: S.pagerWindow,
    endMarker: S.endMarker,
    apolloHolds: 'page',
    variant: S.domVariant,
    brokenCards: false,
  });
  const url = naverListUrl({ query: input.query, bounds: BOX });
  const win = new Window({
    url,
    settings: {
      enableJavaScriptEvaluation: true,
      suppressInsecureJavaScriptEnvironmentWarning: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
    },
  });
  windows.push(win);
  win.document.write(html);
  return { win, items, pages };
}

describe('a Naver place with 200 categories and a 20,000-character name, in a crowded cell', () => {
  it('the replica shows it as planted (and the default world is unchanged)', () => {
    expect(planted.name).toHaveLength(20_000);
    expect(planted.categoryPath).toHaveLength(200);
    const plain = createWorld(BASE);
    expect(world.places.filter((p, i) => !isDeepStrictEqual(p, plain.places[i])).map((p) => p.index)).toEqual([first.index]);
  });

  it('is read within the bounds, and the cell commits with every place', { timeout: 60_000 }, async () => {
    const { win, items, pages } = listWindow(world);
    expect(pages).toBeGreaterThan(1);
    expect(items[0]!.id).toBe(planted.id);
    const obs = await collectNaverPage(
      {
        doc: win.document as unknown as Document,
        url: () => win.location.href,
        now: () => Date.now(),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        random: Math.random,
        httpStatus: () => 200,
        hidden: () => false,
      },
      { cap: 300, stallMs: 250, maxMs: 8000, settleMs: 2000, scrollPauseMs: 20 },
    );
    const organic = obs.listings.filter((l) => !l.sponsored);
    // Every card read: the long name made no card unreadable (an unread card keeps the cell from being accepted).
    expect(organic.map((l) => l.key)).toEqual(items.map((p) => `naver:${p.id}`));
    const read = organic.find((l) => l.key === `naver:${planted.id}`)!;
    expect(read.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
    expect(read.name.startsWith(planted.name.slice(0, 100))).toBe(true);
    expect(read.categories!.length).toBeLessThanOrEqual(LIST_BOUNDS.categories);
    expect(read.cut).toEqual(['name', 'categories']);
    expect(auditObservation(obs).listingsCut).toBe(1);

    const store = await openStore({ name: 'naver-oversized' });
    await store.createSweep(makeSweep('s1'), [makeCell('s1', 'r0c0', { keyword: '카페', bbox: BOX })]);
    const cell = (await leaseNextCell(store, { sweepId: 's1', holder: 'tab:1', now: 1_000, leaseMs: 60_000 }))!;
    const result = await store.commitCell({
      sweepId: 's1',
      cellId: cell.id,
      holder: 'tab:1',
      now: 2_000,
      keyword: '카페',
      listings: obs.listings,
      outcome: { status: 'saturated', result: { ...RESULT, organic: organic.length, endOfList: false, capHit: true } },
      audit: auditObservation(obs),
    });
    expect(result.applied).toBe(true);
    const stored = [];
    for await (const batch of store.iterateListings(1000, 's1')) stored.push(...batch);
    expect(stored.map((l) => l.key).sort()).toEqual(organic.map((l) => l.key).sort());
    const kept = stored.find((l) => l.key === read.key)!;
    expect(kept.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
    expect(kept.categories!.length).toBeLessThanOrEqual(LIST_BOUNDS.categories);
    store.close();
  });
});
