/**
 * Which places of a searched cell a sweep keeps: those of its area. A place whose pin lies far
 * outside the box the page searched was not listed from there by a list restricted to that box:
 * the pin came from the page's own world (its data, a script) and is doubted (Listing.pinDoubted),
 * never a reason to drop a place the list showed (issue 36). Pure: the driver's one filter.
 */
import { areaContains } from '../geo';
import { bboxContains } from '../geo/bbox';
import type { Area, BBox } from '../geo/types';
import type { Listing } from '../domain/listing';
import { nearSearched } from './bounds-proof';

/**
 * The places of `area`: those without coordinates (they cannot be placed outside it), those
 * whose pin is doubted (far outside `searched`, the box the page reported or the canvas
 * measured; marked so), and those whose pin lies in the area.
 */
export function keptInArea(area: Area, organic: readonly Listing[], searched: BBox | null): Listing[] {
  const near = searched ? nearSearched(searched) : null;
  const kept: Listing[] = [];
  for (const l of organic) {
    if (l.lat === null || l.lng === null) kept.push(l);
    else if (near && !bboxContains(near, { lat: l.lat, lng: l.lng })) kept.push({ ...l, pinDoubted: true });
    else if (areaContains(area, { lat: l.lat, lng: l.lng })) kept.push(l);
  }
  return kept;
}
