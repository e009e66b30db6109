import type { StoredListing } from '../domain/listing';
import { StoreError } from './errors';
import { collectionReadPath } from './read-path';
import type { DB } from './schema';
import { runTx, type Tx } from './tx';

/**
 * All listings (or one collection's) in key order, `batchSize` at a time, each batch read in its
 * own short transaction (Store.iterateListings): through the collection index, or by a scan of
 * the whole store when the collection is most of it (read-path.ts).
 */
export async function* iterateListings(db: DB, batchSize: number, collection: string | undefined): AsyncGenerator<StoredListing[]> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new StoreError('invalid', 'The batch size must be a whole number ≥ 1.');
  if (collection !== undefined) {
    const [inCollection, total] = await runTx(db, ['listings'], 'readonly', (tx) =>
      Promise.all([tx.objectStore('listings').index('byCollection').count(collection), tx.objectStore('listings').count()]),
    );
    if (collectionReadPath(inCollection, total) === 'scan') {
      // Same batches as the index path would give: `batchSize` at a time, in key order.
      let pending: StoredListing[] = [];
      for await (const batch of iterateListings(db, batchSize, undefined)) {
        pending.push(...batch.filter((l) => l.collections.includes(collection)));
        while (pending.length >= batchSize) {
          yield pending.slice(0, batchSize);
          pending = pending.slice(batchSize);
        }
      }
      if (pending.length > 0) yield pending;
      return;
    }
  }
  let after: string | undefined;
  for (;;) {
    const last = after;
    const batch =
      collection === undefined
        ? await runTx(db, ['listings'], 'readonly', (tx) =>
            tx.objectStore('listings').getAll(last === undefined ? undefined : IDBKeyRange.lowerBound(last, true), batchSize),
          )
        : await runTx(db, ['listings'], 'readonly', (tx) => collectionBatch(tx, collection, last, batchSize));
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1]?.key;
  }
}

/** The next `size` listings of a collection after primary key `after`, via the multiEntry index. */
async function collectionBatch(tx: Tx<'listings'[], 'readonly'>, collection: string, after: string | undefined, size: number): Promise<StoredListing[]> {
  let cursor = await tx.objectStore('listings').index('byCollection').openCursor(collection);
  // Within one index key, entries are in primary-key order: jump to where the last batch ended.
  if (cursor && after !== undefined && cursor.primaryKey < after) cursor = await cursor.continuePrimaryKey(collection, after);
  if (cursor && after !== undefined && cursor.primaryKey === after) cursor = await cursor.continue();
  const out: StoredListing[] = [];
  while (cursor && out.length < size) {
    out.push(cursor.value);
    if (out.length < size) cursor = await cursor.continue();
  }
  return out;
}
