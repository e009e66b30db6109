import type { AreaError, AreaErrorCode, AreaResult, BBox, LatLng, MapView, Polygon, Viewport } from './types';
import { MAX_MERCATOR_LAT, visibleBBox } from './mercator';
import { EARTH_RADIUS_M } from './distance';
import { bboxOfPolygons, openRing } from './polygon';
import { findRingCrossing } from './ring-crossing';
import { readGeoJsonPolygons } from './geojson';

/**
 * Turning what the user typed, pasted or looked at into an `Area`, or into one error with
 * a code the UI translates. Nothing is guessed: input that could mean two things (corners
 * in the wrong order, lng,lat order) is refused with the corrected input suggested.
 */

/**
 * A side shorter than this is smaller than a building plot: almost always two nearly equal
 * corners typed by mistake. (The map cannot show less than ~60 m anyway, at zoom 21.)
 */
export const MIN_SIDE_METRES = 20;
/** Longer pasted text is not a hand-made area; refusing it early keeps the popup responsive. */
export const MAX_AREA_TEXT_CHARS = 5_000_000;

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const DEG = Math.PI / 180;

export function parseAreaText(text: string): AreaResult {
  // Coordinates copied from web pages often carry a typographic minus (U+2212).
  const trimmed = text.trim().replace(/\u2212/g, '-');
  if (trimmed === '') {
    return failed('empty', 'Type two corners (south-west lat,lng then north-east lat,lng) or paste GeoJSON.');
  }
  if (trimmed.length > MAX_AREA_TEXT_CHARS) {
    return failed('too-complex', 'The pasted text is too long; simplify the GeoJSON and paste it again.', {
      max: MAX_AREA_TEXT_CHARS,
    });
  }
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseGeoJsonText(trimmed);
  return parseCorners(trimmed);
}

/** "Use map view": the part of the user's map that a search there would list. */
export function bboxFromView(view: MapView, viewport: Viewport): AreaResult {
  if (![view.lat, view.lng, view.zoom].every(Number.isFinite)) {
    return failed('unparseable', 'The map view could not be read.');
  }
  // The map keeps panning east past 180°, and its URL then reads e.g. 190: the same place as −170.
  const lng = ((((view.lng + 180) % 360) + 360) % 360) - 180;
  const bbox = visibleBBox({ ...view, lng }, viewport);
  if (bbox.west < -180 || bbox.east > 180) {
    return failed('antimeridian', 'The map view crosses the ±180° meridian, which sweeps cannot; pan east or west, or zoom in.');
  }
  const small = checkSize(bbox);
  if (small) return { ok: false, error: small };
  return { ok: true, area: { kind: 'bbox', bbox } };
}

/** A box in the typed-corners form (`south,west,north,east`), e.g. to fill the field from "Use map view". */
export function formatCorners(bbox: BBox): string {
  return `${bbox.south},${bbox.west},${bbox.north},${bbox.east}`;
}

function failed(code: AreaErrorCode, message: string, params?: AreaError['params']): AreaResult {
  return { ok: false, error: params ? { code, message, params } : { code, message } };
}

// ---------------------------------------------------------------------------- corners

function parseCorners(text: string): AreaResult {
  const tokens = text.split(/[\s,;]+/).filter((t) => t !== '');
  if (tokens.length !== 4 || !tokens.every((t) => NUMBER.test(t))) {
    return failed(
      'unparseable',
      'Type the two corners as four numbers — south-west latitude,longitude then north-east latitude,longitude, e.g. 40.70,-74.02,40.80,-73.93 — or paste GeoJSON.',
    );
  }
  const [lat1, lng1, lat2, lng2] = tokens as [string, string, string, string];
  const a = { lat: Number(lat1), lng: Number(lng1) };
  const b = { lat: Number(lat2), lng: Number(lng2) };

  const range = checkCornerRange(a, b, tokens as [string, string, string, string]);
  if (range) return { ok: false, error: range };

  if (a.lat === b.lat || a.lng === b.lng) {
    return failed(
      'degenerate',
      a.lat === b.lat ? 'Both corners have the same latitude, so the box has no area.' : 'Both corners have the same longitude, so the box has no area.',
    );
  }
  const latSwapped = a.lat > b.lat;
  const lngSwapped = a.lng > b.lng;
  // West 170 → east −170 is a box 20° wide across ±180, not a 340° box typed backwards.
  if (lngSwapped && !latSwapped && a.lng > 0 && b.lng < 0 && a.lng - b.lng > 180) {
    return failed('antimeridian', 'The box crosses the ±180° meridian, which sweeps cannot; split it into two boxes, one each side.');
  }
  if (latSwapped || lngSwapped) {
    const suggestion = cornersText(latSwapped ? lat2 : lat1, lngSwapped ? lng2 : lng1, latSwapped ? lat1 : lat2, lngSwapped ? lng1 : lng2);
    return failed(
      'swapped-corners',
      `The first corner must be the south-west one (lower latitude and longitude) and the second the north-east one. Did you mean ${suggestion}?`,
      { suggestion },
    );
  }
  const bbox = { south: a.lat, west: a.lng, north: b.lat, east: b.lng };
  const small = checkSize(bbox);
  if (small) return { ok: false, error: small };
  return { ok: true, area: { kind: 'bbox', bbox } };
}

function cornersText(lat1: string, lng1: string, lat2: string, lng2: string): string {
  return `${lat1},${lng1},${lat2},${lng2}`;
}

function checkCornerRange(a: LatLng, b: LatLng, tokens: [string, string, string, string]): AreaError | null {
  const [lat1, lng1, lat2, lng2] = tokens;
  const bad = firstOutOfRange([a, b]);
  if (!bad) return null;
  // Typed lng,lat: swapping each pair makes every value valid and the latitudes sane.
  const swapped = [
    { lat: a.lng, lng: a.lat },
    { lat: b.lng, lng: b.lat },
  ];
  if (bad.axis === 'latitude' && !bad.beyondMap && !firstOutOfRange(swapped)) {
    // The typed "lng" tokens are the latitudes, the typed "lat" tokens the longitudes.
    const [south, north] = a.lng <= b.lng ? [lng1, lng2] : [lng2, lng1];
    const [west, east] = a.lat <= b.lat ? [lat1, lat2] : [lat2, lat1];
    const suggestion = cornersText(south, west, north, east);
    return {
      code: 'out-of-range',
      message: `Latitude ${bad.value} is out of range (−90 to 90). It looks like longitude,latitude order was typed; corners are latitude,longitude. Did you mean ${suggestion}?`,
      params: { value: bad.value, axis: 'latitude', order: 'lng,lat', suggestion },
    };
  }
  return rangeError(bad);
}

interface OutOfRange {
  axis: 'latitude' | 'longitude';
  value: number;
  /** Within ±90 but beyond the map's edge (±85.05°), which the map never shows. */
  beyondMap: boolean;
}

function firstOutOfRange(points: readonly LatLng[]): OutOfRange | null {
  for (const p of points) {
    if (Math.abs(p.lat) > 90) return { axis: 'latitude', value: p.lat, beyondMap: false };
    if (Math.abs(p.lng) > 180) return { axis: 'longitude', value: p.lng, beyondMap: false };
  }
  for (const p of points) {
    if (Math.abs(p.lat) > MAX_MERCATOR_LAT) return { axis: 'latitude', value: p.lat, beyondMap: true };
  }
  return null;
}

function rangeError(bad: OutOfRange): AreaError {
  const message = bad.beyondMap
    ? `Latitude ${bad.value} is beyond the map's edge (it shows −85.05 to 85.05).`
    : bad.axis === 'latitude'
      ? `Latitude ${bad.value} is out of range (−90 to 90).`
      : `Longitude ${bad.value} is out of range (−180 to 180).`;
  return { code: 'out-of-range', message, params: { value: bad.value, axis: bad.axis } };
}

function checkSize(bbox: BBox): AreaError | null {
  const midLat = (bbox.south + bbox.north) / 2;
  const widthM = (bbox.east - bbox.west) * DEG * EARTH_RADIUS_M * Math.cos(midLat * DEG);
  const heightM = (bbox.north - bbox.south) * DEG * EARTH_RADIUS_M;
  if (Math.min(widthM, heightM) >= MIN_SIDE_METRES) return null;
  const w = Math.round(widthM * 10) / 10;
  const h = Math.round(heightM * 10) / 10;
  return {
    code: 'too-small',
    message: `The area is only ${w} m wide and ${h} m tall; each side must be at least ${MIN_SIDE_METRES} m. Check the coordinates for a typo.`,
    params: { widthM: w, heightM: h, min: MIN_SIDE_METRES },
  };
}

// ---------------------------------------------------------------------------- GeoJSON

function parseGeoJsonText(text: string): AreaResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? e.message.slice(0, 200) : 'invalid JSON';
    return failed('unparseable', `The pasted text is not valid JSON (${detail}).`, { detail });
  }
  const read = readGeoJsonPolygons(value);
  if (!read.ok) return read;
  const polygons = read.polygons.map((polygon) => polygon.map(openRing));
  const error = checkPolygons(polygons);
  if (error) return { ok: false, error };
  return { ok: true, area: { kind: 'polygon', bbox: bboxOfPolygons(polygons), polygons } };
}

/** Checks in the order a user fixes them: values, then the antimeridian, then shape, then size. */
function checkPolygons(polygons: Polygon[]): AreaError | null {
  const points = polygons.flat(2);
  const bad = firstOutOfRange(points);
  if (bad) {
    const swapped = points.map((p) => ({ lat: p.lng, lng: p.lat }));
    if (bad.axis === 'latitude' && !bad.beyondMap && !firstOutOfRange(swapped)) {
      return {
        code: 'out-of-range',
        message: `Latitude ${bad.value} is out of range (−90 to 90). GeoJSON positions are [longitude, latitude]; these look like [latitude, longitude].`,
        params: { value: bad.value, axis: 'latitude', order: 'lat,lng' },
      };
    }
    return rangeError(bad);
  }

  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        if (Math.abs(ring[i]!.lng - ring[j]!.lng) > 180) {
          return {
            code: 'antimeridian',
            message: 'The polygon crosses the ±180° meridian, which sweeps cannot; split it into one polygon each side.',
          };
        }
      }
    }
  }

  for (const [pi, polygon] of polygons.entries()) {
    if (polygon.length === 0) {
      return { code: 'degenerate', message: `Polygon ${pi + 1} has no rings.`, params: { polygon: pi + 1 } };
    }
    for (const [ri, ring] of polygon.entries()) {
      const which = ri === 0 ? `the outline of polygon ${pi + 1}` : `hole ${ri} of polygon ${pi + 1}`;
      if (ring.length < 3) {
        return {
          code: 'degenerate',
          message: `${capitalise(which)} has fewer than 3 distinct points, so it has no area.`,
          params: { polygon: pi + 1, ring: ri },
        };
      }
      if (isCollinear(ring)) {
        return {
          code: 'degenerate',
          message: `${capitalise(which)} has no area: its points lie on one line.`,
          params: { polygon: pi + 1, ring: ri },
        };
      }
    }
    const crossing = findRingCrossing(polygon);
    if (crossing) {
      const at = `${round6(crossing.lat)},${round6(crossing.lng)}`;
      return {
        code: 'self-crossing',
        message: `Polygon ${pi + 1} crosses or touches itself near ${at}; fix the outline (each ring must be a simple loop).`,
        params: { polygon: pi + 1, lat: round6(crossing.lat), lng: round6(crossing.lng) },
      };
    }
  }
  return checkSize(bboxOfPolygons(polygons));
}

/**
 * Every point within rounding of the line through the first point and the one farthest from
 * it. (A ring whose signed area is zero but whose points are not collinear, like a
 * symmetric bow-tie, is reported as self-crossing instead: that is the fix it needs.)
 */
function isCollinear(ring: readonly LatLng[]): boolean {
  const p0 = ring[0]!;
  let far = p0;
  let farD2 = 0;
  for (const p of ring) {
    const d2 = (p.lng - p0.lng) ** 2 + (p.lat - p0.lat) ** 2;
    if (d2 > farD2) [far, farD2] = [p, d2];
  }
  if (farD2 === 0) return true;
  const length = Math.sqrt(farD2);
  return ring.every((p) => {
    const cross = (far.lng - p0.lng) * (p.lat - p0.lat) - (far.lat - p0.lat) * (p.lng - p0.lng);
    return Math.abs(cross) / length <= length * 1e-9;
  });
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
