/**
 * The sweep's audit of its own work, before it says Finished. A sample of done cells is
 * searched again at an offset (shifted by half a cell east and north, so the new view's edges
 * fall where the old views' middles were). A place the audit finds inside a cell marked done,
 * that the sweep had not collected, is a coverage error: the proof that cell rested on (the
 * searched box the geometry promised) was wrong. The error teaches the geometry (the missed
 * place's position in the old view was NOT searched), the cells no longer proven are re-opened,
 * and the audit repeats. Pure: the driver supplies cells and places, and stores what comes out.
 */
import type { BBox, LatLng, MapView } from '../geo/types';
import { pixelOffset } from './calibration';
import type { SpanLimits, SweepAudit } from '../domain/coverage';

export type { SweepAudit } from '../domain/coverage';

/** The audit searches at least this many done cells … */
export const AUDIT_MIN_CELLS = 3;
/** … or this share of them, whichever is more. */
export const AUDIT_SHARE = 0.02;
/** Rounds at most: a round runs only when the one before found an error. */
export const AUDIT_MAX_ROUNDS = 4;

/** After a round that found errors, the next samples this many times more: the sweep has shown it can be wrong. */
export const AUDIT_GROWTH = 3;

/** How many of `done` cells one audit round searches (round 1: the figure shown before Start). */
export function auditSampleSize(done: number, round = 1): number {
  const base = Math.max(AUDIT_MIN_CELLS, Math.ceil(AUDIT_SHARE * done));
  return Math.min(done, base * AUDIT_GROWTH ** Math.max(0, round - 1));
}

export function emptyAudit(): SweepAudit {
  return { round: 0, searched: 0, missed: 0, reopened: 0, missedThisRound: 0, limits: {} };
}

/** Whether the queue running empty starts another audit round (else the sweep finishes). */
export function needsAuditRound(audit: SweepAudit | undefined, doneCells: number): boolean {
  const a = audit ?? emptyAudit();
  if (doneCells === 0) return false;
  if (a.round === 0) return true;
  return a.missedThisRound > 0 && a.round < AUDIT_MAX_ROUNDS;
}

/**
 * A deterministic sample (the same sweep and round always audit the same cells, so a restart
 * mid-round does not draw again). Half are the cells that listed the most places: a search
 * that fills its view is where a wrong idea of the view loses places. The other half are drawn
 * by a hash of id and round, so every part of the sweep can be checked.
 */
export function sampleForAudit<T extends { id: string; result: { organic: number } | null }>(done: readonly T[], round: number): T[] {
  const n = auditSampleSize(done.length, round);
  const fullest = [...done].sort((a, b) => (b.result?.organic ?? 0) - (a.result?.organic ?? 0) || a.id.localeCompare(b.id)).slice(0, Math.ceil(n / 2));
  const taken = new Set(fullest.map((c) => c.id));
  const drawn = done
    .filter((c) => !taken.has(c.id))
    .map((c) => ({ c, h: hash(`${c.id}#${round}`) }))
    .sort((a, b) => a.h - b.h)
    .slice(0, n - fullest.length)
    .map((x) => x.c);
  return [...fullest, ...drawn];
}

/** The audit's box for a done cell: the same size, shifted by half a cell north and east. */
export function shiftedBox(b: BBox): BBox {
  const dLat = (b.north - b.south) / 2;
  const dLng = (b.east - b.west) / 2;
  return { south: b.south + dLat, north: b.north + dLat, west: b.west + dLng, east: b.east + dLng };
}

export interface DoneCellProof {
  id: string;
  bbox: BBox;
  /** The view that proved it, with the calibration key of the canvas it was searched in. */
  view?: MapView;
  canvasKey?: string;
}

export interface AuditFinding {
  /** Done cells the missed places lie in. */
  cellIds: string[];
  /** Learnt limits (px from the URL centre) per calibration key. */
  limits: Record<string, SpanLimits>;
}

/** A miss is blamed on the top or bottom only when it is this many times nearer to it than to a side. */
const VERTICAL_BIAS = 3;
/** A miss this near the right edge (share of the span) is blamed on the right edge. */
const RIGHT_QUARTER = 0.25;
/** How far past a missed place (share of the span) the learnt edge is put. */
const CUT_SHARE = 0.2;

/** The safe span (px from the URL centre) a calibration key's searches were believed to cover. */
export type SpanOf = (key: string) => { left: number; right: number; top: number; bottom: number } | null;

/**
 * From places the audit found that the sweep did not have: which done cells were wrong, and
 * what that says of the searched box. A missed place at offset (x, y) from the old view's
 * centre lay inside the span the sweep believed searched, but was not searched, so the span
 * ends before it on the side it is relatively nearest to. Limits only ever tighten.
 */
export function findErrors(missed: readonly LatLng[], done: readonly DoneCellProof[], known: Record<string, SpanLimits>, spanOf: SpanOf): AuditFinding {
  const cellIds = new Set<string>();
  const limits: Record<string, SpanLimits> = Object.fromEntries(Object.entries(known).map(([k, v]) => [k, { ...v }]));
  for (const p of missed) {
    const cell = done.find((c) => p.lat >= c.bbox.south && p.lat <= c.bbox.north && p.lng >= c.bbox.west && p.lng <= c.bbox.east);
    if (!cell) continue;
    cellIds.add(cell.id);
    if (!cell.view || !cell.canvasKey) continue;
    const span = spanOf(cell.canvasKey);
    if (!span) continue;
    const o = pixelOffset(cell.view, p);
    const l = limits[cell.canvasKey] ?? {};
    limits[cell.canvasKey] = l;
    // Distance to each edge of the believed span, as a share of its size: the smallest says which side was short.
    const w = Math.max(1, span.right - span.left);
    const h = Math.max(1, span.bottom - span.top);
    const toLeft = (o.x - span.left) / w;
    const toRight = (span.right - o.x) / w;
    const toVertical = Math.min(o.y - span.top, span.bottom - o.y) / h;
    // Every plausible rule takes the full height (geometry.ts), so a miss is blamed on a vertical
    // edge only when it sits far nearer to it than to a side.
    if (Math.min(toLeft, toRight) <= VERTICAL_BIAS * toVertical) {
      // The edge is somewhere inside the missed place: cut past it by a share of the span, and
      // let the next round check (a cut too deep costs searches; one too shallow, places). The
      // side: the results panel is on the left, and the one rule with a band on one side only
      // is "right of the panel", so a miss is blamed on the left edge unless it lies in the
      // span's right quarter (a band on the right, as a centred box narrower than foreseen has).
      const cut = CUT_SHARE * w;
      if (toRight < RIGHT_QUARTER) l.right = Math.min(l.right ?? Infinity, o.x - cut);
      else l.left = Math.max(l.left ?? -Infinity, o.x + cut);
    } else {
      const half = Math.abs(o.y) - CUT_SHARE * h;
      l.top = Math.max(l.top ?? -Infinity, -half);
      l.bottom = Math.min(l.bottom ?? Infinity, half);
    }
  }
  return { cellIds: [...cellIds], limits };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
