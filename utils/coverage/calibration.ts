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

/** Where calibrations live (storage.local in the extension, a Map in tests and the bench). */
export interface CalibrationStore {
  get(key: string): Promise<GeometryCalibration | null>;
  put(key: string, cal: GeometryCalibration): Promise<void>;
}

export function memoryCalibrationStore(): CalibrationStore & { entries: Map<string, GeometryCalibration> } {
  const entries = new Map<string, GeometryCalibration>();
  return {
    entries,
    async get(key) {
      return entries.get(key) ?? null;
    },
    async put(key, cal) {
      entries.set(key, cal);
    },
  };
}

/** A stored value that is not a calibration of this version is ignored (then learnt again), never trusted. */
export function isCalibration(v: unknown): v is GeometryCalibration {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const num = (k: string) => typeof c[k] === 'number' && Number.isFinite(c[k] as number);
  return c.version === 1 && ['width', 'height', 'panelBoundStart', 'panelBoundRight', 'panelBoundCentred', 'unexplained', 'searches', 'denseSearches', 'updatedAt'].every(num);
}
