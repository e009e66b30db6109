import type { Area, AreaError } from '../geo/types';
import { bboxAreaKm2, polygonsAreaKm2 } from '../geo/polygon';
import type { PlannerOptions, SweepEstimate } from './types';
import { DEFAULT_PLANNER_OPTIONS } from './options';
import { forEachInitialCell, gridSize } from './plan';

/**
 * Searches per searchable initial cell in a typical sweep. NOT MEASURED: a planning
 * assumption. Each split costs 4 more searches, so 2× is what one cell in four splitting
 * once gives; a dense city centre with a broad keyword can need 5× or more, open country 1×.
 */
export const TYPICAL_SPLIT_FACTOR = 2;

/** Beyond this many cells per keyword the grid is not classified cell by cell (it is refused anyway). */
const CLASSIFY_LIMIT = 100_000;

export interface Pacing {
  /** Average wall time per cell search (page load, scrolling, delay between loads). */
  secondsPerCell: number;
}

/**
 * What a sweep will cost before it starts. Only the initial grid is known: how often cells
 * split depends on what the searches find, so `min` is a lower bound and `typical` a guess.
 */
export function estimateSweep(area: Area, keywordCount: number, opts: PlannerOptions, pacing: Pacing): SweepEstimate {
  const { rows, cols } = gridSize(area.bbox, opts);
  const cellsPerKeyword = rows * cols;
  let searchablePerKeyword = cellsPerKeyword;
  let searchableExact = true;
  if (area.kind === 'polygon') {
    if (cellsPerKeyword <= CLASSIFY_LIMIT) {
      searchablePerKeyword = 0;
      forEachInitialCell(area, opts, (cell) => {
        if (!cell.outside) searchablePerKeyword++;
      });
    } else {
      // Cells the boundary crosses are searchable too, so this undercounts; good enough to refuse with.
      const share = Math.min(1, polygonsAreaKm2(area.polygons) / bboxAreaKm2(area.bbox));
      searchablePerKeyword = Math.max(1, Math.round(cellsPerKeyword * share));
      searchableExact = false;
    }
  }
  const keywords = Math.max(0, Math.floor(keywordCount));
  const min = searchablePerKeyword * keywords;
  const typical = Math.round(min * TYPICAL_SPLIT_FACTOR);
  return {
    rows,
    cols,
    cellsPerKeyword,
    searchablePerKeyword,
    searchableExact,
    keywords,
    initialCells: cellsPerKeyword * keywords,
    searches: { min, typical },
    seconds: { min: min * pacing.secondsPerCell, typical: typical * pacing.secondsPerCell },
  };
}

/**
 * Refuses a sweep whose initial grid alone (outside cells included, as the store holds
 * them) would exceed the cell cap: such a sweep could never split a single cell.
 */
export function checkCellBudget(area: Area, keywordCount: number, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): AreaError | null {
  const { rows, cols } = gridSize(area.bbox, opts);
  const keywords = Math.max(1, Math.floor(keywordCount));
  const cells = rows * cols * keywords;
  if (cells <= opts.maxCells) return null;
  const fmt = (n: number) => n.toLocaleString('en-US');
  const perKeyword = keywords > 1 ? ` (${fmt(rows * cols)} for each of ${keywords} keywords)` : '';
  return {
    code: 'too-large',
    message:
      `This area would need ${fmt(cells)} grid cells at zoom ${opts.startZoom}${perKeyword}, ` +
      `more than the ${fmt(opts.maxCells)} one sweep may hold. Choose a smaller area or fewer keywords.`,
    params: { cells, perKeyword: rows * cols, keywords, max: opts.maxCells, zoom: opts.startZoom },
  };
}
