import type { Area, BBox } from '../geo/types';
import { latToWorldY, lngToWorldX, worldYToLat } from '../geo/mercator';
import { createPolygonIndex } from '../geo/polygon-index';
import type { PlannedCell, PlannerOptions } from './types';
import { DEFAULT_PLANNER_OPTIONS } from './options';

export interface GridSize {
  rows: number;
  cols: number;
}

/**
 * Rows × cols of equal cells over `bbox`, each fitting one search at `opts.startZoom`.
 * "Equal" is on the map, not in degrees: rows have equal Mercator height, so a row near the
 * pole spans fewer degrees but the same pixels, and every row fits the same zoom.
 */
export function gridSize(bbox: BBox, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): GridSize {
  const scale = 2 ** opts.startZoom;
  const cellW0 = (opts.viewport.width - opts.viewport.panelWidth) / scale;
  const cellH0 = opts.viewport.height / scale;
  const w0 = lngToWorldX(bbox.east, 0) - lngToWorldX(bbox.west, 0);
  const h0 = latToWorldY(bbox.south, 0) - latToWorldY(bbox.north, 0);
  return { rows: Math.max(1, Math.ceil(h0 / cellH0)), cols: Math.max(1, Math.ceil(w0 / cellW0)) };
}

/**
 * Visits every initial cell, classifying it against the area's polygon. Edges are computed
 * once, so neighbours share them bit-for-bit, and the outer ones are the bbox's own.
 */
export function forEachInitialCell(area: Area, opts: PlannerOptions, visit: (cell: PlannedCell) => void): GridSize {
  const { bbox } = area;
  const size = gridSize(bbox, opts);
  const { rows, cols } = size;
  const yNorth = latToWorldY(bbox.north, 0);
  const ySouth = latToWorldY(bbox.south, 0);
  const latEdges = Array.from({ length: rows + 1 }, (_, k) =>
    k === 0 ? bbox.north : k === rows ? bbox.south : worldYToLat(yNorth + ((ySouth - yNorth) * k) / rows, 0),
  );
  const lngEdges = Array.from({ length: cols + 1 }, (_, k) =>
    k === 0 ? bbox.west : k === cols ? bbox.east : bbox.west + ((bbox.east - bbox.west) * k) / cols,
  );
  const index = area.kind === 'polygon' ? createPolygonIndex(area.polygons) : null;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cellBox = { north: latEdges[r]!, south: latEdges[r + 1]!, west: lngEdges[c]!, east: lngEdges[c + 1]! };
      visit({
        path: `r${r}c${c}`,
        bbox: cellBox,
        depth: 0,
        outside: index ? index.classify(cellBox) === 'outside' : false,
      });
    }
  }
  return size;
}

/**
 * The initial grid for one keyword. Throws when it alone exceeds `opts.maxCells`: callers
 * check `checkCellBudget` first, so this only stops a runaway (e.g. a country at zoom 14).
 */
export function planInitialCells(area: Area, opts: PlannerOptions = DEFAULT_PLANNER_OPTIONS): PlannedCell[] {
  const { rows, cols } = gridSize(area.bbox, opts);
  if (rows * cols > opts.maxCells) {
    throw new RangeError(`The initial grid needs ${rows * cols} cells, over the cap of ${opts.maxCells}; check checkCellBudget first.`);
  }
  const cells: PlannedCell[] = [];
  forEachInitialCell(area, opts, (cell) => cells.push(cell));
  return cells;
}
