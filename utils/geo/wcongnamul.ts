/**
 * WCONGNAMUL, the planar grid Kakao Map speaks (`x`/`y` of map.daum answers, `rect=` of its
 * requests, `urlX`/`urlY` of its links), to and from WGS84.
 *
 * It is a Transverse Mercator on GRS80 with origin 38°N 127°E, scaled by 2.5 (one unit is
 * 40 cm on the ground), false easting 500000 and false northing 1250000 — the widely copied
 * `TransCoord` code's "divide by 2.5, then TM with k0 = 1, FE 200000, FN 500000", folded into
 * one proj4 definition (naver-kakao-notes B4). proj4 does the ellipsoidal series: a
 * hand-written inverse is where such converters usually go wrong by tens of metres.
 *
 * GRS80 and WGS84 differ by 0.1 mm in the semi-minor axis, and Kakao's datum is the
 * WGS84-aligned Korea 2000, so no datum shift is applied.
 */
import proj4 from 'proj4';
import type { BBox, LatLng } from './types';

export const WCONGNAMUL_PROJ4 = '+proj=tmerc +lat_0=38 +lon_0=127 +k=2.5 +x_0=500000 +y_0=1250000 +ellps=GRS80 +units=m +no_defs';

/** WCONGNAMUL units per metre on the ground near the origin (the `k=2.5`). */
export const WCONG_PER_METRE = 2.5;

/**
 * Where Kakao Map has places: the peninsula, Jeju, Ulleung and Dokdo with a margin. Outside it
 * the grid still converts, but a map.daum coordinate there is page garbage, not a place.
 */
export const KOREA_BOUNDS: Readonly<BBox> = Object.freeze({ south: 32.8, west: 124.0, north: 38.9, east: 132.0 });

export interface WcongPoint {
  x: number;
  y: number;
}

/** A rectangle in WCONGNAMUL, as map.daum's `rect={x1},{y1},{x2},{y2}` takes it (x1 < x2, y1 < y2). */
export interface WcongRect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

const converter = proj4('EPSG:4326', WCONGNAMUL_PROJ4);

/** WGS84 → WCONGNAMUL (unrounded); null for a non-finite input. */
export function wgs84ToWcongnamul(p: LatLng): WcongPoint | null {
  if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng) || Math.abs(p.lat) > 90 || Math.abs(p.lng) > 180) return null;
  const [x, y] = converter.forward([p.lng, p.lat]);
  return Number.isFinite(x) && Number.isFinite(y) ? { x: x!, y: y! } : null;
}

/** WCONGNAMUL → WGS84; null for a non-finite input or one that does not invert. */
export function wcongnamulToWgs84(p: WcongPoint): LatLng | null {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return null;
  const [lng, lat] = converter.inverse([p.x, p.y]);
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat!) <= 90 && Math.abs(lng!) <= 180 ? { lat: lat!, lng: lng! } : null;
}

export function inKorea(p: LatLng): boolean {
  return p.lat >= KOREA_BOUNDS.south && p.lat <= KOREA_BOUNDS.north && p.lng >= KOREA_BOUNDS.west && p.lng <= KOREA_BOUNDS.east;
}

/** How many points per edge `bboxToWcongRect` samples: parallels are curves on a TM grid. */
const EDGE_SAMPLES = 8;

/**
 * The smallest integer WCONGNAMUL rectangle that covers a WGS84 box. Lines of latitude bow on
 * a Transverse Mercator grid (away from 127°E a box's top edge is highest at its middle or at a
 * corner), so every edge is sampled, and the rounding goes outward: a cell's rect must never
 * drop a place on its border.
 */
export function bboxToWcongRect(b: BBox): WcongRect | null {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (let i = 0; i <= EDGE_SAMPLES; i++) {
    const t = i / EDGE_SAMPLES;
    const lat = b.south + (b.north - b.south) * t;
    const lng = b.west + (b.east - b.west) * t;
    for (const p of [
      { lat: b.south, lng },
      { lat: b.north, lng },
      { lat, lng: b.west },
      { lat, lng: b.east },
    ]) {
      const w = wgs84ToWcongnamul(p);
      if (!w) return null;
      x1 = Math.min(x1, w.x);
      y1 = Math.min(y1, w.y);
      x2 = Math.max(x2, w.x);
      y2 = Math.max(y2, w.y);
    }
  }
  return { x1: Math.floor(x1), y1: Math.floor(y1), x2: Math.ceil(x2), y2: Math.ceil(y2) };
}

/** The WGS84 box that covers a WCONGNAMUL rectangle (its four corners and edges, sampled). */
export function wcongRectToBBox(r: WcongRect): BBox | null {
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (let i = 0; i <= EDGE_SAMPLES; i++) {
    const t = i / EDGE_SAMPLES;
    const x = r.x1 + (r.x2 - r.x1) * t;
    const y = r.y1 + (r.y2 - r.y1) * t;
    for (const p of [
      { x, y: r.y1 },
      { x, y: r.y2 },
      { x: r.x1, y },
      { x: r.x2, y },
    ]) {
      const g = wcongnamulToWgs84(p);
      if (!g) return null;
      south = Math.min(south, g.lat);
      north = Math.max(north, g.lat);
      west = Math.min(west, g.lng);
      east = Math.max(east, g.lng);
    }
  }
  return { south, west, north, east };
}

/** Whether a WCONGNAMUL point lies in a rect (borders included, as Kakao's rect search is taken to). */
export function wcongRectContains(r: WcongRect, p: WcongPoint): boolean {
  return p.x >= r.x1 && p.x <= r.x2 && p.y >= r.y1 && p.y <= r.y2;
}
