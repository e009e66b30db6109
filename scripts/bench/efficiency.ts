/**
 * Search efficiency on one world: the adaptive planner against the lower bound, the uniform
 * grids public tools use, and the floor of its own splitting scheme.
 */
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import type { Viewport } from '../../utils/geo/types';
import { quadtreeFloor } from './floor';
import { round } from './stats';
import { runSweepLoop } from './sweep-loop';
import { recallOf, runUniformGrid, UNIFORM_CELL_KM, uniformAtRecall, zoomForCellKm, type UniformFigures } from './uniform';
import type { BenchWorld } from './worlds';

/** The issue's targets. */
export const TARGETS = { recall: 0.995, searchesOverLowerBound: 2, shareOfUniform: 1 / 3 } as const;

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
  /** Searched cells by decideCell's reason. */
  decisions: Record<string, number>;
  saturated_cells: number;
  uniform: Record<string, { searches: number; recall: number; zoom: number }>;
  uniform_searches_at_same_recall: number | null;
  uniform_at_same_recall: { zoom: number; cell_km: number; recall: number } | null;
  targets_met: { recall: boolean; searches_le_2x_lower_bound: boolean; le_third_of_uniform: boolean };
}

export async function measureWorld(bw: BenchWorld, viewport: Viewport = DEFAULT_VIEWPORT, log: (line: string) => void = () => {}): Promise<WorldFigures> {
  const sweep = await runSweepLoop({ world: bw.world, area: bw.area, keyword: bw.keyword, viewport });
  const recall = recallOf(sweep.found, bw.truth);
  log(`  ${bw.spec.name}: adaptive planner ${sweep.searches} searches, recall ${recall}`);
  const input = { world: bw.world, area: bw.area, keyword: bw.keyword, viewport, truth: bw.truth };
  const lat = (bw.area.bbox.south + bw.area.bbox.north) / 2;
  const uniform: WorldFigures['uniform'] = {};
  for (const km of UNIFORM_CELL_KM) {
    const u = await runUniformGrid(input, zoomForCellKm(Number(km), lat, viewport));
    uniform[km] = { searches: u.searches, recall: round(u.recall, 5), zoom: round(u.zoom, 2) };
  }
  const same: UniformFigures | null = await uniformAtRecall(input, recall);
  log(`  ${bw.spec.name}: uniform grid at the same recall ${same ? `${same.searches} searches (zoom ${same.zoom.toFixed(2)})` : 'not reached'}`);
  const lowerBound = Math.ceil(bw.truth.size / 120);
  return {
    label: bw.spec.label,
    places_total: bw.world.places.length,
    area: bw.areaText,
    keyword: bw.keyword,
    places_matching: bw.truth.size,
    recall: round(recall, 5),
    searches: sweep.searches,
    lower_bound: lowerBound,
    searches_over_lower_bound: round(sweep.searches / lowerBound, 2),
    quadtree_floor: quadtreeFloor(bw.world, bw.area, bw.keyword, viewport),
    decisions: sweep.reasons,
    saturated_cells: sweep.saturated,
    uniform,
    uniform_searches_at_same_recall: same?.searches ?? null,
    uniform_at_same_recall: same ? { zoom: round(same.zoom, 3), cell_km: round(same.cellKm, 3), recall: round(same.recall, 5) } : null,
    targets_met: {
      recall: recall >= TARGETS.recall,
      searches_le_2x_lower_bound: sweep.searches <= TARGETS.searchesOverLowerBound * lowerBound,
      le_third_of_uniform: same !== null && sweep.searches <= TARGETS.shareOfUniform * same.searches,
    },
  };
}
