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
export type Area =
  | { kind: 'bbox'; bbox: BBox }
  | { kind: 'polygon'; bbox: BBox; polygons: Polygon[] };

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
