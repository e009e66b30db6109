/**
 * Filters as the exports apply them (issue 40): the filter of the moment (the options' settings,
 * handed in by the page that exports) cuts the places, and the file says which filters made it:
 * its name ends with the filter's slug, the JSON carries `{"filters": …, "places": […]}`, the
 * GeoJSON a `filters` member, the workbook an `about` sheet first. No filter, no change at all.
 * The Businesses export is not filtered (a business joins places of several sites and sweeps).
 */
import { normaliseFilter, type PlaceFilter } from '../config/settings';
import { describeFilter, filterFileWords, isActive, passes, type FilterableListing } from '../filters';
import { SITE_FILTER_CONTEXT } from '../providers/registry';

/** An export's filter, ready: null when there is none (or it leaves every place in). */
export interface ActiveFilter {
  filter: PlaceFilter;
  /** describeFilter: the line the file carries. */
  description: string;
  /** filterFileWords: the slug its name ends with. */
  slug: string;
  keep(l: FilterableListing): boolean;
}

/** The filter an export was given (from settings or a message: normalised again), or null for none. */
export function activeFilter(raw: PlaceFilter | undefined | null): ActiveFilter | null {
  if (!raw) return null;
  const filter = normaliseFilter(raw);
  if (!isActive(filter)) return null;
  return {
    filter,
    description: describeFilter(filter),
    slug: filterFileWords(filter),
    keep: (l) => passes(l, filter, SITE_FILTER_CONTEXT),
  };
}
