import type { Listing } from '../../listing/types';
import { checkPin, makeListing, TEXT_LIMITS, unwrapLink } from './fields';
import { parseFeatureId, resolveIds } from './ids';
import { cleanText } from './labels';
import { at } from './xssi';

/**
 * The place array P that Google's JSON carries in search responses (`item[14]`) and in the
 * place page state (`jd[6]`); field paths from map-pages-spec §1.5.
 *
 * This data comes from the page's own JavaScript world, where any script can forge it, so
 * every field is shape-checked: a value of the wrong type, out of range or too long rejects
 * the whole item (with the reason), never a guess and never a throw.
 */
export type PlaceArrayResult = { ok: true; place: Listing } | { ok: false; reason: string };

class Malformed extends Error {}

export function readPlaceArray(p: unknown): PlaceArrayResult {
  if (!Array.isArray(p)) return { ok: false, reason: 'place is not an array' };
  try {
    return { ok: true, place: read(p) };
  } catch (e) {
    if (e instanceof Malformed) return { ok: false, reason: e.message };
    throw e;
  }
}

function read(p: unknown[]): Listing {
  const featureId = optionalString(p[10], TEXT_LIMITS.id, 'feature id');
  const placeId = optionalString(p[78], TEXT_LIMITS.id, 'place id');
  if (featureId !== null && !parseFeatureId(featureId)) throw new Malformed('feature id is not 0x…:0x…');
  const ids = resolveIds({ featureId, placeId });
  if (!ids) throw new Malformed('ids missing or contradicting each other');

  const name = optionalString(p[11], TEXT_LIMITS.name, 'name');
  if (!name) throw new Malformed('no name');

  const lat = at(p, 9, 2);
  const lng = at(p, 9, 3);
  const pin = checkPin(lat, lng);
  if (!pin && (lat != null || lng != null)) throw new Malformed('coordinates out of range');

  const rating = optionalNumber(at(p, 4, 7), 0, 5, 'rating');
  const reviews = optionalNumber(at(p, 4, 8), 0, 1e9, 'review count');
  if (reviews !== null && !Number.isInteger(reviews)) throw new Malformed('review count is not an integer');

  const rawWebsite = optionalString(at(p, 7, 0), TEXT_LIMITS.url, 'website');
  const website = rawWebsite === null ? null : unwrapLink(rawWebsite);
  if (rawWebsite !== null && website === null) throw new Malformed('website is not an http(s) link');

  return makeListing(ids, {
    name,
    category: optionalString(at(p, 13, 0), TEXT_LIMITS.category, 'category'),
    address: readAddress(p),
    phone: optionalString(at(p, 178, 0, 0), TEXT_LIMITS.phone, 'phone'),
    website,
    rating,
    reviews,
    lat: pin?.lat ?? null,
    lng: pin?.lng ?? null,
    sponsored: false,
  });
}

/** `P[39]` is the address alone; older items only have the parts in `P[2]`. */
function readAddress(p: unknown[]): string | null {
  const only = optionalString(p[39], TEXT_LIMITS.address, 'address');
  if (only) return only;
  const parts = p[2];
  if (parts == null) return null;
  if (!Array.isArray(parts) || parts.length > 10) throw new Malformed('address parts are not a short list');
  const joined = parts.map((part) => optionalString(part, TEXT_LIMITS.address, 'address part')).filter(Boolean);
  return optionalString(joined.join(', '), TEXT_LIMITS.address, 'address');
}

function optionalString(value: unknown, max: number, what: string): string | null {
  if (value == null) return null;
  if (typeof value !== 'string') throw new Malformed(`${what} is not a string`);
  if (value.length > max) throw new Malformed(`${what} is longer than ${max} characters`);
  return cleanText(value) || null;
}

function optionalNumber(value: unknown, min: number, max: number, what: string): number | null {
  if (value == null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Malformed(`${what} is not a number`);
  if (value < min || value > max) throw new Malformed(`${what} is out of range`);
  return value;
}
