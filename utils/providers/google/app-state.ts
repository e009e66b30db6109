import type { Listing } from '../../domain/listing';
import { checkPin, TEXT_LIMITS, type ResolvedIds } from './fields';
import { resolveIds } from './ids';
import { boundedText } from './labels';
import { readPlaceArray } from './place-array';
import { at, parseXssiJson } from './xssi';

/**
 * The place a page was loaded for, from `window.APP_INITIALIZATION_STATE` (spec §1.6).
 *
 * `[3]` holds the place data: an array in the captured pages, an object with obfuscated
 * keys in later ones (take the first key's value). In it, index 6 and/or 5 is a
 * `)]}'`-prefixed JSON string `jd`. The full form has the place array P at `jd[6]`; the short
 * form has only `jd[0] = [featureId, name-or-query, view, [,,lat,lng]]`. The rendered Nicosia
 * capture has both ([6] full, [5] short); the no-JavaScript Kochi fetch only the short one.
 *
 * The state describes the URL the document was loaded with: after in-page navigation it is
 * stale, so callers must check it names the place they are looking at.
 */
export interface AppStatePlace {
  ids: ResolvedIds;
  /** For the short form, the query the page was opened with (often the address, not the name). */
  name: string | null;
  lat: number | null;
  lng: number | null;
  /** The full place (from P) when the state carries it. */
  place: Listing | null;
}

const MARKER = 'APP_INITIALIZATION_STATE=';
const MAX_SCRIPT = 8_000_000;

/** The state as the isolated world sees it: the inline script's text, parsed. */
export function appStateFromDocument(doc: ParentNode): AppStatePlace | null {
  for (const script of doc.querySelectorAll('script')) {
    const text = script.textContent ?? '';
    if (text.length > MAX_SCRIPT) continue;
    const start = text.indexOf(MARKER);
    if (start < 0) continue;
    const literal = arrayLiteralAt(text, start + MARKER.length);
    if (!literal) continue;
    try {
      return placeFromAppState(JSON.parse(literal) as unknown);
    } catch {
      return null;
    }
  }
  return null;
}

/** From the whole `APP_INITIALIZATION_STATE` value. */
export function placeFromAppState(state: unknown): AppStatePlace | null {
  const slot = at(state, 3);
  const container = Array.isArray(slot) ? slot : firstValue(slot);
  for (const index of [6, 5]) {
    const text = at(container, index);
    if (typeof text !== 'string') continue;
    const found = placeFromInnerState(parseXssiJson(text));
    if (found) return found;
  }
  return null;
}

/** From `jd`, the JSON inside the prefixed string (what gosom's testdata files hold). */
export function placeFromInnerState(jd: unknown): AppStatePlace | null {
  const full = readPlaceArray(at(jd, 6));
  if (full.ok) {
    const p = full.place;
    return {
      ids: { key: p.key, cid: p.providerId, featureId: p.featureId, placeId: p.placeId },
      name: p.name,
      lat: p.lat,
      lng: p.lng,
      place: p,
    };
  }
  const featureId = at(jd, 0, 0);
  if (typeof featureId !== 'string' || featureId.length > TEXT_LIMITS.id) return null;
  const ids = resolveIds({ featureId });
  if (!ids) return null;
  const name = at(jd, 0, 1);
  const pin = checkPin(at(jd, 0, 3, 2), at(jd, 0, 3, 3));
  return {
    ids,
    name: typeof name === 'string' ? boundedText(name, TEXT_LIMITS.name) : null,
    lat: pin?.lat ?? null,
    lng: pin?.lng ?? null,
    place: null,
  };
}

function firstValue(slot: unknown): unknown {
  if (slot === null || typeof slot !== 'object' || Array.isArray(slot)) return undefined;
  const keys = Object.keys(slot);
  return keys.length > 0 ? (slot as Record<string, unknown>)[keys[0]!] : undefined;
}

/** The `[…]` literal starting at `from` (after optional spaces), skipping brackets inside strings. */
function arrayLiteralAt(text: string, from: number): string | null {
  let i = from;
  while (text[i] === ' ') i++;
  if (text[i] !== '[') return null;
  let depth = 0;
  let inString = false;
  for (let k = i; k < text.length; k++) {
    const c = text[k];
    if (inString) {
      if (c === '\\') k++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return text.slice(i, k + 1);
    }
  }
  return null;
}
