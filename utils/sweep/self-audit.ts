/**
 * The sweep's closing audit, the store-facing half (the pure half is utils/coverage/audit.ts):
 * starting a round when the queue runs empty, and settling an audit search once committed —
 * which places it found that the sweep had missed inside done cells, what that teaches the
 * geometry, and which done cells are re-opened.
 */
import { emptyAudit, findErrors, needsAuditRound, sampleForAudit, shiftedBox } from '../coverage/audit';
import type { CalibrationStore } from '../coverage/calibration';
import { boxCovers, initialCalibration, safeSpan, searchedBoxOf, type GeometryCalibration, type SpanLimits } from '../coverage/geometry';
import { bboxContains } from '../geo/bbox';
import type { Listing } from '../listing/types';
import type { Store } from '../store';
import { reopenCells, startAuditRound } from '../store/audit-rounds';
import { auditCellsOf } from './plan';
import type { Cell, Sweep } from '../domain/sweep';

/**
 * Starts the next audit round when one is due: a sample of done cells, each searched again
 * shifted by half a cell. True when the queue has (or another worker just gave it) work again.
 */
export async function startAuditIfDue(store: Store, sweepId: string, now: number): Promise<boolean> {
  const sweep = await store.getSweep(sweepId);
  if (!sweep || sweep.status !== 'running') return false;
  const done = (await store.listCells(sweepId, 'done')).filter((c) => c.role !== 'audit');
  if (!needsAuditRound(sweep.audit, done.length)) return false;
  const current = sweep.audit ?? emptyAudit();
  const round = current.round + 1;
  const cells = auditCellsOf(sweep, sampleForAudit(done, round), round, shiftedBox);
  await startAuditRound(store, sweepId, current.round, cells, { ...current, round, missedThisRound: 0 }, now);
  return true;
}

export interface SettleAuditInput {
  store: Store;
  calibration: CalibrationStore;
  sweep: Sweep;
  /** The audit cell just committed. */
  cell: Cell;
  /** The places it kept (inside the area). */
  kept: readonly Listing[];
  /** Keys the sweep had not collected under this keyword before this commit. */
  newToSweep: readonly string[];
  now: number;
}

/**
 * Places the audit found that the sweep had not collected, though they lie in a done cell, are
 * coverage errors: they teach where the searched box really ends, and every done cell whose
 * proof no longer holds under that is searched again. The sweep's audit record is updated in
 * the same transaction as the re-opening.
 */
export async function settleAudit(i: SettleAuditInput): Promise<void> {
  const { store, calibration, sweep, cell, now } = i;
  const fresh = new Set(i.newToSweep);
  const missedPlaces = i.kept.flatMap((l) => (fresh.has(l.key) && l.lat !== null && l.lng !== null ? [{ lat: l.lat, lng: l.lng }] : []));
  const done = (await store.listCells(sweep.id, 'done')).filter((d) => d.role !== 'audit' && d.keyword === cell.keyword);
  const proofs = done.map((d) => ({ id: d.id, bbox: d.bbox, view: d.result?.view, canvasKey: d.result?.canvasKey }));
  const known = sweep.audit?.limits ?? {};
  const calibrationOf = async (key: string): Promise<GeometryCalibration | null> => {
    const size = canvasOfKey(key);
    return (await calibration.get(key)) ?? (size ? initialCalibration({ ...size, panelRight: null }, now) : null);
  };
  const spans = new Map<string, ReturnType<typeof safeSpan>>();
  for (const key of new Set(proofs.flatMap((p) => (p.canvasKey ? [p.canvasKey] : [])))) {
    const cal = await calibrationOf(key);
    if (cal) spans.set(key, safeSpan(cal, known[key]));
  }
  const finding = findErrors(missedPlaces, proofs, known, (key) => spans.get(key) ?? null);
  const missed = missedPlaces.filter((p) => done.some((d) => bboxContains(d.bbox, p))).length;
  // Every done cell whose proof no longer holds under what was learnt is searched again.
  const unproven = missed > 0 ? await unprovenCells(done, calibrationOf, finding.limits) : [];
  const reopen = [...new Set([...finding.cellIds, ...unproven])];
  await reopenCells(
    store,
    sweep.id,
    reopen,
    (current, reopened) => ({
      ...current,
      searched: current.searched + 1,
      missed: current.missed + missed,
      missedThisRound: current.missedThisRound + missed,
      reopened: current.reopened + reopened,
      limits: mergeLimits(current.limits, finding.limits),
    }),
    now,
  );
}

/** Done cells whose stored proof (view and canvas) no longer covers them under the calibration and limits now. */
async function unprovenCells(
  done: readonly Cell[],
  calibrationOf: (key: string) => Promise<GeometryCalibration | null>,
  limits: Record<string, SpanLimits>,
): Promise<string[]> {
  const out: string[] = [];
  for (const d of done) {
    const view = d.result?.view;
    const key = d.result?.canvasKey;
    const cal = key ? await calibrationOf(key) : null;
    if (!view || !key || !cal) continue;
    if (!boxCovers(searchedBoxOf(view, cal, limits[key]), d.bbox)) out.push(d.id);
  }
  return out;
}

/**
 * After the calibration shrank (searches never reach an edge the rules promised), cells proven
 * under the wider box are proven no more: re-open them, in one transaction with the sweep.
 * Returns how many.
 */
export async function reopenAfterShrink(store: Store, calibration: CalibrationStore, sweep: Sweep, now: number): Promise<number> {
  const done = (await store.listCells(sweep.id, 'done')).filter((d) => d.role !== 'audit');
  const calibrationOf = async (key: string) => calibration.get(key);
  const ids = await unprovenCells(done, calibrationOf, sweep.audit?.limits ?? {});
  if (ids.length === 0) return 0;
  return reopenCells(store, sweep.id, ids, (current) => current, now);
}

/** The canvas size a calibration key names (`provider:WxH`). */
function canvasOfKey(key: string): { width: number; height: number } | null {
  const m = /:(\d+)x(\d+)$/.exec(key);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}

/** Limits only tighten: the narrower edge of the two wins. */
function mergeLimits(a: Record<string, SpanLimits>, b: Record<string, SpanLimits>): Record<string, SpanLimits> {
  const out: Record<string, SpanLimits> = { ...a };
  for (const [key, l] of Object.entries(b)) {
    const o = out[key] ?? {};
    out[key] = {
      ...(o.left !== undefined || l.left !== undefined ? { left: Math.max(o.left ?? -Infinity, l.left ?? -Infinity) } : {}),
      ...(o.right !== undefined || l.right !== undefined ? { right: Math.min(o.right ?? Infinity, l.right ?? Infinity) } : {}),
      ...(o.top !== undefined || l.top !== undefined ? { top: Math.max(o.top ?? -Infinity, l.top ?? -Infinity) } : {}),
      ...(o.bottom !== undefined || l.bottom !== undefined ? { bottom: Math.min(o.bottom ?? Infinity, l.bottom ?? Infinity) } : {}),
    };
  }
  return out;
}

