/**
 * Which part of the map a replica search lists: the live site's rule is unknown (spec §1.1 says
 * only that `@lat,lng,zoom` sets the map centre), so the replica offers every plausible rule as
 * a switch and the extension must pass under each without being told which one is on.
 *
 * This file deliberately does its own Web Mercator maths instead of importing the extension's
 * (utils/geo/mercator.ts): a replica that shares the product's geometry code would share its
 * assumptions, and a wrong assumption would then pass every test.
 *
 * Canvas: the map's full width × height in CSS px (what the page sends as `!3m2!1i{w}!2i{h}`).
 * The results panel covers the canvas's left `panelWidth` px.
 * - 'right-of-panel': the URL centre is the canvas centre; results come from the part right of
 *   the panel (the extension's original assumption).
 * - 'canvas': the URL centre is the canvas centre; results come from the whole canvas, panel
 *   included.
 * - 'panel-centred': results come from a rectangle as wide as the part right of the panel,
 *   centred on the URL's `@lat,lng` (as if the site centred the visible map on the URL).
 */
import type { BBox, MapView } from '../../utils/geo/types';

export type SearchGeometry = 'right-of-panel' | 'canvas' | 'panel-centred';
export const SEARCH_GEOMETRIES: readonly SearchGeometry[] = ['right-of-panel', 'canvas', 'panel-centred'];

export interface Canvas {
  width: number;
  height: number;
  panelWidth: number;
}

const RAD = Math.PI / 180;
const EDGE_LAT = 85.0511287798066;

function px(lng: number, zoom: number): number {
  return ((lng + 180) / 360) * 256 * 2 ** zoom;
}
function py(lat: number, zoom: number): number {
  const s = Math.sin(Math.max(-EDGE_LAT, Math.min(EDGE_LAT, lat)) * RAD);
  return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 256 * 2 ** zoom;
}
function lngOf(x: number, zoom: number): number {
  return (x / (256 * 2 ** zoom)) * 360 - 180;
}
function latOf(y: number, zoom: number): number {
  return Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / (256 * 2 ** zoom)))) / RAD;
}

/** Horizontal span of the searched rectangle in px relative to the URL centre: [left, right]. */
export function searchedSpanX(canvas: Canvas, geometry: SearchGeometry): [number, number] {
  const half = canvas.width / 2;
  switch (geometry) {
    case 'canvas':
      return [-half, half];
    case 'right-of-panel':
      return [-half + canvas.panelWidth, half];
    case 'panel-centred': {
      const w = (canvas.width - canvas.panelWidth) / 2;
      return [-w, w];
    }
  }
}

/** The box a search at `view` lists under `geometry`. */
export function searchedBox(view: MapView, canvas: Canvas, geometry: SearchGeometry): BBox {
  const cx = px(view.lng, view.zoom);
  const cy = py(view.lat, view.zoom);
  const [left, right] = searchedSpanX(canvas, geometry);
  return {
    west: lngOf(cx + left, view.zoom),
    east: lngOf(cx + right, view.zoom),
    north: Math.min(EDGE_LAT, latOf(cy - canvas.height / 2, view.zoom)),
    south: Math.max(-EDGE_LAT, latOf(cy + canvas.height / 2, view.zoom)),
  };
}
