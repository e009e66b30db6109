/**
 * Search efficiency on one world: the adaptive planner against the lower bound, the uniform
 * grids public tools use, and the floor of its own splitting scheme.
 */
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import type { Viewport } from '../../utils/geo/types';
import { quadtreeFloor } from './floor';
import { MIDPOINT_SPLIT, PLAN_SPLIT, runSweepLoop, type SplitPolicy } from './sweep-loop';
import { recallOf, runUniformGrid, UNIFORM_CELL_KM, uniformAtRecall, zoomForCellKm, type UniformFigures } from './uniform';
import type { BenchWorld } from './worlds';

/** The issue's targets. */
export const TARGETS = { recall: 0.995, searchesOverLowerBound: 2, shareOfUniform: 1 / 3 } as const;

export interface SweepFigures {
  policy: string;
  searches: number;
  recall: number;
  /** Cells searched, by decideCell's reason. */
  reasons: Record<string, number>;
  preSplit: number;
  saturated: number;
}

export interface WorldFigures {
  label: string;
  places_total: number;
  area: string;
  keyword: string;
  places_matching: number;
  recall: number;
  searches: number;
  lower_bound: number;
  searches_over_lower_bound: number;
  /** Fewest searches a midpoint quadtree could make knowing every count (see floor.ts). */
  quadtree_floor: number;
  decisions: Record<string, number>;
  pre_split_cells: number;
  saturated_cells: number;
  /** The same sweep with the driver's split as it is today (midpoint only). */
  midpoint_only: { searches: number; recall: number };
  uniform: Record<string, { searches: number; recall: number; zoom: number }>;
  uniform_searches_at_same_recall: number | null;
  uniform_at_same_recall: { zoom: number; cell_km: number; recall: number } | null;
  targets_met: { recall: boolean; searches_le_2x_lower_bound: boolean; le_third_of_uniform: boolean };
}

async function sweep(bw: BenchWorld, policy: SplitPolicy, viewport: Viewport): Promise<SweepFigures> {
  const r = await runSweepLoop({ world: bw.world, area: bw.area, keyword: bw.keyword, viewport, policy });
  return { policy: policy.name, searches: r.searches, recall: recallOf(r.found, bw.truth), reasons: r.reasons, preSplit: r.preSplit, saturated: r.saturated };
}

export async function measureWorld(bw: BenchWorld, viewport: Viewport = DEFAULT_VIEWPORT, log: (line: string) => void = () => {}): Promise<WorldFigures> {
  const adaptive = await sweep(bw, PLAN_SPLIT, viewport);
  const midpoint = await sweep(bw, MIDPOINT_SPLIT, viewport);
  log(`  ${bw.spec.name}: adaptive ${adaptive.searches} searches, midpoint-only ${midpoint.searches}`);
  const input = { world: bw.world, area: bw.area, keyword: bw.keyword, viewport, truth: bw.truth };
  const lat = (bw.area.bbox.south + bw.area.bbox.north) / 2;
  const uniform: WorldFigures['uniform'] = {};
  for (const km of UNIFORM_CELL_KM) {
    const u = await runUniformGrid(input, zoomForCellKm(Number(km), lat, viewport));
    uniform[km] = { searches: u.searches, recall: round(u.recall, 5), zoom: round(u.zoom, 2) };
  }
  const same: UniformFigures | null = await uniformAtRecall(input, adaptive.recall);
  log(`  ${bw.spec.name}: uniform grid at the same recall ${same ? `${same.searches} searches (zoom ${same.zoom.toFixed(2)})` : 'not reached'}`);
  const lowerBound = Math.ceil(bw.truth.size / 120);
  return {
    label: bw.spec.label,
    places_total: bw.world.places.length,
    area: bw.areaText,
    keyword: bw.keyword,
    places_matching: bw.truth.size,
    recall: round(adaptive.recall, 5),
    searches: adaptive.searches,
    lower_bound: lowerBound,
    searches_over_lower_bound: round(adaptive.searches / lowerBound, 2),
    quadtree_floor: quadtreeFloor(bw.world, bw.area, bw.keyword, viewport),
    decisions: adaptive.reasons,
    pre_split_cells: adaptive.preSplit,
    saturated_cells: adaptive.saturated,
    midpoint_only: { searches: midpoint.searches, recall: round(midpoint.recall, 5) },
    uniform,
    uniform_searches_at_same_recall: same?.searches ?? null,
    uniform_at_same_recall: same ? { zoom: round(same.zoom, 3), cell_km: round(same.cellKm, 3), recall: round(same.recall, 5) } : null,
    targets_met: {
      recall: adaptive.recall >= TARGETS.recall,
      searches_le_2x_lower_bound: adaptive.searches <= TARGETS.searchesOverLowerBound * lowerBound,
      le_third_of_uniform: same !== null && adaptive.searches <= TARGETS.shareOfUniform * same.searches,
    },
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
