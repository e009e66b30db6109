import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { NO_FILTER, normaliseSettings, type PlaceFilter } from '../utils/config/settings';

/**
 * The options' filters as they are now (issue 40), kept current while the page is open: the
 * popup and the dashboard count and export with the filters of the moment, not a sweep's copy.
 */
export function useFilterSetting(): PlaceFilter {
  const [filter, setFilter] = useState<PlaceFilter>(NO_FILTER);
  useEffect(() => {
    let live = true;
    void browser.storage.local.get('settings').then(
      (r) => live && setFilter(normaliseSettings(r.settings).filters),
      () => {},
    );
    const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
      if (area === 'local' && 'settings' in changes) setFilter(normaliseSettings(changes.settings?.newValue).filters);
    };
    browser.storage.onChanged.addListener(listener);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(listener);
    };
  }, []);
  return filter;
}
