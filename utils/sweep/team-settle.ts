import type { CellOutcome } from '../store/commit';
import { StoreError } from '../store';
import { deferCell, releaseCell } from '../queue';
import { transition } from './status-machine';
import type { Cell, Sweep } from '../domain/sweep';
import type { GateClaim } from './team-port';
import type { DriverDeps, WorkerExit } from './driver-deps';
import { commitAudit } from './settle-visit';

/**
 * A shared sweep's cell that the team's database did not give this browser: deferred while
 * another browser holds it, the sweep paused when the database refuses this browser, or another
 * browser's checked result (utils/team/verify.ts) committed here as its own.
 */

/**
 * A shared sweep's cell the team's database did not give to this browser (utils/team/gate.ts):
 * - searched by another browser: its result is committed here as it was there (children,
 *   places), so this browser's queue and collection hold the team's whole sweep; an audit cell's
 *   through the same settlement as a search here (commitAudit), so every browser learns the same;
 * - held by another browser, or the database away: deferred, without an attempt counted, to
 *   when the lease ends or the database is asked again;
 * - refused (credentials, access): the sweep pauses with the reason.
 */
export async function settleFromTeam(
  deps: DriverDeps,
  sweep: Sweep,
  cell: Cell,
  holder: string,
  shared: Exclude<GateClaim, { kind: 'mine' }>,
): Promise<WorkerExit | undefined | 'search-here'> {
  if (shared.kind === 'elsewhere' || shared.kind === 'offline') {
    await deferCell(deps.store, { cellId: cell.id, holder, until: shared.until });
    return undefined;
  }
  if (shared.kind === 'refused') {
    await releaseCell(deps.store, { cellId: cell.id, holder });
    const paused = await transition(deps.store, sweep.id, { event: 'pause', reason: 'team', problem: shared.error });
    if (paused.ok) deps.attention(paused.sweep, 'team');
    return 'paused';
  }
  const { settlement, children, listings } = shared;
  if (cell.role === 'audit') return commitAudit(deps, sweep, cell, holder, { kept: listings, result: settlement.result, searchedHere: false });
  const outcome: CellOutcome =
    settlement.status === 'split' ? { status: 'split', result: settlement.result, children } : { status: settlement.status, result: settlement.result };
  try {
    const committed = await deps.store.commitCell({
      sweepId: sweep.id,
      cellId: cell.id,
      holder,
      now: deps.now(),
      keyword: cell.keyword,
      listings,
      outcome,
      maxCells: sweep.settings.maxCells,
      // Another browser's reading: never renames a place read here (utils/team/verify.ts).
      secondHand: true,
    });
    // Refused as a second unresolved result in a row (it is not this browser's to stop the sweep for): searched here.
    return !committed.applied && committed.reason === 'unknown-streak' ? 'search-here' : undefined;
  } catch (e) {
    // Another browser's result this store refuses (its children clash with cells here): never
    // trusted further, the cell is searched here. A full disk still pauses (the caller).
    if (e instanceof StoreError && (e.code === 'invalid' || e.code === 'exists')) return 'search-here';
    throw e;
  }
}
