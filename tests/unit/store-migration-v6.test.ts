/**
 * Store version 5 → 6 (issue 22): which places each sweep listed under each keyword, a new
 * object store `sweepPlaces`, and nothing else changes. The version-5 database is written by hand
 * with raw IndexedDB in the shapes version 5 wrote (as store-migration-v4 and
 * details-store-migration-v5 do), and compared with a raw dump of everything after the upgrade.
 */
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openStore } from '../../utils/store';
import { leaseNextCell } from '../../utils/queue';
import { createV5Layout, expectDamagedRefused } from '../helpers/old-store';
import { makeCell } from '../helpers/store-records';
import { dumpDatabase, freshFactory, makeListing, makeSweep, rawOpen, rawPut, RESULT } from './store-fixtures';

/** Sweeps of every status (keywords bakery and florist); listings in one or more of them, found under one or both keywords, or another sweep's. */
async function seedV5(factory: IDBFactory, name: string): Promise<void> {
  const db = await rawOpen(factory, name, 5, (d) => createV5Layout(d));
  await rawPut(db, 'sweeps', [
    makeSweep('done', { status: 'finished' }),
    makeSweep('off', { status: 'stopped' }),
    makeSweep('run', { status: 'running' }),
    makeSweep('wait', { status: 'paused', pauseReason: 'user' }),
  ]);
  await rawPut(db, 'cells', [makeCell('run', 'r0c0', { status: 'done' }), { ...makeCell('wait', 'r0c0'), queue: ['wait', 0, 0, 0, 100, 'wait/0/r0c0', 0] }]);
  const listing = (cid: string, collections: string[], keywords: string[]) => ({
    ...makeListing(cid),
    firstSeen: 100 + Number(cid),
    lastSeen: 900,
    collections,
    keywords,
    cells: [],
  });
  await rawPut(db, 'listings', [
    listing('1', ['run'], ['bakery']),
    listing('2', ['run', 'done'], ['bakery', 'florist']),
    listing('3', ['wait', 'browsing'], ['florist', 'pizza']),
    listing('4', ['done', 'off'], ['bakery']),
    listing('5', ['browsing'], []),
    // Damaged by something else: no keyword list. Left as it is, given nothing.
    { ...listing('6', ['run'], []), keywords: undefined },
  ]);
  await rawPut(db, 'events', [{ sweepId: 'run', at: 1, kind: 'cell-done', cellId: 'run/0/r0c0', keyword: 'bakery', message: '2 listings' }]);
  await rawPut(db, 'placeQueue', [{ id: 'done|google:2', sweepId: 'done', key: 'google:2', status: 'pending', attempts: 0, queue: ['done', 0, 'google:2'] }]);
  db.close();
}

describe('store version 5 → 6: what each sweep listed under each keyword', () => {
  it('adds sweepPlaces, filled for the sweeps that may still audit (all but stopped ones); every record and index entry of version 5 stays as it was', async () => {
    const factory = freshFactory();
    await seedV5(factory, 'v5');
    const before = await dumpDatabase(factory, 'v5');
    expect(before.version).toBe(5);
    (await openStore({ factory, name: 'v5' })).close();
    const after = await dumpDatabase(factory, 'v5');
    expect(after.version).toBe(DB_VERSION);
    for (const [name, content] of Object.entries(before)) {
      if (name === 'version') continue;
      expect(after[name], name).toEqual(content);
    }
    // contactSites and its indexes: version 7's (store-migration-v7.test.ts); the linking stores version 8's (match-store.test.ts), the reviews' version 9's (store-migration-v9.test.ts).
    const later = /^(contactSites|businesses|ambiguities|linkDecisions|linkRuns|reviewQueue|reviews|placeLists)\b/;
    expect(Object.keys(after).filter((k) => !(k in before) && !later.test(k))).toEqual(['sweepPlaces']);
    // By the rule version 5 used (the sweep has the place, and it was found under the keyword):
    // what a running or paused sweep found before the upgrade is never taken for a miss after it.
    // A finished sweep audits again once "Retry failed" re-opens it: it gets its records too.
    // Stopped sweeps audit no more: nothing for them.
    const places = await openStore({ factory, name: 'v5' });
    const keys = await places.transact(['sweepPlaces'], 'readonly', (tx) => tx.objectStore('sweepPlaces').getAllKeys());
    places.close();
    expect(keys).toEqual([
      ['done', 'bakery', 'google:2'],
      ['done', 'bakery', 'google:4'],
      ['done', 'florist', 'google:2'],
      ['run', 'bakery', 'google:1'],
      ['run', 'bakery', 'google:2'],
      ['run', 'florist', 'google:2'],
      ['wait', 'florist', 'google:3'],
    ]);
  });

  it('a sweep paused across the upgrade goes on: a place it had is not new to it, one it had not is', async () => {
    const factory = freshFactory();
    await seedV5(factory, 'v5-resume');
    const store = await openStore({ factory, name: 'v5-resume' });
    await store.patchSweep('wait', { status: 'running', pauseReason: null });
    const cell = await leaseNextCell(store, { sweepId: 'wait', holder: 'h', now: 1_000, leaseMs: 60_000 });
    expect(cell?.keyword).toBe('bakery');
    const r = await store.commitCell({
      sweepId: 'wait',
      cellId: cell!.id,
      holder: 'h',
      now: 2_000,
      keyword: 'bakery',
      listings: [makeListing('3'), makeListing('9')],
      outcome: { status: 'done', result: RESULT },
    });
    // google:3 was the sweep's under florist only: under bakery it is new, as is google:9.
    expect(r).toMatchObject({ applied: true, newToSweep: ['google:3', 'google:9'] });
    store.close();
  });

  it('refuses a version-5 database whose listings index is missing, untouched (not upgraded), and says what is damaged', async () => {
    const { error, before } = await expectDamagedRefused(freshFactory(), 5, (db) => {
      createV5Layout(db);
      db.deleteObjectStore('listings');
      db.createObjectStore('listings', { keyPath: 'key' });
    });
    expect(error.message).toMatch(/listings\.byCollection/);
    expect(before.version).toBe(5);
  });
});
