import { isUnresolved } from '../grid/decide';
import { auditProblem } from '../domain/audit-page';
import type { PageAudit } from '../domain/page-audit';
import { cutText, TEXT_BOUNDS } from '../listing/bounds';
import type { Listing } from '../domain/listing';
import type { Cell, CellResult, SweepCounters } from '../domain/sweep';
import { StoreError } from './errors';
import { listingProblem, listingsByKey, mergeListing, organicByKey, secondHandReading, type FoundContext } from './listing-merge';
import { settleCheck, type NotApplied } from './ownership';
import { fromRecord, withQueueKey, type DB, type SweepEvent } from './schema';
import { handled, runTx, type Tx } from './tx';
import { isNonEmptyString, isTime, newCellProblem } from './validate';

/** What became of a searched cell. A split hands over its children (new pending or outside cells). */
export type CellOutcome = { status: 'done' | 'saturated'; result: CellResult } | { status: 'split'; result: CellResult; children: Cell[] };

export interface CommitCellInput {
  sweepId: string;
  cellId: string;
  /** The lease holder committing (a worker tab id). */
  holder: string;
  now: number;
  keyword: string;
  /** Everything the page showed, sponsored included; the commit keeps the organic places. */
  listings: Listing[];
  outcome: CellOutcome;
  /** The page's coverage audit (auditObservation): logged with the commit, see auditEventOf. */
  audit?: PageAudit;
  /** The page's address, for the audit's log line. */
  url?: string;
  /**
   * The sweep's cell cap. A split that would take the sweep's cells past it is turned into
   * 'saturated' (reason 'cell-cap') here, inside the transaction that would add the children:
   * the planner's count was read earlier, and another loop may have split meanwhile.
   */
  maxCells?: number;
  /**
   * The listings are another browser's reading (a team's settlement, utils/team/verify.ts): a
   * place this browser already stored keeps its name and its links, and takes only what the
   * field rule takes from any reading (the more complete value).
   */
  secondHand?: true;
}

export type CommitCellResult =
  | {
      applied: true;
      newListings: number;
      seenListings: number;
      /** Keys this sweep had not collected under this keyword before (the audit's "missed" candidates). */
      newToSweep: string[];
    }
  | { applied: false; reason: NotApplied }
  /**
   * An unresolved search ('search-unknown') while the sweep's last commit was one too: not
   * counted, as the sweep must stop (utils/sweep/settle-visit.ts unprovenVisit). Decided here, in the
   * transaction that would count it: another loop may have committed since the driver looked.
   */
  | { applied: false; reason: 'unknown-streak' };

/** The stores a cell's commit writes, in one transaction. */
export type CommitStores = ['sweeps', 'cells', 'listings', 'events', 'sweepPlaces'];
export type AppliedCommit = Extract<CommitCellResult, { applied: true }>;
/**
 * More of the same commit (the closing audit's verdict, utils/store/audit-rounds.ts): runs in
 * the commit's transaction once its writes are issued, only when the commit applies; a throw
 * rolls the whole commit back.
 */
export type InCommit = (tx: Tx<CommitStores, 'readwrite'>, committed: AppliedCommit) => Promise<void>;

/** The collection of listings captured while the user browses the map outside any sweep. */
export const BROWSING = 'browsing';

/**
 * Settle a searched cell: its status and result, its children, its listings, the sweep's
 * counters and a log line, in ONE transaction. The service worker may die at any line; after
 * a restart the cell is either still open (searched again, and the listings merge into the same
 * keys) or settled (and a repeated commit is a no-op). Never a half.
 *
 * Durability 'strict': the commit resolves only once the data is flushed to disk, because the
 * cell is then never searched again. A cell takes seconds of page load, so the flush costs little.
 */
export async function commitCell(db: DB, input: CommitCellInput, inCommit?: InCommit): Promise<CommitCellResult> {
  const problem = commitInputProblem(input);
  if (problem) throw new StoreError('invalid', `The cell result was refused: ${problem}. Nothing was saved.`);
  // One bad record never blocks a cell (issue 22): the rest is committed, the refused ones
  // (organic only: a sweep keeps no ads) are counted on the sweep and logged with their reason.
  const sorted = sortListings(input.listings);
  const found = organicByKey(sorted.fit);
  const refused = sorted.refused.filter((r) => r.sponsored !== true);
  const { now } = input;
  let outcome = input.outcome;

  return runTx(
    db,
    ['sweeps', 'cells', 'listings', 'events', 'sweepPlaces'] as CommitStores,
    'readwrite',
    async (tx): Promise<CommitCellResult> => {
      const cells = tx.objectStore('cells');
      const listings = tx.objectStore('listings');
      const [record, sweep] = await Promise.all([cells.get(input.cellId), tx.objectStore('sweeps').get(input.sweepId)]);
      if (!sweep) throw new StoreError('not-found', `Sweep ${input.sweepId} does not exist (deleted?).`);
      if (!record) throw new StoreError('not-found', `Cell ${input.cellId} does not exist (its sweep was deleted?).`);
      if (record.sweepId !== input.sweepId) {
        throw new StoreError('invalid', `Cell ${input.cellId} belongs to sweep ${record.sweepId}, not ${input.sweepId}.`);
      }
      if (record.keyword !== input.keyword) {
        throw new StoreError('invalid', `Cell ${input.cellId} searches "${record.keyword}", not "${input.keyword}".`);
      }
      const check = settleCheck(record, input.holder, now);
      if (!check.ok) return { applied: false, reason: check.reason };
      if (outcome.result.reason === 'search-unknown' && (sweep.counters.unknownSearchStreak ?? 0) > 0) return { applied: false, reason: 'unknown-streak' };
      if (outcome.status === 'split') {
        const childProblem = outcome.children.map((c) => childOfProblem(c, record)).find((p) => p !== null);
        if (childProblem) throw new StoreError('invalid', `The split was refused: ${childProblem}. Nothing was saved.`);
        if (input.maxCells !== undefined) {
          const cellsNow = await cells.index('bySweep').count(input.sweepId);
          if (cellsNow + outcome.children.length > input.maxCells) outcome = { status: 'saturated', result: { ...outcome.result, reason: 'cell-cap' } };
        }
      }
      const children = outcome.status === 'split' ? outcome.children : [];

      const known = await Promise.all(found.map((l) => listings.get(l.key)));
      const ctx: FoundContext = { now, collection: input.sweepId, keyword: input.keyword, cellId: input.cellId };
      const merged = found.map((l, i) => mergeListing(known[i], input.secondHand && known[i] ? secondHandReading(l) : l, ctx));
      const newListings = known.filter((k) => k === undefined).length;
      // From this sweep's own records: a listing's keywords and collections are merged across
      // sweeps, so they would hide a place this sweep missed under the keyword but found under
      // another, when an older run had found it under this one.
      const sweepPlaces = tx.objectStore('sweepPlaces');
      const placeKeyOf = (key: string): [string, string, string] => [input.sweepId, input.keyword, key];
      const listedBefore = await Promise.all(found.map((l) => sweepPlaces.count(placeKeyOf(l.key))));
      const newToSweep = found.filter((_, i) => listedBefore[i] === 0).map((l) => l.key);
      const seenListings = found.length - newListings;

      const cell: Cell = {
        ...fromRecord(record),
        status: outcome.status,
        // Only the commit knows which listings were new to the store.
        result: { ...outcome.result, newListings },
        leaseHolder: null,
        leaseUntil: 0,
      };
      const counters: SweepCounters = { ...sweep.counters };
      counters.pageLoads += 1;
      counters.listingsNew += newListings;
      counters.listingsSeen += seenListings;
      if (refused.length > 0) counters.listingsRefused = (counters.listingsRefused ?? 0) + refused.length;
      if (outcome.status === 'done') counters.cellsDone += 1;
      if (outcome.status === 'saturated') counters.cellsSaturated += 1;
      if (outcome.status === 'saturated' && isUnresolved(outcome.result.reason)) counters.cellsUnresolved = (counters.cellsUnresolved ?? 0) + 1;
      // Every other outcome is a search the page proved (saturated by its cap, split, done).
      counters.unknownSearchStreak = outcome.result.reason === 'search-unknown' ? (counters.unknownSearchStreak ?? 0) + 1 : 0;
      if (outcome.status === 'split') {
        counters.cellsSplit += 1;
        counters.cellsKnown += children.length;
        counters.cellsOutside += children.filter((c) => c.status === 'outside').length;
      }
      const event: SweepEvent = {
        sweepId: input.sweepId,
        at: now,
        kind: `cell-${outcome.status}`,
        cellId: input.cellId,
        keyword: input.keyword,
        message:
          `${found.length} listings, ${newListings} new` +
          (refused.length > 0 ? `, ${refused.length} refused` : '') +
          (outcome.status === 'split' ? `; split into ${children.length} cells` : ''),
      };

      const writes: Promise<unknown>[] = [handled(cells.put(withQueueKey(cell)))];
      if (input.audit) {
        const wasKnown = new Map(found.map((l, i) => [l.key, known[i] !== undefined]));
        writes.push(handled(tx.objectStore('events').add(auditEventOf(input, wasKnown))));
      }
      // add, not put: a child id that exists already is a planning bug, and must not overwrite.
      for (const child of children) writes.push(handled(cells.add(withQueueKey(child))));
      for (const listing of merged) writes.push(handled(listings.put(listing)));
      writes.push(
        handled(
          tx.objectStore('sweeps').put({
            ...sweep,
            counters,
            lastNewListingAt: newListings > 0 ? now : sweep.lastNewListingAt,
            updatedAt: now,
            ...(refused.length > 0 && { refusedReasons: refusedReasons(sweep.refusedReasons, refused) }),
          }),
        ),
      );
      writes.push(handled(tx.objectStore('events').add(event)));
      for (const r of refused) writes.push(handled(tx.objectStore('events').add(refusedEventOf(input, r))));
      for (const key of newToSweep) writes.push(handled(sweepPlaces.put(now, placeKeyOf(key))));
      await Promise.all(writes);
      const committed: AppliedCommit = { applied: true, newListings, seenListings, newToSweep };
      if (inCommit) await inCommit(tx, committed);
      return committed;
    },
    { durability: 'strict' },
  );
}

/**
 * Listings seen while the user browses the map (no sweep): stored under the 'browsing'
 * collection. `added` are places new to the store, `seen` places it already had, `refused`
 * (absent when none) the listings it could not take: the others are stored all the same.
 *
 * Sponsored places are kept, flagged `sponsored: true` (issue 14: the person saw them, and a
 * list of what was on the map is theirs to filter). An organic sighting of the same place,
 * now or later, makes it an ordinary result; an ad never makes an organic place sponsored
 * (mergeListingFields). Sweeps still store organic places only (commitCell).
 */
export async function commitBrowsing(db: DB, listings: Listing[], now: number): Promise<{ added: number; seen: number; refused?: number }> {
  if (!isTime(now)) throw new StoreError('invalid', 'The capture time is not a valid time. Nothing was saved.');
  if (!Array.isArray(listings)) throw new StoreError('invalid', 'The captured listings are not a list. Nothing was saved.');
  // As in a sweep's commit, one bad record never blocks the others (issue 22).
  const sorted = sortListings(listings);
  const found = listingsByKey(sorted.fit);
  return runTx(db, ['listings'], 'readwrite', async (tx) => {
    const known = await Promise.all(found.map((l) => tx.objectStore('listings').get(l.key)));
    const ctx: FoundContext = { now, collection: BROWSING, keyword: null, cellId: null };
    await Promise.all(found.map((l, i) => handled(tx.objectStore('listings').put(mergeListing(known[i], l, ctx)))));
    const added = known.filter((k) => k === undefined).length;
    const refused = sorted.refused.length;
    return { added, seen: found.length - added, ...(refused > 0 && { refused }) };
  });
}

/**
 * The audit as logged by a commit. Its first results are narrowed to the places the commit
 * keeps (a cell's page also shows places beyond the area, which no sweep stores), and
 * `firstKnown` says how many of those the store had before: only the commit can tell, because
 * it reads them in the same transaction that writes them.
 */
function auditEventOf(input: CommitCellInput, wasKnown: ReadonlyMap<string, boolean>): SweepEvent {
  const audit = input.audit!;
  const firstKeys = audit.firstKeys.filter((k) => wasKnown.has(k));
  const firstKnown = firstKeys.filter((k) => wasKnown.get(k)).length;
  return {
    sweepId: input.sweepId,
    at: input.now,
    kind: 'audit',
    cellId: input.cellId,
    keyword: input.keyword,
    ...(input.url !== undefined && { url: input.url }),
    audit: { ...audit, firstKeys, firstKnown },
    message: `${audit.cardsVisible} cards visible, ${audit.extracted} read, ${firstKnown} of the first ${firstKeys.length} already stored`,
  };
}

function commitInputProblem(input: CommitCellInput): string | null {
  if (typeof input !== 'object' || input === null) return 'no input';
  if (!isNonEmptyString(input.sweepId) || !isNonEmptyString(input.cellId) || !isNonEmptyString(input.holder)) {
    return 'sweepId, cellId and holder must be non-empty text';
  }
  if (!isTime(input.now)) return 'now is not a valid time';
  if (typeof input.keyword !== 'string') return 'keyword is not text';
  if (!Array.isArray(input.listings)) return 'listings is not a list';
  if (input.audit !== undefined) {
    const audit = auditProblem(input.audit);
    if (audit) return `the audit: ${audit}`;
  }
  if (input.url !== undefined && typeof input.url !== 'string') return 'url is not text';
  if (input.maxCells !== undefined && !(Number.isInteger(input.maxCells) && input.maxCells >= 1)) return 'maxCells must be a whole number ≥ 1';
  const outcome = input.outcome as Partial<CellOutcome> | undefined;
  if (!outcome || !['done', 'saturated', 'split'].includes(outcome.status as string)) {
    return `unknown outcome ${JSON.stringify(outcome?.status)}`;
  }
  if (typeof outcome.result !== 'object' || outcome.result === null) return 'the outcome has no result';
  if (outcome.status === 'split') {
    const children = (outcome as { children?: unknown }).children;
    if (!Array.isArray(children) || children.length === 0) return 'a split without children';
    const ids = new Set<string>();
    for (const child of children as Cell[]) {
      const p = newCellProblem(child, input.sweepId);
      if (p) return p;
      if (ids.has(child.id)) return `child ${child.id} appears twice`;
      ids.add(child.id);
    }
  }
  return null;
}

/** A listing the store refused, as logged: its key and name as the page gave them (bounded), and why. */
interface Refusal {
  key: string;
  name: string;
  reason: string;
  sponsored: unknown;
}

/** The listings the store can take, and the others with the reason each was refused. */
function sortListings(listings: readonly unknown[]): { fit: Listing[]; refused: Refusal[] } {
  const fit: Listing[] = [];
  const byKey = new Map<string, Refusal>();
  for (const [i, l] of listings.entries()) {
    const reason = listingProblem(l);
    if (reason === null) {
      fit.push(l as Listing);
      continue;
    }
    const o = (typeof l === 'object' && l !== null ? l : {}) as Partial<Record<keyof Listing, unknown>>;
    // Page text, of any length and type: logged as text within a name's bound. Copies of one
    // place are one refusal; records without a key are each their own.
    const key = cutText(String(o.key), TEXT_BOUNDS.name);
    byKey.set(typeof o.key === 'string' ? key : `#${i}`, {
      key,
      name: cutText(typeof o.name === 'string' ? o.name : '', TEXT_BOUNDS.name),
      reason: cutText(reason, TEXT_BOUNDS.name),
      sponsored: o.sponsored,
    });
  }
  return { fit, refused: [...byKey.values()] };
}

/** How many distinct reasons a sweep remembers for the popup; every refusal is in the log. */
const REASONS_KEPT = 3;

function refusedReasons(known: readonly string[] | undefined, refused: readonly Refusal[]): string[] {
  const reasons = [...(known ?? [])];
  for (const r of refused) if (reasons.length < REASONS_KEPT && !reasons.includes(r.reason)) reasons.push(r.reason);
  return reasons;
}

function refusedEventOf(input: CommitCellInput, r: Refusal): SweepEvent {
  return {
    sweepId: input.sweepId,
    at: input.now,
    kind: 'listing-refused',
    cellId: input.cellId,
    keyword: input.keyword,
    refused: { key: r.key, name: r.name, reason: r.reason },
    message: `${r.key} (${r.name}) was not saved: ${r.reason}; the rest of the cell was`,
  };
}

/** Checks that need the parent record: a child continues its parent one level finer. */
function childOfProblem(child: Cell, parent: Cell): string | null {
  if (child.parentId !== parent.id) return `child ${child.id} names ${String(child.parentId)} as parent, not ${parent.id}`;
  if (child.keyword !== parent.keyword || child.keywordIndex !== parent.keywordIndex) {
    return `child ${child.id} searches another keyword than its parent`;
  }
  if (child.depth !== parent.depth + 1) return `child ${child.id} is at depth ${child.depth}, not ${parent.depth + 1}`;
  return null;
}
