import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { PageAudit } from '../domain/page-audit';
import type { StoredListing } from '../domain/listing';
import type { ChangeRecord, PlaceSnapshot, Run, SavedSearch } from '../domain/saved-search';
import type { Cell, CellStatus, ErrorKind, Sweep } from '../domain/sweep';
import type { PlaceJobRecord, PlaceJobStatus, PlaceQueueKey } from '../details/records';
import type { ContactQueueKey, ContactSiteRecord } from '../contacts/records';
import type { AmbiguityRecord, BusinessRecord, LinkRunRecord } from '../match/records';
import type { LinkDecisionRecord } from '../match/types';
import type { ReviewJobRecord, ReviewJobStatus, ReviewQueueKey, ReviewRecord } from '../reviews/records';
import type { PlaceList } from '../lists/records';

/**
 * The lease-order key of an open cell: [sweepId, class, keywordIndex, depth, distance, id, availableAt].
 *
 * - class 0 = fresh (pending, never attempted), 1 = retry (pending after a failure) or leased;
 * - availableAt = nextAttemptAt for a pending cell, leaseUntil for a leased one.
 *
 * Sorting by the key gives the lease order: fresh cells first, then keyword, coarse before
 * fine, near the user's view first, then id (unique, so availableAt never decides the order;
 * it is there so the queue can skip unavailable cells from the key alone, without reading
 * records). Only open cells (pending, leased) carry the key: IndexedDB leaves a record whose
 * key path is missing out of the index, so done, split, saturated, quarantined and outside
 * cells cost the queue nothing however many there are.
 */
export type QueueKey = [string, 0 | 1, number, number, number, string, number];

/** A cell as stored: the Cell plus its lease-order key while it is open. */
export interface CellRecord extends Cell {
  queue?: QueueKey;
}

export type EventKind =
  | 'cell-done'
  | 'cell-split'
  | 'cell-saturated'
  | 'cell-retry' // failed, back to pending after a backoff
  | 'cell-quarantined' // failed maxAttempts times
  | 'cell-released' // lease given back without counting an attempt (captcha, consent, page changed)
  | 'cells-retried' // quarantined cells put back by the user
  | 'sweep-paused'
  | 'sweep-failed'
  | 'audit' // one page's coverage audit (see PageAudit)
  | 'listing-refused' // one listing the store refused; the rest of its cell was committed
  | 'error'
  | 'warning'
  | 'info';

/** One line of a sweep's log: what happened, when, and where. */
export interface SweepEvent {
  /** Assigned by the store (auto-increment): the order events were written. */
  id?: number;
  sweepId: string;
  at: number;
  kind: EventKind;
  cellId?: string;
  keyword?: string;
  url?: string;
  errorKind?: ErrorKind;
  /** The page's HTTP status, when the failure was an HTTP answer. */
  httpStatus?: number;
  /** On 'audit' events. */
  audit?: PageAudit;
  /** On 'listing-refused' events: the place as the page gave it (bounded) and why it was refused. */
  refused?: { key: string; name: string; reason: string };
  message: string;
}

/** The whole typing of the database, in one place (idb's DBSchema). */
export interface MapSweepDB extends DBSchema {
  sweeps: { key: string; value: Sweep };
  cells: {
    key: string;
    value: CellRecord;
    indexes: { bySweep: string; bySweepStatus: [string, CellStatus]; byLeaseOrder: QueueKey };
  };
  listings: { key: string; value: StoredListing; indexes: { byCollection: string } };
  events: { key: number; value: SweepEvent; indexes: { bySweep: string; bySweepKind: [string, EventKind] } };
  savedSearches: { key: string; value: SavedSearch };
  runs: { key: string; value: Run; indexes: { bySavedSearch: [string, number]; bySweep: string } };
  /** What each saved search remembers of each place it found: [savedSearchId, place key]. */
  placeSnapshots: { key: [string, string]; value: PlaceSnapshot };
  /** What each run changed: [runId, place key] (a place changes at most once per run). */
  changes: { key: [string, string]; value: ChangeRecord };
  /**
   * The place-details queue (issue 16, utils/details/records.ts): one job per place of a
   * finished sweep whose place page is to be read, `{sweepId}|{key}`; open jobs by lease order.
   */
  placeQueue: {
    key: string;
    value: PlaceJobRecord;
    indexes: { bySweep: string; bySweepStatus: [string, PlaceJobStatus]; byLeaseOrder: PlaceQueueKey };
  };
  /**
   * Which places each sweep's cells listed under each keyword (issue 22): key [sweepId, keyword,
   * place key], value the time it was first listed. The closing audit's "new to this sweep" is
   * read here: a listing's own keywords and collections are merged across all sweeps, so they
   * cannot tell whether THIS sweep found a place under THIS keyword. Out-of-line keys keep a
   * record a few dozen bytes; a sweep's records are one key range (deleted with the sweep).
   */
  sweepPlaces: { key: SweepPlaceKey; value: number };
  /**
   * The contacts pass (issue 23, utils/contacts/records.ts): one record per business website,
   * its queue state and what its pages gave, keyed by the URL fetched; `byPlace` finds a place's
   * website by the place's key (multi-entry over `places`), open sites by lease order.
   */
  contactSites: { key: string; value: ContactSiteRecord; indexes: { byLeaseOrder: ContactQueueKey; byPlace: string } };
  /**
   * The same business on several sites (issue 24, utils/match/records.ts): one record per
   * business of two or more listings, `byPlace` over its members; the candidates left for the
   * user; the user's confirmed and broken links, which every run keeps; the last run.
   */
  businesses: { key: string; value: BusinessRecord; indexes: { byPlace: string } };
  ambiguities: { key: string; value: AmbiguityRecord };
  linkDecisions: { key: string; value: LinkDecisionRecord };
  linkRuns: { key: string; value: LinkRunRecord };
  /**
   * The reviews pass (issue 38, utils/reviews/records.ts): one job per place of a sweep whose
   * reviews are to be read, `{sweepId}|{key}`, open jobs by lease order; and each review once,
   * `{place key}|{review id}`, a place's reviews by `byPlace`.
   */
  reviewQueue: {
    key: string;
    value: ReviewJobRecord;
    indexes: { bySweep: string; bySweepStatus: [string, ReviewJobStatus]; byLeaseOrder: ReviewQueueKey };
  };
  reviews: { key: string; value: ReviewRecord; indexes: { byPlace: string } };
  /**
   * Lists of places collected as collections of their own (issue 40, utils/lists/records.ts): the
   * list's record; its place pages are jobs of `placeQueue` (one queue per site, `{listId}@{site}`).
   */
  placeLists: { key: string; value: PlaceList };
}

/** [sweepId, keyword, place key]: see MapSweepDB.sweepPlaces. */
export type SweepPlaceKey = [string, string, string];

export type DB = IDBPDatabase<MapSweepDB>;
export type StoreName = StoreNames<MapSweepDB>;
type UpgradeTx = IDBPTransaction<MapSweepDB, StoreName[], 'versionchange'>;

/**
 * One step of the schema: `MIGRATIONS[v]` takes a database at version v to v + 1. Steps only
 * add; none deletes a store, because what is on disk is the user's work. A step may return a
 * promise when it rewrites records, and must then await only the upgrade transaction's requests.
 */
type Migration = (db: DB, tx: UpgradeTx) => void | Promise<void>;

export const MIGRATIONS: readonly Migration[] = [
  // 0 → 1: the first layout.
  (db) => {
    db.createObjectStore('sweeps', { keyPath: 'id' });
    const cells = db.createObjectStore('cells', { keyPath: 'id' });
    cells.createIndex('bySweep', 'sweepId');
    cells.createIndex('bySweepStatus', ['sweepId', 'status']);
    const listings = db.createObjectStore('listings', { keyPath: 'key' });
    // multiEntry: a listing is indexed once per collection it belongs to (a sweep id or 'browsing').
    listings.createIndex('byCollection', 'collections', { multiEntry: true });
    db.createObjectStore('events', { keyPath: 'id', autoIncrement: true });
  },
  // 1 → 2: the lease-order index (the queue no longer scans a sweep's cells) and per-sweep
  // events. Open cells written by version 1 get their lease-order key here.
  async (_db, tx) => {
    const cells = tx.objectStore('cells');
    cells.createIndex('byLeaseOrder', 'queue');
    tx.objectStore('events').createIndex('bySweep', 'sweepId');
    let cursor = await cells.openCursor();
    while (cursor) {
      const record = withQueueKey(cursor.value);
      if (record.queue) await cursor.update(record);
      cursor = await cursor.continue();
    }
  },
  // 2 → 3: saved searches, their runs, what each remembers of its places and what each run
  // changed; events by kind, so errors and audits are found without reading every page's log.
  // Only adds: a version-2 database keeps every record (the new index covers old events too).
  (db, tx) => {
    db.createObjectStore('savedSearches', { keyPath: 'id' });
    const runs = db.createObjectStore('runs', { keyPath: 'id' });
    runs.createIndex('bySavedSearch', ['savedSearchId', 'claimedAt']);
    runs.createIndex('bySweep', 'sweepId');
    db.createObjectStore('placeSnapshots', { keyPath: ['savedSearchId', 'key'] });
    db.createObjectStore('changes', { keyPath: ['runId', 'key'] });
    tx.objectStore('events').createIndex('bySweepKind', ['sweepId', 'kind']);
  },
  // 3 → 4: provider-neutral identity (issue 11). Every listing so far is Google's: it gains
  // `providerId` (= its CID) and `provider: 'google'` if it lacked it. Keys (`google:{cid}`),
  // every other field and every other store stay exactly as they were.
  async (_db, tx) => {
    const listings = tx.objectStore('listings');
    let cursor = await listings.openCursor();
    while (cursor) {
      const record = withProviderId(cursor.value);
      if (record) await cursor.update(record);
      cursor = await cursor.continue();
    }
  },
  // 4 → 5: the place-details queue (issue 16). Only adds a store: every record of every other
  // store stays exactly as it was, and a sweep without place details simply has no jobs.
  (db) => {
    const queue = db.createObjectStore('placeQueue', { keyPath: 'id' });
    queue.createIndex('bySweep', 'sweepId');
    queue.createIndex('bySweepStatus', ['sweepId', 'status']);
    queue.createIndex('byLeaseOrder', 'queue');
  },
  // 5 → 6: which places each sweep listed under each keyword (issue 22). Only adds the store,
  // after checking version 5's layout is whole (a damaged database is refused untouched, not
  // upgraded). Sweeps that may still audit (all but stopped ones: "Retry failed" re-opens a
  // finished sweep, which audits again before it finishes) get their records from
  // what version 5 kept, by the rule version 5 used (the sweep has the place, and some sweep
  // found it under the keyword): what they found before the upgrade is never taken for a miss.
  async (db, tx) => {
    // Stores later steps add are not version 5's to have.
    const missing = layoutGaps(db, tx, ['sweepPlaces', ...ADDED_AFTER_6]);
    if (missing.length > 0) throw Object.assign(new Error(`missing: ${missing.join(', ')}`), { name: 'NotFoundError' });
    const places = db.createObjectStore('sweepPlaces');
    for (const sweep of await tx.objectStore('sweeps').getAll()) {
      if (sweep.status === 'stopped' || !Array.isArray(sweep.keywords)) continue;
      let cursor = await tx.objectStore('listings').index('byCollection').openCursor(sweep.id);
      while (cursor) {
        // A damaged record (no keyword list) gives nothing: it is left as it is, never guessed at.
        const l = cursor.value as Partial<StoredListing>;
        const keywords = Array.isArray(l.keywords) ? l.keywords : [];
        const at = typeof l.firstSeen === 'number' ? l.firstSeen : 0;
        for (const keyword of sweep.keywords.filter((k) => keywords.includes(k))) await places.put(at, [sweep.id, keyword, cursor.primaryKey]);
        cursor = await cursor.continue();
      }
    }
  },
  // 6 → 7: the contacts pass (issue 23). Only adds a store: every record of every other store
  // stays exactly as it was, and a database without contacts simply has no sites.
  (db, tx) => {
    // As 5 → 6: a damaged version-6 database is refused untouched, never upgraded.
    const missing = layoutGaps(db, tx, ADDED_AFTER_6);
    if (missing.length > 0) throw Object.assign(new Error(`missing: ${missing.join(', ')}`), { name: 'NotFoundError' });
    const sites = db.createObjectStore('contactSites', { keyPath: 'url' });
    sites.createIndex('byLeaseOrder', 'queue');
    sites.createIndex('byPlace', 'places', { multiEntry: true });
  },
  // 7 → 8: the same business on several sites (issue 24). Only adds stores: every record of
  // every other store stays exactly as it was, and a database never linked simply has none.
  (db, tx) => {
    const missing = layoutGaps(db, tx, ADDED_AFTER_7);
    if (missing.length > 0) throw Object.assign(new Error(`missing: ${missing.join(', ')}`), { name: 'NotFoundError' });
    db.createObjectStore('businesses', { keyPath: 'id' }).createIndex('byPlace', 'members', { multiEntry: true });
    db.createObjectStore('ambiguities', { keyPath: 'id' });
    db.createObjectStore('linkDecisions', { keyPath: 'id' });
    db.createObjectStore('linkRuns', { keyPath: 'id' });
  },
  // 8 → 9: the reviews pass (issue 38). Only adds stores: every record of every other store stays
  // exactly as it was, and a database whose places' reviews were never read simply has none.
  (db, tx) => {
    const missing = layoutGaps(db, tx, ADDED_AFTER_8);
    if (missing.length > 0) throw Object.assign(new Error(`missing: ${missing.join(', ')}`), { name: 'NotFoundError' });
    const queue = db.createObjectStore('reviewQueue', { keyPath: 'id' });
    queue.createIndex('bySweep', 'sweepId');
    queue.createIndex('bySweepStatus', ['sweepId', 'status']);
    queue.createIndex('byLeaseOrder', 'queue');
    db.createObjectStore('reviews', { keyPath: 'key' }).createIndex('byPlace', 'placeKey');
  },
  // 9 → 10: lists of places as input (issue 40). Only adds a store: every record of every other
  // store stays exactly as it was, and a database that never collected a list simply has none.
  (db, tx) => {
    const missing = layoutGaps(db, tx, ADDED_AFTER_9);
    if (missing.length > 0) throw Object.assign(new Error(`missing: ${missing.join(', ')}`), { name: 'NotFoundError' });
    db.createObjectStore('placeLists', { keyPath: 'id' });
  },
];

/** The stores each version adds, and those after it: an older step's layout check leaves them out. */
const ADDED_AFTER_9: StoreName[] = ['placeLists'];
const ADDED_AFTER_8: StoreName[] = ['reviewQueue', 'reviews', ...ADDED_AFTER_9];
const ADDED_AFTER_7: StoreName[] = ['businesses', 'ambiguities', 'linkDecisions', 'linkRuns', ...ADDED_AFTER_8];
const ADDED_AFTER_6: StoreName[] = ['contactSites', ...ADDED_AFTER_7];

const DECIMAL_CID = /^\d{1,20}$/;

/**
 * A version-3 listing with its provider-neutral id, or null when it needs no rewrite (it has
 * one already) or cannot be given one (no decimal CID: damaged by something else). Such a
 * record is left exactly as it is rather than guessed at or dropped: the user's data is not
 * this step's to lose, and failing the whole upgrade for one record would lock all of it away.
 */
export function withProviderId(value: StoredListing): StoredListing | null {
  const old = value as Partial<StoredListing> & Record<string, unknown>;
  if (typeof old.providerId === 'string') return null;
  if (typeof old.cid !== 'string' || !DECIMAL_CID.test(old.cid)) return null;
  if (old.provider !== undefined && old.provider !== 'google') return null;
  return { ...value, provider: 'google', providerId: old.cid };
}

export const DB_VERSION = MIGRATIONS.length;

/** What this version expects to find: object store → index names. */
export const EXPECTED_LAYOUT: Readonly<Record<StoreName, readonly string[]>> = {
  sweeps: [],
  cells: ['bySweep', 'bySweepStatus', 'byLeaseOrder'],
  listings: ['byCollection'],
  events: ['bySweep', 'bySweepKind'],
  savedSearches: [],
  runs: ['bySavedSearch', 'bySweep'],
  placeSnapshots: [],
  changes: [],
  placeQueue: ['bySweep', 'bySweepStatus', 'byLeaseOrder'],
  sweepPlaces: [],
  contactSites: ['byLeaseOrder', 'byPlace'],
  businesses: ['byPlace'],
  ambiguities: [],
  linkDecisions: [],
  linkRuns: [],
  reviewQueue: ['bySweep', 'bySweepStatus', 'byLeaseOrder'],
  reviews: ['byPlace'],
  placeLists: [],
};

/** The names missing from an opened database, as `store` or `store.index`. Empty when intact. */
export function missingLayout(db: DB): string[] {
  const present = (Object.keys(EXPECTED_LAYOUT) as StoreName[]).filter((s) => db.objectStoreNames.contains(s));
  return layoutGaps(db, present.length === 0 ? null : db.transaction(present, 'readonly'), []);
}

/**
 * What a database lacks of the layout this version expects, leaving out the stores an upgrade
 * step is adding (`adding`): as `store` or `store.index`. Indexes are read through `tx` (the
 * upgrade's own during an upgrade, when no other transaction may start).
 */
function layoutGaps(db: DB, tx: { objectStore(name: StoreName): { indexNames: DOMStringList } } | null, adding: readonly StoreName[]): string[] {
  const missing: string[] = [];
  for (const s of Object.keys(EXPECTED_LAYOUT) as StoreName[]) {
    if (adding.includes(s)) continue;
    if (!tx || !db.objectStoreNames.contains(s)) {
      missing.push(s);
      continue;
    }
    const indexNames = tx.objectStore(s).indexNames;
    for (const index of EXPECTED_LAYOUT[s]) if (!indexNames.contains(index)) missing.push(`${s}.${index}`);
  }
  return missing;
}

/** The cell as it must be stored: with its lease-order key when open, without one otherwise. */
export function withQueueKey(cell: Cell): CellRecord {
  const { queue: _old, ...plain } = cell as CellRecord;
  const key = queueKey(plain);
  return key ? { ...plain, queue: key } : plain;
}

/** The cell without storage details. */
export function fromRecord(record: CellRecord): Cell {
  const { queue: _queue, ...cell } = record;
  return cell;
}

export function queueKey(cell: Cell): QueueKey | undefined {
  if (cell.status === 'leased') {
    return [cell.sweepId, 1, cell.keywordIndex, cell.depth, cell.distance, cell.id, cell.leaseUntil];
  }
  if (cell.status === 'pending') {
    const fresh = cell.attempts === 0;
    return [cell.sweepId, fresh ? 0 : 1, cell.keywordIndex, cell.depth, cell.distance, cell.id, cell.nextAttemptAt];
  }
  return undefined;
}
