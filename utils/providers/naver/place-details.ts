/**
 * Naver's place page for the details pass: `pcmap.place.naver.com/{vertical}/{id}/home`, read
 * from its Apollo state (`PlaceDetailBase:{id}` and `placeDetail(…)`: road and lot addresses,
 * phone, homepage, booking). The state must name the URL's id, so a state left from another
 * place is never used. Only the top frame answers (a worker tab loads the page by itself).
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import { listingFromPlace } from '../../listing/from-provider-place';
import type { Listing } from '../../domain/listing';
import { apolloStateFromDocument, placeFromDetailState } from './apollo';
import { placeIdOf } from './urls';
import { answerCollectPlace, type AnswerOptions } from '../../content/place-details';

export function readNaverPlace(doc: Document, url: string): Listing | null {
  const id = placeIdOf(url);
  if (!id) return null;
  const state = apolloStateFromDocument(doc);
  const place = state ? placeFromDetailState(state, id) : null;
  return place ? listingFromPlace(place, 'page-data') : null;
}

function isTopLevel(win: Window): boolean {
  try {
    return win.top === win;
  } catch {
    return false;
  }
}

/** The one-line hook for utils/providers/naver/content.ts. */
export function startNaverPlaceDetails(win: Window, browser: Pick<Browser, 'runtime'>, opts: AnswerOptions = {}): () => void {
  return answerCollectPlace(win, browser, readNaverPlace, { answers: () => isTopLevel(win), ...opts });
}
