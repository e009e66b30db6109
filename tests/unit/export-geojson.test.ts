import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../utils/export/columns';
import { geoJsonChunks } from '../../utils/export/geojson';
import type { StoredListing } from '../../utils/domain/listing';
import { inBatches, storedListing } from '../helpers/listings';
import { createRng } from '../replica/prng';

const listing = (n: number, over: Partial<StoredListing> = {}): StoredListing =>
  storedListing(n, { website: 'https://example.com/', rating: 4.2, reviews: 17, lat: 37.5665, lng: 126.978, keywords: ['cafe'], ...over });

/** What the parsed export is read as; every field is checked, none assumed. */
interface ParsedFeature {
  type: unknown;
  id: unknown;
  properties: Record<string, unknown>;
  geometry: { type: unknown; coordinates: [number, number] } | null;
}
interface ParsedCollection {
  type: unknown;
  features: ParsedFeature[];
}

async function exportGeoJson(all: StoredListing[], size = 4): Promise<ParsedCollection> {
  let text = '';
  for await (const chunk of geoJsonChunks(inBatches(all, size))) text += chunk;
  return JSON.parse(text);
}

/** The RFC 7946 rules this export promises, checked on the parsed document. */
function expectValidPointCollection(doc: ParsedCollection): void {
  expect(doc.type).toBe('FeatureCollection');
  expect(Array.isArray(doc.features)).toBe(true);
  for (const f of doc.features) {
    expect(f.type).toBe('Feature');
    expect(typeof f.properties).toBe('object');
    if (f.geometry === null) continue;
    expect(f.geometry.type).toBe('Point');
    expect(f.geometry.coordinates).toHaveLength(2);
    const [lng, lat] = f.geometry.coordinates;
    expect(Math.abs(lng)).toBeLessThanOrEqual(180);
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
  }
}

describe('GeoJSON export', () => {
  it('is a FeatureCollection of Points, longitude first, one per place (seeded positions)', async () => {
    const rng = createRng(20261130);
    const all = Array.from({ length: 57 }, (_, i) => listing(i + 1, { lat: rng.next() * 170 - 85, lng: rng.next() * 360 - 180 }));
    const doc = await exportGeoJson(all);
    expectValidPointCollection(doc);
    expect(doc.features).toHaveLength(all.length);
    expect(new Set(doc.features.map((f) => f.id)).size).toBe(all.length);
    doc.features.forEach((f, i) => {
      expect(f.geometry?.coordinates).toEqual([all[i]!.lng, all[i]!.lat]);
      expect(f.id).toBe(all[i]!.key);
    });
  });

  it('puts Seoul in Seoul: [126.978, 37.5665], not the swapped point in the Antarctic ocean', async () => {
    const doc = await exportGeoJson([listing(1)]);
    expect(doc.features[0]!.geometry).toEqual({ type: 'Point', coordinates: [126.978, 37.5665] });
  });

  it('carries every export field as a property, the same values the CSV carries', async () => {
    const l = listing(3, { name: '광화문 "커피"', phone: '02-735-1234', keywords: ['cafe', '카페'] });
    const doc = await exportGeoJson([l]);
    const props = doc.features[0]!.properties;
    expect(Object.keys(props).sort()).toEqual([...CSV_COLUMNS].sort());
    expect(props).toMatchObject({
      place_id: l.placeId,
      cid: l.cid,
      name: '광화문 "커피"',
      phone: '02-735-1234',
      rating: 4.2,
      reviews: 17,
      lat: 37.5665,
      lng: 126.978,
      keywords: ['cafe', '카페'],
      website: 'https://example.com/',
    });
  });

  it('keeps a place without a usable position as a Feature with a null geometry', async () => {
    const all = [
      listing(1, { lat: null, lng: null }),
      listing(2, { lat: 37.5, lng: null }),
      listing(3, { lat: 91, lng: 10 }),
      listing(4, { lat: 10, lng: 181 }),
      listing(5, { lat: Number.NaN, lng: 10 }),
      listing(6),
    ];
    const doc = await exportGeoJson(all, 2);
    expectValidPointCollection(doc);
    expect(doc.features).toHaveLength(6);
    expect(doc.features.map((f) => f.geometry === null)).toEqual([true, true, true, true, true, false]);
    expect(doc.features[0]!.properties.name).toBe('Place 1');
    expect(doc.features[0]!.properties.lat).toBeNull();
  });

  it('exports an empty collection as an empty FeatureCollection', async () => {
    expect(await exportGeoJson([])).toEqual({ type: 'FeatureCollection', features: [] });
  });
});
