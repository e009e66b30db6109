/**
 * What part of the map a search provably lists, from the measured canvas and the evidence
 * gathered so far. The live site's rule is not known (spec §1.1 says only that `@lat,lng,zoom`
 * sets the map centre), and panel width, browser zoom and window size differ per user, so a
 * cell counts as searched only where EVERY plausible rule agrees the search looked.
 *
 * The candidate rules (x in CSS px from the URL centre; the canvas is W × H; the results panel
 * covers the canvas's left P px, P not known exactly):
 * - canvas:         the whole canvas,                 x ∈ [−W/2, W/2]
 * - right-of-panel: the canvas right of the panel,    x ∈ [−W/2 + P, W/2]
 * - panel-centred:  a (W − P)-wide box on the centre,  x ∈ [−(W − P)/2, (W − P)/2]
 * All take the full height. Each panel rule shrinks as P grows, so with P only bounded above
 * (P ≤ bound), the rule at its bound is what it surely searches. The safe span is the
 * intersection of the three, minus a margin.
 *
 * Evidence narrows the bounds (utils/coverage/calibration.ts): a listed place at x proves the
 * searched box reaches x, so a rule that excludes x at panel width P is wrong for that P. The
 * true rule is never contradicted by a real result, so the intersection only ever widens
 * towards it, never past it.
 */
import type { BBox, MapView, Viewport } from '../geo/types';
import { visibleBBox } from '../geo/mercator';
import type { MeasuredCanvas, SpanLimits } from '../domain/coverage';

export type { MeasuredCanvas, SpanLimits } from '../domain/coverage';

/** What is known about one window size's geometry; see calibration.ts for how it changes. */
export interface GeometryCalibration {
  version: 1;
  width: number;
  height: number;
  /** The bound before any evidence; the calibration falls back to it when results stop fitting the rules. */
  panelBoundStart: number;
  /** Upper bound on P under the right-of-panel rule. */
  panelBoundRight: number;
  /** Upper bound on P under the panel-centred rule. */
  panelBoundCentred: number;
  /** Results listed outside every candidate (even the whole canvas): the candidates do not explain the site. */
  unexplained: number;
  /** Searches whose results were taken as evidence. */
  searches: number;
  /**
   * Negative evidence: the union of the px extents of complete, well-filled searches (they list
   * every place in what they searched, so over many of them the results reach its edges).
   */
  denseExtent: { left: number; right: number; top: number; bottom: number } | null;
  denseSearches: number;
  updatedAt: number;
}

/**
 * The panel is at most this wide before any evidence, whatever the DOM says: the live page's
 * panel is 408 px (spec §1.2), a user's may be wider (a place panel open beside it), and a
 * bound that is too large costs searches, never places.
 */
export const DEFAULT_PANEL_BOUND = 480;
/** Added to a measured panel edge: the panel's shadow and any rounding. */
const PANEL_EDGE_SLACK = 32;
/** Kept clear of each edge of the safe span: rounding of the URL's 7 decimals and 2-decimal zoom, and sub-pixel layout. */
export const SAFE_MARGIN_SHARE = 0.02;
const MIN_MARGIN_PX = 6;
/** Negative evidence counts after this many complete, well-filled searches … */
export const DENSE_SEARCHES_NEEDED = 4;
/** … of at least this many results each … */
export const DENSE_RESULTS = 20;
/**
 * … and shrinks a side when the results stop more than this share of the canvas short of it.
 * It shrinks to the farthest result itself: every listed place was searched, so the box of all
 * of them is surely searched, while any slack beyond it is a guess (a 3% slack let a site that
 * left out a 700-px panel lose 2–13% of places in the audit bench).
 */
const DENSE_GAP_SHARE = 0.02;

export function initialCalibration(canvas: MeasuredCanvas, now: number): GeometryCalibration {
  const bound = Math.min(canvas.width, Math.max(DEFAULT_PANEL_BOUND, (canvas.panelRight ?? 0) + PANEL_EDGE_SLACK));
  return {
    version: 1,
    width: canvas.width,
    height: canvas.height,
    panelBoundStart: bound,
    panelBoundRight: bound,
    panelBoundCentred: bound,
    unexplained: 0,
    searches: 0,
    denseExtent: null,
    denseSearches: 0,
    updatedAt: now,
  };
}

/** The key a calibration is stored under: one per provider and window size. */
export function calibrationKey(provider: string, canvas: { width: number; height: number }): string {
  return `${provider}:${Math.round(canvas.width)}x${Math.round(canvas.height)}`;
}

/** The horizontal span [left, right] (px from the URL centre) every candidate rule searches, before the margin. */
export function candidateIntersection(cal: GeometryCalibration): { left: number; right: number } {
  const half = cal.width / 2;
  const centredHalf = (cal.width - cal.panelBoundCentred) / 2;
  return {
    left: Math.max(-half + cal.panelBoundRight, -centredHalf),
    right: Math.min(half, centredHalf),
  };
}

/** The rectangle (px from the URL centre) a search surely lists. Empty spans come back as width 0. */
export function safeSpan(cal: GeometryCalibration, limits: SpanLimits = {}): { left: number; right: number; top: number; bottom: number } {
  let { left, right } = candidateIntersection(cal);
  let top = -cal.height / 2;
  let bottom = cal.height / 2;
  const marginX = Math.max(MIN_MARGIN_PX, SAFE_MARGIN_SHARE * cal.width);
  const marginY = Math.max(MIN_MARGIN_PX, SAFE_MARGIN_SHARE * cal.height);
  left += marginX;
  right -= marginX;
  top += marginY;
  bottom -= marginY;
  const ext = cal.denseExtent;
  if (ext && cal.denseSearches >= DENSE_SEARCHES_NEEDED && cal.unexplained === 0) {
    // The searches never listed anything this far out: believe the results over the rules.
    const gapX = DENSE_GAP_SHARE * cal.width;
    if (ext.left - left > gapX) left = ext.left;
    if (right - ext.right > gapX) right = ext.right;
    // Vertical offsets cannot be expressed as a view (see planningViewport): shrink both sides alike.
    const gapY = Math.max(ext.top - top, bottom - ext.bottom);
    if (gapY > DENSE_GAP_SHARE * cal.height) {
      const half = Math.min(Math.abs(ext.top), Math.abs(ext.bottom));
      top = Math.max(top, -half);
      bottom = Math.min(bottom, half);
    }
  }
  // What the audit proved was not searched (vertical kept symmetric, as above).
  if (limits.left !== undefined) left = Math.max(left, limits.left);
  if (limits.right !== undefined) right = Math.min(right, limits.right);
  if (limits.top !== undefined || limits.bottom !== undefined) {
    const half = Math.min(-(limits.top ?? -Infinity), limits.bottom ?? Infinity);
    top = Math.max(top, -half);
    bottom = Math.min(bottom, half);
  }
  if (right < left) right = left;
  if (bottom < top) bottom = top;
  return { left, right, top, bottom };
}

/**
 * The safe rectangle as the planner's Viewport: a canvas whose "visible part" (right of
 * `panelWidth`, centre offset panelWidth/2) is exactly the safe span. The planner's maths
 * (cellSearchView, fitZoom, visibleBBox, minCellReached) then needs no change; `panelWidth` may be
 * negative when the safe span sits left of the centre.
 */
export function planningViewport(cal: GeometryCalibration, limits?: SpanLimits): Viewport {
  const s = safeSpan(cal, limits);
  const centre = (s.left + s.right) / 2;
  const w = s.right - s.left;
  return { width: w + 2 * centre, height: s.bottom - s.top, panelWidth: 2 * centre };
}

/** The box a search at `view` surely listed, under this calibration. */
export function searchedBoxOf(view: MapView, cal: GeometryCalibration, limits?: SpanLimits): BBox {
  return visibleBBox(view, planningViewport(cal, limits));
}

/** True when `inner` lies in `outer` (a relative tolerance absorbs float noise of the view maths). */
export function boxCovers(outer: BBox, inner: BBox): boolean {
  const tol = 1e-7 * Math.max(outer.north - outer.south, outer.east - outer.west);
  return inner.south >= outer.south - tol && inner.north <= outer.north + tol && inner.west >= outer.west - tol && inner.east <= outer.east + tol;
}
