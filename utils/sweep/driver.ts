import { providerFor } from '../providers/registry';
import { leaseNextCell, releaseCell, renewLease } from '../queue';
import { idleWaitMs } from '../queue/jobs';
import { finishIfDrained } from './status-machine';
import type { Cell, Sweep } from '../domain/sweep';
import type { MeasuredCanvas } from '../coverage/geometry';
import { startAuditIfDue } from './self-audit';
import { memoryCalibrationStore } from '../coverage/calibration';
import type { BoxSpans } from './reported-box';
import { leaseMsOf, type DriverDeps, type WorkerExit } from './driver-deps';
import { settleFromTeam } from './team-settle';
import { visitCell } from './visit';
import { pauseForHostAccess, pauseForQuota, recordFailure, isQuota, errorText } from './worker-exits';

/**
 * The sweep driver: one loop per worker tab, all state in the store. Each turn leases a cell,
 * loads its search (one load at a time per host, via the pacer), asks the content script for
 * an observation, judges it, and either commits the cell in one transaction or records the
 * failure. The service worker may die at any line: a lease that is never committed simply
 * expires and the cell is handed out again.
 * The visit itself is visit.ts; its end, settle-visit.ts; paged sites, paged-visit.ts; a shared
 * sweep's cells another browser settled, team-settle.ts; failures and a full disk, worker-exits.ts.
 */

/**
 * A worker loop: `holder` is this loop's own lease holder id (two loops never share one, even
 * on the same tab; the controller gives each loop a fresh one).
 */
export async function runWorker(
  deps: DriverDeps,
  sweepId: string,
  tabId: number,
  holder = `loop:${tabId}:${Math.floor(deps.random() * 36 ** 6).toString(36)}`,
): Promise<WorkerExit> {
  /** The canvas each tab's page measured at its last visit. */
  const canvases = new Map<number, MeasuredCanvas>();
  /** What each tab's searches covered around their view, where the page reports its searched box (provider.reportedBox). */
  const spans = new Map<number, BoxSpans>();
  deps = { ...deps, calibration: deps.calibration ?? memoryCalibrationStore() };
  const initial = await deps.store.getSweep(sweepId);
  if (!initial) return 'not-running';
  // A sweep's provider never changes; its pacing lane is the provider's host.
  const provider = providerFor(initial.provider);
  for (;;) {
    if (!(await deps.page.exists(tabId))) return 'tab-closed';
    // The cell is leased, and a shared sweep's cell offered to the team, before this worker's
    // turn for the host: what another browser already searched is committed here while the
    // host's delay runs, not after it. The lease is renewed once the turn is granted (a
    // backoff of minutes may outlast it), so the wait never eats into the visit's lease.
    let sweep: Sweep | undefined;
    let cell: Cell | null = null;
    try {
      sweep = await deps.store.getSweep(sweepId);
      if (sweep?.status !== 'running') return 'not-running';
      cell = await leaseNextCell(deps.store, { sweepId, holder, now: deps.now(), leaseMs: leaseMsOf(sweep) });
    } catch (e) {
      // A full disk refuses the lease itself: pause as after a refused commit.
      if (isQuota(e) && sweep) return pauseForQuota(deps, sweep, null, holder, e);
      throw e;
    }
    if (!cell) {
      const drained = await whenNothingToLease(deps, sweep, holder);
      if (drained) return drained;
      continue;
    }
    // The site's hosts withdrawn (Firefox): the cell goes back before the team is asked for it or
    // the host's turn taken, and the sweep pauses with the reason.
    if (deps.hostAccess && !(await deps.hostAccess(provider))) return pauseForHostAccess(deps, sweep, cell, holder);
    // A shared sweep's cell is searched here only if the team's database gives it to this browser.
    const leased: Sweep = sweep;
    const team = await askTheTeam(deps, leased, cell, holder);
    if (team !== 'search-here') {
      if (team) return team;
      continue;
    }
    const release = await deps.pacer.acquire(provider.laneUrl);
    const waitedPastLease = deps.now() > cell.leaseUntil;
    let turn: Awaited<ReturnType<typeof turnStillOurs>>;
    try {
      turn = await turnStillOurs(deps, sweepId, cell, holder);
    } catch (e) {
      release('unused');
      if (isQuota(e)) return pauseForQuota(deps, sweep, cell, holder, e);
      throw e;
    }
    if (turn === 'lost' || turn === 'not-running') {
      release('unused');
      if (turn === 'not-running') return 'not-running';
      continue;
    }
    sweep = turn.sweep;
    if (waitedPastLease && deps.team) {
      // A wait that outlasted the lease also stopped the team's heartbeat for the cell (it keeps
      // the team's lease only while the local one runs: utils/team/gate.ts), so another browser
      // may have taken it meanwhile: the team is asked again before the page is loaded.
      const again = await askTheTeam(deps, sweep, cell, holder);
      if (again !== 'search-here') {
        release('unused');
        if (again) return again;
        continue;
      }
    }
    let exit: WorkerExit | undefined;
    try {
      exit = await visitCell(deps, provider, sweep, cell, tabId, holder, release, canvases, spans);
    } catch (e) {
      release();
      if (isQuota(e)) return pauseForQuota(deps, sweep, cell, holder, e);
      // Anything unforeseen counts as an attempt of this cell, so it cannot loop for ever.
      await recordFailure(deps, sweep, cell, holder, { kind: 'internal', message: errorText(e), at: deps.now() }).catch((again) => {
        if (isQuota(again)) return pauseForQuota(deps, sweep, cell, holder, again);
        throw again;
      });
    }
    if (exit) return exit;
  }
}

/**
 * The team's word on a leased cell of a shared sweep: search it here ('search-here', also for a
 * sweep that is not shared), or what was done instead (deferred while another browser holds it,
 * another browser's checked result committed, the sweep paused), with a reason to stop the loop.
 */
async function askTheTeam(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string): Promise<WorkerExit | undefined | 'search-here'> {
  const shared = deps.team ? await deps.team.claim(sweep, cell, holder) : null;
  if (!shared || shared.kind === 'mine') return 'search-here';
  return settleFromTeam(deps, sweep, cell, holder, shared).catch((e) => {
    if (isQuota(e)) return pauseForQuota(deps, sweep, cell, holder, e);
    throw e;
  });
}

/**
 * Nothing could be leased: the sweep is drained (audit, then Finished or failed), or every open
 * cell is leased by another worker or waiting out its backoff (wait a little). Returns a reason
 * to stop this worker, or undefined to go on.
 */
async function whenNothingToLease(deps: DriverDeps, sweep: Sweep, holder: string): Promise<WorkerExit | undefined> {
  try {
    const open = await deps.store.countOpenCells(sweep.id);
    if (open.total === 0) {
      // Before Finished, the sweep audits a sample of its own work (utils/coverage/audit.ts).
      if (await startAuditIfDue(deps.store, sweep.id, deps.now())) return undefined;
      const finished = await finishIfDrained(deps.store, sweep.id, deps.now());
      // Another worker re-opened cells since the count: they are this loop's to lease.
      if (!finished.ok && 'open' in finished) return undefined;
      if (finished.ok && finished.sweep.status === 'failed') {
        // Drained, but nothing proven and the page showed no searched area (endOf): stopped with its reason.
        deps.attention(finished.sweep, 'extractor');
        return 'failed';
      }
      if (finished.ok) deps.attention(finished.sweep, 'finished');
      return 'finished';
    }
    await deps.sleep(idleWaitMs({ open: open.total, nextAvailableAt: open.nextAvailableAt }, deps.now()));
    return undefined;
  } catch (e) {
    if (isQuota(e)) return pauseForQuota(deps, sweep, null, holder, e);
    throw e;
  }
}

/**
 * Once the host's turn is granted: the sweep still running (the user may have paused it during
 * the wait) and the cell still this loop's, its lease renewed for the visit. A cell another
 * worker took after the lease ran out stays theirs; a paused sweep's cell is given back.
 */
async function turnStillOurs(deps: DriverDeps, sweepId: string, cell: Cell, holder: string): Promise<{ sweep: Sweep } | 'lost' | 'not-running'> {
  const sweep = await deps.store.getSweep(sweepId);
  if (sweep?.status !== 'running') {
    await releaseCell(deps.store, { cellId: cell.id, holder });
    return 'not-running';
  }
  return (await renewLease(deps.store, { cellId: cell.id, holder, now: deps.now(), leaseMs: leaseMsOf(sweep) })) ? { sweep } : 'lost';
}

export type { DriverDeps, WorkerExit } from './driver-deps';
export { COLLECT_TIMEOUT_MS, LEASE_MARGIN_MS, leaseMsOf } from './driver-deps';
export { searchViewOf } from './visit';
