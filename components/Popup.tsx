import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { csvChunks, exportFileName } from '../utils/export/csv';
import { t } from '../utils/i18n/t';
import { BrowsingSwitch } from './BrowsingSwitch';
import { HealthLine } from './HealthLine';
import { SweepControls } from './SweepControls';
import { SweepForm } from './SweepForm';
import { SweepStatus } from './SweepStatus';
import { downloadChunks } from './download';
import { useLatestSweep } from './useLatestSweep';

export function Popup() {
  const { store, sweep, quarantined, currentKeyword, pageHidden, sweepPlaces, browsingCount, storeError } = useLatestSweep();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  async function exportCsv() {
    if (!store || !sweep) return;
    const chunks: string[] = [];
    for await (const chunk of csvChunks(store.iterateListings(1000, sweep.id))) chunks.push(chunk);
    downloadChunks(chunks, exportFileName(sweep.keywords, new Date()), 'text/csv;charset=utf-8');
  }

  const running = sweep?.status === 'running';
  return (
    <main>
      <h1>{t('extName')}</h1>
      {storeError && (
        <p class="error" role="alert">
          {t('storeError', storeError)}
        </p>
      )}
      <SweepForm disabled={running} onStarted={() => {}} />
      {sweep && (
        <SweepStatus sweep={sweep} quarantined={quarantined} currentKeyword={currentKeyword} pageHidden={pageHidden} places={sweepPlaces} now={now} />
      )}
      {sweep && <SweepControls sweep={sweep} onExport={exportCsv} />}
      <HealthLine store={store} sweep={sweep} />
      <BrowsingSwitch collected={browsingCount} />
      <button type="button" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/dashboard.html') })}>
        {t('buttonOpenDashboard')}
      </button>
    </main>
  );
}
