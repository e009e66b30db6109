import type { LatLng } from './types';

/** Mean Earth radius (IUGG), the usual choice for haversine. */
export const EARTH_RADIUS_M = 6371008.8;

const DEG = Math.PI / 180;

/** Great-circle distance in metres (haversine: accurate to ~0.5% since the Earth is not a sphere). */
export function haversineMetres(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * DEG;
  const dLng = (b.lng - a.lng) * DEG;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * DEG) * Math.cos(b.lat * DEG) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
