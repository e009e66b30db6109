import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { BROWSING_ENABLED_KEY, BROWSING_STATS_KEY, isBrowsingEnabled, readTotals, unresolvedFailure, type BrowsingTotals } from '../utils/config/storage-keys';
import { formatNumber, t } from '../utils/i18n/t';

/** The "Collect while browsing" switch and what it has collected. */
export function BrowsingSwitch(props: { collected: number | null }) {
  const [enabled, setEnabled] = useState(true);
  const [totals, setTotals] = useState<BrowsingTotals>(readTotals(undefined));
  useEffect(() => {
    const read = () =>
      browser.storage.local.get([BROWSING_ENABLED_KEY, BROWSING_STATS_KEY]).then((r) => {
        setEnabled(isBrowsingEnabled(r[BROWSING_ENABLED_KEY]));
        setTotals(readTotals(r[BROWSING_STATS_KEY]));
      });
    void read();
    const listener = () => void read();
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, []);
  const failure = unresolvedFailure(totals);
  return (
    <section class="browsing">
      <label class="switch">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => void browser.storage.local.set({ [BROWSING_ENABLED_KEY]: (e.target as HTMLInputElement).checked })}
        />{' '}
        {t('browsingSwitch')}
      </label>
      <p class="health" data-testid="browsing-count">
        {t('browsingCollected', formatNumber(props.collected ?? 0), formatNumber(totals.added))}
      </p>
      {failure && (
        // Until a later commit succeeds: the tab keeps the places and sends them again.
        <p class="health problem" role="alert" data-testid="browsing-failed">
          {t('browsingNotSaved', formatNumber(totals.failed), failure.message)}
        </p>
      )}
    </section>
  );
}
