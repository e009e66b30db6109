/**
 * The team's side of a worker loop (utils/sweep/driver.ts): before a loop searches a cell of a
 * shared sweep it claims the cell in the database, and after it commits the cell locally it
 * writes the result there. The local queue stays the working copy; the database decides who
 * searches what:
 * - 'mine': this browser holds the lease (a heartbeat keeps it while the visit runs);
 * - 'elsewhere': another browser holds it: the loop defers the cell to when that lease ends;
 * - 'settled': another browser searched it: the loop commits that result here as its own
 *   (children, places), without a request to the map site;
 * - 'offline': the database did not answer: no new shared cell is taken; what was searched is
 *   kept here and written when the database is back (the outbox, and `reconcile` from the
 *   local queue itself, so a worker that died loses nothing);
 * - 'refused': the database refused this browser: the sweep pauses with the reason.
 */
import type { Cell, Sweep } from '../domain/sweep';
import type { Listing } from '../domain/listing';
import { organicByKey } from '../store/listing-merge';
import type { Store } from '../store';
import { DEFAULT_PLANNER_OPTIONS } from '../grid';
import type { PlannerOptions } from '../grid/types';
import { providerFor } from '../providers/registry';
import { CouchError, type Couch } from './couch';
import { cellDocId, isCellDoc, sharedCellOf, type CellDoc, type Settlement } from './docs';
import { claimCell, claimOverRefused, settleCell, settleIfFree } from './lease';
import { createHeartbeats } from './heartbeats';
import { pushPlaces, readPlaces, type PushAs } from './places';
import { cellToken, createProgressLedger, type ProgressLedger } from './progress';
import { checkPlaces, checkSettlement } from './verify';
import type { GateClaim, TeamGate } from '../sweep/team-port';

export type { GateClaim, TeamGate } from '../sweep/team-port';
import type { TeamSettings, TeamStatus } from './settings';

export interface TeamGateDeps {
  store: Store;
  /** The database and this browser's identity, or null when none is set up. */
  team(): Promise<{ couch: Couch; me: TeamSettings } | null>;
  /** The sweep's lease length when this browser works on it with a team, else null. */
  membership(sweepId: string): Promise<{ leaseMs: number } | null>;
  /** Every sweep this browser works on with a team. */
  memberSweeps(): Promise<string[]>;
  now(): number;
  report(status: TeamStatus): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/**
 * How often a cell another browser holds is asked about again: the sweep's delay between page
 * loads, within these bounds. Its result brings its children (a split), which this browser
 * learns of only from it: a browser whose every cell is held elsewhere (a small area starts as
 * one cell) would otherwise sit idle while the others split. A result cannot come much sooner
 * than a page load, so asking faster only costs requests. One small read per held cell per poll.
 */
export const HELD_POLL_MS = { min: 1_000, max: 15_000 } as const;

export function heldPollMs(sweep: Pick<Sweep, 'settings'>): number {
  const d = sweep.settings.delayMs;
  return Math.min(HELD_POLL_MS.max, Math.max(HELD_POLL_MS.min, Number.isFinite(d) ? d : HELD_POLL_MS.min));
}
/**
 * How long a loop waits before asking an unreachable or failing database again: 10 s, doubled
 * with each failure in a row up to 5 minutes, back to 10 s once it answers.
 */
export const OFFLINE_RETRY_MS = { first: 10_000, max: 5 * 60_000 } as const;

export function offlineRetryMs(failuresInARow: number): number {
  return Math.min(OFFLINE_RETRY_MS.max, OFFLINE_RETRY_MS.first * 2 ** Math.max(0, failuresInARow - 1));
}

interface Unpushed {
  sweep: Sweep;
  cell: Cell;
  children: Cell[];
  listings: Listing[];
  /** The document as this browser last wrote it, when it still held the cell. */
  doc: CellDoc | null;
  leaseMs: number;
}

export function createTeamGate(deps: TeamGateDeps): TeamGate {
  const outbox = new Map<string, Unpushed>();
  /** Sweeps whose local queue was compared with the database since this worker started. */
  const reconciled = new Set<string>();
  let offlineSince: number | null = null;
  let failuresInARow = 0;
  /** While the database is away, nothing is asked of it before this time (the backoff's next try). */
  let retryAt = 0;
  const ledgers = new WeakMap<Couch, ProgressLedger>();
  /** Other browsers' documents this worker refused since it started (the popup says how many, and the first reason). */
  const refusals: { count: number; first: string | null } = { count: 0, first: null };
  const refusedSoFar = (): Pick<TeamStatus, 'refusedDocs'> =>
    refusals.first === null ? {} : { refusedDocs: { count: refusals.count, first: refusals.first } };
  /** This browser's counts in the team's progress (progress.ts): display only, never failing its caller. */
  function ledgerOf(couch: Couch, me: TeamSettings): ProgressLedger {
    const l = ledgers.get(couch) ?? createProgressLedger(couch, me);
    ledgers.set(couch, l);
    return l;
  }
  const heartbeats = createHeartbeats(deps);
  const pushAs = (couch: Couch, me: TeamSettings): PushAs => ({ browser: me.browserId, ledger: ledgerOf(couch, me) });

  /**
   * Writes a settlement, announced in this browser's progress first (by its generation and time,
   * which name this very write) so that it is counted whenever this browser dies, or its answer
   * never comes (an unanswered write stays announced: progress.ts).
   */
  async function settleAnnounced(couch: Couch, me: TeamSettings, cell: Cell, settle: Settlement, write: () => Promise<string>): Promise<boolean> {
    const ledger = ledgerOf(couch, me);
    const token = [cellToken(cellDocId(cell), settle.generation, settle.at)];
    await ledger.announce(cell.sweepId, token);
    const r = await write();
    void ledger.answered(cell.sweepId, token, { cells: r === 'settled' ? 1 : 0 });
    return r === 'settled';
  }

  function online() {
    offlineSince = null;
    failuresInARow = 0;
    retryAt = 0;
    deps.report({ state: 'online', at: deps.now(), unpushed: outbox.size, ...refusedSoFar() });
  }

  /** What a failed request means for the loop. Only the database's failures: a bug here throws on. */
  function failure(e: unknown): GateClaim {
    if (!(e instanceof CouchError)) throw e;
    const now = deps.now();
    if (e.kind === 'unauthorised' || e.kind === 'forbidden' || e.kind === 'missing') {
      deps.report({ state: 'refused', at: now, message: e.message, unpushed: outbox.size, ...refusedSoFar() });
      return {
        kind: 'refused',
        error: { kind: 'internal', message: `${e.message} The sweep is paused; check the team database in the options, then press Resume.`, at: now },
      };
    }
    offlineSince ??= now;
    failuresInARow++;
    retryAt = now + offlineRetryMs(failuresInARow);
    // Forgetting which sweeps were compared: when the database is back, each is compared again.
    reconciled.clear();
    const message = e instanceof Error ? e.message : String(e);
    deps.report({ state: 'offline', since: offlineSince, message, unpushed: outbox.size, ...refusedSoFar() });
    return { kind: 'offline', until: retryAt };
  }

  async function settlementOf(me: TeamSettings, cell: Cell, children: readonly Cell[], places: readonly Listing[]): Promise<Settlement | null> {
    const local = await deps.store.getCell(cell.id);
    if (!local?.result || (local.status !== 'done' && local.status !== 'split' && local.status !== 'saturated')) return null;
    return {
      status: local.status,
      result: local.result,
      children: local.status === 'split' ? children.map(sharedCellOf) : [],
      places: places.map((l) => l.key),
      by: me.browserId,
      byName: me.name,
      at: deps.now(),
      generation: local.reopened ?? 0,
    };
  }

  async function push(couch: Couch, me: TeamSettings, u: Unpushed): Promise<void> {
    await pushPlaces(couch, u.sweep.id, u.listings, pushAs(couch, me));
    const settle = await settlementOf(me, u.cell, u.children, u.listings);
    if (!settle) return;
    // Refused or taken: another browser's lease or result stands, and this late write changes nothing.
    const doc = u.doc;
    await settleAnnounced(couch, me, u.cell, settle, () =>
      doc ? settleCell(couch, doc, settle) : settleIfFree(couch, u.cell, settle, me.browserId, deps.now(), u.leaseMs),
    );
  }

  async function flushOutbox(couch: Couch, me: TeamSettings) {
    for (const [id, u] of [...outbox]) {
      await push(couch, me, u);
      outbox.delete(id);
    }
  }

  /**
   * The local queue against the database: every cell this browser settled whose result the
   * database lacks (a worker that died between its commit and its write, a database that was
   * away) is written now, with the places this browser holds for the sweep. Cells another
   * browser holds or settled meanwhile are left to it.
   */
  async function reconcile(couch: Couch, me: TeamSettings, sweepId: string) {
    const sweep = await deps.store.getSweep(sweepId);
    const member = await deps.membership(sweepId);
    if (!sweep || !member) return;
    const cells = await deps.store.listCells(sweepId);
    const settled = cells.filter((c) => (c.status === 'done' || c.status === 'split' || c.status === 'saturated') && c.result);
    const need: Cell[] = [];
    for (let i = 0; i < settled.length; i += 200) {
      const chunk = settled.slice(i, i + 200);
      const docs = await couch.getMany<CellDoc>(chunk.map(cellDocId));
      chunk.forEach((c, j) => {
        const d = docs[j];
        if (!(d && isCellDoc(d) && d.settle && d.settle.generation >= (c.reopened ?? 0))) need.push(c);
      });
    }
    if (need.length === 0) return;
    const wanted = new Set(need.map((c) => c.id));
    const byCell = new Map<string, Listing[]>();
    for await (const batch of deps.store.iterateListings(500, sweepId)) {
      // Every place of the sweep: pushPlaces writes only what the database does not already say.
      await pushPlaces(couch, sweepId, batch, pushAs(couch, me));
      for (const l of batch) for (const id of l.cells) if (wanted.has(id)) byCell.set(id, [...(byCell.get(id) ?? []), l]);
    }
    for (const c of need) {
      const children = c.status === 'split' ? cells.filter((k) => k.parentId === c.id) : [];
      const settle = await settlementOf(me, c, children, byCell.get(c.id) ?? []);
      if (settle) await settleAnnounced(couch, me, c, settle, () => settleIfFree(couch, c, settle, me.browserId, deps.now(), member.leaseMs));
    }
  }

  async function ready(sweepId: string): Promise<{ couch: Couch; me: TeamSettings }> {
    const team = await deps.team();
    if (!team) throw new CouchError('missing', 'This sweep is worked on with a team, but no team database is set up in the options.');
    await flushOutbox(team.couch, team.me);
    if (!reconciled.has(sweepId)) {
      await reconcile(team.couch, team.me, sweepId);
      reconciled.add(sweepId);
    }
    return team;
  }

  /**
   * Another browser's settlement, checked as a page is (verify.ts): applied only when it is
   * this cell's, a proof under this browser's rules, and its places are all readable and where a
   * search of the cell could have listed them. Anything else decides nothing: it is counted, and
   * the cell is taken over (claimOverRefused) and searched here.
   */
  async function settledElsewhere(couch: Couch, sweep: Sweep, cell: Cell, holder: string, doc: CellDoc, me: TeamSettings, leaseMs: number): Promise<GateClaim> {
    const planner: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, ...providerFor(sweep.provider).planner };
    const check = checkSettlement(doc, { sweep, cell, planner });
    let refusal = check.ok ? null : check.reason;
    if (check.ok) {
      const keys = doc.settle!.places;
      const places = checkPlaces(keys, await readPlaces(couch, keys), { sweep, cell, searchedBox: doc.settle!.result.searchedBox ?? null });
      if (places.ok) return { kind: 'settled', settlement: doc.settle!, children: check.children, listings: places.listings };
      refusal = places.reason;
    }
    refusals.count++;
    refusals.first ??= refusal;
    const taken = await claimOverRefused(couch, { cell, browser: me.browserId, holder, now: deps.now(), leaseMs }, doc);
    if (taken.kind !== 'mine') return { kind: 'elsewhere', until: Math.min(taken.kind === 'held' ? taken.until : deps.now(), deps.now() + heldPollMs(sweep)) };
    heartbeats.stop(cell.id);
    heartbeats.start(couch, cell, holder, taken.doc, leaseMs);
    return { kind: 'mine' };
  }

  return {
    async claim(sweep, cell, holder) {
      const member = await deps.membership(sweep.id);
      if (!member) return null;
      // Backing off: one try when the wait is over, not one per cell (which would only fail faster).
      if (deps.now() < retryAt) return { kind: 'offline', until: retryAt };
      try {
        const { couch, me } = await ready(sweep.id);
        const claim = await claimCell(couch, { cell, browser: me.browserId, holder, now: deps.now(), leaseMs: member.leaseMs });
        let reply: GateClaim;
        if (claim.kind === 'mine') {
          heartbeats.stop(cell.id);
          heartbeats.start(couch, cell, holder, claim.doc, member.leaseMs);
          reply = { kind: 'mine' };
        } else if (claim.kind === 'foreign') {
          // A document this version does not read decides nothing: searched here, written nowhere
          // (settleIfFree leaves a document it does not read alone); it costs a search, never data.
          reply = { kind: 'mine' };
        } else if (claim.kind === 'held') {
          reply = { kind: 'elsewhere', until: Math.min(claim.until, deps.now() + heldPollMs(sweep)) };
        } else {
          reply = await settledElsewhere(couch, sweep, cell, holder, claim.doc, me, member.leaseMs);
        }
        online();
        return reply;
      } catch (e) {
        return failure(e);
      }
    },

    async settled(sweep, cell, children, listings) {
      const member = await deps.membership(sweep.id);
      if (!member) return;
      const entry = heartbeats.stop(cell.id);
      const u: Unpushed = { sweep, cell, children: [...children], listings: organicByKey(listings), doc: entry?.doc ?? null, leaseMs: member.leaseMs };
      if (deps.now() < retryAt) {
        outbox.set(cell.id, u);
        return;
      }
      try {
        const team = await deps.team();
        if (!team) throw new CouchError('missing', 'No team database is set up.');
        await push(team.couch, team.me, u);
        online();
      } catch (e) {
        outbox.set(cell.id, u);
        failure(e);
      }
    },

    async flush() {
      if (deps.now() < retryAt) return;
      const team = await deps.team().catch(() => null);
      if (!team) return;
      try {
        await flushOutbox(team.couch, team.me);
        for (const id of await deps.memberSweeps()) {
          if (reconciled.has(id)) continue;
          await reconcile(team.couch, team.me, id);
          reconciled.add(id);
        }
        // Counts a failed write left owed (the database away a moment) are written now, not only with the next result.
        await ledgerOf(team.couch, team.me)
          .settle()
          .catch(() => {});
        online();
      } catch (e) {
        failure(e);
      }
    },
  };
}
