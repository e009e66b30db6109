// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HealthPanel, useHealth } from '../../components/dashboard/HealthPanel';
import { summariseAudits } from '../../utils/domain/audit-page';
import type { HealthData, SavedSearchHealth } from '../../utils/health/queries';
import type { Staleness } from '../../utils/health/staleness';
import type { FailedAttempt, PageAudit } from '../../utils/domain/page-audit';
import { createSavedSearch } from '../../utils/schedule/saved-searches';
import type { Run, SavedSearch } from '../../utils/domain/saved-search';
import { openStore, type Store } from '../../utils/store';
import { DAY, HOUR, MINUTE, searchInput } from './schedule-fixtures';
import { freshFactory } from './store-fixtures';
import { useEnglishMessages } from '../helpers/english-messages';

const NOW = Date.UTC(2026, 2, 20, 3, 0);
const at = (ms: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);

function search(id: string, overrides: Partial<SavedSearch> = {}): SavedSearch {
  return {
    id,
    name: `Search ${id}`,
    areaText: '37.56,126.97,37.57,126.99',
    keywordsText: 'cafe',
    repeat: 'daily',
    hour: 9,
    weekday: 1,
    thresholdDays: 7,
    createdAt: NOW - 30 * DAY,
    lastRunAt: NOW - 3 * HOUR,
    lastSuccessfulRunAt: NOW - 2 * HOUR,
    lastNewPlaceAt: NOW - 2 * HOUR,
    ...overrides,
  };
}

function run(overrides: Partial<Run> = {}): Run {
  return {
    id: 'r1',
    savedSearchId: 'x',
    sweepId: 'run-r1',
    trigger: 'schedule',
    slot: NOW - 3 * HOUR,
    missed: 0,
    previousRunAt: NOW - DAY - 3 * HOUR,
    claimedAt: NOW - 3 * HOUR,
    startedAt: NOW - 3 * HOUR,
    finishedAt: NOW - 2 * HOUR,
    status: 'finished',
    error: null,
    changes: { baseline: false, seen: 40, added: 2, gone: 1, changed: 3, complete: true },
    ...overrides,
  };
}

const notDue = { due: false, slot: null, missed: 0, catchUp: false };

function entry(s: SavedSearch, staleness: Omit<Staleness, 'lastNewPlaceAt' | 'lastSuccessfulRunAt'>, more: Partial<SavedSearchHealth> = {}): SavedSearchHealth {
  return {
    search: s,
    runs: [run({ savedSearchId: s.id })],
    latestAudit: null,
    staleness: { ...staleness, lastNewPlaceAt: s.lastNewPlaceAt, lastSuccessfulRunAt: s.lastSuccessfulRunAt },
    due: notDue,
    nextRunAt: NOW + 21 * HOUR,
    ...more,
  };
}

const fresh = entry(search('fresh'), { state: 'fresh', reason: null, candidate: false, quietForMs: 2 * HOUR, auditAt: null });

const audit = (overrides: Partial<PageAudit> = {}): PageAudit => ({
  pageKind: 'results',
  cardsVisible: 20,
  extracted: 20,
  sponsored: 0,
  networkItems: 20,
  networkMatched: 20,
  firstKeys: ['google:1'],
  verdict: 'ok',
  networkShortfall: false,
  ...overrides,
});

function data(overrides: Partial<HealthData> = {}): HealthData {
  return {
    now: NOW,
    since: NOW - DAY,
    errors: [],
    coverage: summariseAudits([
      { at: NOW - HOUR, audit: audit() },
      { at: NOW - 2 * HOUR, audit: audit({ cardsVisible: 18, extracted: 17, networkItems: null, networkMatched: null }) },
    ]),
    pageChanged: null,
    lastNewPlaceAt: NOW - 2 * HOUR,
    searches: [fresh],
    ...overrides,
  };
}

describe('the Health panel', () => {
  let host: HTMLElement;
  beforeEach(() => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const mount = async (d: HealthData | null, error: string | null = null) => {
    await act(() => render(h(HealthPanel, { data: d, error }), host));
  };
  const signal = (name: string) => host.querySelector<HTMLElement>(`[data-signal="${name}"]`)!;
  /** What a person reads: every piece of text, blocks apart (textContent runs "Errors" into the next line). */
  const text = (el: Element): string => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) parts.push(n.textContent ?? '');
    return parts.join(' ').replace(/\s+/g, ' ').trim();
  };

  it('shows the three signals side by side with their times when all is well', async () => {
    await mount(data());
    expect(text(host.querySelector('[role="status"]')!)).toBe('Overall: ok');
    expect(host.querySelector('h2')!.textContent).toBe('Health');

    expect(text(signal('errors'))).toBe(`Errors No failed page loads in the last 24 hours. Counted since ${at(NOW - DAY)}`);
    expect(host.querySelector('[data-testid="health-errors"]')).toBeNull();

    const coverage = signal('coverage');
    expect(coverage.dataset.state).toBe('ok');
    expect(text(coverage.querySelector('p')!)).toBe('Last page checked 1 h ago: 20 cards visible, 20 read, 20 in the page’s own data.');
    expect(text(coverage)).toContain(`Last audit: ${at(NOW - HOUR)}`);
    // Cards visible vs read vs network items: the last page, and both pages together.
    const rows = [...coverage.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map(text));
    expect(rows).toEqual([
      ['Cards visible', '20', '38'],
      ['Read', '20', '37'],
      ['In the page’s own data', '20', '20'],
      ['Pages read short', '—', '0'],
    ]);
    expect(text(coverage.querySelector('thead')!)).toBe('Last page All 2 pages (24 h)');

    const item = signal('staleness').querySelector('li')!;
    expect(item.dataset.staleness).toBe('fresh');
    expect(text(item)).toBe(
      `Search fresh Fresh Last new place 2 h ago. Last run 3 h ago; next ${at(NOW + 21 * HOUR)}. ` +
        `Last new place: ${at(NOW - 2 * HOUR)} · last successful run: ${at(NOW - 2 * HOUR)}`,
    );
  });

  it('lists each failed attempt: time, keyword, kind, the URL as text, HTTP status and outcome', async () => {
    const failure = (overrides: Partial<FailedAttempt>): FailedAttempt => ({
      sweepId: 's',
      at: NOW - 5 * MINUTE,
      cellId: 's/0/r0c0',
      keyword: 'cafe',
      url: 'https://www.google.com/maps/search/cafe/@37.56,126.97,16z',
      kind: 'http',
      httpStatus: 503,
      outcome: 'retry',
      message: 'The page answered HTTP 503.',
      ...overrides,
    });
    const errors = [
      failure({}),
      // A URL is page-derived: shown as text, never made a link.
      failure({ at: NOW - 40 * MINUTE, keyword: 'bakery', kind: 'timeout', httpStatus: null, outcome: 'quarantined', url: 'javascript:alert(1)' }),
    ];
    await mount(data({ errors }));
    expect(text(signal('errors'))).toBe(`Errors 2 errors in 24 h, the last 5 min ago. Counted since ${at(NOW - DAY)} · last error ${at(NOW - 5 * MINUTE)}`);
    const table = host.querySelector('[data-testid="health-errors"]')!;
    expect([...table.querySelectorAll('thead th')].map(text)).toEqual(['Time', 'Keyword', 'Kind', 'URL', 'HTTP status', 'Outcome']);
    expect([...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map(text))).toEqual([
      [`${at(NOW - 5 * MINUTE)} (5 min ago)`, 'cafe', 'HTTP 503', 'https://www.google.com/maps/search/cafe/@37.56,126.97,16z', '503', 'will be retried'],
      [`${at(NOW - 40 * MINUTE)} (40 min ago)`, 'bakery', 'Timed out', 'javascript:alert(1)', '—', 'set aside after repeated failures'],
    ]);
    expect(table.querySelector('a')).toBeNull();
  });

  it('puts "the map page changed" above everything, in the overall state and the coverage audit', async () => {
    await mount(data({ pageChanged: { sweepId: 's', at: NOW - 3 * HOUR, message: 'cards visible, none read' } }));
    expect(text(host.querySelector('[role="status"]')!)).toBe('Overall: the map page changed');
    expect(signal('coverage').dataset.state).toBe('page-changed');
    expect(text(signal('coverage').querySelector('p')!)).toBe(
      'The map page changed 3 h ago: cards are visible but cannot be read. The sweep stopped; nothing stored was changed.',
    );
  });

  it('flags a coverage shortfall with the count of pages read short', async () => {
    const coverage = summariseAudits([
      { at: NOW - HOUR, audit: audit({ cardsVisible: 20, extracted: 0, verdict: 'nothing-read', networkMatched: 0 }) },
      { at: NOW - 2 * HOUR, audit: audit() },
    ]);
    await mount(data({ coverage }));
    expect(signal('coverage').dataset.state).toBe('shortfall');
    expect(text(signal('coverage').querySelector('p')!)).toBe(
      'Last page checked 1 h ago: 20 cards visible, 0 read, 20 in the page’s own data. 1 of 2 pages were read short.',
    );
  });

  it('shows each saved search as fresh, quiet or needing a look with the reason, and missed runs', async () => {
    const old = { lastNewPlaceAt: NOW - 10 * DAY };
    const quiet = entry(search('quiet', old), { state: 'quiet', reason: null, candidate: true, quietForMs: 10 * DAY, auditAt: NOW - DAY });
    const look = entry(search('look', { lastNewPlaceAt: NOW - 9 * DAY }), {
      state: 'needs-a-look',
      reason: 'no-audit',
      candidate: true,
      quietForMs: 9 * DAY,
      auditAt: null,
    });
    // Closed for three days, then one catch-up run at start-up.
    const caughtUp = entry(
      search('caught-up'),
      { state: 'fresh', reason: null, candidate: false, quietForMs: 2 * HOUR, auditAt: null },
      {
        runs: [run({ trigger: 'catch-up', missed: 2, claimedAt: NOW - HOUR, previousRunAt: NOW - HOUR - 3 * DAY })],
      },
    );
    // Two scheduled times passed and no run yet.
    const overdue = entry(
      search('overdue', { lastRunAt: NOW - 2 * DAY - 3 * HOUR }),
      { state: 'fresh', reason: null, candidate: false, quietForMs: 2 * HOUR, auditAt: null },
      {
        due: { due: true, slot: NOW - 3 * HOUR, missed: 1, catchUp: true },
      },
    );
    await mount(data({ searches: [fresh, quiet, look, caughtUp, overdue] }));

    expect(text(host.querySelector('[role="status"]')!)).toBe('Overall: needs a look');
    const items = [...signal('staleness').querySelectorAll('li')];
    expect(items.map((li) => li.dataset.staleness)).toEqual(['fresh', 'quiet', 'needs-a-look', 'fresh', 'fresh']);
    const line = (i: number) => text(items[i]!);
    expect(line(1)).toContain('Search quiet Quiet Quiet: no new place for 10 days, and the latest check found the first results all stored already.');
    expect(line(1)).toContain(`Last new place: ${at(NOW - 10 * DAY)}`);
    expect(line(2)).toContain('Search look Needs a look Needs a look: no new place for 9 days, and no page check confirms it is really quiet.');
    expect(line(3)).toContain('Caught up at start-up: last run was 3 days ago, 2 runs missed.');
    expect(line(4)).toContain('Last run 2 days ago, 2 runs missed; one runs as soon as possible.');
  });

  it('says when there is nothing to watch, and when the store cannot be read', async () => {
    await mount(data({ searches: [], coverage: summariseAudits([]) }));
    expect(text(signal('staleness'))).toBe('Staleness No saved searches yet: save one below to have an area watched.');
    expect(text(signal('coverage'))).toBe('Coverage audit No page has been checked yet.');
    await mount(null, 'disk gone');
    expect(host.querySelector('[role="alert"]')!.textContent).toBe('The saved data could not be opened: disk gone');
  });

  it('re-reads the store every 5 seconds', async () => {
    const store: Store = await openStore({ factory: freshFactory(), name: 'health-poll' });
    function Probe() {
      const health = useHealth(store, () => NOW);
      return h(HealthPanel, { data: health.data, error: health.error });
    }
    vi.useFakeTimers({ toFake: ['setInterval'] });
    await act(() => render(h(Probe, {}), host));
    await vi.waitFor(() => expect(signal('staleness')).not.toBeNull());
    expect(signal('staleness').querySelectorAll('li')).toHaveLength(0);

    await createSavedSearch(store, searchInput({ name: 'Cafes near City Hall' }), 'cafes', NOW - HOUR);
    await act(() => void vi.advanceTimersByTime(4_999));
    expect(signal('staleness').querySelectorAll('li')).toHaveLength(0);
    await act(() => void vi.advanceTimersByTime(1));
    await vi.waitFor(() => expect(signal('staleness').querySelectorAll('li')).toHaveLength(1));
    expect(text(signal('staleness').querySelector('li')!)).toContain('Cafes near City Hall Fresh Recently saved.');
    store.close();
  });
});
