import { useState } from 'preact/hooks';
import { sendMessage, type UserError } from '../utils/messaging/protocol';
import type { Sweep } from '../utils/domain/sweep';
import { t } from '../utils/i18n/t';
import { userErrorText } from './user-error';

/** Pause / Resume / Stop / Retry failed for the shown sweep (Export is the popup's, for every collection). */
export function SweepControls(props: { sweep: Sweep }) {
  const { sweep } = props;
  const [error, setError] = useState<UserError | null>(null);
  const run = async (fn: () => Promise<{ ok: boolean; error?: UserError }>) => {
    const reply = await fn();
    setError(reply.ok ? null : (reply.error ?? null));
  };
  const s = sweep.status;
  return (
    <div class="controls">
      <div class="row">
        <button type="button" disabled={s !== 'running'} onClick={() => run(() => sendMessage('pauseSweep', sweep.id))}>
          {t('buttonPause')}
        </button>
        <button type="button" disabled={s !== 'paused' && s !== 'failed'} onClick={() => run(() => sendMessage('resumeSweep', sweep.id))}>
          {t('buttonResume')}
        </button>
        <button type="button" disabled={s === 'stopped' || s === 'finished'} onClick={() => run(() => sendMessage('stopSweep', sweep.id))}>
          {t('buttonStop')}
        </button>
        <button type="button" disabled={sweep.counters.cellsQuarantined === 0} onClick={() => run(() => sendMessage('retryFailed', sweep.id))}>
          {t('buttonRetryFailed')}
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {userErrorText(error)}
        </p>
      )}
    </div>
  );
}
