import { cellSearchView, MAX_ZOOM } from '../geo';
import { CHILDREN_PER_SPLIT, decideCell, minCellReached, splitCell, widenedCell, DEFAULT_PLANNER_OPTIONS } from '../grid';
import { CAP_MARGIN } from '../grid/decide';
import type { CellDecisionInput } from '../grid/types';
import type { MapView, Viewport } from '../geo/types';
import type { PageDriver } from '../browser/page-driver';
import { blockObservation, ContentScriptError, TimeoutError } from '../browser/page-driver';
import type { CollectOptions } from '../messaging/protocol';
import { providerFor } from '../providers/registry';
import type { MapProvider } from '../providers/types';
import type { CellOutcome } from '../store/commit';
import { StoreError, type Store } from '../store';
import { deferCell, failCell, leaseNextCell, releaseCell, renewLease } from '../queue';
import type { Pacer } from '../queue/pacing';
import { auditObservation } from '../domain/audit-page';
import { judgeObservation, unknownPageFailure } from './judge';
import { attentionOf } from '../domain/sweep-status';
import { finishIfDrained, transition } from './status-machine';
import { childCells, plannedOf } from './plan';
import { saysCrowded, siteTotalTrust } from './site-total';
import { DEFAULT_SETTINGS } from '../config/settings';
import type { Cell, CellError, CellResult, Observation, SearchedBox, Sweep } from '../domain/sweep';
import {
  calibrationKey,
  initialCalibration,
  planningViewport,
  safeSpan,
  type GeometryCalibration,
  type MeasuredCanvas,
  type SpanLimits,
} from '../coverage/geometry';
import { auditSettlement, reopenAfterShrink, startAuditIfDue } from './self-audit';
import type { PageAudit } from '../domain/page-audit';
import type { Listing } from '../domain/listing';
import { memoryCalibrationStore, type CalibrationStore } from '../coverage/calibration';
import { assessCoverage, guessCanvas, measuredCanvas } from '../coverage/assess';
import { combinePages } from './pages';
import { keptInArea } from './area-filter';
import {
  BOX_IGNORED_MESSAGE,
  NOT_RESTRICTED_MESSAGE,
  VIEW_NOT_SHOWN_MESSAGE,
  reportedProof,
  requestedBounds,
  searchUnknownMessage,
  type SearchProof,
} from './bounds-proof';
import { heldCentre, narrower, narrowest, spansOf, viewportOfSpans, type BoxSpans } from './reported-box';
import type { Release } from '../queue/pacing';
import type { GateClaim, TeamGate } from './team-port';

/**
 * The sweep driver: one loop per worker tab, all state in the store. Each turn leases a cell,
 * loads its search (one load at a time per host, via the pacer), asks the content script for
 * an observation, judges it, and either commits the cell in one transaction or records the
 * failure. The service worker may die at any line: a lease that is never committed simply
 * expires and the cell is handed out again.
 */
export interface DriverDeps {
  store: Store;
  page: PageDriver;
  pacer: Pacer;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** The worker tab's page was hidden (true) or visible (false) at its last visit. */
  pageHidden?(sweepId: string, hidden: boolean): void;
  /** What is known of each window size's searched rectangle (utils/coverage); absent: learnt for this worker's life only. */
  calibration?: CalibrationStore;
  /**
   * The disk is full: recorded outside IndexedDB (the background keeps a flag in storage.local
   * that the popup reads), because IndexedDB refusing writes may refuse the pause itself.
   */
  diskFull?(sweepId: string, error: CellError): Promise<void>;
  /** Badge, notification: the sweep needs the user (captcha, consent, page changed, team database) or finished. */
  attention(sweep: Sweep, reason: 'blocked' | 'consent' | 'signed-out' | 'extractor' | 'finished' | 'quota' | 'team'): void;
  /** A sweep shared with other browsers (utils/team): who searches each cell is decided in the team's database. */
  team?: TeamGate;
}

export type WorkerExit = 'not-running' | 'finished' | 'paused' | 'failed' | 'tab-closed';

/** Bounds of one collection; the scroll pause comes from the sweep's settings. */
const COLLECT: Omit<CollectOptions, 'scrollPauseMs'> = { cap: DEFAULT_PLANNER_OPTIONS.cap, stallMs: 8000, maxMs: 90_000, settleMs: 15_000 };

/** The longest a collection may take: the content script's own bounds plus the message's margin. */
export const COLLECT_TIMEOUT_MS = COLLECT.maxMs + COLLECT.settleMs + 15_000;
/** Slack on top of a visit's limits (store writes, the judge, a busy worker). */
export const LEASE_MARGIN_MS = 30_000;

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
    // A shared sweep's cell is searched here only if the team's database gives it to this browser.
    const leased: Sweep = sweep;
    const shared = deps.team ? await deps.team.claim(leased, cell, holder) : null;
    if (shared && shared.kind !== 'mine') {
      const settled = await settleFromTeam(deps, leased, cell, holder, shared).catch((e) => {
        if (isQuota(e)) return pauseForQuota(deps, leased, cell, holder, e);
        throw e;
      });
      if (settled !== 'search-here') {
        if (settled) return settled;
        continue;
      }
    }
    const release = await deps.pacer.acquire(provider.laneUrl);
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
    await deps.sleep(Math.max(500, Math.min(5000, open.nextAvailableAt - deps.now())));
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

/**
 * A whole visit at its configured limits: the page load at its timeout, then the collection
 * at its bound, plus a margin. Whatever the options say (a short or unreadable load timeout),
 * a lease never runs out while its worker is still inside those limits; the lease is also
 * renewed after the load (see visitCell), and a renewal refused ends the visit.
 */
export function leaseMsOf(sweep: Pick<Sweep, 'settings'>): number {
  return loadTimeoutOf(sweep) + COLLECT_TIMEOUT_MS + LEASE_MARGIN_MS;
}

/** The page load's timeout: the sweep's option, or the default when it is not a usable number. */
function loadTimeoutOf(sweep: Pick<Sweep, 'settings'>): number {
  const t = sweep.settings.cellTimeoutMs;
  return Number.isFinite(t) && t > 0 ? t : DEFAULT_SETTINGS.cellTimeoutMs;
}

/** One cell, start to finish. Returns a reason to stop this worker, or undefined to go on. */
async function visitCell(
  deps: DriverDeps,
  provider: MapProvider,
  sweep: Sweep,
  cell: Cell,
  tabId: number,
  holder: string,
  /** Ends this worker's turn for the host; called once the page has loaded (idempotent). */
  release: Release,
  canvases: Map<number, MeasuredCanvas>,
  spans: Map<number, BoxSpans>,
): Promise<WorkerExit | undefined> {
  // The cell is placed inside what every plausible geometry searches, for the canvas this tab
  // showed last time (measured by the page); the tab's own size is only the first guess. A
  // provider whose page takes the box itself is asked for the cell's box, on its fixed canvas.
  const bounds = provider.boundsSearch;
  const reported = provider.reportedBox;
  const planned = bounds ? guessCanvas(bounds.viewport) : (canvases.get(tabId) ?? guessCanvas(await deps.page.viewport(tabId)));
  const calibration = deps.calibration!;
  const known = spans.get(tabId);
  const viewport =
    bounds?.viewport ??
    (reported
      ? known
        ? viewportOfSpans(known, reported.untrustedEdge)
        : await deps.page.viewport(tabId)
      : planningViewport(await calibrationFor(calibration, provider, planned, deps.now()), limitsOf(sweep, provider, planned)));
  const view = searchViewOf(cell, viewport);
  const url = bounds
    ? bounds.url(cell.keyword, requestedBounds(cell.bbox, bounds.untrustedEdge), sweep.settings.lang)
    : provider.searchUrl(cell.keyword, view, sweep.settings.lang);
  const timeoutMs = loadTimeoutOf(sweep);
  const visitStart = deps.now();

  let observation: Observation;
  try {
    const loaded = await deps.page.load(tabId, url, timeoutMs);
    const blocked = provider.blockedPageKind(loaded.url);
    if (blocked) {
      release();
      return await recordFailure(deps, sweep, cell, holder, {
        kind: blocked === 'captcha' ? 'blocked' : 'consent',
        message:
          blocked === 'captcha'
            ? 'The map site is asking to prove you are not a robot. Solve it in the tab, then press Resume.'
            : 'The map site is asking for cookie consent. Answer it in the tab, then press Resume.',
        at: deps.now(),
        url: loaded.url,
      });
    }
  } catch (e) {
    release();
    deps.pacer.penalise(url);
    const kind = e instanceof TimeoutError ? 'timeout' : 'navigation';
    return await recordFailure(deps, sweep, cell, holder, { kind, message: errorText(e), at: deps.now(), url });
  }
  release();
  // The collection gets its whole bound again. A refused renewal means the cell is no longer
  // this loop's (another loop took it after the lease ran out, or it was settled): the visit
  // ends here, nothing of this page is kept.
  const renewed = await renewLease(deps.store, { cellId: cell.id, holder, now: deps.now(), leaseMs: COLLECT_TIMEOUT_MS + LEASE_MARGIN_MS });
  if (!renewed) return undefined;

  const collectOptions = { ...COLLECT, cap: provider.planner.cap, scrollPauseMs: sweep.settings.scrollPauseMs };
  try {
    const prepared = await prepareFirstPage(deps, provider, cell, tabId, holder, collectOptions);
    // Whether a crowded list's cell would be split (not at its smallest, room under the cell cap):
    // only then may its other pages go unread (walkPages).
    const splittable = async () =>
      !minCellReached(cell.bbox, { ...DEFAULT_PLANNER_OPTIONS, ...provider.planner, viewport }) &&
      (await deps.store.countCells(sweep.id)).total + CHILDREN_PER_SPLIT <= sweep.settings.maxCells;
    const paged =
      prepared === 'ready'
        ? await walkPages(deps, provider, cell, tabId, holder, await deps.page.collect(tabId, collectOptions, COLLECT_TIMEOUT_MS), collectOptions, splittable)
        : prepared;
    if (paged === 'lost') return undefined;
    if (paged === 'stopped') {
      // Paused, stopped or failed meanwhile (by the user, or another worker met a block): the
      // visit ends before its next request. Not the cell's fault, so not an attempt.
      await releaseCell(deps.store, { cellId: cell.id, holder });
      return 'not-running';
    }
    // A request of the page sent to a block page (seen by the browser, not the page) is the block, whatever the page showed.
    const blockedAt = await deps.page.blockedSince?.(tabId, visitStart);
    if (blockedAt) observation = blockObservation(blockedAt, 'captcha');
    else if ('kind' in paged) return await recordFailure(deps, sweep, cell, holder, { ...paged, url });
    else observation = paged.observation;
  } catch (e) {
    const blockedAt = await deps.page.blockedSince?.(tabId, visitStart);
    if (blockedAt) {
      return await recordFailure(deps, sweep, cell, holder, {
        kind: 'blocked',
        message: `The map site sent its requests to a block page (${blockedAt}). Wait a while, then press Resume.`,
        at: deps.now(),
        url: blockedAt,
      });
    }
    if (e instanceof ContentScriptError) {
      // The extractor itself failed on this page: the same "page changed" stop as cards it cannot read.
      return await recordFailure(deps, sweep, cell, holder, { kind: 'extractor', message: e.message, at: deps.now(), url });
    }
    deps.pacer.penalise(url);
    const kind = e instanceof TimeoutError ? 'timeout' : 'navigation';
    return await recordFailure(deps, sweep, cell, holder, { kind, message: errorText(e), at: deps.now(), url });
  }

  deps.pageHidden?.(
    sweep.id,
    observation.warnings.some((w) => w.startsWith('page-hidden')),
  );
  // Every page is audited (cards visible vs read vs the page's own responses): the Health
  // panel shows it, and staleness checks trust a quiet search only with a recent audit.
  const audit = auditObservation(observation);
  const judgement = judgeObservation(observation, cell, view, deps.now(), provider);
  if (judgement.verdict === 'failed') {
    const { error } = judgement;
    await deps.store.addEvent({
      sweepId: sweep.id,
      at: deps.now(),
      kind: 'audit',
      cellId: cell.id,
      keyword: cell.keyword,
      url: observation.url,
      audit,
      message: audit.verdict,
    });
    if (error.kind === 'http' || error.kind === 'timeout') deps.pacer.penalise(url);
    return await recordFailure(deps, sweep, cell, holder, error);
  }
  deps.pacer.reward(url);

  if (bounds || reported) {
    return settleBoundsVisit(deps, provider, sweep, cell, holder, { observation, audit, judged: judgement, view, viewport, tabId, spans });
  }

  // What the page searched is measured: its canvas, and the view its URL ended on.
  const measured = measuredCanvas(observation, planned);
  canvases.set(tabId, measured);
  // Learnt and judged in one step on the calibration as stored now: another tab's visit that
  // ends meanwhile learns before or after this one, and neither overwrites the other's evidence.
  const { before, result: coverage } = await calibration.update(calibrationKey(provider.id, measured), initialCalibration(measured, deps.now()), (current) =>
    assessCoverage({
      observation,
      organic: judgement.organic,
      cellBox: cell.bbox,
      requested: view,
      planned,
      calibration: current,
      limits: limitsOf(sweep, provider, measured),
      now: deps.now(),
    }),
  );
  // Learning usually widens the safe box; when searches show it was too wide, cells proven
  // under the wider one are searched again.
  if (coverage.calibration !== before && shrank(safeSpan(before), safeSpan(coverage.calibration)))
    await reopenAfterShrink(deps.store, calibration, sweep, deps.now());
  if (coverage.searchAgain) {
    // The window differed from the guess (first visit, browser zoom, a resize): search again at
    // once with the measured canvas. Not an attempt of the cell; nothing from this page is kept.
    await releaseCell(deps.store, { cellId: cell.id, holder });
    return undefined;
  }

  const { covered, searchedBox, searchedView } = coverage;
  return settleVisit(deps, provider, sweep, cell, holder, {
    observation,
    audit,
    judged: judgement,
    proof: { kind: 'measured', covered, searchedBox, boxIgnored: false },
    decisionCell: cell,
    finalZoom: observation.finalView?.zoom ?? null,
    requestedZoom: view.zoom,
    viewport,
    shown: { view: searchedView, canvasKey: calibrationKey(provider.id, measured) },
  });
}

/** An accepted judgement (judgeObservation). */
type Accepted = Extract<ReturnType<typeof judgeObservation>, { verdict: 'accepted' }>;

/**
 * The end of every visit, whichever way its page showed where it searched (the canvas measured,
 * the box read back): one proof (utils/sweep/bounds-proof.ts SearchProof), one set of rules.
 * - unknown: never proof (unprovenVisit);
 * - a crowded list of a search not restricted to the cell (the site listed everywhere, or
 *   ignored the box): no smaller search can prove anything, so the sweep stops and says why;
 * - otherwise the planner decides (utils/grid/decide.ts) on whether the box holds the cell.
 */
async function settleVisit(
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
async function unprovenVisit(
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
async function commitDecision(
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
function decisionInput(
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
 * 'lost': the cell is no longer this loop's (its lease ran out and another loop took it);
 * 'stopped': the sweep is not running any more. Either way nothing of the visit is kept.
 */
type VisitCut = 'lost' | 'stopped';

type PagedVisit = { observation: Observation } | Omit<CellError, 'url'> | VisitCut;

/**
 * A request of a visit after its page load (a page turn, a control pressed): it waits its turn in
 * the host's pacing lane like a load, and is not made once the sweep stopped running (paused by
 * the user, or by another worker that met a captcha; stopped; failed) or the cell is no longer
 * this loop's. The lease is renewed for what follows the request.
 */
async function pacedRequest<T>(deps: DriverDeps, provider: MapProvider, cell: Cell, holder: string, request: () => Promise<T>): Promise<T | VisitCut> {
  const release = await deps.pacer.acquire(provider.laneUrl);
  try {
    if ((await deps.store.getSweep(cell.sweepId))?.status !== 'running') return 'stopped';
    const renewed = await renewLease(deps.store, { cellId: cell.id, holder, now: deps.now(), leaseMs: COLLECT_TIMEOUT_MS + LEASE_MARGIN_MS });
    if (!renewed) return 'lost';
    return await request();
  } finally {
    release();
  }
}

/**
 * A list whose first page needs some of the page's own controls pressed before it can be read
 * (provider.firstPageControls): each press makes the site search again, so each is a paced
 * request; the page is waited for outside the lane. After the last press the page is waited for
 * too: a collection at once could read the list from before the press.
 */
async function prepareFirstPage(
  deps: DriverDeps,
  provider: MapProvider,
  cell: Cell,
  tabId: number,
  holder: string,
  options: CollectOptions,
): Promise<'ready' | VisitCut> {
  const firstPage = deps.page.firstPage;
  const controls = provider.firstPageControls ?? 0;
  if (!firstPage || controls === 0) return 'ready';
  for (let pressed = 0; !(await firstPage.ready(tabId, options, COLLECT_TIMEOUT_MS)); pressed++) {
    // A page that still asks after every control was pressed: the collection says what is off.
    if (pressed === controls) break;
    const press = await pacedRequest(deps, provider, cell, holder, () => firstPage.press(tabId));
    if (press === 'lost' || press === 'stopped') return press;
    if (!press.clicked) break;
  }
  return 'ready';
}

/**
 * A paged list (Naver, Kakao) is walked to its end inside one visit: the page's own next
 * control is pressed, as a person would, and the new page read. Every page is a request to the
 * site, so each is a paced request (pacedRequest: its turn in the host's lane, the lease renewed,
 * and no turn once the sweep is paused, stopped or failed). The pages then count as one
 * observation (utils/sweep/pages.ts).
 */
async function walkPages(
  deps: DriverDeps,
  provider: MapProvider,
  cell: Cell,
  tabId: number,
  holder: string,
  first: Observation,
  options: CollectOptions,
  /** The cell would be split if crowded: a crowded list's other pages may then go unread. */
  splittable: () => Promise<boolean>,
): Promise<PagedVisit> {
  // A visit's list starts on its first page: a list that opened on a later page (the site kept
  // the page of an earlier search, a control pressed twice) would end without the pages before.
  if (first.pageKind === 'results' && first.pager && first.pager.page !== 1) {
    return { kind: 'navigation', message: `The list opened on page ${first.pager.page}, not on its first page.`, at: deps.now() };
  }
  const pages = [first];
  // One page more than the cap needs: a site that offers pages past its cap shows it as capped.
  const maxPages = provider.pageSize ? Math.ceil(provider.planner.cap / provider.pageSize) + 1 : 1;
  const crowdedAt = provider.planner.cap - CAP_MARGIN;
  let trusted: boolean | undefined;
  let last = first;
  while (last.pageKind === 'results' && last.pager?.more && pages.length < maxPages) {
    if (provider.siteTotal && saysCrowded(last.siteTotal, crowdedAt)) {
      // The page counts more matches than a list can hold: the cell will be split whatever the
      // remaining pages show (utils/sweep/site-total.ts), where the provider's count is believed.
      // A cell that cannot be split keeps what its list holds (saturated): every page is read then,
      // whatever the count says, so a count (page content) never makes the sweep collect less.
      trusted ??= (await splittable()) && (provider.siteTotal === 'as-capped' || siteTotalTrust(await deps.store.listCells(cell.sweepId, 'done')).trusted);
      if (trusted) {
        const observation = combinePages(pages);
        return {
          observation: {
            ...observation,
            capHit: true,
            stopReason: 'cap',
            warnings: [
              ...observation.warnings,
              `site-total: the page counts ${last.siteTotal} matches, more than a list holds; split without reading its other pages`,
            ],
          },
        };
      }
    }
    const nextPage = deps.page.nextPage;
    if (!nextPage) return { kind: 'internal', message: 'This browser glue cannot turn the pages of a list.', at: deps.now() };
    const turn = await pacedRequest(deps, provider, cell, holder, () => nextPage(tabId));
    if (turn === 'lost' || turn === 'stopped') return turn;
    if (!turn.clicked) return { kind: 'navigation', message: `The list's next-page control did not respond on page ${last.pager.page}.`, at: deps.now() };
    const asked = last.pager.page + 1;
    last = await deps.page.collect(tabId, { ...options, expectPage: asked }, COLLECT_TIMEOUT_MS);
    // A page that did not show after the turn (its request failed, or the list kept the old
    // page) leaves the visit unfinished: a retry of the cell. Cards shown and none read is the
    // extractor's, as on page 1 (judge.ts). A block page pauses the sweep like any other (through the judge).
    if (last.pageKind === 'unknown') return { ...unknownPageFailure(last, `Page ${asked} of the list`), at: deps.now() };
    // Page n+1 and no other after page n: a turn that skipped a page (or went back) would let
    // the list end without the pages between, and the cell be proven on a part of its list.
    if (!last.pager || last.pager.page !== asked) {
      return {
        kind: 'navigation',
        message: `The list's next-page control showed ${last.pager ? `page ${last.pager.page}` : 'no page number'} instead of page ${asked}.`,
        at: deps.now(),
      };
    }
    pages.push(last);
  }
  return { observation: combinePages(pages) };
}

/**
 * The end of a visit to a page that reports the box it searched (provider.boundsSearch: the box
 * taken from the URL; provider.reportedBox: the box of the page's own request around the map
 * view asked for). The proof is that box less the provider's untrusted edge (utils/sweep/
 * bounds-proof.ts reportedProof); no canvas is measured or learnt. A page that did not show its
 * box proves nothing (unprovenVisit).
 */
async function settleBoundsVisit(
  deps: DriverDeps,
  provider: MapProvider,
  sweep: Sweep,
  cell: Cell,
  holder: string,
  v: { observation: Observation; audit: PageAudit; judged: Accepted; view: MapView; viewport: Viewport; tabId: number; spans: Map<number, BoxSpans> },
): Promise<WorkerExit | undefined> {
  const { observation, view } = v;
  const searched: SearchedBox = observation.searched ?? { kind: 'unknown', why: 'the page reported no searched box at all' };
  const edge = provider.reportedBox?.untrustedEdge ?? provider.boundsSearch?.untrustedEdge ?? 0;
  const proof = reportedProof(searched, cell.bbox, v.judged.organic, edge);
  if (searched.kind === 'measured' && proof.kind === 'measured' && provider.reportedBox) {
    // A search by map view: how its box sits around the view is measured here, every visit.
    const s = spansOf(searched.box, view);
    if (!heldCentre(s))
      return recordFailure(deps, sweep, cell, holder, { kind: 'extractor', message: VIEW_NOT_SHOWN_MESSAGE, at: deps.now(), url: observation.url });
    const before = v.spans.get(v.tabId);
    v.spans.set(v.tabId, narrowest(before, s));
    if (!proof.covered && (!before || narrower(s, before))) {
      // Planned on a guess, or on a box wider than this search covered: search again at once
      // with what was measured. Not an attempt of the cell; nothing from this page is kept.
      await releaseCell(deps.store, { cellId: cell.id, holder });
      return undefined;
    }
  }
  return settleVisit(deps, provider, sweep, cell, holder, {
    observation,
    audit: v.audit,
    judged: v.judged,
    proof,
    // A box read from the page is the proof; no widened re-search (the site did not zoom out on its own).
    decisionCell: { ...cell, zoomOffset: 0 },
    finalZoom: null,
    requestedZoom: view.zoom,
    viewport: v.viewport,
    shown: { view },
  });
}

/** The view a cell's search URL carries: the cell fitted into the safe box, widened by its zoom offset. */
export function searchViewOf(cell: Pick<Cell, 'bbox' | 'zoomOffset'>, viewport: Viewport): MapView {
  const fit = cellSearchView(cell.bbox, viewport, MAX_ZOOM);
  return cell.zoomOffset ? { ...fit, zoom: Math.round((fit.zoom + cell.zoomOffset) * 100) / 100 } : fit;
}

/** What the sweep's audit proved this canvas's searches do not reach. */
function limitsOf(sweep: Sweep, provider: MapProvider, canvas: MeasuredCanvas): SpanLimits | undefined {
  return sweep.audit?.limits[calibrationKey(provider.id, canvas)];
}

/**
 * An audit search: its places are stored like any (they are real), and those the sweep had not
 * collected though they lie in a done cell are coverage errors. They teach the geometry where
 * the searched box really ends; every done cell no longer proven under that is re-opened. The
 * verdict and the re-opening are part of the audit cell's own commit (one transaction): a worker
 * that dies after it loses nothing, and the queue is never seen empty in between.
 */
async function commitAudit(
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

/** True when `after` lost ground on any side of `before` (px spans from the URL centre). */
function shrank(before: ReturnType<typeof safeSpan>, after: ReturnType<typeof safeSpan>): boolean {
  return after.left > before.left || after.right < before.right || after.top > before.top || after.bottom < before.bottom;
}

/** The stored calibration for this provider and canvas, or a fresh one (nothing learnt yet). */
async function calibrationFor(store: CalibrationStore, provider: MapProvider, canvas: MeasuredCanvas, now: number): Promise<GeometryCalibration> {
  return (await store.get(calibrationKey(provider.id, canvas))) ?? initialCalibration(canvas, now);
}

/**
 * A shared sweep's cell the team's database did not give to this browser (utils/team/gate.ts):
 * - searched by another browser: its result is committed here as it was there (children,
 *   places), so this browser's queue and collection hold the team's whole sweep; an audit cell's
 *   through the same settlement as a search here (commitAudit), so every browser learns the same;
 * - held by another browser, or the database away: deferred, without an attempt counted, to
 *   when the lease ends or the database is asked again;
 * - refused (credentials, access): the sweep pauses with the reason.
 */
async function settleFromTeam(
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

/**
 * The disk is full: everything committed is safe; stop loading pages until the user resumes.
 * The flag outside IndexedDB comes first: the pause below is itself a write, which a full disk
 * may refuse too.
 */
async function pauseForQuota(deps: DriverDeps, sweep: Sweep, cell: Cell | null, holder: string, e: unknown): Promise<WorkerExit> {
  const error: CellError = { kind: 'internal', message: errorText(e), at: deps.now() };
  await deps.diskFull?.(sweep.id, error).catch(() => {});
  if (cell) await releaseCell(deps.store, { cellId: cell.id, holder }).catch(() => {});
  const paused = await transition(deps.store, sweep.id, { event: 'pause', reason: 'quota', problem: error }).catch(() => null);
  deps.attention(paused?.ok ? paused.sweep : sweep, 'quota');
  return 'paused';
}

/**
 * Every failure of a visit goes to the queue (utils/queue/fail.ts): a retry or quarantine for
 * the cell's own failures, and for those that are not the cell's fault (captcha, consent,
 * signed out, extractor broken) the lease back and the sweep paused or failed, in one
 * transaction. This loop then stops, and the user is told once.
 */
async function recordFailure(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string, error: CellError): Promise<WorkerExit | undefined> {
  const r = await failCell(deps.store, {
    cellId: cell.id,
    holder,
    now: deps.now(),
    error,
    maxAttempts: sweep.settings.maxAttempts,
    random: deps.random,
  });
  if (!r.applied || r.outcome !== 'released') return undefined;
  const reason = attentionOf(error.kind);
  if (r.stopped && reason) deps.attention(r.stopped, reason);
  return r.sweepStatus === 'failed' ? 'failed' : 'paused';
}

function isQuota(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === 'quota';
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
