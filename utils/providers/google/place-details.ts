/**
 * Google's place page for the details pass: the panel (name, address, phone, website, rating)
 * joined with the page's APP_INITIALIZATION_STATE when it names the same place (full address
 * and its parts, categories, hours, price), by the one join of page data to the DOM
 * (utils/providers/google/page-data.ts): the state fills fields of the place the panel shows,
 * and is dropped whole when it contradicts it.
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import type { Listing } from '../../domain/listing';
import { appStateFromDocument } from './app-state';
import { joinPageData, pageDataLookup } from './page-data';
import { extractPlacePanel } from './place';
import { answerCollectPlace, type AnswerOptions } from '../../content/place-details';

export function readGooglePlace(doc: Document, url: string): Listing | null {
  const panel = extractPlacePanel(doc, url);
  if (!panel) return null;
  const state = appStateFromDocument(doc)?.place;
  if (!state) return panel;
  return joinPageData([panel], pageDataLookup([state])).listings[0] ?? panel;
}

/** The one-line hook for utils/providers/google/content.ts. */
export function startGooglePlaceDetails(win: Window, browser: Pick<Browser, 'runtime'>, opts: AnswerOptions = {}): () => void {
  return answerCollectPlace(win, browser, readGooglePlace, opts);
}
