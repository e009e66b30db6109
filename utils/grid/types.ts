import type { BBox, Viewport } from '../geo/types';
import type { CellDecisionReason } from '../domain/sweep';

export type { CellDecisionReason } from '../domain/sweep';

export interface PlannerOptions {
  /** The map tab's size: a cell is sized to what one search there lists. */
  viewport: Viewport;
  /** The initial grid's cells each fit one search at this zoom. */
  startZoom: number;
  /** Cells are not split once their children would need a higher zoom than this. */
  maxZoom: number;
  /** Cells one sweep may hold, all keywords together: the guard against endless splitting. */
  maxCells: number;
  /** Results a search lists at most (Google: 120, spec §1.3). */
  cap: number;
}

/** A cell as the planner makes it; the sweep store adds ids, status and leases. */
export interface PlannedCell {
  /** `r{row}c{col}` (row 0 is the northernmost), then `.{0-3}` per split (NW, NE, SW, SE). */
  path: string;
  bbox: BBox;
  /** 0 for the initial grid, +1 per split. */
  depth: number;
  /** Wholly outside the area's polygon: never searched. */
  outside: boolean;
  /**
   * Zoom levels added to the zoom the cell fits (negative: a wider view than the cell). Set on
   * the re-search of a cell whose own search the site widened by itself and then capped.
   */
  zoomOffset?: number;
}

/** What one search of a cell showed, reduced to what the split decision needs. */
export interface CellDecisionInput {
  pageKind: 'results' | 'place' | 'no-results';
  /** Organic (non-sponsored) results listed. */
  organic: number;
  /** The list reached the site's cap. */
  capHit: boolean;
  /** The page showed "You've reached the end of the list." */
  endOfList: boolean;
  requestedZoom: number;
  /** The zoom the page ended on, or null when unknown. */
  finalZoom: number | null;
  /** Fraction of organic results whose coordinates lie inside the cell; 1 when none have any. */
  insideShare: number;
  bbox: BBox;
  /** Cells the sweep holds now, all keywords together. */
  cellsKnown: number;
  /** The box the page surely searched (measured view, calibrated geometry) holds the whole cell; absent = true. */
  covered?: boolean;
  /** The cell's zoom offset (PlannedCell.zoomOffset); absent = 0. */
  zoomOffset?: number;
}

/** 'widen': search the same cell again with a wider view (widenedCell). */
export type CellVerdict = 'done' | 'split' | 'widen' | 'saturated';

// an audit search (utils/coverage/audit.ts): checks done cells, decides nothing itself

export interface CellDecision {
  verdict: CellVerdict;
  reason: CellDecisionReason;
}

export interface SweepEstimate {
  /** The initial grid over the area's bbox (rows × cols cells per keyword). */
  rows: number;
  cols: number;
  /** Initial cells per keyword, outside ones included: what the store holds before any split. */
  cellsPerKeyword: number;
  /** Of those, the cells that will be searched (not wholly outside the polygon). */
  searchablePerKeyword: number;
  /** False when the grid was too large to classify and searchable cells were estimated from areas. */
  searchableExact: boolean;
  keywords: number;
  /** cellsPerKeyword × keywords: what the cell cap is checked against. */
  initialCells: number;
  /**
   * Page loads. `min` is a true lower bound: every searchable initial cell once, no splits.
   * `typical` assumes TYPICAL_SPLIT_FACTOR (an assumption, not a measurement).
   */
  searches: { min: number; typical: number };
  seconds: { min: number; typical: number };
}
