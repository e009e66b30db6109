import { useEffect, useRef, useState } from 'preact/hooks';
import type { PlaceFilter } from '../utils/config/settings';
import { SITE_FILTER_CONTEXT } from '../utils/providers/registry';
import { countPassing, describeFilter, isActive, type PassingCount } from '../utils/filters';
import { formatNumber, t } from '../utils/i18n/t';
import type { Store } from '../utils/store';

/** A count is redone at most this often while the scope's places change (a running sweep). */
const RECOUNT_MS = 10_000;

/**
 * How many places of a scope pass the filters, counted from the store (utils/filters
 * countPassing): at once when the scope or the filters change, again at most every 10 s while
 * its number of places changes. Null while counting, or when no filter is active.
 */
export function usePassingCount(store: Store | null, collection: string | undefined, filter: PlaceFilter, places: number | null): PassingCount | null {
  const [count, setCount] = useState<{ key: string; value: PassingCount } | null>(null);
  const key = `${collection ?? '*'}|${JSON.stringify(filter)}`;
  const lastRun = useRef<{ key: string; at: number } | null>(null);
  const active = isActive(filter);
  useEffect(() => {
    if (!store || !active) return;
    let live = true;
    const last = lastRun.current;
    const wait = last && last.key === key ? Math.max(0, last.at + RECOUNT_MS - Date.now()) : 0;
    const timer = setTimeout(() => {
      lastRun.current = { key, at: Date.now() };
      void countPassing(store, collection, filter, SITE_FILTER_CONTEXT).then(
        (value) => live && setCount({ key, value }),
        () => {},
      );
    }, wait);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `filter` is in `key` (its JSON); `places` only asks for a recount.
  }, [store, key, active, places]);
  return active && count?.key === key ? count.value : null;
}

/**
 * "312 of 1,204 places pass the filters" for a scope (the popup's export choice, the dashboard's
 * collection), with the filters in a line; nothing when no filter is active.
 */
export function FilterCount(props: { store: Store | null; collection: string | undefined; filter: PlaceFilter; places: number | null }) {
  const count = usePassingCount(props.store, props.collection, props.filter, props.places);
  if (!isActive(props.filter)) return null;
  return (
    <p class="health" role="status" data-testid="filter-count">
      {count ? t('filtersPassing', formatNumber(count.passing), formatNumber(count.total)) : t('filtersCounting')}
      {count && count.unknown > 0 ? ` ${t('filtersPassingUnknown', formatNumber(count.unknown))}` : ''}
      <br />
      <small>{t('filtersLine', describeFilter(props.filter))}</small>
    </p>
  );
}
