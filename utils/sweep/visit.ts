import { cellSearchView, MAX_ZOOM } from '../geo';
import { CHILDREN_PER_SPLIT, minCellReached, DEFAULT_PLANNER_OPTIONS } from '../grid';
import type { MapView, Viewport } from '../geo/types';
import { blockObservation, ContentScriptError, TimeoutError } from '../browser/page-driver';
import type { MapProvider } from '../providers/types';
import { releaseCell, renewLease } from '../queue';
import { auditObservation } from '../domain/audit-page';
import { judgeObservation } from './judge';
import type { Cell, Observation, SearchedBox, Sweep } from '../domain/sweep';
import {
  calibrationKey,
  initialCalibration,
  planningViewport,
  safeSpan,
  type GeometryCalibration,
  type MeasuredCanvas,
  type SpanLimits,
} from '../coverage/geometry';
import { reopenAfterShrink } from './self-audit';
import type { PageAudit } from '../domain/page-audit';
import type { CalibrationStore } from '../coverage/calibration';
import { assessCoverage, guessCanvas, measuredCanvas } from '../coverage/assess';
import { VIEW_NOT_SHOWN_MESSAGE, reportedProof, requestedBounds } from './bounds-proof';
import { heldCentre, narrower, narrowest, spansOf, viewportOfSpans, type BoxSpans } from './reported-box';
import type { Release } from '../queue/pacing';
import { COLLECT, COLLECT_TIMEOUT_MS, LEASE_MARGIN_MS, loadTimeoutOf, type DriverDeps, type WorkerExit } from './driver-deps';
import { prepareFirstPage, walkPages } from './paged-visit';
import { settleVisit, type Accepted } from './settle-visit';
import { recordFailure, errorText } from './worker-exits';

/**
 * One visit of a cell: the search planned inside what every plausible geometry searches, the
 * page loaded in its turn, judged, its coverage measured on this browser's own calibration,
 * and handed to the settling (settle-visit.ts). A page that reports the box it searched is
 * settled by settleBoundsVisit.
 */

/** One cell, start to finish. Returns a reason to stop this worker, or undefined to go on. */
export async function visitCell(
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

/**
 * The end of a visit to a page that reports the box it searched (provider.boundsSearch: the box
 * taken from the URL; provider.reportedBox: the box of the page's own request around the map
 * view asked for). The proof is that box less the provider's untrusted edge (utils/sweep/
 * bounds-proof.ts reportedProof); no canvas is measured or learnt. A page that did not show its
 * box proves nothing (unprovenVisit).
 */
export async function settleBoundsVisit(
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
export function limitsOf(sweep: Sweep, provider: MapProvider, canvas: MeasuredCanvas): SpanLimits | undefined {
  return sweep.audit?.limits[calibrationKey(provider.id, canvas)];
}

/** True when `after` lost ground on any side of `before` (px spans from the URL centre). */
export function shrank(before: ReturnType<typeof safeSpan>, after: ReturnType<typeof safeSpan>): boolean {
  return after.left > before.left || after.right < before.right || after.top > before.top || after.bottom < before.bottom;
}

/** The stored calibration for this provider and canvas, or a fresh one (nothing learnt yet). */
export async function calibrationFor(store: CalibrationStore, provider: MapProvider, canvas: MeasuredCanvas, now: number): Promise<GeometryCalibration> {
  return (await store.get(calibrationKey(provider.id, canvas))) ?? initialCalibration(canvas, now);
}
