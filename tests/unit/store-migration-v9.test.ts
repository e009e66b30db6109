/**
 * Store version 8 → 9 (issue 38): the reviews pass's `reviewQueue` and `reviews`, and nothing
 * else changes. The version-8 database is written by hand with raw IndexedDB in the shapes
 * version 8 wrote and compared with a raw dump after the upgrade.
 */
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openStore } from '../../utils/store';
import { enqueueReviews } from '../../utils/reviews/queue';
import { createV8Layout, expectDamagedRefused } from '../helpers/old-store';
import { dumpDatabase, freshFactory, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';

describe('store version 8 → 9: the reviews pass', () => {
  it('adds reviewQueue and reviews, empty; every record of version 8 stays as it was, and the pass works on the upgraded store', async () => {
    const factory = freshFactory();
    const db = await rawOpen(factory, 'v8', 8, (d) => createV8Layout(d));
    await rawPut(db, 'sweeps', [makeSweep('done', { status: 'finished' })]);
    await rawPut(db, 'listings', [{ ...makeListing('1'), firstSeen: 1, lastSeen: 2, collections: ['done'], keywords: ['cafe'], cells: [] }]);
    await rawPut(db, 'contactSites', [{ url: 'https://bakery.kr/', places: ['google:1'], status: 'pending' }]);
    await rawPut(db, 'businesses', [{ id: 'b1', members: ['google:1', 'naver:2'] }]);
    db.close();
    const before = await dumpDatabase(factory, 'v8');
    expect(before.version).toBe(8);

    const store = await openStore({ factory, name: 'v8' });
    store.close();
    const after = await dumpDatabase(factory, 'v8');
    expect(after.version).toBe(DB_VERSION);
    for (const [name, content] of Object.entries(before)) if (name !== 'version') expect(after[name], name).toEqual(content);
    expect(
      Object.keys(after)
        .filter((k) => !(k in before) && k !== 'placeLists')
        .sort(),
    ).toEqual(['reviewQueue', 'reviewQueue.byLeaseOrder', 'reviewQueue.bySweep', 'reviewQueue.bySweepStatus', 'reviews', 'reviews.byPlace']);
    expect(after.reviews).toEqual([]);

    const upgraded = await openStore({ factory, name: 'v8' });
    expect(await enqueueReviews(upgraded, 'done', 5, { provider: 'google' })).toEqual({ queued: 1, filled: true });
    upgraded.close();
  });

  it('a damaged version-8 database (a store missing) is refused and left exactly as it was', async () => {
    const { error } = await expectDamagedRefused(freshFactory(), 8, (d) => {
      createV8Layout(d);
      d.deleteObjectStore('linkRuns');
    });
    expect(error.message).toMatch(/linkRuns/);
  });
});
