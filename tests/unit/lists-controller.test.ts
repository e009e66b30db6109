/**
 * A list's worker tab through the controller (utils/sweep/controller.ts listTab): one window per
 * list for the session, found again after a service-worker restart (a new controller over the same
 * store and session storage), and always known as a list's tab (never the person's browsing).
 * Before the fix, the list's own saved tab counted as busy, so each restart opened a new window
 * and the old tab stopped being known as the list's.
 */
import { expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PageDriver } from '../../utils/browser/page-driver';
import { normaliseSettings } from '../../utils/config/settings';
import { createPacer } from '../../utils/queue/pacing';
import { openStore } from '../../utils/store';
import { createController } from '../../utils/sweep/controller';
import { freshFactory } from './store-fixtures';

it('a list keeps its one window across a service-worker restart, and its tab stays a list tab', async () => {
  const store = await openStore({ factory: freshFactory(), name: 'lists-controller' });
  let nextTab = 100;
  const created: number[] = [];
  const windows = fakeBrowser.windows as unknown as { create: unknown };
  windows.create = vi.fn(async () => {
    const id = nextTab++;
    created.push(id);
    return { id: 1, tabs: [{ id }] };
  });
  // Loads never end: the loop stays on its first place, as a service worker that dies mid-place.
  const page = {
    load: () => new Promise(() => {}),
    collect: () => Promise.reject(new Error('no')),
    viewport: async () => ({ width: 1, height: 1, panelWidth: 1 }),
    exists: async () => true,
  } as unknown as PageDriver;
  let clock = 10_000;
  const sleep = async (ms: number) => {
    clock += ms;
    await new Promise((r) => setTimeout(r, 0));
  };
  let ids = 0;
  const controller = () =>
    createController({
      browser: fakeBrowser,
      store,
      page,
      pacer: createPacer({ now: () => clock, sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) }),
      now: () => clock,
      sleep,
      random: () => 0,
      newId: () => `abcd${++ids}`,
      settings: async () => normaliseSettings({}),
      attention: () => {},
    } as unknown as Parameters<typeof createController>[0]);
  const first = controller();
  const started = await first.listCommands.startList({ text: 'naver:2222222\nkakao:3333333', name: 'L' });
  expect(started.ok).toBe(true);
  await new Promise((r) => setTimeout(r, 50));
  expect(created).toEqual([100]);
  expect(await first.isSweepTab(100)).toBe(true);
  // The service worker restarts: a new controller over the same store and session.
  const second = controller();
  await second.ensureDriving();
  await new Promise((r) => setTimeout(r, 50));
  expect(created).toEqual([100]);
  expect(await second.isSweepTab(100)).toBe(true);
  store.close();
});
