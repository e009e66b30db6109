/**
 * What the Naver replica lists for a search: pure, so tests and benchmarks can call it in-process.
 *
 * Model: a place matches when the query is one of its category's terms (the Google replica's
 * matcher) or its Korean name contains the query; with `bounds` (strict) only places inside the
 * box count (less `searchInset` of each side, when set); ranking is prominence less distance from x,y (the Google replica's rankKey), ties by
 * id; at most `resultCap`, paged `pageSize` at a time. With site views (WorldOptions.siteViews) only
 * the places Naver lists, by Naver's pins (site-views.ts).
 */
import type { BBox, LatLng } from '../../../utils/geo/types';
import { bboxContains } from '../../../utils/geo/bbox';
import { normaliseQuery } from '../categories';
import { queryMatcher, rankKey, viewRadiusMeters } from '../search';
import { listedAll, listedIn, seenBy } from '../site-views';
import type { World } from '../world';
import { type NaverReplicaPlace, naverPlaceOf } from './data';
import type { NaverSwitches } from './switches';

export interface NaverSearchInput {
  query: string;
  bounds: BBox | null;
  centre: LatLng | null;
}

export interface NaverSearchOutcome {
  /** Ranked and capped. */
  results: NaverReplicaPlace[];
  /** Matches before the cap. */
  matched: number;
  /** The box the search actually listed from (null: nationwide). */
  searchedBox: BBox | null;
}

export function naverMatcher(query: string): (p: NaverReplicaPlace) => boolean {
  const google = queryMatcher(query);
  const q = normaliseQuery(query);
  return (p) => q.length > 0 && (google.matches(p.place) || normaliseQuery(p.name).includes(q));
}

/** The box a search lists from: `bounds` (strict), a fifth more a side (spill), none (ignored); less `inset` of each side (with spill: 1/5 − inset beyond). */
export function searchedBoxFor(bounds: BBox | null, mode: NaverSwitches['boundsMode'], inset = 0): BBox | null {
  if (!bounds || mode === 'ignored') return null;
  const grow = mode === 'spill' ? 1 / 5 : 0;
  const share = grow - inset;
  const dLat = (bounds.north - bounds.south) * share;
  const dLng = (bounds.east - bounds.west) * share;
  return share === 0 ? bounds : { south: bounds.south - dLat, north: bounds.north + dLat, west: bounds.west - dLng, east: bounds.east + dLng };
}

export function naverSearch(
  world: World,
  input: NaverSearchInput,
  switches: Pick<NaverSwitches, 'resultCap' | 'boundsMode'> & Partial<Pick<NaverSwitches, 'searchInset'>>,
): NaverSearchOutcome {
  const matches = naverMatcher(input.query);
  const box = searchedBoxFor(input.bounds, switches.boundsMode, switches.searchInset ?? 0);
  const pool = box ? listedIn(world, 'naver', box) : listedAll(world, 'naver');
  const matched = pool.map(naverPlaceOf).filter(matches);
  const centre = input.centre ?? (box ? { lat: (box.south + box.north) / 2, lng: (box.west + box.east) / 2 } : world.centre);
  const radiusBox = box ?? { south: world.centre.lat - 0.5, north: world.centre.lat + 0.5, west: world.centre.lng - 0.5, east: world.centre.lng + 0.5 };
  const radius = Math.max(1, viewRadiusMeters({ ...centre, zoom: 0 }, radiusBox));
  const ranked = matched
    .map((p) => ({ p, key: rankKey(p.place, centre, radius) }))
    .sort((a, b) => b.key - a.key || a.p.place.index - b.p.place.index)
    .map((r) => r.p);
  return { results: ranked.slice(0, switches.resultCap), matched: matched.length, searchedBox: box };
}

/** The list's `total` as the switch has it (NaverSwitches.listTotal). */
export function listTotalOf(world: World, query: string, outcome: NaverSearchOutcome, mode: NaverSwitches['listTotal']): number | null {
  if (mode === 'absent') return null;
  if (mode === 'listed') return outcome.results.length;
  if (mode === 'matched') return outcome.matched;
  const matches = naverMatcher(query);
  return listedAll(world, 'naver').map(naverPlaceOf).filter(matches).length;
}

/** One page of a search: items `(page-1)*pageSize …`, and whether another page follows. */
export function pageOf(results: readonly NaverReplicaPlace[], page: number, pageSize: number): { items: NaverReplicaPlace[]; pages: number; hasNext: boolean } {
  const pages = Math.max(1, Math.ceil(results.length / pageSize));
  const items = results.slice((page - 1) * pageSize, page * pageSize);
  return { items, pages, hasNext: page < pages };
}

/**
 * The ads on top of page 1: organic results of the same search repeated (the Google replica's
 * habit), or matching places just outside the box (what the 2025 capture looks like: nearby
 * businesses that paid). Deterministic: the lowest-ranked organic ones, or the nearest outside.
 */
export function adsFor(
  world: World,
  input: NaverSearchInput,
  outcome: NaverSearchOutcome,
  switches: Pick<NaverSwitches, 'ads' | 'adsRepeatOrganic'>,
): NaverReplicaPlace[] {
  if (switches.ads === 0) return [];
  if (switches.adsRepeatOrganic) return outcome.results.slice(-switches.ads).reverse();
  const box = outcome.searchedBox;
  if (!box) return [];
  const matches = naverMatcher(input.query);
  const h = (box.north - box.south) / 2;
  const w = (box.east - box.west) / 2;
  const wider = { south: box.south - h, north: box.north + h, west: box.west - w, east: box.east + w };
  return listedIn(world, 'naver', wider)
    .filter((p) => !bboxContains(box, seenBy(p, 'naver')))
    .map(naverPlaceOf)
    .filter(matches)
    .sort((a, b) => a.place.index - b.place.index)
    .slice(0, switches.ads);
}

/** Every matching place inside a box: what a perfect Naver sweep of it collects (by world index). */
export function naverGroundTruth(world: World, query: string, bbox: BBox): NaverReplicaPlace[] {
  const matches = naverMatcher(query);
  return listedIn(world, 'naver', bbox)
    .map(naverPlaceOf)
    .filter(matches)
    .sort((a, b) => a.place.index - b.place.index);
}
