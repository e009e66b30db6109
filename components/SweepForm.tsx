import { useEffect, useState } from 'preact/hooks';
import { sendMessage, type EstimateReply, type UserError } from '../utils/messaging/protocol';
import { describeFilter, isActive } from '../utils/filters';
import { useFilterSetting } from './useFilterSetting';
import { formatDuration, formatNumber, t } from '../utils/i18n/t';
import { AUDIT_MIN_CELLS, AUDIT_SHARE, auditSampleSize } from '../utils/coverage/audit';
import { userErrorText } from './user-error';
import { PROVIDERS, providerOfUrl } from '../utils/providers/registry';
import type { ProviderId } from '../utils/domain/place';
import { browser } from 'wxt/browser';

/** The map site of the active tab, when it is one (the popup sweeps the map the person has open). */
async function activeTabProvider(): Promise<ProviderId | ''> {
  try {
    const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
    return providerOfUrl(tab?.url)?.id ?? '';
  } catch {
    return '';
  }
}

/** Keywords + area + estimate + Start. Nothing is written until the background accepts the input. */
export function SweepForm(props: { disabled: boolean; onStarted(): void }) {
  const [keywords, setKeywords] = useState('');
  const [area, setArea] = useState('');
  const [estimate, setEstimate] = useState<EstimateReply | null>(null);
  // Filters cut the paid passes, never the searches: the estimate says so.
  const filter = useFilterSetting();
  const [error, setError] = useState<UserError | null>(null);
  const [busy, setBusy] = useState(false);
  /** '' = the site of the map tab used last (the background decides). */
  const [provider, setProvider] = useState<ProviderId | ''>('');

  useEffect(() => {
    void activeTabProvider().then((id) => id && setProvider(id));
  }, []);
  const chosen = provider || undefined;

  useEffect(() => {
    if (!area.trim() || !keywords.trim()) {
      setEstimate(null);
      return;
    }
    const timer = setTimeout(async () => {
      const reply = await sendMessage('estimate', { areaText: area, keywordsText: keywords, provider: chosen });
      setEstimate(reply.ok ? reply.estimate : null);
      setError(reply.ok ? null : reply.error);
    }, 300);
    return () => clearTimeout(timer);
  }, [area, keywords, provider]);

  async function useMapView() {
    const reply = await sendMessage('useMapView', chosen);
    if (reply.ok) setArea(reply.areaText);
    setError(reply.ok ? null : reply.error);
  }

  async function start(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      const reply = await sendMessage('startSweep', { areaText: area, keywordsText: keywords, provider: chosen });
      setError(reply.ok ? null : reply.error);
      if (reply.ok) props.onStarted();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="sweep-form" onSubmit={start}>
      <label for="provider">{t('fieldProvider')}</label>
      <select id="provider" value={provider} onChange={(e) => setProvider((e.target as HTMLSelectElement).value as ProviderId | '')}>
        <option value="">{t('providerFromTab')}</option>
        {PROVIDERS.map((p) => (
          <option value={p.id}>{p.displayName}</option>
        ))}
      </select>
      <label for="keywords">{t('fieldKeywords')}</label>
      <textarea
        id="keywords"
        rows={3}
        placeholder={t('keywordsPlaceholder')}
        value={keywords}
        onInput={(e) => setKeywords((e.target as HTMLTextAreaElement).value)}
      />
      <label for="area">{t('fieldArea')}</label>
      <textarea id="area" rows={2} placeholder={t('areaPlaceholder')} value={area} onInput={(e) => setArea((e.target as HTMLTextAreaElement).value)} />
      <div class="row">
        <button type="button" onClick={useMapView}>
          {t('buttonUseMapView')}
        </button>
        <button type="submit" class="primary" disabled={props.disabled || busy}>
          {t('buttonStart')}
        </button>
      </div>
      {estimate && !error && (
        <p class="estimate">
          {t('estimateLine', formatNumber(estimate.cellsMin), formatDuration(estimate.secondsMin), formatNumber(estimate.maxCells))}{' '}
          {t('estimateAudit', formatNumber(auditSampleSize(estimate.cellsMin)), formatNumber(AUDIT_SHARE * 100), formatNumber(AUDIT_MIN_CELLS))}
          {isActive(filter) && ` ${t('estimateFilters', describeFilter(filter))}`}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {userErrorText(error)}
        </p>
      )}
    </form>
  );
}
