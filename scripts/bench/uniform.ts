/**
 * The baseline public tools use: a uniform grid at one zoom, every cell searched once, no
 * splits. Same page semantics as the sweep (searchCell), so the two are compared like for like.
 */
import { metresPerPixel } from '../../utils/geo';
import type { Area, Viewport } from '../../utils/geo/types';
import { DEFAULT_PLANNER_OPTIONS, planInitialCells } from '../../utils/grid';
import type { World } from '../../tests/replica/world';
import { createBenchPage, keptKeys, searchCell } from './sweep-loop';

/** Cell heights the issue names: zoom 15, 16 and 17 at an 800-px-high viewport (at 37.6°N). */
export const UNIFORM_CELL_KM = ['3.0', '1.5', '0.75'] as const;

/** The finest grid the same-recall search tries: the map's own highest zoom. */
const MAX_UNIFORM_ZOOM = 21;
/** The same-recall search steps this far in zoom, then halves the step this many times. */
const ZOOM_STEP = 0.25;
const REFINE_STEPS = 4;

export interface UniformFigures {
  zoom: number;
  /** Height of a cell (= of the view), km, at the area's centre latitude. */
  cellKm: number;
  searches: number;
  recall: number;
}

/** The zoom at which the view is `cellKm` high at latitude `lat`. */
export function zoomForCellKm(cellKm: number, lat: number, viewport: Viewport): number {
  return Math.log2((metresPerPixel(lat, 0) * viewport.height) / (cellKm * 1000));
}

export interface UniformInput {
  world: World;
  area: Area;
  keyword: string;
  viewport: Viewport;
  truth: ReadonlySet<string>;
}

/** Every cell of the grid planned at `zoom` searched once. */
export async function runUniformGrid(input: UniformInput, zoom: number): Promise<UniformFigures> {
  const { area, viewport } = input;
  const cells = planInitialCells(area, { ...DEFAULT_PLANNER_OPTIONS, viewport, startZoom: zoom, maxCells: Number.MAX_SAFE_INTEGER });
  const page = createBenchPage(input.world, viewport);
  const found = new Set<string>();
  for (const cell of cells) {
    if (cell.outside) continue;
    const s = await searchCell(page, input.keyword, cell.bbox, viewport);
    for (const key of keptKeys(area, s.organic)) found.add(key);
  }
  const lat = (area.bbox.south + area.bbox.north) / 2;
  return {
    zoom,
    cellKm: (metresPerPixel(lat, zoom) * viewport.height) / 1000,
    searches: page.loads,
    recall: recallOf(found, input.truth),
  };
}

/**
 * The cheapest uniform grid whose recall reaches `target`: zoom steps of 1/4 from 15 until one
 * does, then bisection between the last that did not and the first that did. Recall is not
 * strictly monotone in the zoom (grid lines move), so this is the cheapest among the grids
 * tried, not a proof; null when even zoom 21 falls short.
 */
export async function uniformAtRecall(input: UniformInput, target: number, fromZoom = 15): Promise<UniformFigures | null> {
  let below = fromZoom - ZOOM_STEP;
  let reached: UniformFigures | null = null;
  for (let zoom = fromZoom; zoom <= MAX_UNIFORM_ZOOM; zoom += ZOOM_STEP) {
    const figures = await runUniformGrid(input, zoom);
    if (figures.recall >= target) {
      reached = figures;
      break;
    }
    below = zoom;
  }
  if (!reached) return null;
  let best = reached;
  let lo = below;
  let hi = reached.zoom;
  for (let i = 0; i < REFINE_STEPS; i++) {
    const mid = (lo + hi) / 2;
    const figures = await runUniformGrid(input, mid);
    if (figures.recall >= target) {
      hi = mid;
      if (figures.searches < best.searches) best = figures;
    } else {
      lo = mid;
    }
  }
  return best;
}

export function recallOf(found: ReadonlySet<string>, truth: ReadonlySet<string>): number {
  if (truth.size === 0) return 1;
  let hit = 0;
  for (const key of truth) if (found.has(key)) hit++;
  return hit / truth.size;
}
