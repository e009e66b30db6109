import type { BBox, LatLng } from '../geo/types';
import { latToWorldY, lngToWorldX } from '../geo/mercator';
import type { CellStatus } from '../domain/sweep';

/**
 * The coverage map's colours, one per cell status, opaque so a screenshot's pixel at a cell's
 * centre is exactly the status colour. Split cells are drawn as an outline only (their
 * children fill them), in their colour.
 */
export const STATUS_COLOURS: Readonly<Record<CellStatus, string>> = {
  pending: '#aecbfa',
  leased: '#fbbc04',
  done: '#34a853',
  split: '#3c4043',
  saturated: '#9334e6',
  quarantined: '#d93025',
  outside: '#dadce0',
};

/** The order the legend lists statuses in: the life of a cell. */
export const STATUS_ORDER: readonly CellStatus[] = ['pending', 'leased', 'done', 'split', 'saturated', 'quarantined', 'outside'];

export const MAP_BACKGROUND = '#ffffff';
/**
 * Stripes over an unresolved cell's saturated fill: the background's white, which no status
 * uses, so the stripes show on the purple and a cell's centre pixel stays a status colour
 * or white, never a new shade a reader would have to learn.
 */
export const UNRESOLVED_HATCH = MAP_BACKGROUND;
/** Places are dark dots, over any cell colour. */
export const PLACE_COLOUR = '#0b1f4d';

/**
 * Coloured by how many sites list its business (the dashboard's "Colour places by sites"):
 * on every site, on some, or on this one only (the plain dot).
 */
export const ON_ALL_SITES_COLOUR = '#00a651';
export const ON_SOME_SITES_COLOUR = '#ff8c00';

export type SitesListing = 'all' | 'some' | 'one';

export function sitesListing(listedOn: number, sites: number): SitesListing {
  return listedOn >= sites ? 'all' : listedOn > 1 ? 'some' : 'one';
}

export const SITES_LISTING_COLOURS: Readonly<Record<SitesListing, string>> = { all: ON_ALL_SITES_COLOUR, some: ON_SOME_SITES_COLOUR, one: PLACE_COLOUR };
export const AREA_OUTLINE = '#202124';

export interface CanvasSize {
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where geography lands on the canvas. */
export interface Projection {
  /** Canvas pixels per zoom-0 world pixel. */
  scale: number;
  point(p: LatLng): { x: number; y: number };
  rect(b: BBox): Rect;
}

/** Below this span (degrees) a box is widened: one place alone would otherwise divide by zero. */
const MIN_SPAN = 0.0005;

/**
 * Fit `bounds` into the canvas less `padding` on every side, centred, in Web Mercator as the
 * map draws it: the aspect is kept (a square kilometre stays square), so the map looks like
 * the area the user chose on Google Maps.
 */
export function fitProjection(bounds: BBox, size: CanvasSize, padding = 0): Projection {
  const b = widen(bounds);
  const x0 = lngToWorldX(b.west, 0);
  const y0 = latToWorldY(b.north, 0);
  const worldW = lngToWorldX(b.east, 0) - x0;
  const worldH = latToWorldY(b.south, 0) - y0;
  const innerW = Math.max(1, size.width - 2 * padding);
  const innerH = Math.max(1, size.height - 2 * padding);
  const scale = Math.min(innerW / worldW, innerH / worldH);
  const offsetX = (size.width - worldW * scale) / 2;
  const offsetY = (size.height - worldH * scale) / 2;
  const point = (p: LatLng) => ({
    x: offsetX + (lngToWorldX(p.lng, 0) - x0) * scale,
    y: offsetY + (latToWorldY(p.lat, 0) - y0) * scale,
  });
  return {
    scale,
    point,
    rect(box) {
      const nw = point({ lat: box.north, lng: box.west });
      const se = point({ lat: box.south, lng: box.east });
      return { x: nw.x, y: nw.y, w: se.x - nw.x, h: se.y - nw.y };
    },
  };
}

function widen(b: BBox): BBox {
  const lat = (b.south + b.north) / 2;
  const lng = (b.west + b.east) / 2;
  const halfLat = Math.max(b.north - b.south, MIN_SPAN) / 2;
  const halfLng = Math.max(b.east - b.west, MIN_SPAN) / 2;
  return { south: lat - halfLat, north: lat + halfLat, west: lng - halfLng, east: lng + halfLng };
}

/** The box around every given box and point, or null when there is nothing to frame. */
export function boundsOf(boxes: Iterable<BBox>, points: Iterable<LatLng> = []): BBox | null {
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const b of boxes) {
    south = Math.min(south, b.south);
    west = Math.min(west, b.west);
    north = Math.max(north, b.north);
    east = Math.max(east, b.east);
  }
  for (const p of points) {
    if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng)) continue;
    south = Math.min(south, p.lat);
    west = Math.min(west, p.lng);
    north = Math.max(north, p.lat);
    east = Math.max(east, p.lng);
  }
  return south <= north && west <= east ? { south, west, north, east } : null;
}
