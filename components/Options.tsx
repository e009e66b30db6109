import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { normaliseSettings } from '../utils/sweep/settings';
import type { SweepSettings } from '../utils/sweep/types';
import { t } from '../utils/i18n/t';

type NumberKey = { [K in keyof SweepSettings]: SweepSettings[K] extends number ? K : never }[keyof SweepSettings];

const NUMBER_FIELDS: { key: NumberKey; label: string; scale: number }[] = [
  { key: 'delayMs', label: 'optionDelay', scale: 1000 },
  { key: 'jitterMs', label: 'optionJitter', scale: 1000 },
  { key: 'cellTimeoutMs', label: 'optionCellTimeout', scale: 1000 },
  { key: 'scrollPauseMs', label: 'optionScrollPause', scale: 1000 },
  { key: 'maxAttempts', label: 'optionMaxAttempts', scale: 1 },
  { key: 'workers', label: 'optionWorkers', scale: 1 },
  { key: 'maxCells', label: 'optionMaxCells', scale: 1 },
];

/** Pacing and worker options, stored in storage.local and clamped to safe ranges on read. */
export function Options() {
  const [settings, setSettings] = useState<SweepSettings | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    void browser.storage.local.get('settings').then((r) => setSettings(normaliseSettings(r.settings)));
  }, []);
  if (!settings) return null;

  async function save(next: SweepSettings) {
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
            min={0}
            step={f.scale === 1000 ? 0.1 : 1}
            value={settings[f.key] / f.scale}
            onChange={(e) => save({ ...settings, [f.key]: Number((e.target as HTMLInputElement).value) * f.scale })}
          />
        </label>
      ))}
      <label>
        <input
          type="checkbox"
          checked={settings.dedicatedWindow}
          onChange={(e) => save({ ...settings, dedicatedWindow: (e.target as HTMLInputElement).checked })}
        />{' '}
        {t('optionDedicatedWindow')}
      </label>
      <p role="status">{saved ? t('optionsSaved') : ''}</p>
    </main>
  );
}
