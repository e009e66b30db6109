// @vitest-environment happy-dom
/**
 * The options page keeps the delay at its 2 s floor and says why; below it only once the user
 * ticked "I accept the risk", never by typing a smaller number (issue 22).
 */
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Options } from '../../components/Options';
import { normaliseSettings } from '../../utils/config/settings';
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

const labelled = (root: HTMLElement, text: string) => [...root.querySelectorAll('label')].find((l) => l.textContent?.includes(text))!;

async function change(input: HTMLInputElement, set: () => void) {
  await act(async () => {
    set();
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  for (let i = 0; i < 5; i++) await act(async () => {});
}

const stored = async () => normaliseSettings((await fakeBrowser.storage.local.get('settings')).settings);

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
  fakeBrowser.reset();
});

describe('options: the delay floor', () => {
  it('explains the floor; typing 0 keeps 2 s; only the risk checkbox allows less, and unticking it restores the floor', async () => {
    useEnglishMessages();
    // An old version stored 0: the page shows (and the sweep uses) the floor.
    await fakeBrowser.storage.local.set({ settings: { delayMs: 0 } });
    const root = await mount();
    const delay = labelled(root, 'Seconds between page loads').querySelector('input')!;
    expect(delay.value).toBe('2');
    expect(delay.min).toBe('2');
    expect(root.textContent).toMatch(/At least 2 s between two requests to a map site/);

    await change(delay, () => (delay.value = '0'));
    expect((await stored()).delayMs).toBe(2000);
    expect(delay.value).toBe('2');

    const risk = labelled(root, 'I accept the risk').querySelector('input')!;
    expect(risk.checked).toBe(false);
    await change(risk, () => (risk.checked = true));
    expect(delay.min).toBe('0');
    await change(delay, () => (delay.value = '0.5'));
    expect(await stored()).toMatchObject({ delayMs: 500, belowFloorAccepted: true });

    await change(risk, () => (risk.checked = false));
    expect(await stored()).toMatchObject({ delayMs: 2000, belowFloorAccepted: false });
    expect(delay.value).toBe('2');
  });
});
