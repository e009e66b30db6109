/**
 * A sweep in memory: the driver's steps for one cell (view → page → judge → decide → split)
 * without the store and the queue, so the bench can run sweeps over worlds of tens of
 * thousands of places in about a second. Each step calls what the driver calls;
 * tests/unit/bench-loop.test.ts and the bench's driver check verify that it makes exactly
 * the page loads and keeps exactly the places of the real driver (simSweep).
 */
import { areaContains } from '../../utils/geo';
import type { Area, BBox, MapView, Viewport } from '../../utils/geo/types';
import { decideCell, DEFAULT_PLANNER_OPTIONS, isUnresolved, planInitialCells, splitCell, widenedCell } from '../../utils/grid';
import { searchViewOf } from '../../utils/sweep/driver';
import type { CellDecision, PlannedCell, PlannerOptions } from '../../utils/grid';
import type { Listing } from '../../utils/domain/listing';
import { searchUrl } from '../../utils/providers/google/urls';
import { judgeObservation } from '../../utils/sweep/judge';
import { googleProvider } from '../../utils/providers/google/provider';
import { assessCoverage, guessCanvas, measuredCanvas } from '../../utils/coverage/assess';
import { boxCovers, initialCalibration, planningViewport, searchedBoxOf, type GeometryCalibration, type MeasuredCanvas } from '../../utils/coverage/geometry';
import type { Observation } from '../../utils/domain/sweep';
import { createSimPageDriver, type SimPageDriver } from '../../tests/helpers/sim-page-driver';
import type { SearchSwitches } from '../../tests/replica/search';
import type { World } from '../../tests/replica/world';

/** The replica as the bench searches it: signed in, and zooming out when a view is sparse (as Google does). */
export const BENCH_SWITCHES: SearchSwitches = { signedIn: true, sparseZoomOut: true };

/** One tab's worth of the sim: the same page semantics for the sweep and the uniform grids. */
export function createBenchPage(world: World, viewport: Viewport, switches: SearchSwitches = BENCH_SWITCHES): SimPageDriver {
  return createSimPageDriver(world, { viewport, switches });
}

export interface CellSearch {
  view: MapView;
  observation: Observation;
  /** Organic listings, as judged (the sim never fails a page). */
  organic: Listing[];
  result: { organic: number; capHit: boolean; endOfList: boolean; insideShare: number };
}

/** Loads and reads one cell's search exactly as the driver does (the view, the URL, the judge). */
export async function searchCell(page: SimPageDriver, keyword: string, bbox: BBox, viewport: Viewport, zoomOffset = 0): Promise<CellSearch> {
  const view = searchViewOf({ bbox, zoomOffset }, viewport);
  await page.load(1, searchUrl(keyword, view), 0);
  const observation = await page.collect(1, { cap: DEFAULT_PLANNER_OPTIONS.cap, stallMs: 0, maxMs: 0, settleMs: 0, scrollPauseMs: 0 }, 0);
  const judgement = judgeObservation(observation, { bbox }, view, 0, googleProvider);
  if (judgement.verdict !== 'accepted') throw new Error(`bench: the sim page failed: ${judgement.error.message}`);
  return { view, observation, organic: judgement.organic, result: judgement.result };
}

/** What the driver keeps of a search: places inside the area, and those without coordinates. */
export function keptKeys(area: Area, organic: readonly Listing[]): string[] {
  return organic.filter((l) => l.lat === null || l.lng === null || areaContains(area, { lat: l.lat, lng: l.lng })).map((l) => l.key);
}

export interface LoopOptions {
  world: World;
  area: Area;
  keyword: string;
  viewport: Viewport;
  switches?: SearchSwitches;
  /** Planner options over DEFAULT_PLANNER_OPTIONS (the viewport is always the one above). */
  planner?: Partial<PlannerOptions>;
  /**
   * Learn the searched rectangle from the results, as the driver does (default true). False:
   * "uncalibrated", the calibration never changes, every cell is planned and judged on the
   * starting bounds (what every plausible geometry searches before any evidence).
   */
  learn?: boolean;
  /** Told each searched cell's decision and result: lets a bench look inside a sweep. */
  onSearched?: (cell: PlannedCell, decision: CellDecision, result: CellSearch['result']) => void;
}

export interface LoopResult {
  searches: number;
  /** Keys (google:{cid}) kept, as the driver would store them. */
  found: Set<string>;
  /** How many searched cells ended with each decideCell reason. */
  reasons: Record<string, number>;
  /** Searches that led to more searches of the same ground: splits, and widened re-searches. */
  splits: number;
  /** Cells reported saturated (every saturated verdict, the unresolved ones included). */
  saturated: number;
  /** Of those, the ones not proven for another reason than crowding at the deepest zoom (isUnresolved). */
  unresolved: number;
  /** The boxes of the saturated cells (unresolved included): places there may be missing, as the popup says. */
  saturatedBoxes: BBox[];
  /** The calibration learnt by the end; null when nothing was stored (always, when `learn` is false). */
  calibration: GeometryCalibration | null;
}

export async function runSweepLoop(o: LoopOptions): Promise<LoopResult> {
  const learn = o.learn ?? true;
  // As the driver: a cell is planned inside the safe searched box of the canvas the tab showed
  // last (the tab's own size before the first page measured itself), with the calibration stored,
  // or a fresh one from that canvas when nothing is stored yet. Every search's evidence is
  // stored; `learn: false` never stores.
  const page = createBenchPage(o.world, o.viewport, o.switches);
  let planned: MeasuredCanvas = guessCanvas(o.viewport);
  let stored: GeometryCalibration | null = null;
  const calibrationFor = (canvas: MeasuredCanvas): GeometryCalibration => stored ?? initialCalibration(canvas, 0);
  // The initial grid is the controller's (planSweep): sized with the tab's viewport.
  const opts: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, ...o.planner, viewport: o.viewport };
  // Breadth first, as the queue leases coarse cells before fine ones.
  const queue: PlannedCell[] = planInitialCells(o.area, opts);
  let cellsKnown = queue.length;
  const found = new Set<string>();
  const reasons: Record<string, number> = {};
  const saturatedBoxes: BBox[] = [];
  let saturated = 0;
  let unresolved = 0;
  let splits = 0;
  for (let i = 0; i < queue.length; i++) {
    const cell = queue[i]!;
    if (cell.outside) continue;
    const cellOpts: PlannerOptions = { ...opts, viewport: planningViewport(calibrationFor(planned)) };
    const s = await searchCell(page, o.keyword, cell.bbox, cellOpts.viewport, cell.zoomOffset ?? 0);
    const measured = measuredCanvas(s.observation, planned);
    const before = calibrationFor(measured);
    const coverage = assessCoverage({
      observation: s.observation,
      organic: s.organic,
      cellBox: cell.bbox,
      requested: s.view,
      planned,
      calibration: before,
      now: 0,
    });
    planned = measured;
    if (learn && coverage.calibration !== before) stored = coverage.calibration;
    if (coverage.searchAgain) {
      // The canvas differed from the guess: the driver releases the cell and searches it again.
      i--;
      continue;
    }
    // Uncalibrated: what the search proved is judged on the bounds it was planned with.
    const covered = learn ? coverage.covered : boxCovers(searchedBoxOf(coverage.searchedView, before), cell.bbox);
    const decision: CellDecision = decideCell(
      {
        pageKind: s.observation.pageKind === 'results' || s.observation.pageKind === 'place' ? s.observation.pageKind : 'no-results',
        organic: s.result.organic,
        capHit: s.result.capHit,
        endOfList: s.result.endOfList,
        requestedZoom: s.view.zoom,
        finalZoom: s.observation.finalView?.zoom ?? null,
        insideShare: s.result.insideShare,
        bbox: cell.bbox,
        cellsKnown,
        covered,
        zoomOffset: cell.zoomOffset ?? 0,
      },
      cellOpts,
    );
    reasons[decision.reason] = (reasons[decision.reason] ?? 0) + 1;
    o.onSearched?.(cell, decision, s.result);
    for (const key of keptKeys(o.area, s.organic)) found.add(key);
    if (decision.verdict === 'saturated') {
      saturated++;
      if (isUnresolved(decision.reason)) unresolved++;
      saturatedBoxes.push(cell.bbox);
    }
    if (decision.verdict === 'widen' || decision.verdict === 'split') splits++;
    const children = decision.verdict === 'widen' ? [widenedCell(cell)] : decision.verdict === 'split' ? splitCell(cell, o.area, cellOpts) : [];
    queue.push(...children);
    cellsKnown += children.length;
  }
  return { searches: page.loads, found, reasons, splits, saturated, unresolved, saturatedBoxes, calibration: stored };
}
