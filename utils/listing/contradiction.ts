/**
 * Whether a second reading of a place (the site's own data, a place page) can describe the place
 * a listing already holds: same ids, same name, the same pin. Used where page data meets the DOM
 * (utils/providers/google/page-data.ts) and where a place page meets the stored listing
 * (utils/details/queue.ts): a contradiction drops the second reading whole.
 */
import type { Listing } from '../domain/listing';

/**
 * How far a page-data pin may be from the card's and still be the same pin: the card's href
 * and the JSON carry one coordinate pair (the href to 7 decimals), so any real difference
 * is a different place. 0.0005° is about 55 m, room for rounding and a moved pin, not a street.
 */
export const PIN_TOLERANCE_DEG = 0.0005;

export type Contradiction = 'name' | 'id' | 'coordinates';

/** Why `data` cannot describe the DOM's `dom` (same key), or null when it can. */
export function contradiction(dom: Listing, data: Listing): Contradiction | null {
  if (dom.key !== data.key) return 'id';
  if (dom.featureId && data.featureId && dom.featureId.toLowerCase() !== data.featureId.toLowerCase()) return 'id';
  if (dom.placeId && data.placeId && dom.placeId !== data.placeId) return 'id';
  if (comparableName(dom.name) !== comparableName(data.name)) return 'name';
  if (dom.lat !== null && dom.lng !== null && data.lat !== null && data.lng !== null) {
    if (Math.abs(dom.lat - data.lat) > PIN_TOLERANCE_DEG || Math.abs(dom.lng - data.lng) > PIN_TOLERANCE_DEG) return 'coordinates';
  }
  return null;
}

/** Icon glyphs of a symbol font (the private-use area), which a page's text may carry on one side only. */
const PRIVATE_USE = /[\uE000-\uF8FF]/g;
/** White space, zero-width spaces included. */
const SPACES = /[\s\u200b]+/g;

/** Names compared in one Unicode form, icon glyphs, white space and case aside. */
function comparableName(name: string): string {
  return name.replace(PRIVATE_USE, '').replace(SPACES, ' ').trim().normalize('NFC').toLocaleLowerCase();
}
