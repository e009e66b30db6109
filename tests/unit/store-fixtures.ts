// Shared test data for the store and queue tests (not a test file itself).
import { IDBFactory } from 'fake-indexeddb';
import type { Cell, CellResult } from '../../utils/domain/sweep';
import { makeCell } from '../helpers/store-records';

export { makeCell, makeListing, makeSweep } from '../helpers/store-records';

/** A private in-memory IndexedDB: tests never see each other's databases. */
export function freshFactory(): IDBFactory {
  return new IDBFactory();
}

/** `count` pending cells r0c0, r0c1, … with distinct distances (nearest first by index). */
export function makeCells(sweepId: string, count: number, overrides: Partial<Cell> = {}): Cell[] {
  return Array.from({ length: count }, (_, i) => makeCell(sweepId, `r0c${i}`, { distance: 100 + i, ...overrides }));
}

/** A fresh pending child of `parent` (its id, depth and parent set), as a split would add it. */
export function childOf(parent: Cell, n: number, overrides: Partial<Cell> = {}): Cell {
  const { id, sweepId, keyword, keywordIndex, bbox, distance } = parent;
  return makeCell(sweepId, '', { keyword, keywordIndex, bbox, distance, id: `${id}.${n}`, depth: parent.depth + 1, parentId: id, ...overrides });
}

export const RESULT: CellResult = {
  organic: 0,
  newListings: 0,
  endOfList: true,
  capHit: false,
  zoomedOut: false,
  insideShare: 1,
};

/** Deterministic PRNG: seeded randomized tests replay exactly. */
export { seededRandom as seeded } from '../helpers/random';

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Open a database with raw IndexedDB (no store code), optionally creating a layout by hand. */
export function rawOpen(
  factory: IDBFactory,
  name: string,
  version?: number,
  upgrade?: (db: IDBDatabase, tx: IDBTransaction, oldVersion: number) => void,
): Promise<IDBDatabase> {
  const r = version === undefined ? factory.open(name) : factory.open(name, version);
  if (upgrade) r.onupgradeneeded = (e) => upgrade(r.result, r.transaction!, e.oldVersion);
  return req(r);
}

export async function rawPut(db: IDBDatabase, store: string, values: unknown[]): Promise<void> {
  const tx = db.transaction(store, 'readwrite');
  for (const v of values) tx.objectStore(store).put(v);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/**
 * Everything in a database, read with raw IndexedDB through a separate connection: every
 * record of every object store with its key, and every index's entries. Two equal dumps mean
 * two equal databases, whatever the code under test believes.
 */
export async function dumpDatabase(factory: IDBFactory, name: string): Promise<Record<string, unknown>> {
  const db = await rawOpen(factory, name);
  try {
    const out: Record<string, unknown> = { version: db.version };
    const names = Array.from(db.objectStoreNames);
    if (names.length === 0) return out;
    const tx = db.transaction(names, 'readonly');
    for (const n of names) {
      const store = tx.objectStore(n);
      const [keys, values] = await Promise.all([req(store.getAllKeys()), req(store.getAll())]);
      out[n] = keys.map((k, i) => [k, values[i]]);
      for (const indexName of Array.from(store.indexNames)) {
        const entries: unknown[] = [];
        await new Promise<void>((resolve, reject) => {
          const c = store.index(indexName).openKeyCursor();
          c.onsuccess = () => {
            const cursor = c.result;
            if (!cursor) return resolve();
            entries.push([cursor.key, cursor.primaryKey]);
            cursor.continue();
          };
          c.onerror = () => reject(c.error);
        });
        out[`${n}.${indexName}`] = entries;
      }
    }
    return out;
  } finally {
    db.close();
  }
}
