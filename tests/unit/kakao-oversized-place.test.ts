// @vitest-environment happy-dom
/**
 * Issue 22's test on Kakao: a replica place with 200 categories (Kakao's category string,
 * `fieldDrift`) and a 20,000-character name, in a crowded cell. The real collector
 * (utils/providers/kakao/collect.ts) reads the replica's rendered search page in-process
 * (kakao-content-harness.ts), walking every page as the driver does, and the real store
 * commits the cell: it commits, with the place stored within the bounds and marked cut.
 */
import 'fake-indexeddb/auto';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { auditObservation } from '../../utils/domain/audit-page';
import { LIST_BOUNDS, TEXT_BOUNDS } from '../../utils/listing/bounds';
import type { CollectOptions } from '../../utils/messaging/protocol';
import type { Observation } from '../../utils/domain/sweep';
import { viewForBox } from '../../utils/providers/kakao/urls';
import { leaseNextCell } from '../../utils/queue';
import { openStore } from '../../utils/store';
import { kakaoWorld } from '../replica/kakao/places';
import { createWorld, type WorldOptions } from '../replica/world';
import { CANVAS, openKakaoPage, SEOUL, walkKakaoPages, type KakaoPageHarness } from '../helpers/kakao-content-harness';
import { makeCell, makeSweep, RESULT } from './store-fixtures';

const OPTIONS: CollectOptions = { cap: 510, stallMs: 8000, maxMs: 90_000, settleMs: 15_000, scrollPauseMs: 0 };
/** The harness's crowded cell in central Seoul: a few hundred cafés, many pages. */
const CELL = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
const BASE: WorldOptions = { seed: 21, places: 6000, centre: SEOUL, radiusKm: 4 };

/** The first café inside the cell: the one made oversized (its index is the same in either world). */
const target = createWorld(BASE).places.find(
  (p) => p.category === 'cafe' && p.lat > CELL.south && p.lat < CELL.north && p.lng > CELL.west && p.lng < CELL.east,
)!;
const world = createWorld({ ...BASE, oversized: { index: target.index, nameLength: 20_000, categories: 200 } });
const kw = kakaoWorld(world);
const planted = kw.of(world.places[target.index]!);

let open: KakaoPageHarness | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

/** What the driver does: the first page prepared (its controls pressed), then every page walked. */
const walk = async (h: KakaoPageHarness): Promise<Observation> => (await walkKakaoPages(h, OPTIONS)).combined;

describe('a Kakao place with 200 categories and a 20,000-character name, in a crowded cell', () => {
  it('the replica shows it as planted (and the default world is unchanged)', () => {
    expect(planted.name).toHaveLength(20_000);
    expect(planted.categoryPath).toHaveLength(200);
    const plain = createWorld(BASE);
    expect(world.places.filter((p, i) => !isDeepStrictEqual(p, plain.places[i])).map((p) => p.index)).toEqual([target.index]);
    expect(world.places[target.index]!.cid).toBe(plain.places[target.index]!.cid);
  });

  for (const fieldDrift of [true, false]) {
    it(`is read within the bounds and the cell commits with every place (${fieldDrift ? 'the category string' : 'cate_name_depth1..5'})`, {
      timeout: 120_000,
    }, async () => {
      open = openKakaoPage('cafe', viewForBox(CELL, CANVAS)!, { fieldDrift }, kw);
      const obs = await walk(open);
      const organic = obs.listings.filter((l) => !l.sponsored);
      expect(organic.length).toBeGreaterThan(30);
      const read = organic.find((l) => l.key === `kakao:${planted.confirmId}`);
      expect(read, 'the oversized place is read, not lost as an unreadable card').toBeDefined();
      expect(read!.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
      expect(read!.name.startsWith(planted.name.slice(0, 100))).toBe(true);
      expect(read!.categories!.length).toBeLessThanOrEqual(LIST_BOUNDS.categories);
      expect(read!.cut).toEqual(fieldDrift ? ['name', 'categories'] : ['name']);
      // The audit the commit logs keeps the cut.
      expect(auditObservation(obs).listingsCut).toBe(1);

      const store = await openStore({ name: `kakao-oversized-${fieldDrift}` });
      await store.createSweep(makeSweep('s1'), [makeCell('s1', 'r0c0', { keyword: 'cafe', bbox: CELL })]);
      const cell = (await leaseNextCell(store, { sweepId: 's1', holder: 'tab:1', now: 1_000, leaseMs: 60_000 }))!;
      const result = await store.commitCell({
        sweepId: 's1',
        cellId: cell.id,
        holder: 'tab:1',
        now: 2_000,
        keyword: 'cafe',
        listings: obs.listings,
        outcome: { status: 'done', result: { ...RESULT, organic: organic.length } },
        audit: auditObservation(obs),
      });
      expect(result.applied).toBe(true);
      const stored = [];
      for await (const batch of store.iterateListings(1000, 's1')) stored.push(...batch);
      expect(new Set(stored.map((l) => l.key))).toEqual(new Set(organic.map((l) => l.key)));
      const kept = stored.find((l) => l.key === read!.key)!;
      expect(kept.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
      expect(kept.categories!.length).toBeLessThanOrEqual(LIST_BOUNDS.categories);
      expect(kept.cut).toEqual(read!.cut);
      expect((await store.getSweep('s1'))!.counters.listingsRefused).toBeUndefined();
      store.close();
    });
  }
});
