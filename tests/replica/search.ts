/**
 * What the replica site returns for a search: pure, no I/O, so a benchmark can call it in-process.
 *
 * Model (map-pages-spec §1.1, §1.3):
 * - a place matches when the query equals one of its category's terms (English or Korean), or its name
 *   contains the query (case-insensitive);
 * - only places in the visible part of the map (right of the results panel) count;
 * - ranking: prominence, minus a penalty that grows with distance from the URL centre;
 * - at most 120 results; signed out ("limited view") a generic query shows only a handful;
 * - too few matches and the site zooms out by itself, pulling in farther places;
 * - with site views (WorldOptions.siteViews) only the places Google lists, at Google's pins, by Google's names.
 */
import type { Area, BBox, LatLng, MapView, Viewport } from '../../utils/geo/types';
import { haversineMetres } from '../../utils/geo/distance';
import { pointInPolygons } from '../../utils/geo/polygon';
import { categoriesForQuery, normaliseQuery } from './categories';
import type { ReplicaPlace, World } from './world';
import { type SearchGeometry, searchedBox } from './geometry';
import { listedIn, seenBy } from './site-views';

/** The hard cap of a search list (6 batches of 20). */
export const RESULT_CAP = 120;
/** Signed-out generic queries show about this many results (spec §1.2, S15). */
export const LIMITED_VIEW_CAP = 5;
/** Fewer matches than this in view and the site zooms out (when the switch is on). */
export const SPARSE_THRESHOLD = 5;
/** How many zoom levels the site will step out at most. */
export const MAX_AUTO_ZOOM_OUT = 4;
/** Weight of distance against prominence (0..1) in the ranking. */
export const DISTANCE_WEIGHT = 0.5;

export interface SearchSwitches {
  signedIn: boolean;
  sparseZoomOut: boolean;
  /** Which part of the canvas a search lists (tests/replica/geometry.ts); default 'right-of-panel'. */
  geometry?: SearchGeometry;
  /** The results panel's width in px; default: the `viewport.panelWidth` the caller passes. */
  panelWidth?: number;
}

export interface SearchOutcome {
  /** Ranked, capped. */
  results: ReplicaPlace[];
  /** The view the site ends on: the request's, or a zoomed-out one. */
  finalView: MapView;
  /** The query matched a category (not only names): the limited view trims these. */
  generic: boolean;
}

export interface QueryMatcher {
  matches(place: ReplicaPlace): boolean;
  generic: boolean;
}

export function queryMatcher(query: string): QueryMatcher {
  const q = normaliseQuery(query);
  const categories = categoriesForQuery(q);
  return {
    generic: categories.size > 0,
    matches: (p) => q.length > 0 && (categories.has(p.category) || p.searchName.includes(q)),
  };
}

export function searchPlaces(world: World, query: string, view: MapView, viewport: Viewport, switches: SearchSwitches): SearchOutcome {
  const matcher = queryMatcher(query);
  const canvas = { width: viewport.width, height: viewport.height, panelWidth: switches.panelWidth ?? viewport.panelWidth };
  const geometry = switches.geometry ?? 'right-of-panel';
  const listedBox = (v: MapView) => searchedBox(v, canvas, geometry);
  let finalView = view;
  let matched = matchingIn(world, matcher, listedBox(view));
  if (switches.sparseZoomOut && matched.length < SPARSE_THRESHOLD) {
    for (let step = 1; step <= MAX_AUTO_ZOOM_OUT && matched.length < SPARSE_THRESHOLD; step++) {
      const wider: MapView = { ...view, zoom: view.zoom - step };
      if (wider.zoom < 1) break;
      const found = matchingIn(world, matcher, listedBox(wider));
      // Nothing anywhere nearby: the site keeps the view and says it can't find the query.
      if (found.length > matched.length) {
        matched = found;
        finalView = wider;
      }
    }
  }
  const radius = viewRadiusMeters(finalView, listedBox(finalView));
  const ranked = matched
    .map((place) => ({ place, key: rankKey(place, finalView, radius) }))
    .sort((a, b) => b.key - a.key || compareCid(a.place.cid, b.place.cid))
    .map((r) => r.place);
  const cap = !switches.signedIn && matcher.generic ? LIMITED_VIEW_CAP : RESULT_CAP;
  return { results: ranked.slice(0, cap), finalView, generic: matcher.generic };
}

/**
 * Higher ranks first: prominence, less `DISTANCE_WEIGHT` × (distance from the URL centre / view radius).
 * Ties go to the smaller CID so the order never depends on iteration order.
 */
export function rankKey(place: ReplicaPlace, view: LatLng, viewRadiusM: number): number {
  return place.prominence - (DISTANCE_WEIGHT * haversineMetres(view, place)) / viewRadiusM;
}

/** Distance from the URL centre to the farthest corner of the searched box. */
export function viewRadiusMeters(view: MapView, b: BBox): number {
  const corners: LatLng[] = [
    { lat: b.north, lng: b.west },
    { lat: b.north, lng: b.east },
    { lat: b.south, lng: b.west },
    { lat: b.south, lng: b.east },
  ];
  return Math.max(...corners.map((c) => haversineMetres(view, c)));
}

/** Every matching place inside a box or a sweep area (what a perfect sweep would collect). */
export function groundTruth(world: World, query: string, area: BBox | Area): ReplicaPlace[] {
  const matcher = queryMatcher(query);
  const bbox = 'kind' in area ? area.bbox : area;
  const inBox = matchingIn(world, matcher, bbox);
  if (!('kind' in area) || area.kind === 'bbox') return sortByIndex(inBox);
  return sortByIndex(inBox.filter((p) => pointInPolygons(p, area.polygons)));
}

/** The places Google lists inside the box, as Google has them (site-views.ts; the world itself without views). */
function matchingIn(world: World, matcher: QueryMatcher, bbox: BBox): ReplicaPlace[] {
  return listedIn(world, 'google', bbox)
    .map((p) => seenBy(p, 'google'))
    .filter((p) => matcher.matches(p));
}

function sortByIndex(places: ReplicaPlace[]): ReplicaPlace[] {
  return places.sort((a, b) => a.index - b.index);
}

function compareCid(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
