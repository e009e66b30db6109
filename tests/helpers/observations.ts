import type { Observation } from '../../utils/domain/sweep';

/** A results page that showed and read every card, ended its list; tests override the rest. */
export function resultsObservation(over: Partial<Observation> = {}): Observation {
  const listings = over.listings ?? [];
  return {
    url: 'https://www.google.com/maps/search/cafe/@37.55,126.95,15z',
    pageKind: 'results',
    cardsVisible: listings.length,
    listings,
    networkItems: null,
    networkKeys: [],
    endOfList: true,
    capHit: false,
    finalView: null,
    elapsedMs: 0,
    stopReason: 'end',
    warnings: [],
    ...over,
  };
}
