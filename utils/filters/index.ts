/**
 * Filters (issue 40): which stored places count, are exported and are worth the paid passes.
 *
 *   options' input ──checkFilter──▶ PlaceFilter (settings.filters, copied into each sweep)
 *   PlaceFilter × listing ──judgePlace──▶ pass | fail | unknown  (passes = not fail)
 *   PlaceFilter ──describeFilter / filterFileWords──▶ the line and the slug an export carries
 *   store × collection × PlaceFilter ──countPassing──▶ "312 of 1,204 places pass"
 *
 * A filter never drops a place for a field nobody has read yet; the paid passes find out.
 */
export { FILTER_LIMITS, NO_FILTER, normaliseFilter, type PlaceFilter } from '../config/settings';
export { checkFilter, type FilterCheck } from './check';
export { countPassing, COUNT_BATCH, type ListingSource, type PassingCount } from './count';
export {
  fails,
  isActive,
  judgePlace,
  passes,
  type FilterContext,
  type FilterTest,
  type FilterVerdict,
  type FilterableListing,
  type TestResult,
} from './decide';
export { describeFilter, filterFileWords } from './describe';
export { anyOccurs, foldText, wordMatcher } from './words';

import { normaliseFilter, type PlaceFilter } from '../config/settings';
import { isActive, passes, type FilterContext, type FilterableListing } from './decide';

/**
 * The filters a sweep was started with (its copy of the settings); a sweep from before filters,
 * or one whose copy is unreadable, has none.
 */
export function sweepFilter(sweep: { settings: object }): PlaceFilter {
  return normaliseFilter((sweep.settings as { filters?: unknown }).filters);
}

/**
 * What a paid pass (place details, contacts, reviews) keeps of a collection under `filter`: the
 * places that pass; undefined when the filter leaves every place in (nothing to check).
 */
export function keeper(filter: PlaceFilter, ctx: FilterContext): ((l: FilterableListing) => boolean) | undefined {
  return isActive(filter) ? (l) => passes(l, filter, ctx) : undefined;
}
