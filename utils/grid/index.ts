export type {
  CellDecision,
  CellDecisionInput,
  CellDecisionReason,
  CellVerdict,
  PlannedCell,
  PlannerOptions,
  SweepEstimate,
} from './types';
export {
  DEFAULT_MAX_CELLS,
  DEFAULT_MAX_SEARCH_ZOOM,
  DEFAULT_PLANNER_OPTIONS,
  DEFAULT_START_ZOOM,
  RESULT_CAP,
} from './options';
export { gridSize, planInitialCells, type GridSize } from './plan';
export { CHILDREN_PER_SPLIT, midpoint, minCellReached, quadrants, splitCell } from './split';
export { decideCell, widenedCell, isUnresolved, CAP_MARGIN, WIDEN_ZOOM_OFFSET } from './decide';
export { TYPICAL_SPLIT_FACTOR, checkCellBudget, estimateSweep, type Pacing } from './estimate';
