/**
 * Leases through the database: the cell's document is written with the revision that was read,
 * and CouchDB's 409 means another browser wrote first. No lock, no server of our own:
 * - claim: take a cell that is open, or whose lease ran out, or create its document;
 * - renew: the holder's heartbeat pushes the lease's end on;
 * - settle: the holder writes the result; a holder that lost the cell (its lease ran out and
 *   another browser took it) is refused, and its late write changes nothing.
 * Leases are times on each holder's own clock; browsers whose clocks differ by more than a
 * fraction of a lease would take each other's cells early (the README says so).
 */
import type { Cell } from '../domain/sweep';
import type { Couch } from './couch';
import { cellDocId, isCellDoc, sharedCellOf, TEAM_SCHEMA, type CellDoc, type Lease, type Settlement } from './docs';

export type Claim =
  /** This browser holds the cell; `doc` is the document as written (its _rev for the next write). */
  | { kind: 'mine'; doc: CellDoc }
  /** Another browser holds it until `until`. */
  | { kind: 'held'; until: number; by: string }
  /** Another browser (or this one, earlier) settled it, at the cell's generation or later. */
  | { kind: 'settled'; doc: CellDoc }
  /**
   * The document under the cell's id is not a cell this version reads (another version, or a
   * member's bad write): it decides nothing, and this browser searches the cell itself.
   */
  | { kind: 'foreign' };

export interface ClaimRequest {
  cell: Cell;
  browser: string;
  holder: string;
  now: number;
  leaseMs: number;
}

/** Conflicts in a row before a claim gives way (each one means another browser just wrote). */
const MAX_CONFLICTS = 3;

export async function claimCell(couch: Couch, req: ClaimRequest): Promise<Claim> {
  const id = cellDocId(req.cell);
  const generation = req.cell.reopened ?? 0;
  const lease: Lease = { browser: req.browser, holder: req.holder, until: req.now + req.leaseMs };
  for (let i = 0; i < MAX_CONFLICTS; i++) {
    const doc = await couch.get<CellDoc>(id);
    let next: CellDoc;
    if (!doc) {
      // First claim of a cell no one wrote yet: a split's child, an audit cell, a share that did not finish.
      next = { _id: id, type: 'cell', schema: TEAM_SCHEMA, sweepId: req.cell.sweepId, cell: sharedCellOf(req.cell), lease, settle: null, generation };
    } else {
      if (!isCellDoc(doc)) return { kind: 'foreign' };
      if (doc.settle && doc.settle.generation >= generation) return { kind: 'settled', doc };
      if (liveLeaseOfOther(doc, req.browser, req.now, req.leaseMs)) return { kind: 'held', until: doc.lease!.until, by: doc.lease!.browser };
      // Open, its lease over, or this browser's own (a loop that died): taken. A settlement of an
      // older generation (this browser's audit opened the cell again) is stale and goes.
      next = { ...doc, lease, settle: null, generation: Math.max(doc.generation, generation) };
    }
    const put = await couch.put(next);
    if (put.ok) return { kind: 'mine', doc: { ...next, _rev: put.rev } };
  }
  return { kind: 'held', until: req.now + 5_000, by: 'unknown' };
}

/**
 * Take a cell whose document decides nothing (another browser's settlement this one refused,
 * utils/team/verify.ts): the document is written again as this cell's own, with this browser's
 * lease and no settlement, over the revision that was read. Every other browser then sees the
 * cell held and waits, instead of each refusing the same document and searching it again; this
 * browser's own result settles it. A conflict: someone wrote since, and the next claim reads it.
 */
export async function claimOverRefused(couch: Couch, req: ClaimRequest, refused: CellDoc): Promise<Claim> {
  const lease: Lease = { browser: req.browser, holder: req.holder, until: req.now + req.leaseMs };
  const next: CellDoc = {
    _id: cellDocId(req.cell),
    ...(refused._rev ? { _rev: refused._rev } : {}),
    type: 'cell',
    schema: TEAM_SCHEMA,
    sweepId: req.cell.sweepId,
    cell: sharedCellOf(req.cell),
    lease,
    settle: null,
    generation: req.cell.reopened ?? 0,
  };
  const put = await couch.put(next);
  return put.ok ? { kind: 'mine', doc: { ...next, _rev: put.rev } } : { kind: 'held', until: req.now + 5_000, by: 'unknown' };
}

/**
 * Another browser's lease that still runs. One that ends further ahead than two leases from now
 * is not believed (a clock far ahead, or a bad write): it would keep a dead browser's cell for ever.
 */
function liveLeaseOfOther(doc: CellDoc, browser: string, now: number, leaseMs: number): boolean {
  const l = doc.lease;
  return !!l && l.browser !== browser && l.until > now && l.until <= now + 2 * leaseMs;
}

/** The holder's own document if it still holds the cell, else null. */
function stillHeld(doc: CellDoc | null, mine: Lease): CellDoc | null {
  if (!doc || !isCellDoc(doc) || doc.settle || !doc.lease) return null;
  return doc.lease.browser === mine.browser && doc.lease.holder === mine.holder ? doc : null;
}

/**
 * Push the lease's end on. 'lost' once another browser took the cell (or it was settled): the
 * holder's result will be refused. A conflict with itself (a response lost on the way) is retried.
 */
export async function renewCell(couch: Couch, doc: CellDoc, now: number, leaseMs: number): Promise<{ kind: 'mine'; doc: CellDoc } | { kind: 'lost' }> {
  let current: CellDoc | null = doc;
  for (let i = 0; i < MAX_CONFLICTS && current; i++) {
    const next: CellDoc = { ...current, lease: { ...current.lease!, until: now + leaseMs } };
    const put = await couch.put(next);
    if (put.ok) return { kind: 'mine', doc: { ...next, _rev: put.rev } };
    current = stillHeld(await couch.get<CellDoc>(doc._id), doc.lease!);
  }
  return { kind: 'lost' };
}

/**
 * Write the result. 'refused' when the cell is no longer the holder's: another browser's lease
 * or settlement stands, untouched.
 */
export async function settleCell(couch: Couch, doc: CellDoc, settle: Settlement): Promise<'settled' | 'refused'> {
  let current: CellDoc | null = doc;
  for (let i = 0; i < MAX_CONFLICTS && current; i++) {
    const put = await couch.put<CellDoc>({ ...current, lease: null, settle, generation: Math.max(current.generation, settle.generation) });
    if (put.ok) return 'settled';
    current = stillHeld(await couch.get<CellDoc>(doc._id), doc.lease!);
  }
  return 'refused';
}

/**
 * A settlement found in the local queue but not in the database (the worker died before it
 * pushed, or the database was away): written if nobody else holds or settled the cell since.
 */
export async function settleIfFree(couch: Couch, cell: Cell, settle: Settlement, browser: string, now: number, leaseMs: number): Promise<'settled' | 'taken'> {
  const id = cellDocId(cell);
  for (let i = 0; i < MAX_CONFLICTS; i++) {
    const doc = await couch.get<CellDoc>(id);
    if (doc && !isCellDoc(doc)) return 'taken';
    if (doc?.settle && doc.settle.generation >= settle.generation) return 'taken';
    if (doc && liveLeaseOfOther(doc, browser, now, leaseMs)) return 'taken';
    const next: CellDoc = doc
      ? { ...doc, lease: null, settle, generation: Math.max(doc.generation, settle.generation) }
      : { _id: id, type: 'cell', schema: TEAM_SCHEMA, sweepId: cell.sweepId, cell: sharedCellOf(cell), lease: null, settle, generation: settle.generation };
    if ((await couch.put(next)).ok) return 'settled';
  }
  return 'taken';
}
