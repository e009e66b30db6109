import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT, MAX_VERTICES, bboxFromView, parseAreaText, pointInPolygons } from '../../utils/geo';
import type { AreaErrorCode, AreaResult } from '../../utils/geo';

function errorOf(result: AreaResult) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.area).slice(0, 200)}`);
  return result.error;
}

const polygonJson = (...rings: [number, number][][]) => JSON.stringify({ type: 'Polygon', coordinates: rings });
const square = (w: number, s: number, e: number, n: number): [number, number][] => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];

describe('parseAreaText: typed corners', () => {
  it('reads south-west then north-east corners, with commas, spaces or semicolons', () => {
    for (const text of ['40.70,-74.02,40.80,-73.93', ' 40.70, -74.02  40.80, -73.93 ', '40.70;-74.02;40.80;-73.93', '40.70,\u221274.02,40.80,\u221273.93']) {
      const result = parseAreaText(text);
      expect(result).toEqual({
        ok: true,
        area: { kind: 'bbox', bbox: { south: 40.7, west: -74.02, north: 40.8, east: -73.93 } },
      });
    }
  });

  // Every bad input: its code, and a message that says what is wrong.
  const cases: [string, AreaErrorCode, RegExp][] = [
    ['', 'empty', /corners/],
    ['   ', 'empty', /corners/],
    ['hello', 'unparseable', /four numbers/],
    ['40.7,-74.0,40.8', 'unparseable', /four numbers/],
    ['40.7,-74.0,40.8,-73.9,1', 'unparseable', /four numbers/],
    ['40.7,-74.0,40.8,abc', 'unparseable', /four numbers/],
    ['95,200,96,201', 'out-of-range', /Latitude 95 is out of range/],
    ['10,200,11,201', 'out-of-range', /Longitude 200 is out of range/],
    ['86,10,87,11', 'out-of-range', /beyond the map's edge/],
    ['40.80,-73.93,40.70,-74.02', 'swapped-corners', /south-west/],
    ['-20,170,-10,-170', 'antimeridian', /180/],
    ['40.7,-74.0,40.7,-73.9', 'degenerate', /same latitude/],
    ['40.7,-74.0,40.8,-74.0', 'degenerate', /same longitude/],
    ['40.7,-74.0,40.70001,-73.9', 'too-small', /at least 20 m/],
  ];
  it.each(cases)('%j is refused as %s', (text, code, message) => {
    const error = errorOf(parseAreaText(text));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('suggests the corrected input for swapped corners, keeping what was typed', () => {
    // Both swapped (north-east first), only the latitudes, only the longitudes.
    for (const text of ['40.80,-73.93,40.70,-74.02', '40.80,-74.02,40.70,-73.93', '40.70,-73.93,40.80,-74.02']) {
      const error = errorOf(parseAreaText(text));
      expect(error.code).toBe('swapped-corners');
      expect(error.params?.suggestion).toBe('40.70,-74.02,40.80,-73.93');
      expect(error.message).toContain('Did you mean 40.70,-74.02,40.80,-73.93?');
      // The suggestion itself is accepted.
      expect(parseAreaText(String(error.params?.suggestion)).ok).toBe(true);
    }
  });

  it('says when longitude,latitude order was typed', () => {
    // Sydney typed as lng,lat: latitude 151.20 is impossible, the swapped reading is fine.
    const error = errorOf(parseAreaText('151.20,-33.90,151.30,-33.80'));
    expect(error.code).toBe('out-of-range');
    expect(error.message).toMatch(/longitude,latitude order/);
    expect(error.params?.suggestion).toBe('-33.90,151.20,-33.80,151.30');
    expect(parseAreaText(String(error.params?.suggestion)).ok).toBe(true);
  });
});

describe('parseAreaText: GeoJSON', () => {
  it('reads a Polygon with a hole; the hole is not in the area', () => {
    const result = parseAreaText(polygonJson(square(0, 0, 1, 1), square(0.4, 0.4, 0.6, 0.6)));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.area.kind).toBe('polygon');
    expect(result.area.bbox).toEqual({ south: 0, west: 0, north: 1, east: 1 });
    if (result.area.kind !== 'polygon') return;
    expect(pointInPolygons({ lat: 0.5, lng: 0.5 }, result.area.polygons)).toBe(false);
    expect(pointInPolygons({ lat: 0.2, lng: 0.5 }, result.area.polygons)).toBe(true);
    // Rings are stored open: the closing point is not repeated.
    expect(result.area.polygons[0]![0]).toHaveLength(4);
  });

  it('reads a MultiPolygon, a Feature and a FeatureCollection', () => {
    const multi = { type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)], [square(2, 2, 3, 3)]] };
    const feature = { type: 'Feature', properties: {}, geometry: multi };
    const collection = {
      type: 'FeatureCollection',
      features: [feature, { type: 'Feature', geometry: { type: 'Polygon', coordinates: [square(5, 5, 6, 6)] } }],
    };
    const m = parseAreaText(JSON.stringify(multi));
    if (!m.ok || m.area.kind !== 'polygon') throw new Error('MultiPolygon refused');
    expect(m.area.polygons).toHaveLength(2);
    expect(m.area.bbox).toEqual({ south: 0, west: 0, north: 3, east: 3 });
    expect(pointInPolygons({ lat: 2.5, lng: 2.5 }, m.area.polygons)).toBe(true);
    expect(pointInPolygons({ lat: 1.5, lng: 1.5 }, m.area.polygons)).toBe(false);
    const f = parseAreaText(JSON.stringify(feature));
    expect(f.ok && f.area.kind === 'polygon' && f.area.polygons.length).toBe(2);
    const c = parseAreaText(JSON.stringify(collection));
    expect(c.ok && c.area.kind === 'polygon' && c.area.polygons.length).toBe(3);
  });

  const bowTie: [number, number][] = [
    [0, 0],
    [1, 1],
    [1, 0],
    [0, 1],
    [0, 0],
  ];
  const cases: [string, string, AreaErrorCode, RegExp][] = [
    ['broken JSON', '{"type": "Polygon", ', 'unparseable', /not valid JSON/],
    ['a Point', JSON.stringify({ type: 'Point', coordinates: [0, 0] }), 'unsupported', /Point/],
    ['a bare array', '[[0,0],[1,1]]', 'unsupported', /Polygon/],
    [
      'a LineString feature',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: {
              type: 'LineString',
              coordinates: [
                [0, 0],
                [1, 1],
              ],
            },
          },
        ],
      }),
      'unsupported',
      /LineString/,
    ],
    ['a feature without geometry', JSON.stringify({ type: 'Feature', geometry: null }), 'unsupported', /null/],
    ['an empty collection', JSON.stringify({ type: 'FeatureCollection', features: [] }), 'empty', /no polygon/],
    [
      'text positions',
      JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            ['a', 'b'],
            [1, 0],
            [1, 1],
          ],
        ],
      }),
      'unparseable',
      /longitude, latitude/,
    ],
    ['positions as objects', JSON.stringify({ type: 'Polygon', coordinates: [[{ lat: 0, lng: 0 }]] }), 'unparseable', /longitude, latitude/],
    ['coordinates not a list', JSON.stringify({ type: 'Polygon', coordinates: 5 }), 'unparseable', /rings/],
    ['longitude out of range', polygonJson(square(179, 0, 181, 1)), 'out-of-range', /Longitude 181/],
    [
      '[lat, lng] order',
      polygonJson([
        [40, 100],
        [40.1, 100],
        [40.1, 100.1],
        [40, 100],
      ]),
      'out-of-range',
      /\[longitude, latitude\]/,
    ],
    [
      'a ring across ±180',
      polygonJson([
        [179, 0],
        [-179, 0],
        [-179, 1],
        [179, 1],
      ]),
      'antimeridian',
      /180/,
    ],
    [
      'a ring of 2 points',
      polygonJson([
        [0, 0],
        [1, 1],
        [0, 0],
      ]),
      'degenerate',
      /fewer than 3/,
    ],
    [
      'collinear points',
      polygonJson([
        [0, 0],
        [1, 1],
        [2, 2],
        [0, 0],
      ]),
      'degenerate',
      /one line/,
    ],
    ['a bow-tie', polygonJson(bowTie), 'self-crossing', /near 0.5,0.5/],
    ['a hole crossing its shell', polygonJson(square(0, 0, 1, 1), square(0.8, 0.4, 1.2, 0.6)), 'self-crossing', /crosses/],
    ['a 10 m polygon', polygonJson(square(0, 0, 0.0001, 0.0001)), 'too-small', /at least 20 m/],
  ];
  it.each(cases)('%s is refused', (_name, text, code, message) => {
    const error = errorOf(parseAreaText(text));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('refuses more vertices than the planner takes', () => {
    const n = MAX_VERTICES + 1;
    const big: [number, number][] = Array.from({ length: n }, (_, k) => [Math.cos((2 * Math.PI * k) / n), Math.sin((2 * Math.PI * k) / n)]);
    expect(errorOf(parseAreaText(polygonJson(big))).code).toBe('too-complex');
  });
});

describe('bboxFromView', () => {
  it('is the visible part of the map', () => {
    // Hand-computed in geo-mercator.test.ts: zoom 14 at (0,0) shows −0.01991..0.05493 × ±0.03433.
    const result = bboxFromView({ lat: 0, lng: 0, zoom: 14 }, DEFAULT_VIEWPORT);
    if (!result.ok || result.area.kind !== 'bbox') throw new Error('refused');
    expect(result.area.bbox.west).toBeCloseTo(-0.0199127197, 9);
    expect(result.area.bbox.east).toBeCloseTo(0.054931640625, 9);
    expect(result.area.bbox.north).toBeCloseTo(0.0343322733, 9);
  });

  it('refuses a view across ±180 and accepts the same view panned to 190° as −170°', () => {
    expect(errorOf(bboxFromView({ lat: 0, lng: 179.99, zoom: 14 }, DEFAULT_VIEWPORT)).code).toBe('antimeridian');
    const a = bboxFromView({ lat: 0, lng: 190, zoom: 14 }, DEFAULT_VIEWPORT);
    const b = bboxFromView({ lat: 0, lng: -170, zoom: 14 }, DEFAULT_VIEWPORT);
    expect(a).toEqual(b);
    expect(a.ok).toBe(true);
  });

  it('refuses an unreadable view', () => {
    expect(errorOf(bboxFromView({ lat: NaN, lng: 0, zoom: 14 }, DEFAULT_VIEWPORT)).code).toBe('unparseable');
  });
});
