import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { DELAY_FLOOR_MS, normaliseSettings, RESULT_LANGUAGES, type AllSettings } from '../utils/config/settings';
import { secondsPerPlace } from '../utils/details/estimate';
import { BROWSING_INCOGNITO_KEY, DEFAULT_KEEP_RUNS, isIncognitoAllowed, KEEP_RUNS_KEY, KEEP_RUNS_LIMITS, readKeepRuns } from '../utils/config/storage-keys';
import type { SweepSettings } from '../utils/domain/sweep';
import { t } from '../utils/i18n/t';
import { CalibrationPanel } from './CalibrationPanel';
import { ReviewsOption } from './ReviewsOption';
import { ContactsOption } from './ContactsOption';
import { FiltersOption } from './FiltersOption';
import { TeamOptions } from './TeamOptions';

type NumberKey = { [K in keyof SweepSettings]-?: SweepSettings[K] extends number ? K : never }[keyof SweepSettings];

const NUMBER_FIELDS: { key: NumberKey; label: string; scale: number }[] = [
  { key: 'delayMs', label: 'optionDelay', scale: 1000 },
  { key: 'jitterMs', label: 'optionJitter', scale: 1000 },
  { key: 'cellTimeoutMs', label: 'optionCellTimeout', scale: 1000 },
  { key: 'scrollPauseMs', label: 'optionScrollPause', scale: 1000 },
  { key: 'maxAttempts', label: 'optionMaxAttempts', scale: 1 },
  { key: 'workers', label: 'optionWorkers', scale: 1 },
  { key: 'maxCells', label: 'optionMaxCells', scale: 1 },
];

/**
 * Pacing and worker options, stored in storage.local and clamped to safe ranges on read.
 * Housekeeping options (runs kept per saved search, browsing in incognito) have keys of their
 * own (storage-keys.ts): they are not a sweep's settings and are not copied into each sweep.
 */
export function Options() {
  const [settings, setSettings] = useState<AllSettings | null>(null);
  const [keepRuns, setKeepRuns] = useState(DEFAULT_KEEP_RUNS);
  const [incognito, setIncognito] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    void browser.storage.local.get(['settings', KEEP_RUNS_KEY, BROWSING_INCOGNITO_KEY]).then((r) => {
      setKeepRuns(readKeepRuns(r[KEEP_RUNS_KEY]));
      setIncognito(isIncognitoAllowed(r[BROWSING_INCOGNITO_KEY]));
      setSettings(normaliseSettings(r.settings));
    });
  }, []);
  if (!settings) return null;

  async function saveExtra(key: string, value: number | boolean) {
    await browser.storage.local.set({ [key]: value });
    setSaved(true);
  }

  async function save(next: AllSettings) {
    const clean = normaliseSettings(next);
    setSettings(clean);
    await browser.storage.local.set({ settings: clean });
    setSaved(true);
  }

  return (
    <main class="options">
      <h1>{t('optionsTitle')}</h1>
      {NUMBER_FIELDS.map((f) => (
        <label key={f.key}>
          {t(f.label)}
          <input
            type="number"
            min={f.key === 'delayMs' && !settings.belowFloorAccepted ? DELAY_FLOOR_MS / f.scale : 0}
            step={f.scale === 1000 ? 0.1 : 1}
            value={settings[f.key] / f.scale}
            onChange={(e) => save({ ...settings, [f.key]: Number((e.target as HTMLInputElement).value) * f.scale })}
          />
        </label>
      ))}
      {/* The floor, and the one way below it (utils/config/settings.ts DELAY_FLOOR_MS). */}
      <p class="hint">{t('optionDelayFloor', DELAY_FLOOR_MS / 1000)}</p>
      <label>
        <input
          type="checkbox"
          checked={settings.belowFloorAccepted}
          onChange={(e) => save({ ...settings, belowFloorAccepted: (e.target as HTMLInputElement).checked })}
        />{' '}
        {t('optionBelowFloor', DELAY_FLOOR_MS / 1000)}
      </label>
      <label>
        {t('optionResultsLanguage')}
        <select value={settings.lang} onChange={(e) => save({ ...settings, lang: (e.target as HTMLSelectElement).value })}>
          {RESULT_LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={settings.dedicatedWindow}
          onChange={(e) => save({ ...settings, dedicatedWindow: (e.target as HTMLInputElement).checked })}
        />{' '}
        {t('optionDedicatedWindow')}
      </label>
      <label>
        <input type="checkbox" checked={settings.placeDetails} onChange={(e) => save({ ...settings, placeDetails: (e.target as HTMLInputElement).checked })} />{' '}
        {t('optionPlaceDetails')}
      </label>
      <p class="hint">{t('optionPlaceDetailsCost', Math.round(secondsPerPlace(settings) * 10) / 10)}</p>
      <FiltersOption settings={settings} save={save} />
      <ReviewsOption settings={settings} save={save} />
      <ContactsOption settings={settings} save={save} />
      <TeamOptions />
      <label>
        {t('optionKeepRuns')}
        <input
          type="number"
          min={KEEP_RUNS_LIMITS[0]}
          max={KEEP_RUNS_LIMITS[1]}
          step={1}
          value={keepRuns}
          onChange={(e) => {
            const n = readKeepRuns(Number((e.target as HTMLInputElement).value));
            setKeepRuns(n);
            void saveExtra(KEEP_RUNS_KEY, n);
          }}
        />
      </label>
      <label>
        <input
          type="checkbox"
          checked={incognito}
          onChange={(e) => {
            const on = (e.target as HTMLInputElement).checked;
            setIncognito(on);
            void saveExtra(BROWSING_INCOGNITO_KEY, on);
          }}
        />{' '}
        {t('optionBrowsingIncognito')}
      </label>
      <p role="status">{saved ? t('optionsSaved') : ''}</p>
      <CalibrationPanel />
    </main>
  );
}
