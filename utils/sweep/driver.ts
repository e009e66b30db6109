import { areaContains, cellSearchView, MAX_ZOOM } from '../geo';
import { decideCell, splitCell, DEFAULT_PLANNER_OPTIONS } from '../grid';
import type { PageDriver } from '../browser/page-driver';
import { ContentScriptError, TimeoutError } from '../browser/page-driver';
import type { CollectOptions } from '../messaging/protocol';
import { blockedPageKind, searchUrl } from '../providers/google/urls';
import type { Store } from '../store';
import { failCell, leaseNextCell, releaseCell, renewLease } from '../queue';
import type { Pacer } from './pacing';
import { auditObservation } from '../health/audit';
import { judgeObservation } from './judge';
import { childCells, plannedOf } from './plan';
import type { Cell, CellError, Observation, Sweep } from './types';
import type { Viewport } from '../geo/types';

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
  /** Badge, notification: the sweep needs the user (captcha, consent, page changed) or finished. */
  attention(sweep: Sweep, reason: 'blocked' | 'consent' | 'signed-out' | 'extractor' | 'finished' | 'quota'): void;
}

export type WorkerExit = 'not-running' | 'finished' | 'paused' | 'failed' | 'tab-closed';

/** Bounds of one collection; the scroll pause comes from the sweep's settings. */
const COLLECT: Omit<CollectOptions, 'scrollPauseMs'> = { cap: DEFAULT_PLANNER_OPTIONS.cap, stallMs: 8000, maxMs: 90_000, settleMs: 15_000 };

export async function runWorker(deps: DriverDeps, sweepId: string, tabId: number): Promise<WorkerExit> {
  const holder = `tab:${tabId}`;
  for (;;) {
    if (!(await deps.page.exists(tabId))) return 'tab-closed';
    // The cell is leased inside this worker's turn for the host, so the pacer's wait (up to
    // minutes of backoff) never eats into the lease.
    const release = await deps.pacer.acquire();
    let sweep: Sweep | undefined;
    let cell: Cell | null = null;
    try {
      sweep = await deps.store.getSweep(sweepId);
      if (!sweep || sweep.status !== 'running') return 'not-running';
      cell = await leaseNextCell(deps.store, { sweepId, holder, now: deps.now(), leaseMs: leaseMsOf(sweep) });
    } finally {
      if (!cell) release();
    }
    if (!cell) {
      const open = await deps.store.countOpenCells(sweepId);
      if (open.total === 0) {
        const finished = await deps.store.patchSweep(sweepId, { status: 'finished', pauseReason: null }, ['running']);
        if (finished) deps.attention(finished, 'finished');
        return 'finished';
      }
      // Everything left is leased by another worker or waiting out its backoff.
      await deps.sleep(Math.max(500, Math.min(5000, open.nextAvailableAt - deps.now())));
      continue;
    }
    let exit: WorkerExit | undefined;
    try {
      exit = await visitCell(deps, sweep, cell, tabId, holder, release);
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
 * One step's worth (a load or a collection at its time limit): the lease is renewed between
 * the two, so a slow cell keeps it, while a cell whose worker died is free again soon.
 */
function leaseMsOf(sweep: Sweep): number {
  return sweep.settings.cellTimeoutMs + 30_000;
}

/** One cell, start to finish. Returns a reason to stop this worker, or undefined to go on. */
async function visitCell(
  deps: DriverDeps,
  sweep: Sweep,
  cell: Cell,
  tabId: number,
  holder: string,
  /** Ends this worker's turn for the host; called once the page has loaded (idempotent). */
  release: () => void,
): Promise<WorkerExit | undefined> {
  const viewport: Viewport = await deps.page.viewport(tabId);
  const view = cellSearchView(cell.bbox, viewport, MAX_ZOOM);
  const url = searchUrl(cell.keyword, view);
  const timeoutMs = sweep.settings.cellTimeoutMs;

  let observation: Observation;
  try {
    const loaded = await deps.page.load(tabId, url, timeoutMs);
    const blocked = blockedPageKind(loaded.url);
    if (blocked) {
      release();
      return await pauseForUser(deps, sweep, cell, holder, {
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
    deps.pacer.penalise();
    const kind = e instanceof TimeoutError ? 'timeout' : 'navigation';
    return await recordFailure(deps, sweep, cell, holder, { kind, message: errorText(e), at: deps.now(), url });
  }
  release();
  await renewLease(deps.store, { cellId: cell.id, holder, now: deps.now(), leaseMs: leaseMsOf(sweep) });

  try {
    observation = await deps.page.collect(
      tabId,
      { ...COLLECT, scrollPauseMs: sweep.settings.scrollPauseMs },
      COLLECT.maxMs + COLLECT.settleMs + 15_000,
    );
  } catch (e) {
    if (e instanceof ContentScriptError) {
      // The extractor itself failed on this page: the same "page changed" stop as cards it cannot read.
      return await failForExtractor(deps, sweep, cell, holder, { kind: 'extractor', message: e.message, at: deps.now(), url });
    }
    deps.pacer.penalise();
    const kind = e instanceof TimeoutError ? 'timeout' : 'navigation';
    return await recordFailure(deps, sweep, cell, holder, { kind, message: errorText(e), at: deps.now(), url });
  }

  deps.pageHidden?.(sweep.id, observation.warnings.some((w) => w.startsWith('page-hidden')));
  // Every page is audited (cards visible vs read vs the page's own responses): the Health
  // panel shows it, and staleness checks trust a quiet search only with a recent audit.
  const audit = auditObservation(observation);
  const judgement = judgeObservation(observation, cell, view, deps.now());
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
    if (error.kind === 'blocked' || error.kind === 'consent' || error.kind === 'limited') return await pauseForUser(deps, sweep, cell, holder, error);
    if (error.kind === 'extractor') return await failForExtractor(deps, sweep, cell, holder, error);
    if (error.kind === 'http' || error.kind === 'timeout') deps.pacer.penalise();
    return await recordFailure(deps, sweep, cell, holder, error);
  }
  deps.pacer.reward();

  const counts = await deps.store.countCells(sweep.id);
  const decision = decideCell(
    {
      pageKind: observation.pageKind === 'results' || observation.pageKind === 'place' ? observation.pageKind : 'no-results',
      organic: judgement.result.organic,
      capHit: judgement.result.capHit,
      endOfList: judgement.result.endOfList,
      requestedZoom: view.zoom,
      finalZoom: observation.finalView?.zoom ?? null,
      insideShare: judgement.result.insideShare,
      bbox: cell.bbox,
      cellsKnown: counts.total,
    },
    { ...DEFAULT_PLANNER_OPTIONS, viewport, maxCells: sweep.settings.maxCells },
  );
  const result = { ...judgement.result, newListings: 0 };
  try {
    await deps.store.commitCell({
      sweepId: sweep.id,
      cellId: cell.id,
      holder,
      now: deps.now(),
      keyword: cell.keyword,
      audit,
      url: observation.url,
      // Places without coordinates cannot be placed outside the area, so they are kept.
      listings: judgement.organic.filter((l) => l.lat === null || l.lng === null || areaContains(sweep.area, { lat: l.lat, lng: l.lng })),
      outcome:
        decision.verdict === 'split'
          ? {
              status: 'split',
              result,
              children: childCells(
                sweep,
                cell,
                splitCell(plannedOf(cell), sweep.area, { ...DEFAULT_PLANNER_OPTIONS, viewport }),
              ),
            }
          : { status: decision.verdict, result },
    });
  } catch (e) {
    if (isQuota(e)) return pauseForQuota(deps, sweep, cell, holder, e);
    throw e;
  }
  return undefined;
}

/** The disk is full: everything committed is safe; stop loading pages until the user resumes. */
async function pauseForQuota(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string, e: unknown): Promise<WorkerExit> {
  const error: CellError = { kind: 'internal', message: errorText(e), at: deps.now() };
  await releaseCell(deps.store, { cellId: cell.id, holder }).catch(() => {});
  const paused = await deps.store
    .patchSweep(sweep.id, { status: 'paused', pauseReason: 'quota', problem: error }, ['running'])
    .catch(() => null);
  if (paused) deps.attention(paused, 'quota');
  return 'paused';
}

async function pauseForUser(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string, error: CellError) {
  // Not an attempt of the cell: the site is blocking everyone. No further page load happens
  // until the user presses Resume.
  await releaseCell(deps.store, { cellId: cell.id, holder });
  await deps.store.addEvent({ sweepId: sweep.id, at: error.at, kind: 'error', cellId: cell.id, keyword: cell.keyword, url: error.url, errorKind: error.kind, message: error.message });
  const pauseReason = error.kind === 'blocked' ? 'captcha' : error.kind === 'limited' ? 'signed-out' : 'consent';
  const paused = await deps.store.patchSweep(sweep.id, { status: 'paused', pauseReason, problem: error }, ['running']);
  if (paused) deps.attention(paused, error.kind === 'blocked' ? 'blocked' : error.kind === 'limited' ? 'signed-out' : 'consent');
  return 'paused' as const;
}

async function failForExtractor(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string, error: CellError) {
  // The page changed under the extractor: marking this cell done with zero results would be
  // a silent loss. Stop the whole sweep; nothing already stored is touched.
  await releaseCell(deps.store, { cellId: cell.id, holder });
  await deps.store.addEvent({ sweepId: sweep.id, at: error.at, kind: 'error', cellId: cell.id, keyword: cell.keyword, url: error.url, errorKind: error.kind, message: error.message });
  const failed = await deps.store.patchSweep(sweep.id, { status: 'failed', pauseReason: null, problem: error }, ['running']);
  if (failed) deps.attention(failed, 'extractor');
  return 'failed' as const;
}

async function recordFailure(deps: DriverDeps, sweep: Sweep, cell: Cell, holder: string, error: CellError) {
  await failCell(deps.store, {
    cellId: cell.id,
    holder,
    now: deps.now(),
    error,
    maxAttempts: sweep.settings.maxAttempts,
    random: deps.random,
  });
  return undefined;
}

function isQuota(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === 'quota';
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
