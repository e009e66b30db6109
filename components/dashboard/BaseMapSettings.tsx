import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { checkTileUrl, DEFAULT_TILE_URL, TILE_URL_KEY, tileUrlFromStorage, type TileUrlCheck } from '../../utils/dashboard/tiles';
import { t } from '../../utils/i18n/t';

/** The tile URL the base map draws with (storage.local, the dashboard's own key), following changes from other tabs. */
export function useTileUrl(): string {
  const [url, setUrl] = useState(DEFAULT_TILE_URL);
  useEffect(() => {
    let live = true;
    void browser.storage.local
      .get(TILE_URL_KEY)
      .then((r) => {
        if (live) setUrl(tileUrlFromStorage(r[TILE_URL_KEY]));
      })
      .catch(() => {});
    const onChanged = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
      if (areaName === 'local' && TILE_URL_KEY in changes) setUrl(tileUrlFromStorage(changes[TILE_URL_KEY]!.newValue));
    };
    browser.storage.onChanged.addListener(onChanged);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(onChanged);
    };
  }, []);
  return url;
}

export function tileUrlProblemText(check: Extract<TileUrlCheck, { ok: false }>): string {
  switch (check.problem) {
    case 'empty':
      return t('tileUrlEmpty');
    case 'not-url':
      return t('tileUrlNotUrl');
    case 'not-https':
      return t('tileUrlNotHttps');
    case 'missing-placeholder':
      return t('tileUrlMissing', check.detail ?? '');
    case 'unknown-placeholder':
      return t('tileUrlUnknown', check.detail ?? '');
  }
}

/**
 * The base map's tile server, set next to the map: a text field, Save, and back to
 * OpenStreetMap. Saved only when valid (https, with {z} {x} {y}).
 */
export function BaseMapSettings(props: { url: string }) {
  const [draft, setDraft] = useState(props.url);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => setDraft(props.url), [props.url]);

  const save = async (value: string) => {
    const check = checkTileUrl(value);
    if (!check.ok) {
      setProblem(tileUrlProblemText(check));
      setSaved(false);
      return;
    }
    setProblem(null);
    try {
      if (check.url === DEFAULT_TILE_URL) await browser.storage.local.remove(TILE_URL_KEY);
      else await browser.storage.local.set({ [TILE_URL_KEY]: check.url });
      setDraft(check.url);
      setSaved(true);
    } catch (e) {
      setProblem(String((e as Error)?.message ?? e));
    }
  };

  return (
    <details class="tile-settings" data-testid="tile-settings" style={{ margin: '8px 0' }}>
      <summary>{t('tileUrlTitle')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save(draft);
        }}
        style={{ display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap', marginTop: '6px' }}
      >
        <label>
          {t('tileUrlLabel')}{' '}
          <input
            type="text"
            size={60}
            spellcheck={false}
            value={draft}
            aria-invalid={problem ? 'true' : undefined}
            onInput={(e) => {
              setDraft((e.currentTarget as HTMLInputElement).value);
              setSaved(false);
            }}
          />
        </label>
        <button type="submit">{t('tileUrlSave')}</button>
        <button type="button" onClick={() => void save(DEFAULT_TILE_URL)} disabled={props.url === DEFAULT_TILE_URL && draft === DEFAULT_TILE_URL}>
          {t('tileUrlReset')}
        </button>
        {saved && <span role="status">{t('tileUrlSaved')}</span>}
      </form>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <p class="hint">{t('tileUrlPolicy')}</p>
    </details>
  );
}
