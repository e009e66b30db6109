// @vitest-environment happy-dom
/** The options page's results-language select: labelled, defaulting to the browser language, stored with the other settings. */
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Options } from '../../components/Options';
import { DEFAULT_SETTINGS, normaliseSettings } from '../../utils/config/settings';
import { useEnglishMessages } from '../helpers/english-messages';

async function mount(): Promise<HTMLElement> {
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  await act(async () => {
    render(h(Options, {}), root);
  });
  for (let i = 0; i < 5; i++) await act(async () => {});
  return root;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('options: language of results', () => {
  it('is a labelled select offering at least Korean and English, showing the default, and saves the choice', async () => {
    useEnglishMessages();
    const root = await mount();
    const label = [...root.querySelectorAll('label')].find((l) => l.textContent?.includes('Language of results'))!;
    expect(label).toBeDefined();
    const select = label.querySelector('select')!;
    const codes = [...select.options].map((o) => o.value);
    expect(codes).toEqual(expect.arrayContaining(['ko', 'en', 'fr', 'ja']));
    expect(select.value).toBe(DEFAULT_SETTINGS.lang);
    await act(async () => {
      select.value = 'ko';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    for (let i = 0; i < 5; i++) await act(async () => {});
    const stored = (await fakeBrowser.storage.local.get('settings')).settings;
    expect(normaliseSettings(stored).lang).toBe('ko');
    // The other settings are stored alongside, unchanged.
    expect(stored).toMatchObject({ delayMs: DEFAULT_SETTINGS.delayMs, maxCells: DEFAULT_SETTINGS.maxCells, lang: 'ko' });
  });
});
