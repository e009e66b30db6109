import type { BBox, LatLng, MapView, Viewport } from './types';

/**
 * Web Mercator as the map draws it: 256-px tiles, zoom z has a world 256·2^z pixels wide,
 * x grows east from longitude −180 and y grows south from the map's top edge (≈85.05°N).
 *
 * View convention (shared with the replica site, keep it exactly): the URL's `@lat,lng` is
 * the centre of the WHOLE map canvas (viewport.width × viewport.height CSS px). The results
 * panel covers x ∈ [0, panelWidth); the search lists the places in the visible part
 * x ∈ [panelWidth, width].
 */

export const TILE_SIZE = 256;
/** The map's highest zoom ("a few houses", spec §1.1). */
export const MAX_ZOOM = 21;
/** Latitude of the map's top and bottom edges: where Mercator's square world ends. */
export const MAX_MERCATOR_LAT = 85.0511287798066;
/** Equatorial metres per pixel at zoom 0: 2π·6378137 m / 256 px. */
export const METRES_PER_PIXEL_Z0 = 156543.03392;
/** A desktop window with Google's results panel open. */
export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800, panelWidth: 408 };

const DEG = Math.PI / 180;
/** In hundredths of a zoom level (1e-7 hundredths = 1e-9 levels). */
const FLOOR_TOLERANCE = 1e-7;

/** Ground metres one CSS pixel covers at this latitude and zoom. */
export function metresPerPixel(lat: number, zoom: number): number {
  return (METRES_PER_PIXEL_Z0 * Math.cos(lat * DEG)) / 2 ** zoom;
}

export function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom;
}

/** Longitudes outside ±180 are not wrapped: they stay to the left or right of the world. */
export function lngToWorldX(lng: number, zoom: number): number {
  return ((lng + 180) / 360) * worldSize(zoom);
}

export function worldXToLng(x: number, zoom: number): number {
  return (x / worldSize(zoom)) * 360 - 180;
}

/** Latitudes beyond the map's edge are clamped to it (the map never shows them). */
export function latToWorldY(lat: number, zoom: number): number {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const sin = Math.sin(clamped * DEG);
  return (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * worldSize(zoom);
}

export function worldYToLat(y: number, zoom: number): number {
  const n = Math.PI * (1 - (2 * y) / worldSize(zoom));
  return Math.atan(Math.sinh(n)) / DEG;
}

export function latLngToWorld(p: LatLng, zoom: number): { x: number; y: number } {
  return { x: lngToWorldX(p.lng, zoom), y: latToWorldY(p.lat, zoom) };
}

/**
 * The box whose places a search at `view` lists: the canvas right of the panel. Rows beyond
 * the map's top or bottom edge are clamped to ±85.05°; longitudes are not wrapped, so a
 * view straddling the antimeridian gives west < −180 or east > 180 (callers reject it).
 */
export function visibleBBox(view: MapView, viewport: Viewport): BBox {
  const cx = lngToWorldX(view.lng, view.zoom);
  const cy = latToWorldY(view.lat, view.zoom);
  const halfW = viewport.width / 2;
  const halfH = viewport.height / 2;
  return {
    south: clampLat(worldYToLat(cy + halfH, view.zoom)),
    north: clampLat(worldYToLat(cy - halfH, view.zoom)),
    west: worldXToLng(cx - halfW + viewport.panelWidth, view.zoom),
    east: worldXToLng(cx + halfW, view.zoom),
  };
}

/**
 * The zoom at which `bbox` exactly fills the visible part in its tighter direction
 * (fractional, neither floored nor capped). Each +1 halves the ground a pixel covers.
 */
export function fitZoom(bbox: BBox, viewport: Viewport): number {
  const w0 = lngToWorldX(bbox.east, 0) - lngToWorldX(bbox.west, 0);
  const h0 = latToWorldY(bbox.south, 0) - latToWorldY(bbox.north, 0);
  const visibleWidth = viewport.width - viewport.panelWidth;
  return Math.min(Math.log2(visibleWidth / w0), Math.log2(viewport.height / h0));
}

/**
 * The view that searches `bbox`: the largest zoom (floored to 2 decimals, since the URL
 * carries 2, and at most `maxZoom`) at which the bbox fits the visible part, centred so the
 * bbox centre sits in the middle of the visible part. That middle is panelWidth/2 pixels
 * right of the canvas centre, so the map centre sits panelWidth/2 pixels west of the bbox's.
 */
export function cellSearchView(bbox: BBox, viewport: Viewport, maxZoom: number = MAX_ZOOM): MapView {
  // The tolerance keeps a bbox planned to fit exactly at zoom 14 from flooring to 13.99 over
  // float noise; it lets the bbox overhang by at most 2^1e-9 − 1 ≈ 7e-10 of its size.
  const fit = Math.floor(fitZoom(bbox, viewport) * 100 + FLOOR_TOLERANCE) / 100;
  const zoom = Math.max(0, Math.min(maxZoom, fit));
  const cx = (lngToWorldX(bbox.west, zoom) + lngToWorldX(bbox.east, zoom)) / 2;
  const cy = (latToWorldY(bbox.north, zoom) + latToWorldY(bbox.south, zoom)) / 2;
  return {
    lat: worldYToLat(cy, zoom),
    lng: worldXToLng(cx - viewport.panelWidth / 2, zoom),
    zoom,
  };
}

function clampLat(lat: number): number {
  return Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
}
