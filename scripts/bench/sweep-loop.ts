/**
 * A sweep in memory: the driver's per-cell steps (view → search → judge → decide → split)
 * without the store and queue, so a benchmark can try planner policies over worlds of tens
 * of thousands of places in seconds. Each step calls the same functions the driver calls;
 * `bench-loop-parity.test.ts` checks that with the driver's own split policy this loop
 * makes exactly the searches and finds exactly the places the real driver does (simSweep).
 */
import { areaContains, cellSearchView, MAX_ZOOM } from '../../utils/geo';
import type { Area, Viewport } from '../../utils/geo/types';
import { decideCell, DEFAULT_PLANNER_OPTIONS, planInitialCells, splitCell } from '../../utils/grid';
import type { CellDecision, PlannedCell, PlannerOptions } from '../../utils/grid';
import type { Listing } from '../../utils/listing/types';
import { searchUrl } from '../../utils/providers/google/urls';
import { judgeObservation } from '../../utils/sweep/judge';
import type { SearchSwitches } from '../../tests/replica/search';
import type { World } from '../../tests/replica/world';
import { createSimPageDriver } from '../../tests/helpers/sim-page-driver';

/** What a split policy sees of a crowded cell: the same things the driver has at that point. */
export interface SplitContext {
  cell: PlannedCell;
  area: Area;
  opts: PlannerOptions;
  /** Organic listings of the crowded search (all of them, inside the cell or not). */
  organic: readonly Listing[];
  cellsKnown: number;
}

export interface LoopPolicy {
  name: string;
  initialCells(area: Area, opts: PlannerOptions): PlannedCell[];
  split(ctx: SplitContext): { children: PlannedCell[]; reason: string };
}

/** The driver as it is: the planner's initial grid and midpoint splits. */
export const DRIVER_POLICY: LoopPolicy = {
  name: 'midpoint',
  initialCells: (area, opts) => planInitialCells(area, opts),
  split: ({ cell, area, opts }) => ({ children: splitCell(cell, area, opts), reason: 'midpoint' }),
};

export interface LoopOptions {
  world: World;
  area: Area;
  keyword: string;
  viewport: Viewport;
  switches: SearchSwitches;
  policy: LoopPolicy;
  planner?: Partial<PlannerOptions>;
}

export interface CellRecord {
  cell: PlannedCell;
  decision: CellDecision;
  organic: number;
  newListings: number;
  /** Why and how a split cell was divided (the policy's reason). */
  splitReason?: string;
}

export interface LoopResult {
  searches: number;
  /** Keys (google:{cid}) of the listings kept: inside the area, as the driver keeps them. */
  found: Set<string>;
  cells: CellRecord[];
  saturated: number;
}

export async function runSweepLoop(o: LoopOptions): Promise<LoopResult> {
  const opts: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, viewport: o.viewport, ...o.planner };
  const page = createSimPageDriver(o.world, { viewport: o.viewport, switches: o.switches });
  const queue = o.policy.initialCells(o.area, opts);
  let cellsKnown = queue.length;
  const found = new Set<string>();
  const cells: CellRecord[] = [];
  let saturated = 0;
  for (let i = 0; i < queue.length; i++) {
    const cell = queue[i]!;
    if (cell.outside) continue;
    const view = cellSearchView(cell.bbox, o.viewport, MAX_ZOOM);
    await page.load(1, searchUrl(o.keyword, view), 0);
    const observation = await page.collect(1, { cap: opts.cap, stallMs: 0, maxMs: 0, settleMs: 0, scrollPauseMs: 0 }, 0);
    const judgement = judgeObservation(observation, cell, view, 0);
    if (judgement.verdict !== 'accepted') throw new Error(`sweep loop: ${judgement.error.message}`);
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
        cellsKnown,
      },
      opts,
    );
    let newListings = 0;
    for (const l of judgement.organic) {
      if (l.lat !== null && l.lng !== null && !areaContains(o.area, { lat: l.lat, lng: l.lng })) continue;
      if (!found.has(l.key)) newListings++;
      found.add(l.key);
    }
    const record: CellRecord = { cell, decision, organic: judgement.result.organic, newListings };
    if (decision.verdict === 'saturated') saturated++;
    if (decision.verdict === 'split') {
      const { children, reason } = o.policy.split({ cell, area: o.area, opts, organic: judgement.organic, cellsKnown });
      record.splitReason = reason;
      queue.push(...children);
      cellsKnown += children.length;
    }
    cells.push(record);
  }
  return { searches: page.loads, found, cells, saturated };
}
