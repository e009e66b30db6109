import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { listCalibrations, resetCalibrations } from '../utils/coverage/calibration-storage';
import { safeSpan, type GeometryCalibration } from '../utils/coverage/geometry';
import { formatNumber, t } from '../utils/i18n/t';
import { AUDIT_MAX_ROUNDS, AUDIT_MIN_CELLS, AUDIT_SHARE } from '../utils/coverage/audit';

/** The learnt searched rectangle per provider and window size (utils/coverage), with a reset. */
export function CalibrationPanel() {
  const [rows, setRows] = useState<{ key: string; calibration: GeometryCalibration }[] | null>(null);
  const load = () => void listCalibrations(browser.storage.local).then(setRows);
  useEffect(load, []);
  if (!rows) return null;
  return (
    <section class="calibration" aria-labelledby="calibration-title">
      <h2 id="calibration-title">{t('calibrationTitle')}</h2>
      <p>{t('calibrationIntro')}</p>
      <p>{t('optionsAudit', formatNumber(AUDIT_MIN_CELLS), formatNumber(AUDIT_SHARE * 100), formatNumber(AUDIT_MAX_ROUNDS))}</p>
      {rows.length === 0 ? (
        <p>{t('calibrationNone')}</p>
      ) : (
        <ul>
          {rows.map(({ key, calibration: c }) => {
            const s = safeSpan(c);
            const share = Math.round((100 * (s.right - s.left)) / c.width);
            return <li key={key}>{t('calibrationRow', key, c.searches, share, c.unexplained)}</li>;
          })}
        </ul>
      )}
      <button type="button" onClick={() => void resetCalibrations(browser.storage.local).then(load)}>
        {t('calibrationReset')}
      </button>
    </section>
  );
}
