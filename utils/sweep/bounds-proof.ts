/**
 * What a search whose page takes the box explicitly (Naver's list `bounds=`) proves about its
 * cell. The box comes back from the page itself (Observation.searchedBounds: the URL the page
 * ended on), never from what the sweep asked for.
 *
 * Whether the site lists exactly that box, a margin beyond it, or ignores it is not known [?]
 * (naver-kakao-notes A8). A complete list is whole either way: every match of a box at least
 * as large as the cell was listed. A capped list of a site that ignored the box says nothing
 * about the box: then the places it listed lie far outside it, and splitting cannot help (a
 * smaller box is ignored the same way), so the sweep stops and says so.
 */
import { bboxContains, bboxContainsBBox } from '../geo/bbox';
import type { BBox } from '../geo/types';
import type { Listing } from '../listing/types';

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

/** The box a cell's search asks for. */
export function requestedBounds(cell: BBox): BBox {
  const dLat = (cell.north - cell.south) * BOUNDS_PAD;
  const dLng = (cell.east - cell.west) * BOUNDS_PAD;
  return { south: cell.south - dLat, north: cell.north + dLat, west: cell.west - dLng, east: cell.east + dLng };
}

export interface BoundsProof {
  /** The page said which box it searched, and that box holds the cell. */
  covered: boolean;
  /** The box the page said it searched (null: it did not say). */
  searchedBox: BBox | null;
  /** Organic places listed far outside the searched box: the site did not restrict the list to it. */
  boxIgnored: boolean;
}

export function boundsProof(searched: BBox | null | undefined, cell: BBox, organic: readonly Listing[]): BoundsProof {
  if (!searched) return { covered: false, searchedBox: null, boxIgnored: false };
  const h = (searched.north - searched.south) * FAR_OUTSIDE;
  const w = (searched.east - searched.west) * FAR_OUTSIDE;
  const near = { south: searched.south - h, north: searched.north + h, west: searched.west - w, east: searched.east + w };
  const located = organic.filter((l): l is Listing & { lat: number; lng: number } => l.lat !== null && l.lng !== null);
  const far = located.filter((l) => !bboxContains(near, l)).length;
  const boxIgnored = far >= IGNORED_MIN_PLACES && far >= located.length * IGNORED_MIN_SHARE;
  return { covered: bboxContainsBBox(searched, cell), searchedBox: searched, boxIgnored };
}

/** Why the sweep stops when a capped list ignored its box. */
export const BOX_IGNORED_MESSAGE =
  'The map site listed places far outside the box each search asked for, so it no longer restricts its list to the box, ' +
  'and a full list cannot be split into smaller searches that prove anything. The sweep stopped; everything it collected is kept.';

/** Why the sweep stops when a full list was not restricted to any box. */
export const NOT_RESTRICTED_MESSAGE =
  'The map site searched without restricting its list to the map (no "search this area" box), and the list was full, ' +
  'so no search can prove a cell complete. The sweep stopped; everything it collected is kept.';

/** Why the sweep stops when the page's map did not go where the search address asked. */
export const VIEW_NOT_SHOWN_MESSAGE =
  "The map site did not show the map where the search's address asked (the box it searched does not even hold that point), " +
  'so no search can be aimed at a cell. The sweep stopped; everything it collected is kept.';
