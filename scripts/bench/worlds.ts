/**
 * The bench's worlds: the replica's three presets, each swept over the square that holds its
 * whole disc, for one keyword. Seeded, so every run measures the same places.
 */
import { formatCorners, parseAreaText } from '../../utils/geo';
import type { Area, LatLng } from '../../utils/geo/types';
import { groundTruth } from '../../tests/replica/search';
import { createPresetWorld, type PresetName, type World, type WorldOptions } from '../../tests/replica/world';

export const BENCH_SEED = 7;
/** A broad keyword (22% of a world's places): the case where the cap bites. */
export const BENCH_KEYWORD = 'cafe';
/** The issue asks for at least this many places per world. */
export const MIN_WORLD_PLACES = 20_000;

export interface BenchWorldSpec {
  name: PresetName;
  /** What the world stands for, for the table. */
  label: string;
  /** Preset options changed for the bench, and why. */
  overrides: Partial<WorldOptions>;
}

export const BENCH_WORLDS: readonly BenchWorldSpec[] = [
  { name: 'denseCentre', label: 'dense city centre', overrides: {} },
  { name: 'mixedMetro', label: 'mixed metropolitan', overrides: {} },
  // The preset has 3,000 places; the issue asks for 20,000. Spread over a 40 km disc that is
  // still ~4 places per km² (the metro preset has ~85, the centre ~700).
  { name: 'sparseRegion', label: 'sparse region', overrides: { places: MIN_WORLD_PLACES } },
];

export interface BenchWorld {
  spec: BenchWorldSpec;
  world: World;
  area: Area;
  /** The area as a user would type it (south,west,north,east). */
  areaText: string;
  keyword: string;
  /** Keys (google:{cid}) of the places a perfect sweep of the area would collect. */
  truth: Set<string>;
}

export function loadBenchWorld(spec: BenchWorldSpec, seed = BENCH_SEED, keyword = BENCH_KEYWORD): BenchWorld {
  const world = createPresetWorld(spec.name, seed, spec.overrides);
  if (world.places.length < MIN_WORLD_PLACES) {
    throw new Error(`bench: world ${spec.name} has ${world.places.length} places, fewer than ${MIN_WORLD_PLACES}`);
  }
  const areaText = formatCorners(squareAround(world.centre, world.radiusKm));
  const parsed = parseAreaText(areaText);
  if (!parsed.ok) throw new Error(`bench: area of ${spec.name}: ${parsed.error.message}`);
  const truth = new Set(groundTruth(world, keyword, parsed.area).map((p) => `google:${p.cid}`));
  return { spec, world, area: parsed.area, areaText, keyword, truth };
}

/** The square of side 2·halfSideKm centred on `c` (flat-earth degrees: fine at these sizes). */
function squareAround(c: LatLng, halfSideKm: number) {
  const dLat = halfSideKm / 110.574;
  const dLng = halfSideKm / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return { south: c.lat - dLat, west: c.lng - dLng, north: c.lat + dLat, east: c.lng + dLng };
}
