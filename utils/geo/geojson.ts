import type { AreaError, LatLng, Polygon, Ring } from './types';

/**
 * Reads the polygons out of pasted GeoJSON (RFC 7946): a Polygon, a MultiPolygon, a
 * Feature holding one, or a FeatureCollection whose features all hold one. Only the shape
 * is checked here (pasted text is untrusted); ranges and geometry are checked by the caller.
 * Positions are [longitude, latitude, …]; extra members (altitude) are ignored.
 */
export type GeoJsonRead = { ok: true; polygons: Polygon[] } | { ok: false; error: AreaError };

/** More vertices than this would make planning and validation slow in the popup. */
export const MAX_VERTICES = 50_000;

export function readGeoJsonPolygons(value: unknown): GeoJsonRead {
  const state = { vertices: 0 };
  try {
    const polygons = readObject(value, 'the GeoJSON', state);
    if (polygons.length === 0) {
      return fail('empty', 'The GeoJSON holds no polygon.');
    }
    return { ok: true, polygons };
  } catch (e) {
    if (e instanceof ShapeError) return { ok: false, error: e.error };
    throw e;
  }
}

class ShapeError extends Error {
  constructor(readonly error: AreaError) {
    super(error.message);
  }
}

function fail(code: AreaError['code'], message: string, params?: AreaError['params']): { ok: false; error: AreaError } {
  return { ok: false, error: params ? { code, message, params } : { code, message } };
}

function shapeError(code: AreaError['code'], message: string, params?: AreaError['params']): ShapeError {
  return new ShapeError(fail(code, message, params).error);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (isObject(v) && typeof v.type === 'string') return v.type.slice(0, 40);
  if (Array.isArray(v)) return 'an array';
  return v === null ? 'null' : typeof v;
}

function unsupported(where: string, v: unknown): ShapeError {
  const type = typeName(v);
  return shapeError('unsupported', `${capitalise(where)} is ${type}; paste a Polygon or MultiPolygon (or a Feature or FeatureCollection of them).`, { type });
}

function readObject(v: unknown, where: string, state: { vertices: number }): Polygon[] {
  if (!isObject(v)) throw unsupported(where, v);
  switch (v.type) {
    case 'Polygon':
      return [readPolygon(v.coordinates, `${where}'s coordinates`, state)];
    case 'MultiPolygon': {
      if (!Array.isArray(v.coordinates)) throw malformed(`${where}'s coordinates`, 'a list of polygons');
      return v.coordinates.map((c, i) => readPolygon(c, `polygon ${i + 1}`, state));
    }
    case 'Feature':
      if (!isObject(v.geometry)) throw unsupported(`${where}'s geometry`, v.geometry);
      if (v.geometry.type !== 'Polygon' && v.geometry.type !== 'MultiPolygon') {
        throw unsupported(`${where}'s geometry`, v.geometry);
      }
      return readObject(v.geometry, where, state);
    case 'FeatureCollection': {
      if (!Array.isArray(v.features)) throw malformed(`${where}'s features`, 'a list');
      return v.features.flatMap((f, i) => {
        if (!isObject(f) || f.type !== 'Feature') throw unsupported(`feature ${i + 1}`, f);
        return readObject(f, `feature ${i + 1}`, state);
      });
    }
    default:
      throw unsupported(where, v);
  }
}

function malformed(where: string, expected: string): ShapeError {
  return shapeError('unparseable', `${capitalise(where)} should be ${expected}.`);
}

function readPolygon(v: unknown, where: string, state: { vertices: number }): Polygon {
  if (!Array.isArray(v)) throw malformed(where, 'a list of rings');
  return v.map((ring, i) => readRing(ring, `${where}, ring ${i + 1}`, state));
}

function readRing(v: unknown, where: string, state: { vertices: number }): Ring {
  if (!Array.isArray(v)) throw malformed(where, 'a list of [longitude, latitude] positions');
  state.vertices += v.length;
  if (state.vertices > MAX_VERTICES) {
    throw shapeError(
      'too-complex',
      `The GeoJSON has more than ${MAX_VERTICES.toLocaleString('en-US')} points; simplify it (e.g. with mapshaper) and paste it again.`,
      { max: MAX_VERTICES },
    );
  }
  return v.map((pos, i) => readPosition(pos, `${where}, point ${i + 1}`));
}

function readPosition(v: unknown, where: string): LatLng {
  if (!Array.isArray(v) || v.length < 2 || !isFiniteNumber(v[0]) || !isFiniteNumber(v[1])) {
    throw malformed(where, 'a [longitude, latitude] pair of numbers');
  }
  return { lng: v[0], lat: v[1] };
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
