/**
 * A place made ready for comparing: its keys computed once, not once per candidate pair.
 */
import { familiesOf } from './categories';
import { roadKey, roadKeyAsSpoken } from './addresses';
import { nameKeys, type NameKeys } from './names';
import { ownPhones } from './phones';
import type { MatchPlace } from './types';

export interface PreparedPlace {
  place: MatchPlace;
  /** The site's position in the registry's order: pairs are always (lower, higher). */
  site: number;
  name: NameKeys;
  road: string | null;
  /** The road key as the road's name is spoken (addresses.ts roadKeyAsSpoken), where that differs. */
  roadSpoken: string | null;
  phones: Set<string>;
  families: Set<string>;
  /** The site marks it closed for good. */
  closed: boolean;
  lat: number;
  lng: number;
}

/** Null for a place without a pin: it cannot be placed near anything, so it is never matched. */
export function preparePlace(place: MatchPlace, site: number, toE164: (display: string) => string | null): PreparedPlace | null {
  if (place.lat === null || place.lng === null || !Number.isFinite(place.lat) || !Number.isFinite(place.lng)) return null;
  return {
    place,
    site,
    name: nameKeys(place.name),
    // Naver and Kakao give the road address apart; Google's full address contains it.
    road: roadKey(place.roadAddress) ?? roadKey(place.address),
    roadSpoken: roadKeyAsSpoken(place.roadAddress) ?? roadKeyAsSpoken(place.address),
    phones: ownPhones(place.phoneE164, place.otherPhones, toE164),
    families: familiesOf([place.category, ...(place.categories ?? [])]),
    closed: place.closed === 'permanently',
    lat: place.lat,
    lng: place.lng,
  };
}

/**
 * A number that two or more places of one site list is not an own phone: a chain's central
 * number, a mall's desk, a franchise's booking line (issue 36: two branches of one brand joined by
 * it). Taken out of every place's phones on every site: a branch whose Naver listing lost it
 * must not then differ from its Google listing that shows only that number.
 */
export function dropSharedPhones(sites: readonly (readonly PreparedPlace[])[]): void {
  const shared = new Set<string>();
  for (const places of sites) {
    const seen = new Set<string>();
    for (const p of places)
      for (const phone of p.phones) {
        if (seen.has(phone)) shared.add(phone);
        seen.add(phone);
      }
  }
  if (shared.size === 0) return;
  for (const places of sites) for (const p of places) for (const phone of shared) p.phones.delete(phone);
}
