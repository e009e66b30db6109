import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { csvChunks, exportFileName } from '../utils/export/csv';
import { sendMessage } from '../utils/messaging/protocol';
import { DISK_FULL_KEY, diskFullFor, type DiskFull } from '../utils/sweep/disk-full';
import { exportFailureText } from './dashboard/export-collection';
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

  const [exportError, setExportError] = useState<string | null>(null);
  // Disk full is recorded in storage.local: IndexedDB may have refused to write the pause itself.
  const [diskFullFlag, setDiskFull] = useState<unknown>(null);
  useEffect(() => {
    void browser.storage.local.get(DISK_FULL_KEY).then((v) => setDiskFull(v[DISK_FULL_KEY] ?? null));
    const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
      if (area === 'local' && DISK_FULL_KEY in changes) setDiskFull(changes[DISK_FULL_KEY]?.newValue ?? null);
    };
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, []);
  const diskFull: DiskFull | null = diskFullFor(diskFullFlag, sweep?.id);

  async function exportCsv() {
    if (!store || !sweep) return;
    setExportError(null);
    try {
      const chunks: string[] = [];
      for await (const chunk of csvChunks(store.iterateListings(1000, sweep.id))) chunks.push(chunk);
      downloadChunks(chunks, exportFileName(sweep.keywords, new Date()), 'text/csv;charset=utf-8');
    } catch (e) {
      setExportError(exportFailureText(e));
    }
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
      {diskFull && sweep && (
        <p class="error" role="alert">
          {t('warning_disk_full', diskFull.message)}{' '}
          {/* IndexedDB may still say "running" (it refused the pause): Resume here either way. */}
          {sweep.status === 'running' && (
            <button type="button" onClick={() => void sendMessage('resumeSweep', sweep.id)}>
              {t('buttonResume')}
            </button>
          )}
        </p>
      )}
      <SweepForm disabled={running} onStarted={() => {}} />
      {sweep && (
        <SweepStatus sweep={sweep} quarantined={quarantined} currentKeyword={currentKeyword} pageHidden={pageHidden} places={sweepPlaces} now={now} />
      )}
      {sweep && <SweepControls sweep={sweep} onExport={exportCsv} />}
      {exportError && (
        <p class="error" role="alert">
          {exportError}
        </p>
      )}
      <HealthLine store={store} sweep={sweep} />
      <BrowsingSwitch collected={browsingCount} />
      <button type="button" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/dashboard.html') })}>
        {t('buttonOpenDashboard')}
      </button>
    </main>
  );
}
