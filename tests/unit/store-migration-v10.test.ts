/**
 * Store version 9 → 10 (issue 40): `placeLists`, the lists of places collected as collections,
 * and nothing else changes. The version-9 database is written by hand with raw IndexedDB in the
 * shapes version 9 wrote and compared with a raw dump after the upgrade.
 */
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openStore } from '../../utils/store';
import { allLists, createList } from '../../utils/lists';
import { parsePlaceList } from '../../utils/input';
import { createV9Layout, expectDamagedRefused } from '../helpers/old-store';
import { dumpDatabase, freshFactory, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';

describe('store version 9 → 10: lists of places', () => {
  it('adds placeLists, empty; every record of version 9 stays as it was, and a list can be confirmed on the upgraded store', async () => {
    const factory = freshFactory();
    const db = await rawOpen(factory, 'v9', 9, (d) => createV9Layout(d));
    await rawPut(db, 'sweeps', [makeSweep('done', { status: 'finished' })]);
    await rawPut(db, 'listings', [{ ...makeListing('1'), firstSeen: 1, lastSeen: 2, collections: ['done'], keywords: ['cafe'], cells: [] }]);
    await rawPut(db, 'reviews', [{ key: 'google:1|r1', placeKey: 'google:1', rating: 5 }]);
    db.close();
    const before = await dumpDatabase(factory, 'v9');
    expect(before.version).toBe(9);

    const store = await openStore({ factory, name: 'v9' });
    store.close();
    const after = await dumpDatabase(factory, 'v9');
    expect(after.version).toBe(DB_VERSION);
    for (const [name, content] of Object.entries(before)) if (name !== 'version') expect(after[name], name).toEqual(content);
    expect(Object.keys(after).filter((k) => !(k in before))).toEqual(['placeLists']);
    expect(after.placeLists).toEqual([]);

    const upgraded = await openStore({ factory, name: 'v9' });
    const list = parsePlaceList('naver:1234567');
    if (list.status !== 'read') throw new Error('not read');
    await createList(upgraded, { id: 'list-abcd', name: 'x', list, settings: { maxAttempts: 3, loadTimeoutMs: 30_000 }, now: 5 });
    expect((await allLists(upgraded)).map((l) => l.id)).toEqual(['list-abcd']);
    upgraded.close();
  });

  it('a damaged version-9 database (a store missing) is refused and left exactly as it was', async () => {
    const { error } = await expectDamagedRefused(freshFactory(), 9, (d) => {
      createV9Layout(d);
      d.deleteObjectStore('reviews');
    });
    expect(error.message).toMatch(/reviews/);
  });
});
