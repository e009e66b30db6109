export type {
  Area,
  AreaError,
  AreaErrorCode,
  AreaResult,
  BBox,
  LatLng,
  MapView,
  Polygon,
  Ring,
  Viewport,
} from './types';
export {
  DEFAULT_VIEWPORT,
  MAX_MERCATOR_LAT,
  MAX_ZOOM,
  TILE_SIZE,
  cellSearchView,
  fitZoom,
  latLngToWorld,
  latToWorldY,
  lngToWorldX,
  metresPerPixel,
  visibleBBox,
  worldXToLng,
  worldYToLat,
} from './mercator';
export { bboxCentre, bboxContains, bboxContainsBBox, bboxOverlaps, shareInside } from './bbox';
export { areaContains } from './area-contains';
export { EARTH_RADIUS_M, haversineMetres } from './distance';
export {
  bboxAreaKm2,
  bboxOfPolygons,
  classifyBBox,
  pointInPolygon,
  pointInPolygons,
  polygonsAreaKm2,
  ringAreaKm2,
  type BBoxClass,
} from './polygon';
export { createPolygonIndex, type PolygonIndex } from './polygon-index';
export { findRingCrossing } from './ring-crossing';
export { MIN_SIDE_METRES, bboxFromView, formatCorners, parseAreaText } from './area';
export { MAX_VERTICES } from './geojson';
