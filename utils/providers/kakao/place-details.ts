/**
 * Kakao's place page for the details pass: `place.map.kakao.com/{confirmid}`, read by the
 * place reader the Browsing collection uses (utils/providers/kakao/place-page.ts readPlacePage:
 * name, category, road and lot addresses, phone, homepage, rating). The id is the URL's.
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import { listingFromPlace } from '../../listing/from-provider-place';
import type { Listing } from '../../domain/listing';
import { readPlacePage } from './place-page';
import { answerCollectPlace, type AnswerOptions } from '../../content/place-details';

export function readKakaoPlace(doc: Document, url: string): Listing | null {
  const place = readPlacePage(doc, url);
  return place ? listingFromPlace(place, 'panel') : null;
}

/** The one-line hook for utils/providers/kakao/content.ts. */
export function startKakaoPlaceDetails(win: Window, browser: Pick<Browser, 'runtime'>, opts: AnswerOptions = {}): () => void {
  return answerCollectPlace(win, browser, readKakaoPlace, opts);
}
