/**
 * Learning the searched rectangle from what searches list (see geometry.ts for the rules).
 * Pure: the driver feeds each search's organic results in, and stores what comes out.
 *
 * Positive evidence: a listed place at x (px from the URL centre) lies in what was searched, so
 * - right-of-panel with panel P searches x only if x ≥ −W/2 + P:  P ≤ x + W/2;
 * - panel-centred with panel P searches x only if |x| ≤ (W − P)/2: P ≤ W − 2|x|.
 * Each bound only falls, and never below the true P of the true rule, so the intersection of
 * the candidates grows towards the truth and never past it. A place outside the whole canvas
 * fits no candidate: the site lists more than its view, so positions prove nothing; the
 * calibration goes back to its starting bounds, counts the surprise, and learns no more.
 *
 * Negative evidence: complete searches (the page showed the end of the list before the cap)
 * with many results list every place in what they searched; the union of their extents
 * bounds the searched rectangle from inside the truth, and safeSpan shrinks a side the results
 * never come near (a site that searches less than every candidate assumes).
 */
import type { LatLng, MapView } from '../geo/types';
import { latToWorldY, lngToWorldX } from '../geo/mercator';
import { DENSE_RESULTS, type GeometryCalibration, type MeasuredCanvas, initialCalibration } from './geometry';

/** One search, as evidence: where the page ended (URL view), its canvas, and what it listed. */
export interface SearchEvidence {
  view: MapView;
  canvas: MeasuredCanvas;
  /** Organic results with coordinates. */
  places: LatLng[];
  /** The list ended before the cap: it holds every place in what was searched. */
  complete: boolean;
}

/** Slack for a pin exactly on an edge (the site and this code round differently). */
const EDGE_TOLERANCE_PX = 1;

/** Pixel offset of a place from the view's centre at the view's zoom. */
export function pixelOffset(view: MapView, p: LatLng): { x: number; y: number } {
  return {
    x: lngToWorldX(p.lng, view.zoom) - lngToWorldX(view.lng, view.zoom),
    y: latToWorldY(p.lat, view.zoom) - latToWorldY(view.lat, view.zoom),
  };
}

/**
 * The calibration after one more search. A search of another canvas size is not evidence for
 * this one (callers keep one calibration per window size); a calibration with an unexplained
 * result stops learning and keeps its starting bounds.
 */
export function learnFromSearch(cal: GeometryCalibration | null, ev: SearchEvidence, now: number): GeometryCalibration {
  const base = cal ?? initialCalibration(ev.canvas, now);
  if (base.width !== ev.canvas.width || base.height !== ev.canvas.height) return base;
  if (ev.places.length === 0) return base;
  const W = base.width;
  const H = base.height;
  const offsets = ev.places.map((p) => pixelOffset(ev.view, p));
  const outside = offsets.filter((o) => Math.abs(o.x) > W / 2 + EDGE_TOLERANCE_PX || Math.abs(o.y) > H / 2 + EDGE_TOLERANCE_PX).length;
  if (outside > 0 || base.unexplained > 0) {
    return {
      ...base,
      panelBoundRight: base.panelBoundStart,
      panelBoundCentred: base.panelBoundStart,
      unexplained: base.unexplained + outside,
      searches: base.searches + 1,
      updatedAt: now,
    };
  }
  let panelBoundRight = base.panelBoundRight;
  let panelBoundCentred = base.panelBoundCentred;
  for (const o of offsets) {
    panelBoundRight = Math.min(panelBoundRight, Math.max(0, o.x + W / 2 + EDGE_TOLERANCE_PX));
    panelBoundCentred = Math.min(panelBoundCentred, Math.max(0, W - 2 * Math.abs(o.x) + EDGE_TOLERANCE_PX));
  }
  let { denseExtent, denseSearches } = base;
  if (ev.complete && offsets.length >= DENSE_RESULTS) {
    const xs = offsets.map((o) => o.x);
    const ys = offsets.map((o) => o.y);
    const e = { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
    denseExtent = denseExtent
      ? {
          left: Math.min(denseExtent.left, e.left),
          right: Math.max(denseExtent.right, e.right),
          top: Math.min(denseExtent.top, e.top),
          bottom: Math.max(denseExtent.bottom, e.bottom),
        }
      : e;
    denseSearches += 1;
  }
  return { ...base, panelBoundRight, panelBoundCentred, denseExtent, denseSearches, searches: base.searches + 1, updatedAt: now };
}

/**
 * Where calibrations live (storage.local in the extension, a Map in tests and the bench).
 *
 * Every tab of every worker window learns into the one calibration of its window size, so two
 * tabs' visits can end at once. A read, then a write of what was learnt from it, would let the
 * later write drop the evidence of the visit that ended in between (lost update); `update`
 * runs the whole read-learn-write of a key as one step instead.
 */
export interface CalibrationStore {
  get(key: string): Promise<GeometryCalibration | null>;
  /**
   * Learns into the calibration stored under `key` now (`fresh` when none is), one update of a
   * key after another: `learn` always starts from what the update before it wrote, so each
   * visit's evidence joins all earlier visits' (bounds only fall, extents only grow, counts add
   * up) and none is overwritten. What `learn` returns is its verdict, made on the calibration it
   * keeps; that calibration is written when it is not the one `learn` was given.
   */
  update<T extends Learnt>(
    key: string,
    fresh: GeometryCalibration,
    learn: (current: GeometryCalibration) => T,
  ): Promise<{ before: GeometryCalibration; result: T }>;
}

/** What an update's `learn` hands back: at least the calibration to keep (assessCoverage's verdict is one). */
export interface Learnt {
  calibration: GeometryCalibration;
}

/** Raw reads and writes of one place calibrations are kept; `read` may return anything (it is checked). */
export interface CalibrationCells {
  read(key: string): Promise<unknown>;
  write(key: string, cal: GeometryCalibration): Promise<void>;
}

/**
 * Runs the tasks of one key one after another, in call order; tasks of other keys run freely.
 * This is the whole of the atomicity: every tab's loop lives in the one service worker (or the
 * one test process), so a promise chain per key is a lock that every writer takes. A failed
 * task fails its own caller only; the next task of the key still runs.
 */
export function keyedSerialiser(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    // The map forgets a key once its last task is done, so it holds only keys being written.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/** A CalibrationStore over raw cells: a stored value of another shape is ignored (and learnt again), never trusted. */
export function calibrationStoreOver(cells: CalibrationCells, serialise = keyedSerialiser()): CalibrationStore {
  const get = async (key: string) => {
    const v = await cells.read(key);
    return isCalibration(v) ? v : null;
  };
  return {
    get,
    update: (key, fresh, learn) =>
      serialise(key, async () => {
        const before = (await get(key)) ?? fresh;
        const result = learn(before);
        if (result.calibration !== before) await cells.write(key, result.calibration);
        return { before, result };
      }),
  };
}

export function memoryCalibrationStore(): CalibrationStore & { entries: Map<string, GeometryCalibration> } {
  const entries = new Map<string, GeometryCalibration>();
  const store = calibrationStoreOver({
    read: async (key) => entries.get(key) ?? null,
    write: async (key, cal) => {
      entries.set(key, cal);
    },
  });
  return { ...store, entries };
}

/** A stored value that is not a calibration of this version is ignored (then learnt again), never trusted. */
export function isCalibration(v: unknown): v is GeometryCalibration {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const num = (k: string) => typeof c[k] === 'number' && Number.isFinite(c[k] as number);
  return (
    c.version === 1 &&
    ['width', 'height', 'panelBoundStart', 'panelBoundRight', 'panelBoundCentred', 'unexplained', 'searches', 'denseSearches', 'updatedAt'].every(num)
  );
}
