/**
 * Ground truth for the extractor tests: what the replica itself says a search shows, computed
 * in-process with the same function the replica's server answers with, and a field-by-field
 * comparison of extracted listings against the replica's places.
 */
import type { Page } from 'playwright-core';
import type { MapView, Viewport } from '../../utils/geo/types';
import type { Listing } from '../../utils/domain/listing';
import type { Observation } from '../../utils/domain/sweep';
import { CATEGORIES } from '../replica/categories';
import { PANEL_WIDTH_PX } from '../replica/mercator';
import { type SearchSwitches, queryMatcher, searchPlaces } from '../replica/search';
import type { ReplicaPlace, World } from '../replica/world';

/**
 * The page's own window size (what its script sends in the search request) and the panel width.
 * A single-result search sends the page on to the place while this asks (the replica's redirect):
 * the window is the same on the next page, so the question is asked again there.
 */
export async function pageViewport(page: Page): Promise<Viewport> {
  for (let attempt = 1; ; attempt++) {
    try {
      const size = await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
      return { ...size, panelWidth: PANEL_WIDTH_PX };
    } catch (e) {
      if (attempt >= 5 || !/Execution context was destroyed|navigat/i.test(String(e))) throw e;
      await page.waitForLoadState('domcontentloaded').catch(() => {});
    }
  }
}

/** Keys of the organic listings, in page order. */
export function organicKeys(obs: Observation): string[] {
  return obs.listings.filter((l) => !l.sponsored).map((l) => l.key);
}

export function keyOf(place: ReplicaPlace): string {
  return `google:${place.cid}`;
}

export interface FieldExpectation {
  /** Signed out, cards and panels show ratings without review counts. */
  signedIn?: boolean;
  /** Fields not to compare (said why at the call). */
  ignore?: readonly string[];
}

/**
 * Every field of `listing` that disagrees with the replica's place, as "field: got X, want Y".
 * Coordinates are compared to 1e-6 degrees (hrefs carry 7 decimals).
 */
export function fieldMismatches(listing: Listing, place: ReplicaPlace, expect: FieldExpectation = {}): string[] {
  const want: Record<string, unknown> = {
    key: keyOf(place),
    cid: place.cid,
    name: place.name,
    category: place.categories[0] ?? null,
    rating: place.rating,
    reviews: expect.signedIn === false ? null : place.reviewCount,
    phone: place.phone?.display ?? null,
    website: place.website,
  };
  const out: string[] = [];
  for (const [field, value] of Object.entries(want)) {
    if (expect.ignore?.includes(field)) continue;
    const got = (listing as unknown as Record<string, unknown>)[field];
    if (got !== value) out.push(`${place.cid} ${field}: got ${JSON.stringify(got)}, want ${JSON.stringify(value)}`);
  }
  for (const axis of ['lat', 'lng'] as const) {
    const got = listing[axis];
    if (got === null || Math.abs(got - place[axis]) > 1e-6) out.push(`${place.cid} ${axis}: got ${got}, want ${place[axis]}`);
  }
  return out;
}

/** Field mismatches of every organic listing, looked up in the world by CID (unknown CIDs count too). */
export function allFieldMismatches(obs: Observation, world: World, expect?: FieldExpectation): string[] {
  const out: string[] = [];
  for (const l of obs.listings.filter((x) => !x.sponsored)) {
    const place = world.byCid.get(l.cid ?? '');
    if (!place) out.push(`${l.key}: not a place of the world`);
    else out.push(...fieldMismatches(l, place, expect));
  }
  return out;
}

export interface FoundSearch {
  query: string;
  view: MapView;
  results: ReplicaPlace[];
}

/**
 * The first search (category term × zoom × centre, in a fixed order) whose list has exactly
 * `count` places without the site zooming out: a deterministic scan of the replica's own model.
 */
export function findSearchWithCount(
  world: World,
  count: number,
  viewport: Viewport,
  switches: SearchSwitches,
  zooms: readonly number[] = [15, 16, 17],
  ringSteps = 12,
): FoundSearch | null {
  const stepDeg = (world.radiusKm / 111 / ringSteps) * 0.8;
  for (const category of CATEGORIES) {
    const query = category.terms[0]!;
    for (const zoom of zooms) {
      for (let i = -ringSteps; i <= ringSteps; i++) {
        for (let j = -ringSteps; j <= ringSteps; j++) {
          const view: MapView = { lat: round7(world.centre.lat + i * stepDeg), lng: round7(world.centre.lng + j * stepDeg * 1.26), zoom };
          const outcome = searchPlaces(world, query, view, viewport, switches);
          if (outcome.results.length === count && outcome.finalView.zoom === zoom) return { query, view, results: outcome.results };
        }
      }
    }
  }
  return null;
}

/**
 * A place that a search for its own name finds alone: the replica's names repeat across the
 * city, so this scans for one with no namesake near it, even after the site's own zoom-out
 * (the first found, in world order, preferring places with every field filled).
 */
export function findSingleResultSearch(world: World, viewport: Viewport, switches: SearchSwitches): { place: ReplicaPlace; view: MapView } | null {
  const candidates = [...world.places].filter((p) => !queryMatcher(p.name).generic).sort((a, b) => score(b) - score(a) || a.index - b.index);
  for (const zoom of [18, 19]) {
    for (const place of candidates) {
      const view: MapView = { lat: place.lat, lng: place.lng, zoom };
      const outcome = searchPlaces(world, place.name, view, viewport, switches);
      if (outcome.results.length === 1 && outcome.results[0] === place) return { place, view };
    }
  }
  return null;
}

function score(p: ReplicaPlace): number {
  return (p.rating !== null ? 1 : 0) + (p.phone ? 1 : 0) + (p.website ? 1 : 0) + (p.reviewCount !== null ? 1 : 0);
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

/** "12.3 s" since `start`. */
export function secondsSince(start: number): string {
  return `${((Date.now() - start) / 1000).toFixed(1)} s`;
}
