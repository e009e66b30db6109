import { haversineMetres, parseAreaText } from '../geo';
import type { BBox, LatLng, MapView, Viewport } from '../geo/types';
import { checkCellBudget, estimateSweep, planInitialCells, DEFAULT_PLANNER_OPTIONS } from '../grid';
import type { PlannedCell } from '../grid';
import type { EstimateReply } from '../messaging/protocol';
import type { UserError } from '../domain/errors';
import { initialCounters } from '../domain/counters';
import { parseKeywords } from '../config/keywords';
import type { Cell, Sweep, SweepSettings } from '../domain/sweep';
import type { MapProvider } from '../providers/types';

/** Assumed seconds per cell beyond the pacing delay: load, scroll to the end, extract. */
const SECONDS_PER_CELL_WORK = 12;

export interface SweepInput {
  areaText: string;
  keywordsText: string;
  settings: SweepSettings;
  viewport: Viewport;
  origin: MapView | null;
  /** The map site swept; absent: Google. Its cap and zooms plan the cells. */
  provider?: MapProvider;
}

export type PlanResult = { ok: true; sweep: Sweep; cells: Cell[]; estimate: EstimateReply } | { ok: false; error: UserError };

/**
 * Everything that is checked before a sweep exists: area, keywords, cell budget. Pure: a
 * refused input writes nothing, because nothing is written until this says ok.
 */
export function planSweep(input: SweepInput, id: string, now: number): PlanResult {
  const area = parseAreaText(input.areaText);
  if (!area.ok) return { ok: false, error: area.error };
  const keywords = parseKeywords(input.keywordsText);
  if (!keywords.ok) return { ok: false, error: keywords.error };

  const opts = { ...DEFAULT_PLANNER_OPTIONS, ...input.provider?.planner, viewport: input.viewport, maxCells: input.settings.maxCells };
  const budget = checkCellBudget(area.area, keywords.keywords.length, opts);
  if (budget) return { ok: false, error: budget };

  const planned = planInitialCells(area.area, opts);
  const secondsPerCell = SECONDS_PER_CELL_WORK + (input.settings.delayMs + input.settings.jitterMs / 2) / 1000;
  const est = estimateSweep(area.area, keywords.keywords.length, opts, { secondsPerCell });
  const origin: LatLng = input.origin ?? {
    lat: (area.area.bbox.south + area.area.bbox.north) / 2,
    lng: (area.area.bbox.west + area.area.bbox.east) / 2,
  };
  const sweep: Sweep = {
    id,
    ...(input.provider ? { provider: input.provider.id } : {}),
    createdAt: now,
    area: area.area,
    keywords: keywords.keywords,
    settings: input.settings,
    status: 'running',
    pauseReason: null,
    problem: null,
    origin: input.origin,
    counters: initialCounters([]),
    lastNewListingAt: null,
    updatedAt: now,
  };
  const cells: Cell[] = [];
  keywords.keywords.forEach((keyword, keywordIndex) => {
    for (const p of planned) cells.push(cellRecord(sweep, keyword, keywordIndex, p, null, origin));
  });
  sweep.counters = initialCounters(cells);
  return {
    ok: true,
    sweep,
    cells,
    estimate: {
      cells: est.searches.typical,
      cellsMin: est.searches.min,
      keywords: keywords.keywords.length,
      seconds: est.seconds.typical,
      secondsMin: est.seconds.min,
      maxCells: input.settings.maxCells,
    },
  };
}

/** The child cells of a split, as records ready for the store. */
export function childCells(sweep: Sweep, parent: Cell, children: PlannedCell[]): Cell[] {
  const origin = originOf(sweep);
  return children.map((p) => cellRecord(sweep, parent.keyword, parent.keywordIndex, p, parent.id, origin));
}

/** Where "near the view first" is measured from: the user's map when the sweep started, else the area's centre. */
function originOf(sweep: Sweep): LatLng {
  return sweep.origin ?? { lat: (sweep.area.bbox.south + sweep.area.bbox.north) / 2, lng: (sweep.area.bbox.west + sweep.area.bbox.east) / 2 };
}

function cellRecord(sweep: Sweep, keyword: string, keywordIndex: number, planned: PlannedCell, parentId: string | null, origin: LatLng): Cell {
  const centre = { lat: (planned.bbox.south + planned.bbox.north) / 2, lng: (planned.bbox.west + planned.bbox.east) / 2 };
  return {
    id: `${sweep.id}/${keywordIndex}/${planned.path}`,
    sweepId: sweep.id,
    keyword,
    keywordIndex,
    bbox: planned.bbox,
    depth: planned.depth,
    ...(planned.zoomOffset ? { zoomOffset: planned.zoomOffset } : {}),
    distance: Math.round(haversineMetres(origin, centre)),
    parentId,
    status: planned.outside ? 'outside' : 'pending',
    leaseUntil: 0,
    leaseHolder: null,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    result: null,
  };
}

/**
 * One audit round's cells: for each sampled done cell, a cell of the same keyword whose box is
 * `shift(done.bbox)`, marked as an audit of it (utils/sweep/self-audit.ts).
 */
export function auditCellsOf(sweep: Sweep, sample: readonly Cell[], round: number, shift: (b: BBox) => BBox): Cell[] {
  const origin = originOf(sweep);
  return sample.map((done, i) => ({
    ...cellRecord(sweep, done.keyword, done.keywordIndex, { path: `a${round}-${i}`, bbox: shift(done.bbox), depth: done.depth, outside: false }, null, origin),
    role: 'audit' as const,
    auditOf: done.id,
  }));
}

/** The planner's view of a stored cell (its path is the id after `{sweepId}/{keywordIndex}/`). */
export function plannedOf(cell: Cell): PlannedCell {
  return {
    path: cell.id.split('/').slice(2).join('/'),
    bbox: cell.bbox,
    depth: cell.depth,
    outside: cell.status === 'outside',
    ...(cell.zoomOffset ? { zoomOffset: cell.zoomOffset } : {}),
  };
}
