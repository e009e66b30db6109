import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { sendMessage } from '../utils/messaging/protocol';
import { DISK_FULL_KEY, diskFullFor, type DiskFull } from '../utils/sweep/disk-full';
import { ALL_PLACES_WORDS, exportFailureText, exportScope, type ExportScope } from './dashboard/export-collection';
import { formatNumber, t } from '../utils/i18n/t';
import { BROWSING, type Store } from '../utils/store';
import { EXPORT_STATE_KEY, isActive, LONG_EXPORT_PLACES, readExportState, type LongExportState } from '../utils/export/long-export';
import { sendExportMessage, type LongExportRequest } from '../utils/messaging/protocol';
import type { PlaceFilter } from '../utils/config/settings';
import { FilterCount } from './FilterCount';
import { useFilterSetting } from './useFilterSetting';
import { ContactsPanel } from './ContactsPanel';
import { ReviewsPanel } from './ReviewsPanel';
import type { Sweep } from '../utils/domain/sweep';
import { BrowsingSwitch } from './BrowsingSwitch';
import { PageCheckPanel } from './PageCheckPanel';
import { FinishedReport } from './FinishedReport';
import { HealthLine } from './HealthLine';
import { HostAccessNotice } from './HostAccessNotice';
import { SweepControls } from './SweepControls';
import { SweepForm } from './SweepForm';
import { SweepStatus } from './SweepStatus';
import { TeamProgress } from './TeamProgress';
import { useLatestSweep } from './useLatestSweep';

export function Popup() {
  const { store, sweep, quarantined, currentKeyword, pageHidden, sweepPlaces, browsingCount, storeError } = useLatestSweep();
  // The options' filters now (issue 40): what the exports and the count below apply.
  const filter = useFilterSetting();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

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

  const running = sweep?.status === 'running';
  return (
    <main>
      <h1>{t('extName')}</h1>
      <HostAccessNotice />
      {storeError && (
        <p class="error" role="alert">
          {t('storeError', storeError)}
        </p>
      )}
      {diskFull && sweep && (
        <p class="error" role="alert">
          {t('warning_disk_full', diskFull.message)} {/* IndexedDB may still say "running" (it refused the pause): Resume here either way. */}
          {sweep.status === 'running' && (
            <button type="button" onClick={() => void sendMessage('resumeSweep', sweep.id)}>
              {t('buttonResume')}
            </button>
          )}
        </p>
      )}
      {/* What a finished sweep missed leads, above the form and "Finished": failed cells with Retry, then dense areas. */}
      {sweep?.status === 'finished' && <FinishedReport store={store} sweep={sweep} />}
      <SweepForm disabled={running} onStarted={() => {}} />
      {sweep && <SweepStatus sweep={sweep} quarantined={quarantined} currentKeyword={currentKeyword} pageHidden={pageHidden} places={sweepPlaces} now={now} />}
      {sweep && <TeamProgress sweepId={sweep.id} />}
      {sweep && <SweepControls sweep={sweep} />}
      {sweep && <ReviewsPanel store={store} sweep={sweep} filter={filter} />}
      <PopupExport store={store} sweep={sweep} sweepPlaces={sweepPlaces} browsingCount={browsingCount} filter={filter} />
      <HealthLine store={store} sweep={sweep} />
      <BrowsingSwitch collected={browsingCount} />
      <PageCheckPanel />
      <button type="button" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/dashboard.html') })}>
        {t('buttonOpenDashboard')}
      </button>
    </main>
  );
}

/** What the popup can export: the shown sweep, the Browsing collection, or every place stored. */
export type PopupExportChoice = 'sweep' | 'browsing' | 'all';

export function popupExportScope(choice: PopupExportChoice, sweep: Sweep | null, filter?: PlaceFilter): ExportScope {
  const filtered = filter ? { filter } : {};
  if (choice === 'sweep' && sweep) return { collection: sweep.id, fileWords: sweep.keywords, ...filtered };
  if (choice === 'all') return { collection: undefined, fileWords: ALL_PLACES_WORDS, ...filtered };
  return { collection: BROWSING, fileWords: [BROWSING], ...filtered };
}

const ALL_RECOUNT_MS = 10_000;
/** A finished long export is mentioned for this long after it ended. */
const SHOW_DONE_MS = 10 * 60_000;

/**
 * Export from the popup: a labelled choice of what (the sweep shown, what was collected while
 * browsing, all places) and one button per format. With no sweep yet, Browsing is what it offers.
 */
function PopupExport(props: { store: Store | null; sweep: Sweep | null; sweepPlaces: number | null; browsingCount: number | null; filter: PlaceFilter }) {
  const { store, sweep } = props;
  const [picked, setPicked] = useState<PopupExportChoice | null>(null);
  const [allCount, setAllCount] = useState<number | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!store) return;
    let stopped = false;
    const count = () =>
      void store.countListings().then(
        (n) => !stopped && setAllCount(n),
        () => {},
      );
    count();
    const timer = setInterval(count, ALL_RECOUNT_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [store]);
  // A long export runs in the background (it survives the popup closing); its progress is in storage.session.
  const [long, setLong] = useState<LongExportState | null>(null);
  useEffect(() => {
    const area = browser.storage.session;
    void area.get(EXPORT_STATE_KEY).then(
      (v) => setLong(readExportState(v[EXPORT_STATE_KEY])),
      () => {},
    );
    const listener = (changes: Record<string, { newValue?: unknown }>, name: string) => {
      if (name === 'session' && EXPORT_STATE_KEY in changes) setLong(readExportState(changes[EXPORT_STATE_KEY]?.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, []);
  // Until the person picks: the sweep shown, else Browsing. A pick of "sweep" with none falls back too.
  const choice: PopupExportChoice = picked === 'sweep' && !sweep ? 'browsing' : (picked ?? (sweep ? 'sweep' : 'browsing'));
  const places = choice === 'sweep' ? (props.sweepPlaces ?? 0) : choice === 'all' ? (allCount ?? 0) : (props.browsingCount ?? 0);
  const longActive = isActive(long, Date.now());

  async function run(format: LongExportRequest['format']) {
    if (!store) return;
    setError(null);
    const scope = popupExportScope(choice, sweep, props.filter);
    if (places > LONG_EXPORT_PLACES) {
      // Where it can finish: the background's offscreen document, then the browser's downloads.
      // The filter rides along: the worker hands the request on to the document as it is.
      const request: LongExportRequest = {
        ...(scope.collection === undefined ? {} : { collection: scope.collection }),
        fileWords: scope.fileWords,
        format,
        ...(scope.filter ? { filter: scope.filter } : {}),
      };
      const reply = await sendExportMessage('startLongExport', request).catch((e: unknown) => ({
        ok: false as const,
        error: { code: 'internal', message: e instanceof Error ? e.message : String(e) },
      }));
      if (!reply.ok) setError(exportFailureText(reply.error.message));
      return;
    }
    setBusy(t('exporting', formatNumber(places)));
    try {
      await exportScope(store, scope, format, new Date(), (done, total) =>
        setBusy(done < total ? t('exportingProgress', formatNumber(done), formatNumber(total)) : t('exportWriting', formatNumber(total))),
      );
    } catch (e) {
      setError(exportFailureText(e));
    } finally {
      setBusy(null);
    }
  }

  const status =
    busy ??
    (long && longActive
      ? long.phase === 'reading'
        ? t('exportingProgress', formatNumber(long.done), formatNumber(long.total))
        : t('exportWriting', formatNumber(long.done))
      : long?.phase === 'done' && long.fileName && Date.now() - long.updatedAt < SHOW_DONE_MS
        ? t('exportDone', formatNumber(long.done), long.fileName)
        : '');
  const longError = long?.phase === 'failed' ? exportFailureText(long.error ?? '') : null;
  const disabled = !store || busy !== null || longActive;

  return (
    <section class="export">
      <label for="export-scope">{t('fieldExportScope')}</label>
      <select id="export-scope" value={choice} disabled={disabled} onChange={(e) => setPicked((e.target as HTMLSelectElement).value as PopupExportChoice)}>
        {sweep && <option value="sweep">{t('exportScopeSweep', sweep.keywords.join(', '), formatNumber(props.sweepPlaces ?? 0))}</option>}
        <option value="browsing">{t('exportScopeBrowsing', formatNumber(props.browsingCount ?? 0))}</option>
        <option value="all">{t('exportScopeAll', formatNumber(allCount ?? 0))}</option>
      </select>
      <FilterCount store={store} collection={popupExportScope(choice, sweep).collection} filter={props.filter} places={places} />
      <div class="row">
        <button type="button" class="primary" disabled={disabled} onClick={() => void run('csv')}>
          {t('buttonExportCsv')}
        </button>
        <button type="button" disabled={disabled} onClick={() => void run('xlsx')}>
          {t('buttonExportXlsx')}
        </button>
        <button type="button" disabled={disabled} onClick={() => void run('businesses-csv')}>
          {t('buttonExportBusinessesCsv')}
        </button>
      </div>
      <p role="status" class="health" data-testid="export-status">
        {status}
      </p>
      {(error ?? longError) && (
        <p class="error" role="alert">
          {error ?? longError}
        </p>
      )}
      <ContactsPanel collection={popupExportScope(choice, sweep).collection} />
    </section>
  );
}
