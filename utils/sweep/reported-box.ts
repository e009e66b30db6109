/**
 * Planning for a provider whose search page shows a map view and reports the box it searched
 * (Kakao: the `rect` of its own map.daum request). How that box sits around the view asked for
 * (the panel over the map, the level rounding) is not known in advance [?]; every visit
 * measures it, and the next cell is planned to fit inside what this tab's searches have covered
 * every time so far. Pure.
 */
import { latToWorldY, lngToWorldX } from '../geo/mercator';
import type { BBox, MapView, Viewport } from '../geo/types';

/** Screen pixels, at the requested zoom, from the requested centre to each edge of the searched box. */
export interface BoxSpans {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Where `box` reached around `view`'s centre, in px at `view.zoom` (negative: the box did not reach the centre on that side). */
export function spansOf(box: BBox, view: MapView): BoxSpans {
  const cx = lngToWorldX(view.lng, view.zoom);
  const cy = latToWorldY(view.lat, view.zoom);
  return {
    left: cx - lngToWorldX(box.west, view.zoom),
    right: lngToWorldX(box.east, view.zoom) - cx,
    top: cy - latToWorldY(box.north, view.zoom),
    bottom: latToWorldY(box.south, view.zoom) - cy,
  };
}

/** What two searches both covered. */
export function narrowest(a: BoxSpans | undefined, b: BoxSpans): BoxSpans {
  if (!a) return b;
  return { left: Math.min(a.left, b.left), right: Math.min(a.right, b.right), top: Math.min(a.top, b.top), bottom: Math.min(a.bottom, b.bottom) };
}

/** True when `a` reaches less far than `b` on some side. */
export function narrower(a: BoxSpans, b: BoxSpans): boolean {
  return a.left < b.left || a.right < b.right || a.top < b.top || a.bottom < b.bottom;
}

/** True when the box held the centre asked for: the page showed the map where it was asked to. */
export function heldCentre(s: BoxSpans): boolean {
  return s.left > 0 && s.right > 0 && s.top > 0 && s.bottom > 0;
}

/**
 * The viewport cells are fitted into (grid cellSearchView): a box `left + right` wide whose
 * centre sits `(right − left) / 2` px right of the view's centre (the viewport's panelWidth), and
 * twice the shorter of top and bottom high (cellSearchView centres a cell vertically). `edge`:
 * the share of each side left out (a site that searches less than it reports).
 */
export function viewportOfSpans(s: BoxSpans, edge: number): Viewport {
  const width = (s.left + s.right) * (1 - 2 * edge);
  const shift = (s.right - s.left) / 2;
  const height = 2 * Math.max(0, Math.min(s.top, s.bottom) - edge * (s.top + s.bottom));
  // cellSearchView puts the cell's centre panelWidth / 2 px right of the view's: panel = 2 × shift.
  return { width: width + 2 * shift, height, panelWidth: 2 * shift };
}
