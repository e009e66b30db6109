/**
 * An experiment the bench measures and the product does not ship: predicted descent (issue 15,
 * "Deliver" 4). Measured with the sweep loop (scripts/bench/sweep-loop.ts `descent: true`):
 * on the tuning seeds (scripts/bench/tune-descent.ts) median −1.7% searches (best −4.6%,
 * worst +6.5%) at its best constants; on the reporting seeds (reference.ts, "descent / off",
 * 180 sweeps) median ±0%, worst +61%.
 * Searches that hit the cap are only about a quarter of a sweep's (the rest are the quadtree's
 * leaves), so even a perfect predictor saves at most that; this one is right about three
 * times in four, and a wrong guess costs three searches. Too little for the driver's added
 * state (a cell split without a search, learnt evidence kept across worker restarts).
 *
 * The rule: a quadrant of a crowded search that held so many of its
 * parent's results that this sweep's other quadrants of the same size with as many were nearly
 * all crowded too is split when its turn comes, without searching it. Its four children are
 * searched instead.
 *
 * Correctness is unchanged: the children tile the quadrant exactly and each must still prove
 * itself complete. A right prediction saves the quadrant's search (it would have been crowded
 * and split anyway); a wrong one costs three (four children searched instead of one complete
 * quadrant). So a quadrant is skipped only when, among the same sweep's searched quadrants AT
 * THE SAME DEPTH that held at least as many of their parent's results, nearly all were crowded.
 * Same depth, because how many of a capped list's places fall in a quadrant says little about
 * that quadrant's own count: a coarse cell is far over the cap, a fine one barely (measured: a
 * threshold learnt one level up was wrong on two predictions in three). The queue leases cells
 * coarse first, so a depth's first quadrants are searched and teach its later ones.
 *
 * Nothing here is a model of the site: the relation depends on the site's ranking (a list
 * biased to the view's centre), its cap and the keyword's density, so it is learnt per sweep,
 * keyword and depth from the sweep's own searches, and nothing is predicted before there are
 * enough of them.
 */
import type { BBox, LatLng } from '../../utils/geo/types';
import { bboxContains } from '../../utils/geo/bbox';
import { quadrants } from '../../utils/grid';
import type { CellDecisionReason } from '../../utils/grid';

/** Quadrant outcomes needed above a threshold before anything is predicted from it. */
export const DESCENT_MIN_SAMPLES = 4;
/**
 * Share of those that must have been crowded. Break-even is 3/4 (one search saved when right,
 * three lost when wrong); the margin covers a sweep's later, sparser ground.
 */
export const DESCENT_PRECISION = 0.9;

/** One cell of the sweep (one keyword), as much as the learning needs. */
export interface DescentCell {
  /** The planner's path: `r{row}c{col}` then `.{0-3}` per split (`.w` for a widened re-search). */
  path: string;
  /**
   * What its search showed: crowded (split, or saturated because crowded) or complete, with the
   * results inside the cell. Null: not searched (yet, or ever: predicted), or its search proves
   * nothing about crowding (a view that did not cover it, a site that zoomed out by itself).
   */
  outcome: { crowded: boolean; inside: number } | null;
  /** Split without a search of its own (predicted descent): settled through its children. */
  predicted?: boolean;
  /** For a cell split into quadrants after its search: how many of its results lay in each (quadrants() order). */
  quadrantHits?: readonly number[];
}

/** One quadrant's evidence: its depth, its parent's results in it, and whether it was crowded itself. */
export interface DescentSample {
  depth: number;
  hits: number;
  crowded: boolean;
}

/** A path's depth: one per split after the initial cell (as Cell.depth). */
export function depthOfPath(path: string): number {
  return path.split('.').length - 1;
}

/** How many of `points` lie in each quadrant of `bbox` (quadrants() order: NW, NE, SW, SE); points outside count nowhere. */
export function quadrantHits(bbox: BBox, points: readonly LatLng[]): [number, number, number, number] {
  const quads = quadrants(bbox);
  const hits: [number, number, number, number] = [0, 0, 0, 0];
  for (const p of points) {
    const i = quads.findIndex((q) => bboxContains(q, p));
    if (i >= 0) hits[i]! += 1;
  }
  return hits;
}

/** The hits a quadrant's parent saw in it: null for an initial cell, a widened re-search, or a parent split without hits. */
export function hitsFromParent(path: string, cells: ReadonlyMap<string, DescentCell>): number | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0) return null;
  const quadrant = Number(path.slice(dot + 1));
  if (!Number.isInteger(quadrant)) return null;
  return cells.get(path.slice(0, dot))?.quadrantHits?.[quadrant] ?? null;
}

/**
 * The evidence in a sweep's cells (one keyword): every quadrant whose parent recorded hits and
 * that was searched, or was predicted and settled through its four children. A predicted
 * quadrant was crowded when any child was, or when its children together held at least
 * `crowdedAt` places (so a wrong prediction is learnt from too, and the threshold can rise).
 */
export function descentSamples(cells: ReadonlyMap<string, DescentCell>, crowdedAt: number): DescentSample[] {
  const samples: DescentSample[] = [];
  for (const cell of cells.values()) {
    const hits = hitsFromParent(cell.path, cells);
    if (hits === null) continue;
    const depth = depthOfPath(cell.path);
    if (cell.outcome) {
      samples.push({ depth, hits, crowded: cell.outcome.crowded });
      continue;
    }
    if (!cell.predicted) continue;
    const children = [0, 1, 2, 3].map((j) => cells.get(`${cell.path}.${j}`)?.outcome);
    if (children.some((o) => !o)) continue; // not settled yet
    const outcomes = children as { crowded: boolean; inside: number }[];
    const crowded = outcomes.some((o) => o.crowded) || outcomes.reduce((n, o) => n + o.inside, 0) >= crowdedAt;
    samples.push({ depth, hits, crowded });
  }
  return samples;
}

/**
 * The fewest parent results in a quadrant at `depth` from which such quadrants are predicted
 * crowded: the lowest `t` such that at least DESCENT_MIN_SAMPLES quadrants at that depth held
 * ≥ t and at least DESCENT_PRECISION of them were crowded. Null: not enough evidence.
 */
export function descentThreshold(samples: readonly DescentSample[], depth: number): number | null {
  const sorted = samples.filter((s) => s.depth === depth).sort((a, b) => b.hits - a.hits);
  let best: number | null = null;
  let crowded = 0;
  for (let n = 0; n < sorted.length; n++) {
    const s = sorted[n]!;
    if (s.crowded) crowded++;
    // Only where the next sample has fewer hits: a threshold cannot separate equal counts.
    if (n + 1 < sorted.length && sorted[n + 1]!.hits === s.hits) continue;
    if (n + 1 >= DESCENT_MIN_SAMPLES && crowded / (n + 1) >= DESCENT_PRECISION) best = s.hits;
  }
  // A quadrant with none of its parent's results is never predicted crowded.
  return best !== null && best > 0 ? best : null;
}

/**
 * Whether the cell at `path` is to be split without a search: its parent's results in it reach
 * the threshold learnt at its depth. The caller also checks it can be split (not at the
 * minimum size, not a widened re-search).
 */
export function predictedCrowded(path: string, cells: ReadonlyMap<string, DescentCell>, crowdedAt: number): boolean {
  const hits = hitsFromParent(path, cells);
  if (hits === null) return false;
  const threshold = descentThreshold(descentSamples(cells, crowdedAt), depthOfPath(path));
  return threshold !== null && hits >= threshold;
}

/** Reasons that say the search was crowded (split or saturated because of it) / listed its ground whole. */
const CROWDED_REASONS: ReadonlySet<CellDecisionReason> = new Set(['cap-hit', 'no-end-marker', 'min-size', 'cell-cap']);
const COMPLETE_REASONS: ReadonlySet<CellDecisionReason> = new Set(['no-results', 'single-result', 'end-of-list', 'site-zoomed-out', 'results-outside']);

/** A searched cell's outcome for the learning, from its decision's reason and its results; null when the reason says nothing about crowding. */
export function descentOutcome(reason: CellDecisionReason | undefined, organic: number, insideShare: number): DescentCell['outcome'] {
  if (reason === undefined) return null;
  const inside = Math.round(organic * insideShare);
  if (CROWDED_REASONS.has(reason)) return { crowded: true, inside };
  if (COMPLETE_REASONS.has(reason)) return { crowded: false, inside };
  return null;
}
