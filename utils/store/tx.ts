import type { IDBPTransaction } from 'idb';
import { toStoreError } from './errors';
import type { DB, MapSweepDB, StoreName } from './schema';

export type Tx<Names extends StoreName[], Mode extends IDBTransactionMode> = IDBPTransaction<MapSweepDB, Names, Mode>;

/**
 * Run `body` in one transaction and resolve once it has committed. Anything thrown inside
 * (a refused input, a failed request, a full disk) aborts the transaction, so either all of
 * its writes are kept or none; the error comes out as a StoreError.
 *
 * `body` must await only this transaction's requests: IndexedDB commits a transaction as soon
 * as it has no pending request at the end of a task, and a write issued after that throws.
 */
export async function runTx<Names extends StoreName[], Mode extends IDBTransactionMode, T>(
  db: DB,
  names: Names,
  mode: Mode,
  body: (tx: Tx<Names, Mode>) => Promise<T>,
  options?: IDBTransactionOptions,
): Promise<T> {
  let tx: Tx<Names, Mode>;
  try {
    tx = db.transaction(names, mode, options);
  } catch (e) {
    throw toStoreError(e);
  }
  // Observed here so an abort never surfaces as an unhandled rejection; awaited below.
  const done = handled(tx.done);
  try {
    const value = await body(tx);
    await done;
    return value;
  } catch (e) {
    try {
      tx.abort();
    } catch {
      // Already aborted by the failed request, or already finished.
    }
    await done.catch(() => undefined);
    throw toStoreError(e, tx.error);
  }
}

/**
 * Mark a request's promise as observed and return it unchanged. Writes are issued without
 * awaiting each one (a transaction runs them in order anyway); if the body throws before
 * awaiting them, the abort rejects them all, and that must not become an unhandled rejection.
 */
export function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
