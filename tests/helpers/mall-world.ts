/**
 * A 1.2 × 1.2 km district with one very dense mall (about 60 × 60 m) beside sparse streets:
 * the shape of district that made the popup say "2,760 places may be incomplete" of 579 found.
 */
import { seededRandom } from './random';
import { type PlaceSpec, worldFromSpecs } from '../replica/world';

export const AREA = '37.505,127.053,37.5158,127.0666';
/** The mall: about 60 × 60 m. */
export const MALL = { south: 37.5113, west: 127.0589, north: 37.5113 + 0.00054, east: 127.0589 + 0.00068 };

/** `streets` cafés spread over the 1.2 × 1.2 km district, `mall` cafés inside the mall. */
export function mallWorld(seed: number, streets: number, mall: number) {
  const r = seededRandom(seed);
  const specs: PlaceSpec[] = [];
  for (let i = 0; i < streets; i++)
    specs.push({ name: `Cafe ${i}`, category: 'cafe', prominence: r(), lat: 37.505 + r() * 0.0108, lng: 127.053 + r() * 0.0136 });
  for (let i = 0; i < mall; i++) {
    specs.push({
      name: `Mall cafe ${i}`,
      category: 'cafe',
      prominence: r(),
      lat: MALL.south + r() * (MALL.north - MALL.south),
      lng: MALL.west + r() * (MALL.east - MALL.west),
    });
  }
  return worldFromSpecs(specs, { centre: { lat: 37.5116, lng: 127.0592 } });
}
