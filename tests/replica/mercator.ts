/**
 * The replica's own view maths on top of utils/geo/mercator (whose `visibleBBox` is the shared rule:
 * the URL centre is the centre of the whole canvas, the results panel covers the left `panelWidth` px,
 * and a search lists only what is right of it).
 */
import { metresPerPixel } from '../../utils/geo/mercator';
import type { MapView } from '../../utils/geo/types';

/** The left panel's width on the real page (`div.k7jAl[style="width: 408px"]`). */
export const PANEL_WIDTH_PX = 408;
/**
 * `!1d` of a search `pb` is a camera distance in metres. In a 2023 capture (1024×768, zoom 13.1, lat 35.16)
 * it was 1.1654 × (height in px) × (metres per px); the replica uses that ratio both ways.
 */
const VIEW_DISTANCE_PER_HEIGHT = 1.1654;

/** The `!1d` value of a search `pb` for this view. */
export function viewDistance(view: MapView, viewportHeight: number): number {
  return metresPerPixel(view.lat, view.zoom) * viewportHeight * VIEW_DISTANCE_PER_HEIGHT;
}

/** Inverse of `viewDistance`: the zoom a `pb` without `!4f` means. */
export function zoomFromViewDistance(distance: number, lat: number, viewportHeight: number): number {
  return Math.log2((metresPerPixel(lat, 0) * viewportHeight * VIEW_DISTANCE_PER_HEIGHT) / distance);
}
