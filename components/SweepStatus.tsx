import type { Cell, Sweep } from '../utils/domain/sweep';
import { sweepProgress, type Warning } from '../utils/sweep/progress';
import { formatDateTime, formatDuration, formatNumber, t } from '../utils/i18n/t';
import { providerFor } from '../utils/providers/registry';

/** Progress at a glance. Page text (cell errors) is rendered as text nodes, never as HTML. */
export function SweepStatus(props: {
  sweep: Sweep;
  quarantined: Cell[];
  currentKeyword: string | null;
  pageHidden: boolean;
  /** Distinct places in this sweep's collection (the counters count places new to the store). */
  places: number | null;
  now: number;
}) {
  const { sweep, quarantined, now, currentKeyword: keyword } = props;
  const p = sweepProgress(sweep, now);
  return (
    <section class="status">
      <div role="status" aria-live="polite">
        <p class="state">
          {t(`state_${sweep.status}`)}
          {keyword && <> · {t('currentKeyword', keyword)}</>}
        </p>
        <progress max={1} value={p.fraction} aria-label={t('progressLabel')} />
        <p>{t('cellsLine', formatNumber(p.cellsClosed), formatNumber(p.cellsKnown))}</p>
        <p>
          <strong data-testid="listings-count">{formatNumber(props.places ?? p.listings)}</strong> {t('listingsCollected')}
          {p.perHour !== null && <> · {t('perHour', formatNumber(Math.round(p.perHour)))}</>}
          {sweep.status === 'running' && p.etaSeconds !== null && <> · {t('eta', formatDuration(p.etaSeconds))}</>}
        </p>
        <p class="health">{t('healthLine', formatNumber(sweep.counters.errors), sweep.lastNewListingAt ? formatDateTime(sweep.lastNewListingAt) : '—')}</p>
      </div>
      {props.pageHidden && <p class="warnings">{t('warningPageHidden')}</p>}
      {p.warnings.length > 0 && (
        <ul class="warnings">
          {p.warnings.map((w) => (
            <li key={w.kind} class={`warning-${w.kind}`}>
              {warningText(w, sweep.counters.cellsUnresolved ?? 0, providerFor(sweep.provider).displayName)}
              {/* Why the sweep stopped, in the words of the check that stopped it (page text stays text). */}
              {w.kind === 'extractor' && w.message && <span class="detail"> {w.message}</span>}
            </li>
          ))}
        </ul>
      )}
      {quarantined.length > 0 && (
        <details>
          <summary>{t('quarantinedCells', formatNumber(quarantined.length))}</summary>
          <ul class="reasons">
            {quarantined.slice(0, 20).map((c) => (
              <li key={c.id}>
                {c.keyword}: {c.lastError?.message ?? '—'}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/** `unresolved`: of the saturated cells, those not even proven crowded (absent on older sweeps: 0). */
function warningText(w: Warning, unresolved: number, site: string): string {
  switch (w.kind) {
    case 'saturated':
      return unresolved > 0 ? t('warningSaturatedUnresolved', formatNumber(w.count), formatNumber(unresolved)) : t('warningSaturated', formatNumber(w.count));
    case 'quarantined':
      return t('warningQuarantined', formatNumber(w.count));
    case 'stale':
      return t('warningStale', formatNumber(w.minutes));
    case 'audit':
      return t('warningAudit', formatNumber(w.missed), formatNumber(w.reopened));
    // The reasons are the store's words about page text: rendered as a text node, never as HTML.
    case 'refused':
      return t('warningRefused', formatNumber(w.count), w.reasons.join('; '));
    // The team database's own words (utils/team/gate.ts), as text.
    case 'team':
      return t('warning_team', w.message);
    default:
      return t(`warning_${w.kind}`, site);
  }
}
