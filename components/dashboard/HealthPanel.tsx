import { useEffect, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { healthPanel, loadHealth, renderText, type HealthData, type HealthPanelView, type StalenessState, type Text } from '../../utils/health';
import type { TzOffset } from '../../utils/schedule/slots';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';
import type { Store } from '../../utils/store';
import { ColumnHeads } from './ColumnHeads';
import { CELL, HEAD, TABLE } from './table-styles';

/** The Health panel re-reads the store this often (the popup's health line does too). */
export const HEALTH_REFRESH_MS = 5000;

/** The browser's own offset at each instant (daylight saving moves it). */
const localOffset: TzOffset = (at) => -new Date(at).getTimezoneOffset();

export interface HealthView {
  data: HealthData | null;
  error: string | null;
  /** Read now (after a save or a delete) instead of waiting for the next refresh. */
  refresh(): void;
}

/**
 * The health data (errors, audits, saved searches and their runs), re-read every
 * `intervalMs`. The Health, Saved searches and Changes panels all show this one read.
 */
export function useHealth(store: Store | null, now: () => number, intervalMs = HEALTH_REFRESH_MS, tz: TzOffset = localOffset): HealthView {
  const [state, setState] = useState<{ data: HealthData | null; error: string | null }>({ data: null, error: null });
  const poll = useRef<() => void>(() => {});
  // Read through a ref: a caller's inline clock must not restart the polling on every render.
  const clock = useRef(now);
  clock.current = now;
  useEffect(() => {
    if (!store) return;
    let stopped = false;
    let busy = false;
    const read = async () => {
      // A slow read must not pile up behind itself.
      if (busy) return;
      busy = true;
      try {
        const data = await loadHealth(store, clock.current(), tz);
        if (!stopped) setState({ data, error: null });
      } catch (e) {
        if (!stopped) setState((s) => ({ ...s, error: e instanceof Error ? e.message : String(e) }));
      } finally {
        busy = false;
      }
    };
    poll.current = () => void read();
    void read();
    const timer = setInterval(read, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [store, intervalMs, tz]);
  return { ...state, refresh: () => poll.current() };
}

export const show = (value: Text): string => renderText(value, t, formatDateTime);
export const timeOrNever = (at: number | null): string => (at === null ? t('health_never') : formatDateTime(at));

const SIGNALS: JSX.CSSProperties = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: '12px' };
const SIGNAL: JSX.CSSProperties = { border: '1px solid #eee', borderRadius: '6px', padding: '8px 10px' };
const STATE_COLOUR: Record<string, string> = {
  ok: '#137333',
  fresh: '#137333',
  quiet: '#5f6368',
  'needs-a-look': '#b06000',
  'page-changed': '#b3261e',
  shortfall: '#b3261e',
  none: '#5f6368',
};
const badge = (state: string): JSX.CSSProperties => ({ color: STATE_COLOUR[state] ?? 'inherit', fontWeight: 600 });

const STALENESS_LABEL: Record<StalenessState, string> = {
  fresh: 'stalenessFresh',
  quiet: 'stalenessQuiet',
  'needs-a-look': 'stalenessNeedsALook',
};

export interface HealthPanelProps {
  data: HealthData | null;
  error: string | null;
}

/** The three signals side by side with their times: failed attempts, the coverage audit, staleness per saved search. */
export function HealthPanel(props: HealthPanelProps) {
  return (
    <section class="health-panel" aria-labelledby="health-title" data-testid="health-panel">
      <h2 id="health-title">{t('sectionHealth')}</h2>
      {props.data && <HealthSignals view={healthPanel(props.data)} />}
      {!props.data && !props.error && <p role="status">{t('healthLoading')}</p>}
      {props.error && (
        <p class="error" role="alert">
          {t('storeError', props.error)}
        </p>
      )}
    </section>
  );
}

export function HealthSignals(props: { view: HealthPanelView }) {
  const { state, stateText, errors, coverage, searches } = props.view;
  const s = coverage.summary;
  const last = s.last;
  return (
    <>
      <p role="status" data-state={state} style={badge(state)}>
        {t('healthOverall', show(stateText))}
      </p>
      <div style={SIGNALS}>
        <article style={SIGNAL} aria-labelledby="health-errors-title" data-signal="errors">
          <h3 id="health-errors-title">{t('healthErrorsTitle')}</h3>
          <p>{show(errors.text)}</p>
          <p class="busy">
            {t('healthErrorsWindow', formatDateTime(errors.since))}
            {errors.lastAt !== null && ` · ${t('healthLastErrorAt', formatDateTime(errors.lastAt))}`}
          </p>
        </article>
        <article style={SIGNAL} aria-labelledby="health-coverage-title" data-signal="coverage" data-state={coverage.state}>
          <h3 id="health-coverage-title">{t('healthCoverageTitle')}</h3>
          <p style={coverage.state === 'ok' || coverage.state === 'none' ? undefined : badge(coverage.state)}>{show(coverage.text)}</p>
          {coverage.lastAt !== null && <p class="busy">{t('healthLastAuditAt', formatDateTime(coverage.lastAt))}</p>}
          {last && (
            <table style={TABLE}>
              <thead>
                <tr>
                  <td style={HEAD} />
                  <th scope="col" style={HEAD}>
                    {t('healthLastPage')}
                  </th>
                  <th scope="col" style={HEAD}>
                    {t('healthAllPages', formatNumber(s.pages))}
                  </th>
                </tr>
              </thead>
              <tbody>
                <CountRow label={t('healthCardsVisible')} last={last.cardsVisible} all={s.cardsVisible} />
                <CountRow label={t('healthCardsRead')} last={last.extracted} all={s.extracted} />
                <CountRow label={t('healthNetworkItems')} last={last.networkItems} all={s.networkItems} />
                <CountRow label={t('healthPagesShort')} last={null} all={s.broken + s.networkShortfalls} />
              </tbody>
            </table>
          )}
        </article>
        <article style={SIGNAL} aria-labelledby="health-staleness-title" data-signal="staleness">
          <h3 id="health-staleness-title">{t('healthStalenessTitle')}</h3>
          {searches.length === 0 && <p class="empty">{t('healthNoSavedSearches')}</p>}
          <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {searches.map((search) => (
              <li key={search.id} data-staleness={search.staleness} style={{ marginBottom: '8px' }}>
                <strong>{search.name}</strong> <span style={badge(search.staleness)}>{t(STALENESS_LABEL[search.staleness])}</span>
                <br />
                {show(search.stalenessText)}
                <br />
                {show(search.scheduleText)}
                <br />
                <span class="busy">
                  {t('healthLastNewPlace', timeOrNever(search.lastNewPlaceAt))} · {t('healthLastSuccessfulRun', timeOrNever(search.lastSuccessfulRunAt))}
                </span>
              </li>
            ))}
          </ul>
        </article>
      </div>
      {errors.rows.length > 0 && (
        <div style={{ maxHeight: '320px', overflow: 'auto', marginTop: '10px' }}>
          <table style={TABLE} data-testid="health-errors">
            <caption style={{ textAlign: 'left', fontWeight: 600, padding: '4px 0' }}>{t('healthFailedAttempts')}</caption>
            <ColumnHeads labels={[t('columnTime'), t('columnKeyword'), t('columnKind'), t('columnUrl'), t('columnHttpStatus'), t('columnOutcome')]} />
            <tbody>
              {errors.rows.map((row, i) => (
                <tr key={`${row.at}-${i}`} data-kind={row.kind} title={row.message}>
                  <td style={CELL}>
                    {formatDateTime(row.at)} <span class="busy">{`(${show(row.ago)})`}</span>
                  </td>
                  <td style={CELL}>{row.keyword ?? '—'}</td>
                  <td style={CELL}>{show(row.kindText)}</td>
                  {/* Text, never a link: the URL was read from a page. */}
                  <td style={{ ...CELL, wordBreak: 'break-all', fontSize: '12px' }}>{row.url ?? '—'}</td>
                  <td style={CELL} class="number">
                    {row.httpStatus ?? '—'}
                  </td>
                  <td style={CELL}>{show(row.outcomeText)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function CountRow(props: { label: string; last: number | null; all: number | null }) {
  const cell = (n: number | null) => (n === null ? '—' : formatNumber(n));
  return (
    <tr>
      <th scope="row" style={{ ...CELL, fontWeight: 400 }}>
        {props.label}
      </th>
      <td style={CELL} class="number">
        {cell(props.last)}
      </td>
      <td style={CELL} class="number">
        {cell(props.all)}
      </td>
    </tr>
  );
}
