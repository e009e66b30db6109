// @vitest-environment happy-dom
/**
 * "Sweep as a team" in the options (issue 26): nothing is saved from an invalid address or
 * without the database's permission; saved, the settings carry a browser id and the check's
 * answer shows; a missing database is offered to be created; Share and Join send what they show.
 * The background is played by handlers on the same messages (utils/team/wire.ts).
 */
import { h, render, type FunctionComponent } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Options } from '../../components/Options';
import { TeamOptions } from '../../components/TeamOptions';
import { openStore } from '../../utils/store';
import { TEAM_KEY, TEAM_SWEEPS_KEY } from '../../utils/team/settings';
import type { TeamMessages } from '../../utils/team/wire';
import { useEnglishMessages } from '../helpers/english-messages';
import { makeCells, makeSweep } from './store-fixtures';

const host = document.createElement('div');
type Data<K extends keyof TeamMessages> = Parameters<TeamMessages[K]>[0];
/**
 * The background's side of one message, as WXT's fake browser delivers it (`true`, then
 * sendResponse with webext-core's `{ res }`): what it was asked, and the reply it gives.
 */
function answer<K extends keyof TeamMessages>(type: K, reply: (data: Data<K>) => ReturnType<TeamMessages[K]>) {
  const seen: Data<K>[] = [];
  fakeBrowser.runtime.onMessage.addListener(((message: { type?: string; data?: Data<K> }, _sender: unknown, sendResponse: (r: unknown) => void) => {
    if (message?.type !== type) return undefined;
    seen.push(message.data as Data<K>);
    sendResponse({ res: reply(message.data as Data<K>) });
    return true;
  }) as never);
  return seen;
}

async function flush() {
  for (let i = 0; i < 10; i++) await act(() => new Promise<void>((r) => setTimeout(r, 5)));
}
async function mount(component: FunctionComponent = TeamOptions) {
  document.body.replaceChildren(host);
  await act(() => {
    render(h(component, {}), host);
  });
  await flush();
}
const field = (text: string) => [...host.querySelectorAll('label')].find((l) => l.firstChild?.textContent === text)!.querySelector('input')!;
const button = (text: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === text);
const status = (id: string) => host.querySelector(`[role=status][data-testid=${id}]`)!.textContent;
async function type(label: string, value: string) {
  const input = field(label);
  await act(() => {
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function fill(values: { url: string; db: string; user?: string; password?: string; name?: string }) {
  await type('Database address', values.url);
  await type('Database name', values.db);
  await type('User', values.user ?? '');
  await type('Password', values.password ?? '');
  await type("This browser's name", values.name ?? '');
}
async function click(el: HTMLElement | undefined) {
  expect(el).toBeDefined();
  await act(() => {
    el!.click();
  });
  await flush();
}
const storedTeam = async () => (await fakeBrowser.storage.local.get(TEAM_KEY))[TEAM_KEY];

beforeEach(() => useEnglishMessages());
afterEach(() => {
  render(null, host);
  vi.restoreAllMocks();
});

describe('options: sweep as a team', () => {
  it('is a section of the options page, with its five labelled fields and the password hidden', async () => {
    await mount(Options);
    const section = [...host.querySelectorAll('h2')].find((e) => e.textContent === 'Sweep as a team');
    expect(section).toBeDefined();
    for (const label of ['Database address', 'Database name', 'User', 'Password', "This browser's name"]) expect(field(label), label).toBeDefined();
    expect(field('Password').type).toBe('password');
    expect(button('Check')).toBeDefined();
    expect(button('Save')).toBeDefined();
  });

  it('an invalid address says what is wrong, asks no permission and saves nothing', async () => {
    const request = vi.spyOn(browser.permissions, 'request').mockResolvedValue(true as never);
    await mount();
    await fill({ url: 'couch example org', db: 'team' });
    await click(button('Save'));
    expect(status('team-check')).toBe('The database address is not a URL (for example https://couch.example.org:6984).');
    expect(request).not.toHaveBeenCalled();
    expect(await storedTeam()).toBeUndefined();
    // A database name CouchDB refuses: the same.
    await fill({ url: 'https://couch.example.org:6984', db: 'Team' });
    await click(button('Save'));
    expect(status('team-check')).toMatch(/^A database name starts with a lower-case letter/);
    expect(await storedTeam()).toBeUndefined();
  });

  it('a refused permission saves nothing and says so', async () => {
    const request = vi.spyOn(browser.permissions, 'request').mockResolvedValue(false as never);
    const checks = answer('teamCheck', () => ({ ok: true, server: 'CouchDB 3.3', docs: 12 }));
    await mount();
    await fill({ url: 'https://couch.example.org:6984/', db: 'team', user: 'ana', password: 's3cret', name: 'Ana' });
    await click(button('Save'));
    expect(request.mock.calls).toEqual([[{ origins: ['https://couch.example.org:6984/*'] }]]);
    expect(status('team-check')).toBe('Permission refused: nothing was saved, and MapSweep does not reach the database.');
    expect(await storedTeam()).toBeUndefined();
    expect(checks).toEqual([]);
    // Nothing saved: no Share or Join yet.
    expect(button('List shared sweeps')).toBeUndefined();
  });

  it('granted, saves the settings with a new browser id, shows the check, then offers the local sweeps to share', async () => {
    vi.spyOn(browser.permissions, 'request').mockResolvedValue(true as never);
    const store = await openStore();
    await store.createSweep(makeSweep('local-1', { keywords: ['cafe', 'bakery'], status: 'paused' }), makeCells('local-1', 1));
    await store.createSweep(makeSweep('local-team', { keywords: ['clinic'], status: 'paused' }), makeCells('local-team', 1));
    store.close();
    await fakeBrowser.storage.local.set({ [TEAM_SWEEPS_KEY]: { 'local-team': { leaseMs: 90_000 } } });
    const checks = answer('teamCheck', () => ({ ok: true, server: 'CouchDB 3.3', docs: 12 }));
    const shares = answer('teamShare', () => ({ ok: true, already: false }));
    await mount();
    await fill({ url: 'https://couch.example.org:6984/', db: 'team', user: ' ana ', password: 's3cret', name: ' Ana ' });
    await click(button('Save'));

    const saved = (await storedTeam()) as { browserId: string };
    expect(saved).toEqual({
      url: 'https://couch.example.org:6984',
      db: 'team',
      user: 'ana',
      password: 's3cret',
      name: 'Ana',
      browserId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(checks).toEqual([{ url: 'https://couch.example.org:6984', db: 'team', user: 'ana', password: 's3cret' }]);
    expect(status('team-check')).toBe('Saved. Connected: CouchDB 3.3, 12 documents');
    expect(host.textContent).not.toContain('s3cret');

    // Share: the sweep not yet worked on with the team, with the lease the user typed.
    expect(host.querySelector('[data-testid=team-share-local-team]')).toBeNull();
    const share = host.querySelector<HTMLButtonElement>('[data-testid=team-share-local-1]')!;
    expect(share.closest('li')!.textContent).toContain('cafe, bakery');
    expect(field('Lease (seconds)').value).toBe('90');
    expect(field('Lease (seconds)').min).toBe('10');
    await type('Lease (seconds)', '120');
    await click(share);
    expect(shares).toEqual([{ sweepId: 'local-1', leaseMs: 120_000 }]);
    expect(status('team-action')).toBe('Shared “cafe, bakery”: the team can join it now.');

    // Saved again (another name): the browser keeps its id.
    await type("This browser's name", 'Ana at home');
    await click(button('Save'));
    expect(await storedTeam()).toMatchObject({ name: 'Ana at home', browserId: saved.browserId });
  });

  it('a missing database is offered to be created, and checked again after', async () => {
    await fakeBrowser.storage.local.set({
      [TEAM_KEY]: { url: 'https://couch.example.org', db: 'team', user: 'ana', password: 's3cret', name: 'Ana', browserId: 'b-1' },
    });
    let exists = false;
    answer('teamCheck', () =>
      exists
        ? { ok: true, server: 'CouchDB 3.3', docs: 0 }
        : {
            ok: false,
            kind: 'missing',
            message: 'The server has no database "team". Create it here (the user must be allowed to), or ask whoever runs the server.',
          },
    );
    const created = answer('teamCreateDatabase', () => {
      exists = true;
      return { ok: true };
    });
    await mount();
    // The saved settings fill the form.
    expect(field('Database address').value).toBe('https://couch.example.org');
    expect(field("This browser's name").value).toBe('Ana');
    expect(button('Create the database')).toBeUndefined();
    await click(button('Check'));
    expect(status('team-check')).toBe('The server has no database "team". Create it here (the user must be allowed to), or ask whoever runs the server.');
    await click(button('Create the database'));
    expect(created).toEqual([{ url: 'https://couch.example.org', db: 'team', user: 'ana', password: 's3cret' }]);
    expect(status('team-check')).toBe('Connected: CouchDB 3.3, 0 documents');
    expect(button('Create the database')).toBeUndefined();
    expect(host.textContent).not.toContain('s3cret');
  });

  it('lists the shared sweeps, names as text, a joined one marked Joined, and joins another', async () => {
    await fakeBrowser.storage.local.set({
      [TEAM_KEY]: { url: 'https://couch.example.org', db: 'team', user: '', password: '', name: 'Ana', browserId: 'b-1' },
      [TEAM_SWEEPS_KEY]: { 'shared-old': { leaseMs: 90_000 } },
    });
    // Joined means joined and here: the background's join makes the sweep here (both are, for this test).
    const store = await openStore();
    for (const id of ['shared-old', 'shared-new']) await store.createSweep(makeSweep(id, { keywords: ['cafe'], status: 'running' }), makeCells(id, 1));
    store.close();
    const summary = { provider: 'google', area: '37.5,126.9,37.6,127', sharedAt: 1 };
    answer('teamList', () => ({
      ok: true,
      sweeps: [
        { ...summary, id: 'shared-new', keywords: ['카페'], sharedBy: '<b>Bo</b>', cells: 16 },
        { ...summary, id: 'shared-old', keywords: ['cafe'], sharedBy: 'Cy', cells: 4 },
      ],
    }));
    const joins = answer('teamJoin', (d) => {
      void fakeBrowser.storage.local.set({ [TEAM_SWEEPS_KEY]: { 'shared-old': { leaseMs: 90_000 }, [d.sweepId]: { leaseMs: 90_000 } } });
      return { ok: true, sweepId: d.sweepId };
    });
    await mount();
    await click(button('List shared sweeps'));
    const join = host.querySelector<HTMLButtonElement>('[data-testid=team-join-shared-new]')!;
    const old = host.querySelector<HTMLButtonElement>('[data-testid=team-join-shared-old]')!;
    expect(join.closest('li')!.textContent).toBe('카페 — shared by <b>Bo</b>, 16 cells Join');
    expect(host.querySelector('b')).toBeNull();
    expect([old.textContent, old.disabled]).toEqual(['Joined', true]);
    expect(join.disabled).toBe(false);
    await click(join);
    expect(joins).toEqual([{ sweepId: 'shared-new' }]);
    expect(status('team-action')).toBe('Joined “카페”: this browser works on it now, in a window of its own.');
    expect([join.textContent, join.disabled]).toEqual(['Joined', true]);
  });

  it('a refusal from the background shows its words in the action status', async () => {
    await fakeBrowser.storage.local.set({
      [TEAM_KEY]: { url: 'https://couch.example.org', db: 'team', user: '', password: '', name: 'Ana', browserId: 'b-1' },
    });
    answer('teamList', () => ({ ok: false, error: { code: 'team_list', message: 'The server refused this user name and password.' } }));
    await mount();
    await click(button('List shared sweeps'));
    expect(status('team-action')).toBe('The server refused this user name and password.');
  });
});
