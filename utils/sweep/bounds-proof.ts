/**
 * What a search whose page reports the box it searched (Naver's list `bounds=`, Kakao's request
 * `rect`) proves about its cell. The box comes back from the page itself (Observation.searched:
 * the URL the page ended on, the request it made), never from what the sweep asked for.
 *
 * Whether the site lists exactly that box, a margin beyond it, or ignores it is not known [?]
 * (naver-kakao-notes A8). A complete list is whole either way: every match of a box at least
 * as large as the cell was listed. A capped list of a site that ignored the box says nothing
 * about the box: then the places it listed lie far outside it, and splitting cannot help (a
 * smaller box is ignored the same way), so the sweep stops and says so.
 */
import { bboxContains, bboxContainsBBox } from '../geo/bbox';
import type { BBox } from '../geo/types';
import type { Listing } from '../domain/listing';
import type { SearchedBox } from '../domain/sweep';

/**
 * Each side of the box a cell's search asks for lies this share of the cell beyond the cell:
 * the URL carries 7 decimals (≈ 1 cm), and a place exactly on a cell's edge must fall inside
 * both neighbours' searches, not between them.
 */
export const BOUNDS_PAD = 0.01;

/** A place this far beyond the searched box (a share of its size, each side) was not listed from the box. */
export const FAR_OUTSIDE = 0.5;
/** At least this many of the located organic places, and this share of them, lie far outside: the box was ignored. */
export const IGNORED_MIN_PLACES = 5;
export const IGNORED_MIN_SHARE = 0.1;

/**
 * The box a cell's search asks for: wide enough that, less `untrustedEdge` of its size on each
 * side (a site may search a little less than the box it echoes [?]), it still holds the cell and
 * its BOUNDS_PAD.
 */
export function requestedBounds(cell: BBox, untrustedEdge = 0): BBox {
  const grow = (1 + 2 * BOUNDS_PAD) / (1 - 2 * untrustedEdge);
  const dLat = ((cell.north - cell.south) * (grow - 1)) / 2;
  const dLng = ((cell.east - cell.west) * (grow - 1)) / 2;
  return { south: cell.south - dLat, north: cell.north + dLat, west: cell.west - dLng, east: cell.east + dLng };
}

/**
 * What one search proved about its cell, whichever way its page showed where it looked: the
 * canvas measured (Google), the box read back (Naver, Kakao). One shape, so each rule of proof
 * lives in one place (utils/sweep/settle-visit.ts settleVisit).
 */
export type SearchProof =
  /** `covered`: the box the page surely searched holds the cell; `boxIgnored`: its list was not restricted to that box. */
  | { kind: 'measured'; covered: boolean; searchedBox: BBox | null; boxIgnored: boolean }
  /** The site's own evidence that it listed matches everywhere: a complete list holds every match. */
  | { kind: 'unrestricted'; evidence: string }
  /** What the page searched could not be read: proves nothing. */
  | { kind: 'unknown'; why: string };

/** What a reported box proves: the box less `untrustedEdge` of its size on each side must hold the cell. */
export function reportedProof(searched: SearchedBox, cell: BBox, organic: readonly Listing[], untrustedEdge: number): SearchProof {
  if (searched.kind !== 'measured') return searched;
  const trusted = insetBox(searched.box, untrustedEdge);
  return { kind: 'measured', covered: bboxContainsBBox(trusted, cell), searchedBox: trusted, boxIgnored: boxIgnored(trusted, organic) };
}

/** Where a place a search of `searched` listed may lie: the box and FAR_OUTSIDE of its size beyond each side. */
export function nearSearched(searched: BBox): BBox {
  const h = (searched.north - searched.south) * FAR_OUTSIDE;
  const w = (searched.east - searched.west) * FAR_OUTSIDE;
  return { south: searched.south - h, north: searched.north + h, west: searched.west - w, east: searched.east + w };
}

/** Enough organic places lie far outside the box that the site did not restrict its list to it. */
export function boxIgnored(searched: BBox, organic: readonly Listing[]): boolean {
  const near = nearSearched(searched);
  const located = organic.filter((l): l is Listing & { lat: number; lng: number } => l.lat !== null && l.lng !== null);
  const far = located.filter((l) => !bboxContains(near, l)).length;
  return far >= IGNORED_MIN_PLACES && far >= located.length * IGNORED_MIN_SHARE;
}

/** The box less `edge` of its size on each side (what is trusted of a box a site reports). */
export function insetBox(b: BBox, edge: number): BBox {
  const dLat = (b.north - b.south) * edge;
  const dLng = (b.east - b.west) * edge;
  return { south: b.south + dLat, north: b.north - dLat, west: b.west + dLng, east: b.east - dLng };
}

/** Why the sweep stops when a capped list ignored its box. */
export const BOX_IGNORED_MESSAGE =
  'The map site listed places far outside the box each search asked for, so it no longer restricts its list to the box, ' +
  'and a full list cannot be split into smaller searches that prove anything. The sweep stopped; everything it collected is kept.';

/** Why the sweep stops when a full list was not restricted to any box. */
export const NOT_RESTRICTED_MESSAGE =
  'The map site searched without restricting its list to the map (no "search this area" box), and the list was full, ' +
  'so no search can prove a cell complete. The sweep stopped; everything it collected is kept.';

/** Why the sweep stops when page after page did not show what it searched. */
export function searchUnknownMessage(why: string): string {
  return (
    `The map site's pages no longer show which area they searched (${why}), on two cells in a row and each time again on its retry, ` +
    'so no list can prove its cell complete: the site may have changed. The sweep stopped; everything it collected is kept.'
  );
}

/** Why the sweep stops when the page's map did not go where the search address asked. */
export const VIEW_NOT_SHOWN_MESSAGE =
  "The map site did not show the map where the search's address asked (the box it searched does not even hold that point), " +
  'so no search can be aimed at a cell. The sweep stopped; everything it collected is kept.';
