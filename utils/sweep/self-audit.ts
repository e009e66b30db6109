/**
 * The sweep's closing audit, the store-facing half (the pure half is utils/coverage/audit.ts):
 * starting a round when the queue runs empty, and settling an audit search in its commit —
 * which places it found that the sweep had missed inside done cells, what that teaches the
 * geometry, and which done cells are re-opened.
 */
import { emptyAudit, findErrors, needsAuditRound, sampleForAudit, shiftedBox } from '../coverage/audit';
import type { CalibrationStore } from '../coverage/calibration';
import { boxCovers, initialCalibration, safeSpan, searchedBoxOf, type GeometryCalibration, type SpanLimits } from '../coverage/geometry';
import { bboxContains } from '../geo/bbox';
import type { Listing } from '../domain/listing';
import type { Store } from '../store';
import { reopenCells, settleInCommit, startAuditRound } from '../store/audit-rounds';
import type { InCommit } from '../store/commit';
import { auditCellsOf } from './plan';
import type { Cell, Sweep } from '../domain/sweep';

/**
 * Starts the next audit round when one is due: a sample of done cells, each searched again
 * shifted by half a cell. True when the queue has (or another worker just gave it) work again.
 */
export async function startAuditIfDue(store: Store, sweepId: string, now: number): Promise<boolean> {
  const sweep = await store.getSweep(sweepId);
  if (sweep?.status !== 'running') return false;
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
  /** The audit cell about to be committed. */
  cell: Cell;
  /** The places it kept (inside the area). */
  kept: readonly Listing[];
  now: number;
}

/**
 * Places the audit found that the sweep had not collected, though they lie in a done cell, are
 * coverage errors: they teach where the searched box really ends, and every done cell whose
 * proof no longer holds under that is searched again. The verdict is written by the audit
 * cell's own commit (utils/store/audit-rounds.ts settleInCommit): pass what this returns as
 * Store.commitCell's `inCommit`.
 *
 * The calibrations the verdict needs live outside IndexedDB, so they are read here, before the
 * transaction (which may await only its own requests). Nothing is written outside it: the
 * audit record, the limits learnt and the cells re-opened are all in the commit.
 */
export async function auditSettlement(i: SettleAuditInput): Promise<InCommit> {
  const { store, calibration, sweep, cell, kept, now } = i;
  const stored = await readCalibrations(calibration, await store.listCells(sweep.id, 'done'));
  // A canvas first used after this read has nothing learnt in this snapshot: its first-visit
  // box is the narrowest every rule allows, so at worst a cell more is searched again.
  const calibrationOf = (key: string): GeometryCalibration | null => {
    const size = canvasOfKey(key);
    return stored(key) ?? (size ? initialCalibration({ ...size, panelRight: null }, now) : null);
  };
  return settleInCommit(
    sweep.id,
    (current, allDone, newToSweep) => {
      const fresh = new Set(newToSweep);
      const missedPlaces = kept.flatMap((l) => (fresh.has(l.key) && l.lat !== null && l.lng !== null ? [{ lat: l.lat, lng: l.lng }] : []));
      const done = allDone.filter((d) => d.role !== 'audit' && d.keyword === cell.keyword);
      const proofs = done.map((d) => ({ id: d.id, bbox: d.bbox, view: d.result?.view, canvasKey: d.result?.canvasKey }));
      // The limits as stored now, in this transaction: what other audits learnt meanwhile counts.
      const known = current.audit?.limits ?? {};
      const spans = new Map<string, ReturnType<typeof safeSpan>>();
      for (const key of new Set(proofs.flatMap((p) => (p.canvasKey ? [p.canvasKey] : [])))) {
        const cal = calibrationOf(key);
        if (cal) spans.set(key, safeSpan(cal, known[key]));
      }
      const finding = findErrors(missedPlaces, proofs, known, (key) => spans.get(key) ?? null);
      const missed = missedPlaces.filter((p) => done.some((d) => bboxContains(d.bbox, p))).length;
      // Every done cell whose proof no longer holds under what was learnt is searched again.
      const unproven = missed > 0 ? unprovenCells(done, calibrationOf, finding.limits) : [];
      return {
        reopen: [...new Set([...finding.cellIds, ...unproven])],
        update: (audit, reopened) => ({
          ...audit,
          searched: audit.searched + 1,
          missed: audit.missed + missed,
          missedThisRound: audit.missedThisRound + missed,
          reopened: audit.reopened + reopened,
          limits: mergeLimits(audit.limits, finding.limits),
        }),
      };
    },
    now,
  );
}

/** Done cells whose stored proof (view and canvas) no longer covers them under the calibration and limits now. */
function unprovenCells(done: readonly Cell[], calibrationOf: (key: string) => GeometryCalibration | null, limits: Record<string, SpanLimits>): string[] {
  const out: string[] = [];
  for (const d of done) {
    const view = d.result?.view;
    const key = d.result?.canvasKey;
    const cal = key ? calibrationOf(key) : null;
    if (!view || !key || !cal) continue;
    if (!boxCovers(searchedBoxOf(view, cal, limits[key]), d.bbox)) out.push(d.id);
  }
  return out;
}

/** The stored calibrations of the canvases `cells` were searched in, read once (they live outside IndexedDB). */
async function readCalibrations(calibration: CalibrationStore, cells: readonly Cell[]): Promise<(key: string) => GeometryCalibration | null> {
  const keys = [...new Set(cells.flatMap((c) => (c.result?.canvasKey ? [c.result.canvasKey] : [])))];
  const read = new Map(await Promise.all(keys.map(async (k) => [k, await calibration.get(k)] as const)));
  return (key) => read.get(key) ?? null;
}

/**
 * After the calibration shrank (searches never reach an edge the rules promised), cells proven
 * under the wider box are proven no more: re-open them, in one transaction with the sweep.
 * Returns how many.
 */
export async function reopenAfterShrink(store: Store, calibration: CalibrationStore, sweep: Sweep, now: number): Promise<number> {
  const done = (await store.listCells(sweep.id, 'done')).filter((d) => d.role !== 'audit');
  const ids = unprovenCells(done, await readCalibrations(calibration, done), sweep.audit?.limits ?? {});
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
