/**
 * A worker window's tabs are the sweep's from the moment they exist: openWorkerWindow tells
 * (StartPage.opened) before its start page waits for its turn in the host's lane, so the
 * controller saves them at once — the start page is never taken for the person's browsing, and
 * a loop started meanwhile (the watchdog) finds the window instead of opening a second one.
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import { describe, expect, it } from 'vitest';
import { openWorkerWindow } from '../../utils/browser/tabs';

describe('a worker window', () => {
  it('names its tabs before its start page waits for its turn', async () => {
    const events: string[] = [];
    let nextId = 20;
    const browser = {
      windows: { create: async () => ({ id: 1, tabs: [{ id: nextId++ }] }) },
      tabs: { create: async () => ({ id: nextId++ }) },
    } as unknown as Browser;
    let letGo!: () => void;
    const turnGiven = new Promise<void>((r) => (letGo = r));
    const opening = openWorkerWindow(browser, 2, {
      url: 'https://map.kakao.com/',
      opened: async (ids) => void events.push(`opened ${ids.join(',')}`),
      // The lane is busy: the turn comes only when the test says so.
      turn: async () => {
        events.push('turn asked');
        await turnGiven;
        return () => events.push('turn ended');
      },
      load: async (tab) => void events.push(`load ${tab}`),
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['opened 20,21', 'turn asked']);
    letGo();
    expect(await opening).toEqual([20, 21]);
    expect(events).toEqual(['opened 20,21', 'turn asked', 'load 20', 'turn ended']);
  });
});
