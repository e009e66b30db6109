import type { Listing, StoredListing } from '../domain/listing';
import type { Cell, CellStatus, Sweep, SweepSettings, SweepStatus } from '../domain/sweep';
import { auditProblem } from '../domain/audit-page';
import { commitBrowsing, commitCell, type CommitCellInput, type CommitCellResult, type InCommit } from './commit';
import { StoreError } from './errors';
import { collectionReadPath } from './read-path';
import { initialCounters } from '../domain/counters';
import { DEFAULT_DB_NAME, openDatabase } from './open';
import { fromRecord, withQueueKey, type DB, type QueueKey, type StoreName, type SweepEvent } from './schema';
import { handled, runTx, type Tx } from './tx';
import { isNonEmptyString, isTime, newCellProblem } from './validate';

/** What may be changed on a sweep from outside. Counters change only with the cells they count. */
export interface SweepPatch {
  status?: SweepStatus;
  pauseReason?: Sweep['pauseReason'];
  problem?: Sweep['problem'];
  settings?: Partial<SweepSettings>;
}

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

const SWEEP_STATUSES: readonly SweepStatus[] = ['running', 'paused', 'stopped', 'failed', 'finished'];
const PAUSE_REASONS: readonly Sweep['pauseReason'][] = ['user', 'captcha', 'consent', 'restart', 'quota', 'signed-out', 'team', null];
const PATCHABLE = new Set(['status', 'pauseReason', 'problem', 'settings']);
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

async function* iterateListings(db: DB, batchSize: number, collection: string | undefined): AsyncGenerator<StoredListing[]> {
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

function sweepProblem(sweep: Sweep, cells: readonly Cell[]): string | null {
  if (typeof sweep !== 'object' || sweep === null) return 'no sweep';
  if (!isNonEmptyString(sweep.id)) return 'the id is empty';
  if (!Array.isArray(sweep.keywords) || sweep.keywords.length === 0) return 'no keywords';
  if (typeof sweep.settings !== 'object' || sweep.settings === null) return 'no settings';
  if (!SWEEP_STATUSES.includes(sweep.status)) return `unknown status ${JSON.stringify(sweep.status)}`;
  if (!Array.isArray(cells) || cells.length === 0) return 'no cells';
  const ids = new Set<string>();
  for (const cell of cells) {
    const p = newCellProblem(cell, sweep.id);
    if (p) return p;
    if (ids.has(cell.id)) return `cell ${cell.id} appears twice`;
    ids.add(cell.id);
  }
  return null;
}

function patchProblem(patch: SweepPatch): string | null {
  if (typeof patch !== 'object' || patch === null) return 'no patch';
  const extra = Object.keys(patch).filter((k) => !PATCHABLE.has(k));
  if (extra.length > 0) return `${extra.join(', ')} cannot be changed from outside`;
  if (patch.status !== undefined && !SWEEP_STATUSES.includes(patch.status)) return `unknown status ${JSON.stringify(patch.status)}`;
  if (patch.pauseReason !== undefined && !PAUSE_REASONS.includes(patch.pauseReason)) {
    return `unknown pause reason ${JSON.stringify(patch.pauseReason)}`;
  }
  if (patch.problem !== undefined && patch.problem !== null && typeof patch.problem !== 'object') return 'problem is not an error';
  return null;
}

function settingsPatchProblem(current: SweepSettings, patch: Partial<SweepSettings>): string | null {
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in current)) return `unknown setting ${key}`;
    const was = current[key as keyof SweepSettings];
    if (typeof value !== typeof was) return `${key} must be a ${typeof was}`;
    if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) return `${key} must be a finite number ≥ 0`;
  }
  return null;
}
