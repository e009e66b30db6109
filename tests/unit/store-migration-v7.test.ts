/**
 * Store version 6 → 7 (issue 23): the contacts pass's `contactSites`, and nothing else changes.
 * The version-6 database is written by hand with raw IndexedDB in the shapes version 6 wrote
 * (as the earlier migration tests do) and compared with a raw dump after the upgrade.
 */
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openStore } from '../../utils/store';
import { contactsOf } from '../../utils/contacts/read';
import { enqueueContacts } from '../../utils/contacts/queue';
import { createV4Layout, createV6Layout } from '../helpers/old-store';
import { dumpDatabase, freshFactory, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';

describe('store version 6 → 7: the contacts pass', () => {
  it('adds contactSites, empty; every record of version 6 stays as it was, and the pass works on the upgraded store', async () => {
    const factory = freshFactory();
    const db = await rawOpen(factory, 'v6', 6, (d) => createV6Layout(d));
    await rawPut(db, 'sweeps', [makeSweep('done', { status: 'finished' })]);
    await rawPut(db, 'listings', [
      { ...makeListing('1', { website: 'https://bakery.kr/' }), firstSeen: 1, lastSeen: 2, collections: ['done'], keywords: ['bakery'], cells: [] },
    ]);
    const sweepPlaces = db.transaction('sweepPlaces', 'readwrite');
    sweepPlaces.objectStore('sweepPlaces').put(1, ['done', 'bakery', 'google:1']);
    await new Promise((r) => (sweepPlaces.oncomplete = r));
    db.close();
    const before = await dumpDatabase(factory, 'v6');
    expect(before.version).toBe(6);

    const store = await openStore({ factory, name: 'v6' });
    store.close();
    const after = await dumpDatabase(factory, 'v6');
    expect(after.version).toBe(DB_VERSION);
    for (const [name, content] of Object.entries(before)) if (name !== 'version') expect(after[name], name).toEqual(content);
    // The linking stores are version 8's (tests/unit/match-store.test.ts), the reviews' version 9's (store-migration-v9.test.ts).
    const linking = /^(businesses|ambiguities|linkDecisions|linkRuns|reviewQueue|reviews|placeLists)\b/;
    expect(
      Object.keys(after)
        .filter((k) => !(k in before) && !linking.test(k))
        .sort(),
    ).toEqual(['contactSites', 'contactSites.byLeaseOrder', 'contactSites.byPlace']);
    expect([after.contactSites, after['contactSites.byLeaseOrder'], after['contactSites.byPlace']]).toEqual([[], [], []]);

    const upgraded = await openStore({ factory, name: 'v6' });
    expect(await enqueueContacts(upgraded, { collection: 'done', now: 10, recheckDays: 30 })).toEqual({ places: 1, queued: 1, recorded: 0 });
    expect((await contactsOf(upgraded, [{ key: 'google:1', website: 'https://bakery.kr/' }])).get('google:1')?.url).toBe('https://bakery.kr/');
    upgraded.close();
  });

  it('a damaged version-6 database (a store missing) is refused and left exactly as it was', async () => {
    const factory = freshFactory();
    const db = await rawOpen(factory, 'bad6', 6, (d) => {
      createV4Layout(d);
      d.createObjectStore('sweepPlaces');
    });
    await rawPut(db, 'sweeps', [makeSweep('s', { status: 'finished' })]);
    db.close();
    const before = await dumpDatabase(factory, 'bad6');
    await expect(openStore({ factory, name: 'bad6' })).rejects.toThrow(/damaged/);
    expect(await dumpDatabase(factory, 'bad6')).toEqual(before);
  });
});
