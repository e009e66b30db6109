import { wrap } from 'idb';
import { StoreError, toStoreError } from './errors';
import { DB_VERSION, MIGRATIONS, missingLayout, type DB, type MapSweepDB, type StoreName } from './schema';
import type { IDBPTransaction } from 'idb';

export const DEFAULT_DB_NAME = 'mapsweep';

/**
 * Open (and upgrade) the database through `factory`. idb's own `openDB` always uses the global
 * `indexedDB`, so this is the same few lines over a given factory; the result is wrapped by
 * idb all the same. (idb recognises objects by the global IDB classes, so the factory must be
 * the platform's or, in tests, fake-indexeddb's with its globals installed.)
 *
 * Never deletes anything: a database this version cannot read is left as it is and reported.
 */
export function openDatabase(factory: IDBFactory, name: string, version: number = DB_VERSION): Promise<DB> {
  return new Promise<DB>((resolve, reject) => {
    let settled = false;
    let migrationError: unknown = null;
    const fail = (e: StoreError) => {
      if (settled) return;
      settled = true;
      reject(e);
    };

    let request: IDBOpenDBRequest;
    try {
      request = factory.open(name, version);
    } catch (e) {
      fail(toStoreError(e));
      return;
    }

    request.onupgradeneeded = (event) => {
      const tx = request.transaction;
      if (!tx) return;
      const db = wrap(request.result) as unknown as DB;
      const upgradeTx = wrap(tx) as unknown as IDBPTransaction<MapSweepDB, StoreName[], 'versionchange'>;
      // An aborted upgrade is reported through the open request (onerror below), not through this promise.
      upgradeTx.done.catch(() => undefined);
      runMigrations(db, upgradeTx, event.oldVersion, event.newVersion ?? version).catch((e: unknown) => {
        migrationError = e;
        try {
          tx.abort();
        } catch {
          // The failed request aborted it already.
        }
      });
    };

    request.onblocked = () => {
      fail(
        new StoreError(
          'blocked',
          'MapSweep cannot update its saved data while an older MapSweep page keeps it open. Close other MapSweep tabs and popups, then try again.',
        ),
      );
    };

    request.onsuccess = () => {
      const raw = request.result;
      // Opened after all once the blocker went away, but the caller was already told it failed.
      if (settled) {
        raw.close();
        return;
      }
      const db = wrap(raw) as unknown as DB;
      const missing = missingLayout(db);
      if (missing.length > 0) {
        raw.close();
        fail(new StoreError('corrupt', `The saved MapSweep data is damaged (missing: ${missing.join(', ')}). It was left untouched; nothing was deleted.`));
        return;
      }
      // A newer MapSweep (updated in another context) wants to upgrade: step aside instead of blocking it.
      raw.onversionchange = () => raw.close();
      settled = true;
      resolve(db);
    };

    request.onerror = () => {
      const error = request.error;
      if (error?.name === 'VersionError') {
        void onDiskVersion(factory, name).then((found) =>
          fail(
            new StoreError(
              'newer-version',
              `The saved data was written by a newer version of MapSweep (database version ${found ?? 'unknown'}; ` +
                `this version reads ${version}). Update the extension to open it; nothing was deleted.`,
              { cause: error },
            ),
          ),
        );
        return;
      }
      if (migrationError !== null) {
        const notFound = (migrationError as { name?: string }).name === 'NotFoundError';
        fail(
          notFound
            ? new StoreError(
                'corrupt',
                `The saved MapSweep data is damaged and cannot be upgraded (${errorText(migrationError)}). It was left untouched; nothing was deleted.`,
                { cause: migrationError },
              )
            : new StoreError(
                'upgrade-failed',
                `Upgrading the saved data failed (${errorText(migrationError)}); the upgrade was rolled back and the data left as it was.`,
                { cause: migrationError },
              ),
        );
        return;
      }
      fail(toStoreError(error));
    };
  });
}

async function runMigrations(db: DB, tx: IDBPTransaction<MapSweepDB, StoreName[], 'versionchange'>, from: number, to: number): Promise<void> {
  for (let v = from; v < to; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`no migration from version ${v}`);
    // Synchronous steps run back to back inside the upgradeneeded event; only a step that
    // rewrites records is awaited (on its own requests).
    const pending = step(db, tx);
    if (pending) await pending;
  }
}

async function onDiskVersion(factory: IDBFactory, name: string): Promise<number | null> {
  try {
    const all = await factory.databases();
    return all.find((d) => d.name === name)?.version ?? null;
  } catch {
    return null;
  }
}

function errorText(e: unknown): string {
  if (typeof e === 'object' && e !== null) {
    const { name, message } = e as { name?: unknown; message?: unknown };
    return `${String(name ?? 'Error')}: ${String(message ?? '')}`;
  }
  return String(e);
}
