import type { ExportListing } from './columns';
import { listingToRecord, type ExportRecord } from './json';

/** RFC 7946 §3.2: a Feature's geometry may be null when the place's position is unknown. */
export interface PlaceFeature {
  type: 'Feature';
  id: string;
  geometry: { type: 'Point'; coordinates: [lng: number, lat: number] } | null;
  properties: ExportRecord;
}

/**
 * The Point of a place, longitude first (RFC 7946 §3.1.1), or null when the stored
 * coordinates are missing or out of range: a place drawn at (0, 0) would be a lie.
 */
export function placeGeometry(lat: number | null, lng: number | null): PlaceFeature['geometry'] {
  if (lat === null || lng === null || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { type: 'Point', coordinates: [lng, lat] };
}

export function listingToFeature(listing: ExportListing): PlaceFeature {
  return {
    type: 'Feature',
    // The store's key (`google:{cid}`, `naver:{id}`): unique across providers, where an id alone is not.
    id: listing.key,
    geometry: placeGeometry(listing.lat, listing.lng),
    properties: listingToRecord(listing),
  };
}

/**
 * A GeoJSON FeatureCollection, one Point Feature per place, streamed batch by batch like
 * csvChunks. Every export field is a property, coordinates included, so a place without a
 * geometry still carries its whole record. A filtered export names its filters in a top-level
 * `filters` member (a foreign member, RFC 7946 §6.1: readers that do not know it ignore it).
 */
export async function* geoJsonChunks(batches: AsyncIterable<ExportListing[]>, filters?: string | null): AsyncGenerator<string> {
  yield filters ? `{"type":"FeatureCollection","filters":${JSON.stringify(filters)},"features":[` : '{"type":"FeatureCollection","features":[';
  let first = true;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const items = batch.map((listing) => JSON.stringify(listingToFeature(listing))).join(',\n');
    yield (first ? '\n' : ',\n') + items;
    first = false;
  }
  yield first ? ']}\n' : '\n]}\n';
}
