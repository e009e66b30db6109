import type { Listing, StoredListing } from '../domain/listing';
import type { Cell, CellStatus, Sweep, SweepStatus } from '../domain/sweep';
import { auditProblem } from '../domain/audit-page';
import { commitBrowsing, commitCell, type CommitCellInput, type CommitCellResult, type InCommit } from './commit';
import { StoreError } from './errors';
import { initialCounters } from '../domain/counters';
import { DEFAULT_DB_NAME, openDatabase } from './open';
import { fromRecord, withQueueKey, type DB, type QueueKey, type StoreName, type SweepEvent } from './schema';
import { handled, runTx, type Tx } from './tx';
import { isNonEmptyString, isTime } from './validate';
import { iterateListings } from './iterate-listings';
import { patchProblem, settingsPatchProblem, sweepProblem, type SweepPatch } from './sweep-problems';

export type { SweepPatch } from './sweep-problems';

export type CellCounts = Record<CellStatus, number> & { total: number };

export interface OpenCellCounts {
  /** Pending and leased cells. */
  total: number;
  /** The earliest time one of them is (or was) available: a lease or a backoff ends. Infinity when none is open. */
  nextAvailableAt: number;
}

export interface Store {
  readonly name: string;
  close(): void;
  /** One transaction over the given stores, for the queue (utils/queue); rolled back on any throw. */
  transact<Names extends StoreName[], Mode extends IDBTransactionMode, T>(
    names: Names,
    mode: Mode,
    body: (tx: Tx<Names, Mode>) => Promise<T>,
    options?: IDBTransactionOptions,
  ): Promise<T>;

  /** The sweep and its initial cells, in one transaction. Counters are computed from the cells. */
  createSweep(sweep: Sweep, cells: Cell[]): Promise<Sweep>;
  getSweep(id: string): Promise<Sweep | undefined>;
  /** Newest first. */
  listSweeps(): Promise<Sweep[]>;
  /** The updated sweep, or undefined if it no longer exists. */
  /**
   * Change a sweep; with `onlyFrom`, only while its status is one of those (else nothing is
   * written and undefined comes back).
   */
  patchSweep(id: string, patch: SweepPatch, onlyFrom?: readonly SweepStatus[]): Promise<Sweep | undefined>;
  /** The sweep, its cells and events; listings only lose the sweep's collection (and go if it was their only one). */
  /**
   * Deletes a sweep, its cells, its log and the listings only it found. With `unlessHeldAt`, in
   * the same transaction: refuses ('held', nothing deleted) while the sweep runs or a worker
   * holds a lease on one of its cells at that time.
   */
  deleteSweep(id: string, opts?: { unlessHeldAt?: number }): Promise<boolean | 'held'>;

  getCell(id: string): Promise<Cell | undefined>;
  listCells(sweepId: string, status?: CellStatus): Promise<Cell[]>;
  countCells(sweepId: string): Promise<CellCounts>;
  countOpenCells(sweepId: string): Promise<OpenCellCounts>;

  addEvent(event: Omit<SweepEvent, 'id'>): Promise<number>;
  /** Newest first. */
  listEvents(sweepId: string, limit?: number): Promise<SweepEvent[]>;

  getListing(key: string): Promise<StoredListing | undefined>;
  /** All listings, or those of one collection (a sweep id or 'browsing'). */
  countListings(collection?: string): Promise<number>;
  /**
   * All listings (or one collection's) in key order, `batchSize` at a time, each batch read in
   * its own short transaction: a 100,000-place store is never held in memory at once, and no
   * transaction stays open while the consumer works on a batch.
   */
  iterateListings(batchSize?: number, collection?: string): AsyncGenerator<StoredListing[]>;

  /** With `inCommit`: more writes in the commit's own transaction (the closing audit's verdict). */
  commitCell(input: CommitCellInput, inCommit?: InCommit): Promise<CommitCellResult>;
  commitBrowsing(listings: Listing[], now: number): Promise<{ added: number; seen: number; refused?: number }>;
}

export interface OpenStoreOptions {
  /** Database name; 'mapsweep' unless a test or bench wants its own. */
  name?: string;
  /** The IndexedDB factory: the platform's by default, fake-indexeddb's in tests. */
  factory?: IDBFactory;
  /** Clock for `updatedAt` on patches. */
  now?: () => number;
}

export async function openStore(opts: OpenStoreOptions = {}): Promise<Store> {
  const name = opts.name ?? DEFAULT_DB_NAME;
  const db = await openDatabase(opts.factory ?? indexedDB, name);
  return createStore(db, name, opts.now ?? Date.now);
}

const ALL_STATUSES: readonly CellStatus[] = ['pending', 'leased', 'done', 'split', 'saturated', 'quarantined', 'outside'];

function createStore(db: DB, name: string, clock: () => number): Store {
  const transact: Store['transact'] = (names, mode, body, options) => runTx(db, names, mode, body, options);

  return {
    name,
    close: () => db.close(),
    transact,

    async createSweep(sweep, cells) {
      const problem = sweepProblem(sweep, cells);
      if (problem) throw new StoreError('invalid', `The sweep was refused: ${problem}. Nothing was saved.`);
      const stored: Sweep = { ...sweep, counters: initialCounters(cells) };
      await transact(['sweeps', 'cells'], 'readwrite', async (tx) => {
        // add, not put: an existing sweep or cell is never overwritten by a new one.
        const writes: Promise<unknown>[] = [handled(tx.objectStore('sweeps').add(stored))];
        for (const cell of cells) writes.push(handled(tx.objectStore('cells').add(withQueueKey(cell))));
        await Promise.all(writes);
      });
      return stored;
    },

    getSweep: (id) => transact(['sweeps'], 'readonly', (tx) => tx.objectStore('sweeps').get(id)),

    async listSweeps() {
      const all = await transact(['sweeps'], 'readonly', (tx) => tx.objectStore('sweeps').getAll());
      return all.sort((a, b) => b.createdAt - a.createdAt);
    },

    async patchSweep(id, patch, onlyFrom) {
      const problem = patchProblem(patch);
      if (problem) throw new StoreError('invalid', `The sweep change was refused: ${problem}.`);
      const now = clock();
      return transact(['sweeps'], 'readwrite', async (tx) => {
        const sweep = await tx.objectStore('sweeps').get(id);
        if (!sweep) return undefined;
        // Checked in the same transaction: a worker's late pause or stop never undoes the user's.
        if (onlyFrom && !onlyFrom.includes(sweep.status)) return undefined;
        const settingsProblem = patch.settings ? settingsPatchProblem(sweep.settings, patch.settings) : null;
        if (settingsProblem) throw new StoreError('invalid', `The settings change was refused: ${settingsProblem}.`);
        const next: Sweep = {
          ...sweep,
          ...(patch.status !== undefined && { status: patch.status }),
          ...(patch.pauseReason !== undefined && { pauseReason: patch.pauseReason }),
          ...(patch.problem !== undefined && { problem: patch.problem }),
          settings: { ...sweep.settings, ...patch.settings },
          updatedAt: now,
        };
        await tx.objectStore('sweeps').put(next);
        return next;
      });
    },

    deleteSweep: (id, opts) =>
      transact(['sweeps', 'cells', 'events', 'listings', 'placeQueue', 'sweepPlaces'], 'readwrite', async (tx): Promise<boolean | 'held'> => {
        const sweeps = tx.objectStore('sweeps');
        const existed = (await sweeps.count(id)) > 0;
        if (opts?.unlessHeldAt !== undefined && existed) {
          const sweep = (await sweeps.get(id)) as Sweep;
          const cellsOf = (await tx.objectStore('cells').index('bySweep').getAll(id)) as Cell[];
          if (sweep.status === 'running' || cellsOf.some((c) => c.status === 'leased' && c.leaseUntil > opts.unlessHeldAt!)) return 'held';
        }
        const writes: Promise<unknown>[] = [handled(sweeps.delete(id))];
        const cells = tx.objectStore('cells');
        for (const key of await cells.index('bySweep').getAllKeys(id)) writes.push(handled(cells.delete(key)));
        const events = tx.objectStore('events');
        for (const key of await events.index('bySweep').getAllKeys(id)) writes.push(handled(events.delete(key)));
        // The sweep's place-details queue (utils/details) goes with it.
        const placeQueue = tx.objectStore('placeQueue');
        for (const key of await placeQueue.index('bySweep').getAllKeys(id)) writes.push(handled(placeQueue.delete(key)));
        // What the sweep's cells listed under each keyword: one key range, [id, …].
        writes.push(handled(tx.objectStore('sweepPlaces').delete(keysOfSweep(id))));
        // Walk the sweep's listings with a cursor rather than getAll: a big sweep's listings need not fit in memory.
        const cellPrefix = `${id}/`;
        let cursor = await tx.objectStore('listings').index('byCollection').openCursor(id);
        while (cursor) {
          const listing = cursor.value;
          const collections = listing.collections.filter((c) => c !== id);
          writes.push(
            handled<unknown>(
              collections.length === 0
                ? cursor.delete()
                : cursor.update({ ...listing, collections, cells: listing.cells.filter((c) => !c.startsWith(cellPrefix)) }),
            ),
          );
          cursor = await cursor.continue();
        }
        await Promise.all(writes);
        return existed;
      }),

    async getCell(id) {
      const record = await transact(['cells'], 'readonly', (tx) => tx.objectStore('cells').get(id));
      return record && fromRecord(record);
    },

    async listCells(sweepId, status) {
      const records = await transact(['cells'], 'readonly', (tx) =>
        status === undefined
          ? tx.objectStore('cells').index('bySweep').getAll(sweepId)
          : tx.objectStore('cells').index('bySweepStatus').getAll([sweepId, status]),
      );
      return records.map(fromRecord);
    },

    countCells: (sweepId) =>
      transact(['cells'], 'readonly', async (tx) => {
        const index = tx.objectStore('cells').index('bySweepStatus');
        const counts = await Promise.all(ALL_STATUSES.map((s) => index.count([sweepId, s])));
        const result = { total: 0 } as CellCounts;
        ALL_STATUSES.forEach((s, i) => {
          result[s] = counts[i] ?? 0;
          result.total += result[s];
        });
        return result;
      }),

    countOpenCells: (sweepId) =>
      transact(['cells'], 'readonly', async (tx) => {
        let total = 0;
        let nextAvailableAt = Number.POSITIVE_INFINITY;
        // Keys only: the lease-order key carries availableAt (see QueueKey).
        let cursor = await tx.objectStore('cells').index('byLeaseOrder').openKeyCursor(openCellsOf(sweepId));
        while (cursor) {
          total += 1;
          nextAvailableAt = Math.min(nextAvailableAt, (cursor.key as QueueKey)[6]);
          cursor = await cursor.continue();
        }
        return { total, nextAvailableAt };
      }),

    async addEvent(event) {
      if (!isNonEmptyString(event.sweepId) || !isTime(event.at) || typeof event.message !== 'string') {
        throw new StoreError('invalid', 'The log event was refused: it needs a sweepId, a time and a message.');
      }
      if (event.kind === 'audit' || event.audit !== undefined) {
        const problem = event.kind !== 'audit' ? 'only an audit event carries an audit' : auditProblem(event.audit);
        if (problem) throw new StoreError('invalid', `The audit was refused: ${problem}.`);
      }
      if (event.httpStatus !== undefined && !(Number.isInteger(event.httpStatus) && event.httpStatus >= 100 && event.httpStatus <= 599)) {
        throw new StoreError('invalid', 'The log event was refused: httpStatus is not an HTTP status.');
      }
      // Never trust a caller-provided id: the store numbers events in the order they are written.
      // Nor a caller's firstKnown: only a commit knows which places were stored before it.
      const { id: _ignored, ...fields } = event as SweepEvent;
      if (fields.audit) {
        const { firstKnown: _unverified, ...audit } = fields.audit;
        fields.audit = audit;
      }
      return transact(['events'], 'readwrite', (tx) => tx.objectStore('events').add(fields));
    },

    listEvents: (sweepId, limit = 100) =>
      transact(['events'], 'readonly', async (tx) => {
        const out: SweepEvent[] = [];
        let cursor = await tx.objectStore('events').index('bySweep').openCursor(sweepId, 'prev');
        while (cursor && out.length < limit) {
          out.push(cursor.value);
          cursor = await cursor.continue();
        }
        return out;
      }),

    getListing: (key) => transact(['listings'], 'readonly', (tx) => tx.objectStore('listings').get(key)),

    countListings: (collection) =>
      transact(['listings'], 'readonly', (tx) =>
        collection === undefined ? tx.objectStore('listings').count() : tx.objectStore('listings').index('byCollection').count(collection),
      ),

    iterateListings: (batchSize = 500, collection) => iterateListings(db, batchSize, collection),

    commitCell: (input, inCommit) => commitCell(db, input, inCommit),
    commitBrowsing: (listings, now) => commitBrowsing(db, listings, now),
  };
}

/** Index range of a sweep's open cells in the lease-order index: every key that starts with the sweep id. */
export function openCellsOf(sweepId: string): IDBKeyRange {
  return keysOfSweep(sweepId);
}

/** Every array key that starts with the sweep id. */
function keysOfSweep(sweepId: string): IDBKeyRange {
  // An array sorts after every number and string, so [sweepId, []] is above all of the sweep's keys.
  return IDBKeyRange.bound([sweepId], [sweepId, []]);
}
