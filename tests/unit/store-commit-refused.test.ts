/**
 * One bad record never blocks a cell (issue 22): a crowded cell whose listings hold one the
 * store refuses (here one that bypassed the source bounds, utils/listing/bounds.ts) commits
 * every other place; the refused one is counted on the sweep, its reason kept for the popup,
 * and logged with its key and name (bounded). Retrying the cell is then never needed.
 */
import { describe, expect, it } from 'vitest';
import { leaseNextCell } from '../../utils/queue';
import { openStore, type Store } from '../../utils/store';
import { TEXT_BOUNDS } from '../../utils/listing/bounds';
import type { Listing } from '../../utils/domain/listing';
import { sweepProgress } from '../../utils/sweep/progress';
import { freshFactory, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';

async function setup(): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'commit-refused' });
  await store.createSweep(makeSweep('s1'), makeCells('s1', 2));
  return store;
}

async function commitOne(store: Store, listings: Listing[], now = 2_000) {
  const cell = await leaseNextCell(store, { sweepId: 's1', holder: 'tab:1', now: now - 1_000, leaseMs: 60_000 });
  if (!cell) throw new Error('no cell');
  const result = await store.commitCell({
    sweepId: 's1',
    cellId: cell.id,
    holder: 'tab:1',
    now,
    keyword: cell.keyword,
    listings,
    outcome: { status: 'saturated', result: { ...RESULT, organic: listings.length, capHit: true, endOfList: false } },
  });
  return { cell, result };
}

/** 120 places, as a crowded Google cell lists them; one of them with 200 categories and a 20,000-character name, not cut. */
function crowded(from: number): { listings: Listing[]; bad: Listing } {
  const listings = Array.from({ length: 120 }, (_, i) => makeListing(String(from + i)));
  const bad = makeListing(String(from + 60), {
    name: `Mall ${'<b>x</b>'.repeat(3000)}`,
    categories: Array.from({ length: 200 }, (_, i) => `Category ${i}`),
  });
  listings[60] = bad;
  return { listings, bad };
}

describe('a crowded cell with one listing the store refuses', () => {
  it('commits every other place, counts the refused one and logs it with its reason', async () => {
    const store = await setup();
    const { listings, bad } = crowded(1000);
    const { cell, result } = await commitOne(store, listings);
    expect(result).toMatchObject({ applied: true, newListings: 119 });
    expect((await store.getCell(cell.id))?.status).toBe('saturated');

    const stored = [];
    for await (const batch of store.iterateListings(500, 's1')) stored.push(...batch);
    expect(stored).toHaveLength(119);
    expect(stored.some((l) => l.key === bad.key)).toBe(false);

    const sweep = (await store.getSweep('s1'))!;
    expect(sweep.counters).toMatchObject({ listingsNew: 119, listingsRefused: 1, cellsSaturated: 1 });
    expect(sweep.refusedReasons).toEqual(['name, categories beyond the listing bounds']);

    const events = await store.listEvents('s1');
    const refused = events.filter((e) => e.kind === 'listing-refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.refused).toEqual({ key: bad.key, name: expect.stringMatching(/^Mall /), reason: 'name, categories beyond the listing bounds' });
    // The page's name is logged within a name's bound, whatever its length.
    expect(refused[0]!.refused!.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
    expect(refused[0]!.cellId).toBe(cell.id);
    expect(events.find((e) => e.kind === 'cell-saturated')?.message).toMatch(/119 listings, 119 new, 1 refused/);

    // The popup's warning: the count and the reason.
    expect(sweepProgress(sweep, 3_000).warnings).toContainEqual({ kind: 'refused', count: 1, reasons: ['name, categories beyond the listing bounds'] });
    store.close();
  });

  it('adds up over cells, keeping a few distinct reasons; an ad that is refused is not counted (a sweep keeps no ads)', async () => {
    const store = await setup();
    await commitOne(store, crowded(1000).listings, 2_000);
    const other = [
      makeListing('5000'),
      makeListing('5001', { key: 'google:9' }),
      makeListing('5002', { name: 5 as unknown as string }),
      makeListing('5003', { sponsored: true, category: 7 as unknown as string }),
    ];
    await commitOne(store, other, 3_000);
    const sweep = (await store.getSweep('s1'))!;
    expect(sweep.counters.listingsRefused).toBe(3);
    expect(sweep.counters.listingsNew).toBe(120);
    expect(sweep.refusedReasons).toEqual(['name, categories beyond the listing bounds', 'key "google:9" does not match cid 5001', 'name is not text']);
    store.close();
  });

  it('collect while browsing stores the rest too, and says how many it refused', async () => {
    const store = await setup();
    const { listings } = crowded(1000);
    expect(await store.commitBrowsing(listings, 10)).toEqual({ added: 119, seen: 0, refused: 1 });
    store.close();
  });
});
