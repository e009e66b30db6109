import type { BBox, MapView } from '../geo/types';
import type { Listing } from '../listing/types';
import { parseSearchQuery } from '../providers/google/urls';
import type { CellError, CellResult, Observation } from './types';

/**
 * What one page visit means for its cell, before the planner decides whether to split:
 * - `accepted`: the page showed results, one place, or said itself that there are none;
 * - `failed`: something to retry, pause on, or stop for (the error kind chooses which).
 *
 * "Zero results" is believed only when the page says so; cards on screen with nothing
 * extracted (or far fewer extracted than shown) is a broken extractor, never an empty cell.
 */
export type Judgement =
  | { verdict: 'accepted'; organic: Listing[]; result: Omit<CellResult, 'newListings'> }
  | { verdict: 'failed'; error: CellError };

/** Below this share of extracted / visible organic cards, the extractor is considered broken. */
export const MIN_EXTRACTED_SHARE = 0.8;

export function judgeObservation(
  obs: Observation,
  /** The cell searched; `keyword`, when given, must be the search the page shows. */
  cell: { bbox: BBox; keyword?: string },
  requested: MapView,
  now: number,
): Judgement {
  const fail = (kind: CellError['kind'], message: string): Judgement => ({
    verdict: 'failed',
    error: { kind, message, at: now, url: obs.url },
  });

  if (obs.pageKind === 'captcha') return fail('blocked', 'The map site is asking to prove you are not a robot.');
  if (obs.pageKind === 'consent') return fail('consent', 'The map site is asking for cookie consent.');
  if (obs.httpStatus === 429) return fail('blocked', 'The map site answered HTTP 429 (too many requests).');
  if (obs.httpStatus != null && obs.httpStatus >= 400) {
    return fail('http', `The map site answered HTTP ${obs.httpStatus}.`);
  }

  // Another search in the tab (someone, or something, navigated it meanwhile): not this cell's page.
  const shown = obs.pageKind === 'results' ? parseSearchQuery(obs.url) : null;
  if (cell.keyword !== undefined && shown !== null && sameQuery(shown, cell.keyword) === false) {
    return fail('navigation', `The tab showed a search for "${shown}" instead of "${cell.keyword}".`);
  }

  const organic = obs.listings.filter((l) => !l.sponsored);
  if (obs.pageKind === 'unknown') {
    return obs.cardsVisible > 0
      ? fail('extractor', `The page shows ${obs.cardsVisible} result cards but is not recognised as a results page.`)
      : fail('navigation', 'The page showed no results list, no place and no "no results" message.');
  }
  if (obs.pageKind === 'results') {
    if (obs.cardsVisible > 0 && obs.listings.length === 0) {
      return fail('extractor', `${obs.cardsVisible} result cards on screen but none could be read.`);
    }
    const visibleOrganic = obs.cardsVisible - (obs.listings.length - organic.length);
    if (visibleOrganic > 0 && organic.length < MIN_EXTRACTED_SHARE * visibleOrganic) {
      return fail('extractor', `Only ${organic.length} of ${visibleOrganic} result cards could be read.`);
    }
    if (obs.cardsVisible === 0) {
      // A feed with no cards and no "can't find" panel: the page did not finish, or changed.
      return fail('navigation', 'The results list stayed empty and the page did not say there are no results.');
    }
  }
  if (obs.pageKind === 'place' && organic.length === 0) {
    return fail('extractor', 'A single place was shown but could not be read.');
  }

  const inside = organic.filter((l) => l.lat !== null && l.lng !== null && inBox(l.lat, l.lng, cell.bbox)).length;
  const located = organic.filter((l) => l.lat !== null && l.lng !== null).length;
  const zoomedOut = obs.finalView !== null && obs.finalView.zoom < requested.zoom - 0.5;
  return {
    verdict: 'accepted',
    organic,
    result: {
      organic: organic.length,
      endOfList: obs.pageKind !== 'results' || obs.endOfList,
      capHit: obs.capHit,
      zoomedOut,
      insideShare: located === 0 ? 1 : inside / located,
    },
  };
}

function inBox(lat: number, lng: number, b: BBox): boolean {
  return lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east;
}

function sameQuery(a: string, b: string): boolean {
  const norm = (q: string) => q.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return norm(a) === norm(b);
}
