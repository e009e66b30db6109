import { useEffect, useState } from 'preact/hooks';
import { denseAreasText, loadIncompleteCoverage, type IncompleteCoverage } from '../utils/dashboard/incomplete';
import { renderText } from '../utils/i18n/text';
import { formatDateTime, formatNumber, t } from '../utils/i18n/t';
import { sendMessage, type UserError } from '../utils/messaging/protocol';
import type { Store } from '../utils/store';
import type { Sweep } from '../utils/domain/sweep';
import { userErrorText } from './user-error';
import { withNumbers } from './HealthLine';

/**
 * What a finished sweep did not cover, above "Finished" and its count, so it is read first:
 * cells that failed for good (never searched: their places are missing) with Retry next to
 * them, then the areas too dense for the map's closest zoom. Nothing when the sweep covered
 * everything.
 */
export function FinishedReport(props: { store: Store | null; sweep: Sweep }) {
  const { store, sweep } = props;
  const [incomplete, setIncomplete] = useState<IncompleteCoverage | null>(null);
  const [error, setError] = useState<UserError | null>(null);
  const saturated = sweep.counters.cellsSaturated;
  // A finished sweep changes only when something re-opens it (Retry, an audit): read again then.
  useEffect(() => {
    if (!store || saturated === 0) {
      setIncomplete(null);
      return;
    }
    let stopped = false;
    void loadIncompleteCoverage(store, sweep.id).then(
      (c) => !stopped && setIncomplete(c),
      () => {},
    );
    return () => {
      stopped = true;
    };
  }, [store, sweep.id, sweep.updatedAt, saturated]);

  const failed = sweep.counters.cellsQuarantined;
  const areas = incomplete ? denseAreasText(incomplete.areas) : [];
  if (failed === 0 && areas.length === 0) return null;
  const retry = async () => {
    // A background that cannot answer (asleep past its wake-up, updating) is said, not swallowed.
    const reply = await sendMessage('retryFailed', sweep.id).catch((e: unknown) => ({
      ok: false as const,
      error: { code: 'internal', message: e instanceof Error ? e.message : String(e) },
    }));
    setError(reply.ok ? null : reply.error);
  };
  return (
    <section class="finished-report" data-testid="finished-report">
      {failed > 0 && (
        <p class="error" role="alert" data-testid="finished-failed">
          {t('finishedQuarantined', formatNumber(failed))}{' '}
          <button type="button" class="primary" onClick={() => void retry()}>
            {t('buttonRetryFailed')}
          </button>
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {userErrorText(error)}
        </p>
      )}
      {areas.length > 0 && (
        <ul class="warnings" data-testid="dense-areas">
          {/* Coordinates arrive as text (toFixed), counts as numbers formatted in the interface's language. */}
          {areas.map((line, i) => (
            <li key={i}>{renderText(line, withNumbers, formatDateTime)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
