/**
 * Google Maps page reading: pure functions over a Document, a response body or a URL.
 * Content scripts call these; nothing here touches globals.
 */
export { extractFeed, findCards, readCard, type FeedExtraction } from './feed';
export { extractPlacePanel, findPlacePanel } from './place';
export { detectPageKind } from './page-kind';
export { appStateFromDocument, placeFromAppState, placeFromInnerState, type AppStatePlace } from './app-state';
export { parseTbmBody, type NetworkPlace, type TbmParse } from './tbm';
export { readPlaceArray, type PlaceArrayResult } from './place-array';
export {
  scrollFeed,
  DEFAULT_SCROLL_OPTIONS,
  RESULTS_CAP,
  type FeedState,
  type ScrollDeps,
  type ScrollOptions,
  type ScrollOutcome,
  type ScrollTarget,
} from './scroll';
export {
  installNetworkHook,
  createNetworkCollector,
  isTbmUrl,
  tbmMessage,
  readTbmMessage,
  TBM_MESSAGE_SOURCE,
  type NetworkCollector,
  type NetworkSnapshot,
  type TbmMessage,
} from './network-hook';
export { buildObservation, type ObservationParts } from './observe';
export {
  cleanText,
  splitInfoLine,
  parseRatingLabel,
  parseReviewCount,
  type RatingLabel,
} from './labels';
export { unwrapLink, TEXT_LIMITS } from './fields';
export * from './ids';
export * from './urls';
