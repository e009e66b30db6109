import { readability } from '../domain/readability';
import { sameQuery } from '../providers/same-query';
import type { BBox, MapView } from '../geo/types';
import type { Listing } from '../domain/listing';
import { latLngToWorld } from '../geo/mercator';
import type { MapProvider } from '../providers/types';
import type { Cell, CellError, CellResult, Observation } from '../domain/sweep';

/**
 * What one page visit means for its cell, before the planner decides whether to split:
 * - `accepted`: the page showed results, one place, or said itself that there are none;
 * - `failed`: something to retry, pause on, or stop for (the error kind chooses which).
 *
 * "Zero results" is believed only when the page says so; cards on screen with nothing
 * extracted is a broken extractor, never an empty cell. No share of unread cards is ever
 * accepted: each one is a place that would be lost (issue 10 §2).
 */
export type Judgement =
  | {
      verdict: 'accepted';
      organic: Listing[];
      result: Omit<CellResult, 'newListings'>;
      /**
       * Organic cards of a crowded list went unread. Such a page proves nothing complete: its
       * cell is split, and its children list the same ground, each judged on its own cards. So
       * the driver may settle the cell with this page only by splitting it; any other verdict
       * (done, saturated, widened) makes this the cell's failure. An audit search, which only
       * checks done cells, keeps what it read (its page audit counts the unread cards).
       */
      unread?: CellError;
    }
  | { verdict: 'failed'; error: CellError };

/**
 * The message of the retryable failure for a page with unread cards. The cell keeps only its
 * last error, so the next visit recognises "the same way again" by this text (see
 * failedOnUnreadCards); keep the two together.
 */
const UNREAD_CARDS = 'result cards could not be read';

/** The cell's previous attempt failed because visible cards could not be read. */
export function failedOnUnreadCards(lastError: CellError | null | undefined): boolean {
  return lastError?.kind === 'navigation' && lastError.message.includes(UNREAD_CARDS);
}

/**
 * Unread cards again on the next attempt are the extractor's when that attempt showed the same
 * page (the same address) and no fewer went unread: cards that had not finished rendering are
 * read on a later visit, a card shape the extractor does not know never is. A retry on another
 * view (the calibration moved it, or widened it: more cards, more of them still rendering)
 * is a new first look. An error of an older version, without an address or a count, compares
 * as the same page with 0: the second time is the extractor's, as it was then.
 */
function sameUnreadAgain(lastError: CellError | null | undefined, unread: number, url: string): boolean {
  if (!failedOnUnreadCards(lastError)) return false;
  const samePage = lastError?.url === undefined || lastError.url === url;
  return samePage && unread >= (lastError?.unreadCards ?? 0);
}

/** A list the page did not end below its cap: crowded, so its cell is split whatever it held. */
function crowdedList(obs: Observation): boolean {
  return obs.capHit || !obs.endOfList;
}

/** English fallback; the popup shows its own translated text for pauseReason 'signed-out'. */
export const LIMITED_VIEW_MESSAGE =
  'Google Maps is showing its limited view for signed-out users (a handful of results, no review counts). ' +
  'Sign in to Google Maps in this browser, then press Resume.';

export function judgeObservation(
  obs: Observation,
  /**
   * The cell searched; `keyword`, when given, must be the search the page shows; `lastError`
   * tells a first failure on unread cards (retry) from a repeated one (the page changed).
   */
  cell: Pick<Cell, 'bbox'> & Partial<Pick<Cell, 'keyword' | 'lastError'>>,
  requested: MapView,
  now: number,
  /** Whose URLs the page shows. */
  provider: Pick<MapProvider, 'parseSearchQuery' | 'parseView'>,
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
  // Before anything could be accepted: a limited-view list is a handful of places, never the cell.
  if (obs.pageKind === 'results' && obs.limitedView) {
    return fail('limited', `${LIMITED_VIEW_MESSAGE} (Recognised by: ${obs.limitedView}.)`);
  }

  // Another search in the tab (someone, or something, navigated it meanwhile): not this cell's page.
  const shown = obs.pageKind === 'results' ? provider.parseSearchQuery(obs.url) : null;
  if (cell.keyword !== undefined && shown !== null && sameQuery(shown, cell.keyword) === false) {
    return fail('navigation', `The tab showed a search for "${shown}" instead of "${cell.keyword}".`);
  }

  // Another view of the same search (the person pressed Back, or the tab was navigated): the
  // page's own URL ends on the view it shows. The site may zoom out on its own when the area
  // is sparse, but keeps the centre; any other centre is another cell's page.
  // A page that reports the box it searched is judged on that box instead (utils/sweep/bounds-proof.ts).
  if ((obs.pageKind === 'results' || obs.pageKind === 'no-results') && obs.searched === undefined) {
    const shownView = obs.finalView ?? provider.parseView(obs.url);
    if (shownView && !sameCentre(shownView, requested)) {
      return fail(
        'navigation',
        `The tab showed the map at ${shownView.lat},${shownView.lng} instead of this cell's view at ${requested.lat},${requested.lng}.`,
      );
    }
  }

  const organic = obs.listings.filter((l) => !l.sponsored);
  const read = readability(obs);
  let unread: CellError | undefined;
  if (obs.pageKind === 'unknown') {
    const failure = unknownPageFailure(obs, 'The page');
    return fail(failure.kind, failure.message);
  }
  if (obs.pageKind === 'results') {
    if (read.kind === 'nothing-read') return fail('extractor', `${read.shown} result cards on screen but none could be read.`);
    if (read.kind === 'some-unread') {
      // Once may be the page mid-render; the same page again with as many unread is a card the extractor cannot read.
      const message = `${read.unread} of ${read.shown} ${UNREAD_CARDS}.`;
      const again = sameUnreadAgain(cell.lastError, read.unread, obs.url);
      const error: CellError = {
        kind: again ? 'extractor' : 'navigation',
        message: again ? `${message} The same happened on the previous attempt of this cell.` : message,
        at: now,
        url: obs.url,
        unreadCards: read.unread,
      };
      if (!crowdedList(obs)) return { verdict: 'failed', error };
      unread = error;
    }
    if (read.kind === 'not-recognised') {
      // A feed with no cards and no "can't find" panel: the page did not finish, or changed.
      return fail('navigation', 'The results list stayed empty and the page did not say there are no results.');
    }
    // Only sponsored cards: an ad is no evidence of what the area holds, and "none" is believed
    // only from the page's own notice (pageKind 'no-results'), never from an empty organic list.
    if (organic.length === 0) {
      return fail('navigation', `The list showed ${obs.listings.length} sponsored cards and no other place, and the page did not say there are no results.`);
    }
  }
  if (obs.pageKind === 'place' && read.kind === 'nothing-read') {
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
      ...(obs.siteTotal !== undefined ? { siteTotal: obs.siteTotal } : {}),
    },
    ...(unread ? { unread } : {}),
  };
}

/**
 * Why a page of kind 'unknown' (`which`: "The page", "Page 3 of the list") fails its visit: cards
 * on screen and none read is the extractor's (the sweep stops, as for a page that changed); any
 * other is a page not shown yet or not proven whole, searched again.
 */
export function unknownPageFailure(obs: Observation, which: string): { kind: 'extractor' | 'navigation'; message: string } {
  const read = readability(obs);
  return read.kind === 'nothing-read'
    ? { kind: 'extractor', message: `${which} shows ${read.shown} result cards but is not recognised as a results page.` }
    : { kind: 'navigation', message: `${which} showed no results list it could prove whole, no place and no "no results" message${whyUnknown(obs)}.` };
}

/**
 * What the collector said of a page it could not recognise or prove whole (its `unproven` tag,
 * e.g. a list short of its own count, else its first warnings): the retry and the Health panel say why.
 */
function whyUnknown(obs: Observation): string {
  const why =
    obs.unproven ??
    obs.warnings
      .filter((w) => !w.startsWith('page-hidden'))
      .slice(0, 2)
      .join('; ');
  return why ? ` (${why})` : '';
}

function inBox(lat: number, lng: number, b: BBox): boolean {
  return lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east;
}

/**
 * How far (screen pixels at the requested zoom) the page's centre may be from the requested
 * one: the URL's rounding is far below a pixel, and the nearest other page a sweep loads (a
 * child's parent, a neighbour) is hundreds of pixels away.
 */
export const VIEW_TOLERANCE_PX = 48;

/** The page is centred where this cell's search asked, within VIEW_TOLERANCE_PX (at the requested zoom, whatever zoom the page settled on). */
export function sameCentre(shown: MapView, requested: MapView): boolean {
  const a = latLngToWorld(shown, requested.zoom);
  const b = latLngToWorld(requested, requested.zoom);
  return Math.hypot(a.x - b.x, a.y - b.y) <= VIEW_TOLERANCE_PX;
}
