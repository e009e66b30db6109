/**
 * Filters cut cost, never coverage (issue 40): the paid passes over a sweep queue only the places
 * that pass the sweep's filters, with the filters' one rule about the sites (SITE_FILTER_CONTEXT),
 * as utils/details/wire.ts and utils/reviews/wire.ts fill them; a field nobody has read passes.
 */
import { describe, expect, it } from 'vitest';
import { enqueueDetails } from '../../utils/details/queue';
import { judgePlace, keeper, NO_FILTER, sweepFilter } from '../../utils/filters';
import { SITE_FILTER_CONTEXT } from '../../utils/providers/registry';
import { enqueueReviews } from '../../utils/reviews/queue';
import { openStore } from '../../utils/store';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

async function setUp() {
  const store = await openStore({ factory: freshFactory(), name: `filters-queues-${Math.random()}` });
  const sweep = makeSweep('s', { status: 'finished' });
  const filtered = { ...sweep, settings: { ...sweep.settings, filters: { ...NO_FILTER, minRating: 4, excludeNames: ['Starbucks'] } } as typeof sweep.settings };
  await store.createSweep(filtered, [makeCell('s', 'r0c0')]);
  await store.transact(['listings'], 'readwrite', async (tx) => {
    const places = [
      makeListing('1', { name: 'Good Cafe', rating: 4.6, reviews: 20, address: null }),
      makeListing('2', { name: 'Poor Cafe', rating: 3.2, reviews: 20, address: null }),
      makeListing('3', { name: 'Starbucks Jongno', rating: 4.8, reviews: 20, address: null }),
      // Nobody read its rating: unknown passes (the paid passes find out).
      makeListing('4', { name: 'Quiet Cafe', rating: null, reviews: null, address: null }),
    ];
    for (const l of places) await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] });
  });
  return { store, sweep: filtered };
}

describe('the paid passes under a sweep\u2019s filters', () => {
  it('place details and reviews queue only the places that pass (or whose fields nobody read)', async () => {
    const { store, sweep } = await setUp();
    const keep = keeper(sweepFilter(sweep), SITE_FILTER_CONTEXT);
    expect(keep).toBeDefined();
    await enqueueDetails(store, 's', 1, { provider: 'google', keep });
    await enqueueReviews(store, 's', 1, { provider: 'google', keep });
    const keys = (name: 'placeQueue' | 'reviewQueue') =>
      store.transact([name], 'readonly', async (tx) =>
        (await tx.objectStore(name).getAll())
          .map((j) => j.key)
          .filter((k) => !k.startsWith('#'))
          .sort(),
      );
    expect(await keys('placeQueue')).toEqual(['google:1', 'google:4']);
    expect(await keys('reviewQueue')).toEqual(['google:1', 'google:4']);
  });

  it('a Google card with its main category only is not dropped by a category its unread list may hold; one whose list was read is', () => {
    const f = { ...NO_FILTER, categories: ['cafe'] };
    const card = { provider: 'google' as const, name: 'X', category: 'Coffee shop', rating: 4.5, reviews: 10, website: null, phone: null };
    expect(judgePlace(card, f, SITE_FILTER_CONTEXT).result).toBe('unknown');
    expect(judgePlace({ ...card, categories: ['Coffee shop', 'Bakery'] }, f, SITE_FILTER_CONTEXT).result).toBe('fail');
    expect(judgePlace({ ...card, categories: ['Coffee shop', 'Cafe'] }, f, SITE_FILTER_CONTEXT).result).toBe('pass');
    // Kakao's place page lists no categories: its one category is all there is to read.
    expect(judgePlace({ ...card, provider: 'kakao', category: '베이커리' }, { ...NO_FILTER, categories: ['카페'] }, SITE_FILTER_CONTEXT).result).toBe('fail');
  });

  it('no filter (or a sweep from before filters): every place, as before', async () => {
    expect(keeper(sweepFilter({ settings: {} }), SITE_FILTER_CONTEXT)).toBeUndefined();
    expect(keeper(NO_FILTER, SITE_FILTER_CONTEXT)).toBeUndefined();
  });
});
