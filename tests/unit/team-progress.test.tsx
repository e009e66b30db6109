// @vitest-environment happy-dom
/**
 * The team's line in the popup (issue 26): places in all and each browser's cells, this browser
 * marked, other browsers' names as text; why this browser works alone when the database is away
 * or refuses it; nothing at all for a sweep not worked on with a team.
 */
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Popup } from '../../components/Popup';
import { TEAM_POLL_MS, TeamProgress } from '../../components/TeamProgress';
import { openStore } from '../../utils/store';
import type { TeamProgress as Progress } from '../../utils/team/progress';
import type { TeamStatus } from '../../utils/team/settings';
import { useEnglishMessages } from '../helpers/english-messages';
import { makeCells, makeSweep } from './store-fixtures';

const host = document.createElement('div');
type Answer = { progress: Progress | null; status: TeamStatus | null };

/** The background's teamProgress, as WXT's fake browser delivers it (`true`, then sendResponse). */
function background(reply: () => Answer) {
  const asked: unknown[] = [];
  fakeBrowser.runtime.onMessage.addListener(((message: { type?: string; data?: unknown }, _sender: unknown, sendResponse: (r: unknown) => void) => {
    if (message?.type !== 'teamProgress') return undefined;
    asked.push(message.data);
    sendResponse({ res: { ok: true, ...reply() } });
    return true;
  }) as never);
  return asked;
}

async function flush() {
  for (let i = 0; i < 10; i++) await act(() => new Promise<void>((r) => setTimeout(r, 5)));
}
async function mount(sweepId = 's1') {
  document.body.replaceChildren(host);
  await act(() => {
    render(h(TeamProgress, { sweepId }), host);
  });
  await flush();
}
const shown = () => host.querySelector('[data-testid=team-progress]');

const progress: Progress = {
  browsers: [
    { id: 'b-ana', name: 'Ana', cells: 40, me: false },
    { id: 'b-me', name: 'Me', cells: 41, me: true },
    { id: 'b-x', name: '<b>x</b>', cells: 38, me: false },
  ],
  cells: 119,
  places: 1234,
};

beforeEach(() => useEnglishMessages());
afterEach(() => {
  render(null, host);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('popup: the team progress', () => {
  it('renders nothing for a sweep not worked on with a team', async () => {
    const asked = background(() => ({ progress: null, status: null }));
    await mount('solo');
    expect(asked).toEqual([{ sweepId: 'solo' }]);
    expect(shown()).toBeNull();
    expect(host.innerHTML).toBe('');
  });

  it('says what the team collected, marks this browser, and shows a name like <b>x</b> as text', async () => {
    background(() => ({ progress, status: { state: 'online', at: 1, unpushed: 0 } }));
    await mount();
    expect(shown()!.textContent).toBe('Team: 1,234 places in all · cells done: Ana 40, this browser 41, <b>x</b> 38');
    expect(shown()!.querySelector('b')).toBeNull();
    expect(shown()!.textContent).not.toContain('Me 41');
  });

  it('offline: since when, what this browser does meanwhile, and how many results wait', async () => {
    const since = new Date(2026, 11, 3, 9, 5).getTime();
    background(() => ({ progress: null, status: { state: 'offline', since, message: 'fetch failed', unpushed: 3 } }));
    await mount();
    expect(shown()!.textContent).toBe(
      'The team database is unreachable since 09:05: this browser finishes its cell, keeps what it finds, and takes no new shared cell. 3 results wait to be sent.',
    );
  });

  it('refused: the database’s reason, as text', async () => {
    background(() => ({ progress, status: { state: 'refused', at: 1, message: 'The server refused this user name and password.', unpushed: 1 } }));
    await mount();
    const alert = shown()!.querySelector('[role=alert]')!;
    expect(alert.textContent).toBe('The team database refused this browser: The server refused this user name and password.');
  });

  it('polls every 5 s while shown, and stops once closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let answer: Answer = { progress: null, status: null };
    const asked = background(() => answer);
    await mount();
    expect(shown()).toBeNull();
    answer = { progress: { ...progress, places: 2000 }, status: null };
    await act(() => {
      vi.advanceTimersByTime(TEAM_POLL_MS);
    });
    await flush();
    expect(TEAM_POLL_MS).toBe(5000);
    expect(asked).toHaveLength(2);
    expect(shown()!.textContent).toMatch(/^Team: 2,000 places in all/);
    render(null, host);
    await act(() => {
      vi.advanceTimersByTime(3 * TEAM_POLL_MS);
    });
    expect(asked).toHaveLength(2);
  });

  it('is shown in the popup under the sweep’s status', async () => {
    const store = await openStore();
    await store.createSweep(makeSweep('team-1', { keywords: ['cafe'], status: 'paused', createdAt: Date.now() }), makeCells('team-1', 1));
    store.close();
    const asked = background(() => ({ progress, status: null }));
    document.body.replaceChildren(host);
    await act(() => {
      render(h(Popup, {}), host);
    });
    for (let i = 0; i < 100 && !shown(); i++) await act(() => new Promise<void>((r) => setTimeout(r, 20)));
    expect(asked[0]).toEqual({ sweepId: 'team-1' });
    expect(shown()!.textContent).toContain('this browser 41');
    const status = host.querySelector('section.status')!;
    expect(status.compareDocumentPosition(shown()!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
