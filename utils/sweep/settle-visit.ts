import { decideCell, splitCell, widenedCell, DEFAULT_PLANNER_OPTIONS } from '../grid';
import { CAP_MARGIN } from '../grid/decide';
import type { CellDecisionInput } from '../grid/types';
import type { Viewport } from '../geo/types';
import type { MapProvider } from '../providers/types';
import type { CellOutcome } from '../store/commit';
import type { judgeObservation } from './judge';
import { childCells, plannedOf } from './plan';
import type { Cell, CellError, CellResult, Observation, Sweep } from '../domain/sweep';
import { auditSettlement } from './self-audit';
import type { PageAudit } from '../domain/page-audit';
import type { Listing } from '../domain/listing';
import { keptInArea } from './area-filter';
import { BOX_IGNORED_MESSAGE, NOT_RESTRICTED_MESSAGE, searchUnknownMessage, type SearchProof } from './bounds-proof';
import type { DriverDeps, WorkerExit } from './driver-deps';
import { pauseForQuota, recordFailure, isQuota } from './worker-exits';

/**
 * The end of every visit: one proof, one set of rules (unknown is never proof; a crowded list of
 * a search not restricted to the cell stops the sweep; otherwise the planner decides), and the
 * commit of the decision in one strict transaction. The closing audit's searches end here too.
 */

/** An accepted judgement (judgeObservation). */
export type Accepted = Extract<ReturnType<typeof judgeObservation>, { verdict: 'accepted' }>;

/**
 * The end of every visit, whichever way its page showed where it searched (the canvas measured,
 * the box read back): one proof (utils/sweep/bounds-proof.ts SearchProof), one set of rules.
 * - unknown: never proof (unprovenVisit);
 * - a crowded list of a search not restricted to the cell (the site listed everywhere, or
 *   ignored the box): no smaller search can prove anything, so the sweep stops and says why;
 * - otherwise the planner decides (utils/grid/decide.ts) on whether the box holds the cell.
 */
export async function settleVisit(
  deps: DriverDeps,
  provider: MapProvider,
  sweep: Sweep,
  cell: Cell,
  holder: string,
  v: {
    observation: Observation;
    audit: PageAudit;
    judged: Accepted;
    proof: SearchProof;
    /** The cell as the planner sees it (a search aimed by a reported box is never widened: zoomOffset 0). */
    decisionCell: Pick<Cell, 'bbox' | 'zoomOffset'>;
    finalZoom: number | null;
    requestedZoom: number;
    viewport: Viewport;
    /** What the result records of the view searched. */
    shown: Pick<CellResult, 'view' | 'canvasKey'>;
  },
): Promise<WorkerExit | undefined> {
  const { observation, audit, judged, proof, viewport } = v;
  const stop = (message: string) => recordFailure(deps, sweep, cell, holder, { kind: 'extractor', message, at: deps.now(), url: observation.url });
  const opts = { ...DEFAULT_PLANNER_OPTIONS, ...provider.planner, viewport, maxCells: sweep.settings.maxCells };
  const crowded = judged.result.capHit || judged.result.organic >= opts.cap - CAP_MARGIN || !judged.result.endOfList;
  const kept = keptInArea(sweep.area, judged.organic, proof.kind === 'measured' ? proof.searchedBox : null);
  const searchedBox = proof.kind === 'measured' ? proof.searchedBox : null;
  const result: CellResult = { ...judged.result, newListings: 0, searchedBox, ...v.shown };
  if (proof.kind === 'unknown')
    return unprovenVisit(deps, provider, sweep, cell, holder, { why: proof.why, result, audit, url: observation.url, kept, viewport });
  if (proof.kind === 'unrestricted' && crowded) return stop(NOT_RESTRICTED_MESSAGE);
  if (proof.kind === 'measured' && proof.boxIgnored && crowded) return stop(BOX_IGNORED_MESSAGE);
  if (cell.role === 'audit')
    return commitAudit(deps, sweep, cell, holder, { audit, url: observation.url, kept, result: { ...result, reason: 'audit' }, searchedHere: true });
  const covered = proof.kind === 'unrestricted' || proof.covered;
  const decision = decideCell(
    decisionInput(observation, judged.result, v.decisionCell, {
      requestedZoom: v.requestedZoom,
      finalZoom: v.finalZoom,
      covered,
      cellsKnown: (await deps.store.countCells(sweep.id)).total,
    }),
    opts,
  );
  return commitDecision(deps, provider, sweep, cell, holder, {
    decision,
    result: { ...result, reason: decision.reason },
    unread: judged.unread,
    audit,
    url: observation.url,
    kept,
    viewport,
  });
}

/**
 * A visit that proves nothing because its page did not show where it searched: the cell is
 * searched again once (a page mid-load, a request the browser had not listed yet); the same
 * again makes the cell unresolved (saturated 'search-unknown': its places are kept and the
 * cell is reported), and the same on the next cell too (no cell proven between: the sweep's
 * `unknownSearchStreak`) stops the sweep, as a page that changed does. An audit search proves
 * nothing either way: it is retried like any failure.
 */
export async function unprovenVisit(
  deps: DriverDeps,
  provider: MapProvider,
  sweep: Sweep,
  cell: Cell,
  holder: string,
  c: { why: string; result: CellResult; audit: PageAudit; url: string; kept: Listing[]; viewport: Viewport },
): Promise<WorkerExit | undefined> {
  if (cell.role === 'audit' || cell.lastError?.unknownSearch !== true) {
    return recordFailure(deps, sweep, cell, holder, {
      kind: 'navigation',
      message: `The page did not show which area it searched (${c.why}).`,
      at: deps.now(),
      url: c.url,
      unknownSearch: true,
    });
  }
  const decision = { verdict: 'saturated', reason: 'search-unknown' } as const;
  return commitDecision(deps, provider, sweep, cell, holder, {
    decision,
    result: { ...c.result, reason: decision.reason },
    audit: c.audit,
    url: c.url,
    kept: c.kept,
    viewport: c.viewport,
    // The commit refuses a second unresolved cell in a row (counted in its own transaction): the sweep stops.
    onUnknownStreak: { kind: 'extractor', message: searchUnknownMessage(c.why), at: deps.now(), url: c.url },
  });
}

/** Commits a decided cell in one transaction: done, saturated, or split into its children. */
export async function commitDecision(
  deps: DriverDeps,
  provider: MapProvider,
  sweep: Sweep,
  cell: Cell,
  holder: string,
  c: {
    decision: ReturnType<typeof decideCell>;
    result: CellResult;
    /** Judgement.unread: cards a crowded list left unread, forgiven only when the cell is split. */
    unread?: CellError;
    /** What the cell fails with when the commit refuses it as the second unresolved search in a row. */
    onUnknownStreak?: CellError;
    audit: PageAudit;
    url: string;
    kept: Listing[];
    viewport: Viewport;
  },
): Promise<WorkerExit | undefined> {
  const { decision, result, audit, kept, viewport } = c;
  if (c.unread && decision.verdict !== 'split') return recordFailure(deps, sweep, cell, holder, c.unread);
  const planner = { ...DEFAULT_PLANNER_OPTIONS, ...provider.planner, viewport };
  const outcome: CellOutcome =
    decision.verdict === 'split' || decision.verdict === 'widen'
      ? {
          status: 'split',
          result,
          children: childCells(sweep, cell, decision.verdict === 'widen' ? [widenedCell(plannedOf(cell))] : splitCell(plannedOf(cell), sweep.area, planner)),
        }
      : { status: decision.verdict, result };
  let committed: Awaited<ReturnType<DriverDeps['store']['commitCell']>>;
  try {
    committed = await deps.store.commitCell({
      sweepId: sweep.id,
      cellId: cell.id,
      holder,
      now: deps.now(),
      keyword: cell.keyword,
      audit,
      url: c.url,
      listings: kept,
      // Checked again inside the transaction that splits: two loops splitting at once cannot both pass the cap.
      maxCells: sweep.settings.maxCells,
      outcome,
    });
  } catch (e) {
    if (isQuota(e)) return pauseForQuota(deps, sweep, cell, holder, e);
    throw e;
  }
  if (committed.applied) await deps.team?.settled(sweep, cell, outcome.status === 'split' ? outcome.children : [], kept);
  if (!committed.applied && committed.reason === 'unknown-streak') {
    return recordFailure(
      deps,
      sweep,
      cell,
      holder,
      c.onUnknownStreak ?? { kind: 'internal', message: 'An unresolved cell was committed without its stop.', at: deps.now(), url: c.url },
    );
  }
  return undefined;
}

/** What the planner decides a cell from: the page, the judged result, the cell, and the proof. */
export function decisionInput(
  observation: Observation,
  result: Omit<CellResult, 'newListings'>,
  cell: Pick<Cell, 'bbox' | 'zoomOffset'>,
  c: { requestedZoom: number; finalZoom: number | null; covered: boolean; cellsKnown: number },
): CellDecisionInput {
  return {
    pageKind: observation.pageKind === 'results' || observation.pageKind === 'place' ? observation.pageKind : 'no-results',
    organic: result.organic,
    capHit: result.capHit,
    endOfList: result.endOfList,
    insideShare: result.insideShare,
    bbox: cell.bbox,
    zoomOffset: cell.zoomOffset ?? 0,
    ...c,
  };
}

/**
 * An audit search: its places are stored like any (they are real), and those the sweep had not
 * collected though they lie in a done cell are coverage errors. They teach the geometry where
 * the searched box really ends; every done cell no longer proven under that is re-opened. The
 * verdict and the re-opening are part of the audit cell's own commit (one transaction): a worker
 * that dies after it loses nothing, and the queue is never seen empty in between.
 */
export async function commitAudit(
  deps: DriverDeps,
  sweep: Sweep,
  cell: Cell,
  holder: string,
  c: { audit?: PageAudit; url?: string; kept: Listing[]; result: CellResult; searchedHere: boolean },
): Promise<WorkerExit | undefined> {
  try {
    const now = deps.now();
    const settle = await auditSettlement({ store: deps.store, calibration: deps.calibration!, sweep, cell, kept: c.kept, now });
    const committed = await deps.store.commitCell(
      {
        sweepId: sweep.id,
        cellId: cell.id,
        holder,
        now,
        keyword: cell.keyword,
        ...(c.audit ? { audit: c.audit, url: c.url } : {}),
        listings: c.kept,
        outcome: { status: 'done', result: c.result },
      },
      settle,
    );
    if (committed.applied && c.searchedHere) await deps.team?.settled(sweep, cell, [], c.kept);
  } catch (e) {
    if (isQuota(e)) return pauseForQuota(deps, sweep, cell, holder, e);
    throw e;
  }
  return undefined;
}
