/**
 * The business matcher (issue 24, utils/match/) on replica worlds whose three sites disagree
 * (tests/replica/site-views.ts), every listing read by the product's own readers and stored as a
 * sweep stores it (tests/helpers/site-listings.ts):
 * - quality per world over reporting seeds the rules were not tuned on (tuned on 1–5; the unit
 *   test's seed is 2424): precision and recall of the linked pairs, ambiguities listed, planted
 *   look-alikes merged, medians printed;
 * - cost at 10,000 and 100,000 stored places (listings of all three sites) of each preset (one thread): the run's time, pairs scored,
 *   and the heap after a garbage collection with the places alone and with the result held too,
 *   each over the heap before the places were read in.
 * `npx tsx --expose-gc scripts/bench/match.ts [--seeds=101,102,103,104,105] [--places=5000] [--sizes=10000,100000]`
 */
import { phoneToE164 } from '../../utils/listing/phone';
import { linkBusinesses } from '../../utils/match/link';
import { matchPlaceOf } from '../../utils/match/run';
import type { MatchPlace, MatchResult } from '../../utils/match/types';
import { scoreLinks, siteListings, type LinkFigures } from '../../tests/helpers/site-listings';
import { siteTruth } from '../../tests/replica/site-views';
import { createWorld, WORLD_PRESETS, type PresetName } from '../../tests/replica/world';
import { logLine as log, numbersOf, runSection } from './standalone';
import { median, round, tableRows } from './stats';

const PRESETS: readonly PresetName[] = ['denseCentre', 'mixedMetro'];
const SITES = ['google', 'naver', 'kakao'] as const;

export interface MatchQuality {
  preset: PresetName;
  places: number;
  seeds: number[];
  perSeed: Pick<LinkFigures, 'precision' | 'recall' | 'ambiguities' | 'lookAlikesMerged' | 'lookAlikes' | 'oneSiteTwice'>[];
  precision: number;
  recall: number;
  ambiguities: number;
  lookAlikesMerged: number;
}

export interface MatchCost {
  preset: PresetName;
  places: number;
  listings: number;
  seconds: number;
  pairsScored: number;
  businesses: number;
  ambiguities: number;
  /** Heap after a collection, MB, over what it was before the places were read in: with the places, then with the run's result held as well. */
  heapPlacesMb: number;
  heapWithResultMb: number;
}

export interface MatchFigures {
  quality: MatchQuality[];
  cost: MatchCost[];
  /** Whether the heap figures were taken after a collection (the bench runs with --expose-gc). */
  collected: boolean;
}

const link = (places: readonly MatchPlace[]): MatchResult => linkBusinesses(places, { sites: SITES, toE164: (_s, d) => phoneToE164(d, 'KR'), decisions: [] });

/** The fields the matcher reads of each stored listing, as the store hands them (utils/match/types.ts MatchPlace). */
function placesOf(preset: PresetName, places: number, seed: number): MatchPlace[] {
  const world = createWorld({ ...WORLD_PRESETS[preset], places, seed, siteViews: true });
  return siteListings(world).all.map(matchPlaceOf);
}

export async function measureMatch(opts: { seeds: number[]; places: number; sizes: number[]; log(line: string): void }): Promise<MatchFigures> {
  const quality: MatchQuality[] = [];
  for (const preset of PRESETS) {
    const perSeed: MatchQuality['perSeed'] = [];
    for (const seed of opts.seeds) {
      const world = createWorld({ ...WORLD_PRESETS[preset], places: opts.places, seed, siteViews: true });
      const f = scoreLinks(link(siteListings(world).all), siteTruth(world));
      perSeed.push({
        precision: round(f.precision, 4),
        recall: round(f.recall, 4),
        ambiguities: f.ambiguities,
        lookAlikesMerged: f.lookAlikesMerged,
        lookAlikes: f.lookAlikes,
        oneSiteTwice: f.oneSiteTwice,
      });
      opts.log(
        `${preset} seed ${seed}, ${opts.places} places: precision ${perSeed.at(-1)!.precision}, recall ${perSeed.at(-1)!.recall}, ambiguities ${f.ambiguities}, look-alikes merged ${f.lookAlikesMerged}/${f.lookAlikes}`,
      );
    }
    quality.push({
      preset,
      places: opts.places,
      seeds: opts.seeds,
      perSeed,
      precision: median(perSeed.map((s) => s.precision)),
      recall: median(perSeed.map((s) => s.recall)),
      ambiguities: median(perSeed.map((s) => s.ambiguities)),
      lookAlikesMerged: Math.max(...perSeed.map((s) => s.lookAlikesMerged)),
    });
  }

  // Sizes count stored places (listings, what a store holds): a world place is listed on 2.82 sites on average (6% missing on each).
  const cost: MatchCost[] = [];
  for (const stored of opts.sizes) {
    for (const preset of PRESETS) {
      cost.push(costOf(preset, Math.round(stored / LISTINGS_PER_WORLD_PLACE), opts.seeds[0]!));
      const c = cost.at(-1)!;
      opts.log(
        `${preset}, ${c.listings} stored places (${c.places} world places): ${c.seconds} s, ${c.pairsScored} pairs scored, heap +${c.heapPlacesMb} MB with the places, +${c.heapWithResultMb} MB with the result`,
      );
    }
  }
  return { quality, cost, collected: gc() !== undefined };
}

const LISTINGS_PER_WORLD_PLACE = 3 * (1 - 0.06);

const gc = () => (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc()?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * One timed run and its heap. Not async: an async function's frame keeps its locals past their
 * loop turn, so the places and result of the run before would still count in this one's heap.
 */
function costOf(preset: PresetName, places: number, seed: number): MatchCost {
  const before = heapMb();
  const input = placesOf(preset, places, seed);
  const withPlaces = heapMb();
  const started = performance.now();
  const result = link(input);
  const seconds = round((performance.now() - started) / 1000, 2);
  const withResult = heapMb();
  return {
    preset,
    places,
    listings: input.length,
    seconds,
    pairsScored: result.pairsScored,
    businesses: result.businesses.length,
    ambiguities: result.ambiguities.length,
    heapPlacesMb: round(withPlaces - before, 1),
    heapWithResultMb: round(withResult - before, 1),
  };
}

export function formatMatchTable(f: MatchFigures): string {
  const q = tableRows(
    [
      ['world', 13],
      ['places', 7],
      ['precision', 10],
      ['recall', 8],
      ['ambiguous', 10],
      ['look-alikes merged', 19],
      ['per seed (precision / recall / ambiguous)', 0],
    ],
    1,
    '  ',
  );
  const c = tableRows(
    [
      ['world', 13],
      ['world places', 13],
      ['stored places', 14],
      ['seconds', 8],
      ['pairs scored', 13],
      ['heap +MB, places', 17],
      ['+ result', 9],
    ],
    1,
    '  ',
  );
  return [
    `business matching (issue 24), medians over seeds ${f.quality[0]?.seeds.join(', ')} (tuned on 1-5):`,
    q.header,
    ...f.quality.map((x) =>
      q.row([
        x.preset,
        String(x.places),
        x.precision.toFixed(4),
        x.recall.toFixed(4),
        String(x.ambiguities),
        String(x.lookAlikesMerged),
        `  ${x.perSeed.map((s) => `${s.precision.toFixed(4)}/${s.recall.toFixed(4)}/${s.ambiguities}`).join('  ')}`,
      ]),
    ),
    `linking cost, one thread${f.collected ? '' : ' (no --expose-gc: heap before collection)'}:`,
    c.header,
    ...f.cost.map((x) =>
      c.row([
        x.preset,
        String(x.places),
        String(x.listings),
        x.seconds.toFixed(2),
        String(x.pairsScored),
        x.heapPlacesMb.toFixed(1),
        x.heapWithResultMb.toFixed(1),
      ]),
    ),
  ].join('\n');
}

runSection(
  import.meta.url,
  'match',
  (argv) =>
    measureMatch({
      seeds: numbersOf(argv, 'seeds') ?? [101, 102, 103, 104, 105],
      places: numbersOf(argv, 'places')?.[0] ?? 5000,
      sizes: numbersOf(argv, 'sizes') ?? [10_000, 100_000],
      log,
    }),
  formatMatchTable,
);
