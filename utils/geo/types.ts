/** A point in WGS84 degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * An axis-aligned box in WGS84 degrees. `south < north` and `west < east` always hold:
 * boxes that cross the antimeridian are rejected at validation, never represented.
 */
export interface BBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** A ring is a closed list of points (the last point may or may not repeat the first). */
export type Ring = LatLng[];
/** A polygon is an outer ring followed by zero or more holes. */
export type Polygon = Ring[];

/**
 * The area a sweep covers: the user's box, or a pasted GeoJSON Polygon/MultiPolygon.
 * `bbox` is always the bounding box of the whole area (for a polygon, of all its rings).
 */
export type Area = { kind: 'bbox'; bbox: BBox } | { kind: 'polygon'; bbox: BBox; polygons: Polygon[] };

/** What the map shows: the centre and zoom of a `/@lat,lng,zoomz` URL. */
export interface MapView {
  lat: number;
  lng: number;
  zoom: number;
}

/** Viewport size of the map tab in CSS pixels, and the width the left panel covers. */
export interface Viewport {
  width: number;
  height: number;
  /** Pixels on the left covered by the results panel: the map area that shows results is narrower. */
  panelWidth: number;
}

/**
 * Why an area was refused. The code is what the UI translates; `params` carries the
 * figures a translated message needs (the corrected input, a count, a coordinate).
 */
export type AreaErrorCode =
  | 'empty' // nothing typed, or GeoJSON with no polygon in it
  | 'unparseable' // neither four numbers nor JSON
  | 'unsupported' // JSON, but not a Polygon/MultiPolygon (or a Feature/FeatureCollection of them)
  | 'too-complex' // more text or vertices than the planner will take
  | 'out-of-range' // |lat| > 90 (or beyond the map's edge at ±85.05°), |lng| > 180
  | 'swapped-corners' // the first corner typed is not the south-west one
  | 'antimeridian' // the area crosses longitude ±180
  | 'degenerate' // zero area: equal corners, fewer than 3 distinct points, collinear ring
  | 'self-crossing' // a polygon ring crosses or touches itself, or a hole crosses its shell
  | 'too-small' // a side shorter than the minimum (almost always a typo)
  | 'too-large'; // the sweep would need more cells than the cap allows

export interface AreaError {
  code: AreaErrorCode;
  /** Clear English, for logs and as the UI's fallback text. */
  message: string;
  params?: Record<string, string | number>;
}

export type AreaResult = { ok: true; area: Area } | { ok: false; error: AreaError };
