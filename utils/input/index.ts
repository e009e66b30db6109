export { estimateList, LIST_SECONDS_PER_LOAD_WORK, type ListEstimate, type ListPacing } from './estimate';
export { DEFAULT_LIST_LIMITS, MAX_LINE_CHARS, MAX_LIST_BYTES, MAX_LIST_LINES, type ListLimits } from './limits';
export { NOT_A_PLACE, placeFromLandingUrl, readLine } from './line';
export { isShareHost } from './shares';
export { parsePlaceList, siteOf, type BadLine, type PlaceListOptions, type PlaceListResult } from './list';
export type { LineVerdict, ListedPlace, ListedShare } from './types';
