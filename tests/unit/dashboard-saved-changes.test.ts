// @vitest-environment happy-dom
import Papa from 'papaparse';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangesPanel } from '../../components/dashboard/ChangesPanel';
import { changesFileName, changesForDisplay } from '../../utils/dashboard/saved-search-changes';
import { summariseAudits } from '../../utils/domain/audit-page';
import type { HealthData, SavedSearchHealth } from '../../utils/health/queries';
import type { ChangeRecord, Run, SavedSearch, TrackedFields } from '../../utils/domain/saved-search';
import { openStore, type Store } from '../../utils/store';
import { DAY, HOUR } from './schedule-fixtures';
import { freshFactory } from './store-fixtures';
import { useEnglishMessages } from '../helpers/english-messages';

const NOW = Date.UTC(2026, 2, 20, 3, 0);
const fields = (name: string, overrides: Partial<TrackedFields> = {}): TrackedFields => ({
  name,
  phone: '02-111-1111',
  rating: 4.1,
  address: `${name} street`,
  ...overrides,
});

function change(runId: string, cid: string, kind: ChangeRecord['kind'], f: TrackedFields, diff: ChangeRecord['diff'] = []): ChangeRecord {
  return { runId, savedSearchId: 'cafes', key: `google:${cid}`, kind, fields: f, diff, at: NOW - HOUR };
}

// The second run of "cafes": 2 opened, 1 closed, 1 changed phone and rating.
const CHANGES: ChangeRecord[] = [
  change('r2', '10', 'gone', fields('Old Mill')),
  change('r2', '11', 'added', fields('Zest Cafe')),
  change('r2', '12', 'added', fields('Bean There')),
  change('r2', '13', 'changed', fields('Corner Cafe', { phone: '02-222-2222', rating: 4.3 }), [
    { field: 'phone', before: '02-111-1111', after: '02-222-2222' },
    { field: 'rating', before: 4.1, after: 4.3 },
  ]),
  // Another run's change must not appear.
  change('r1', '14', 'added', fields('Elsewhere')),
];

function run(id: string, overrides: Partial<Run>): Run {
  return {
    id,
    savedSearchId: 'cafes',
    sweepId: `run-${id}`,
    trigger: 'schedule',
    slot: null,
    missed: 0,
    previousRunAt: null,
    claimedAt: NOW - 2 * HOUR,
    startedAt: NOW - 2 * HOUR,
    finishedAt: NOW - HOUR,
    status: 'finished',
    error: null,
    changes: null,
    ...overrides,
  };
}

const RUNS: Run[] = [
  run('r3', { trigger: 'manual', claimedAt: NOW - 10 * 60_000, status: 'running', finishedAt: null }),
  run('r2', {
    trigger: 'catch-up',
    missed: 2,
    claimedAt: NOW - 2 * HOUR,
    changes: { baseline: false, seen: 40, added: 2, gone: 1, changed: 1, complete: true },
  }),
  run('r1', { claimedAt: NOW - 3 * DAY, changes: { baseline: true, seen: 39, added: 0, gone: 0, changed: 0, complete: true } }),
];

function health(searches: { id: string; name: string; runs: Run[] }[]): HealthData {
  return {
    now: NOW,
    since: NOW - DAY,
    errors: [],
    coverage: summariseAudits([]),
    pageChanged: null,
    lastNewPlaceAt: null,
    searches: searches.map(
      ({ id, name, runs }): SavedSearchHealth => ({
        search: {
          id,
          name,
          areaText: '',
          keywordsText: 'cafe',
          repeat: 'daily',
          hour: 9,
          weekday: 1,
          thresholdDays: 7,
          createdAt: 0,
          lastRunAt: null,
          lastSuccessfulRunAt: null,
          lastNewPlaceAt: null,
        } satisfies SavedSearch,
        runs,
        latestAudit: null,
        staleness: { state: 'fresh', reason: null, candidate: false, quietForMs: 0, lastNewPlaceAt: null, lastSuccessfulRunAt: null, auditAt: null },
        due: { due: false, slot: null, missed: 0, catchUp: false },
        nextRunAt: null,
      }),
    ),
  };
}

describe('changes for display', () => {
  it('lists new, then changed, then gone, each by name, at most the limit', () => {
    const { shown, total } = changesForDisplay(CHANGES.filter((c) => c.runId === 'r2'));
    expect(shown.map((c) => [c.kind, c.fields.name])).toEqual([
      ['added', 'Bean There'],
      ['added', 'Zest Cafe'],
      ['changed', 'Corner Cafe'],
      ['gone', 'Old Mill'],
    ]);
    expect(total).toBe(4);
    expect(changesForDisplay(CHANGES, 2)).toEqual({ shown: [CHANGES[2], CHANGES[4]], total: 5 });
  });

  it('names the export after the saved search and the day its run started', () => {
    expect(changesFileName('Cafes near City Hall', Date.UTC(2026, 2, 20, 3))).toBe('mapsweep_changes+Cafes-near-City-Hall_2026-03-20.csv');
  });
});

describe('the changes panel', () => {
  let host: HTMLElement;
  let store: Store;
  beforeEach(async () => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
    store = await openStore({ factory: freshFactory(), name: 'changes-test' });
    await store.transact(['changes'], 'readwrite', async (tx) => {
      for (const c of CHANGES) await tx.objectStore('changes').put(c);
    });
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    store.close();
    vi.restoreAllMocks();
  });

  /** Each cell's text; a list in a cell as its items joined with " | ". */
  const cells = (tr: Element) =>
    [...tr.children].map((c) => {
      const items = [...c.querySelectorAll('li')];
      return items.length > 0 ? items.map((li) => li.textContent).join(' | ') : c.textContent!.replace(/\s+/g, ' ').trim();
    });
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === name)!;
  const started = (at: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(at);

  it('shows each run with its trigger, start, status and summary; a run’s changes with before → after', async () => {
    const download = vi.fn();
    await act(() => render(h(ChangesPanel, { store, health: health([{ id: 'cafes', name: 'Cafes near City Hall', runs: RUNS }]), download }), host));
    const rows = [...host.querySelectorAll('[data-testid="runs"] tbody tr')].map((tr) => cells(tr).slice(0, 4));
    expect(rows).toEqual([
      [started(NOW - 10 * 60_000), 'Run now', 'Collecting', '—'],
      [started(NOW - 2 * HOUR), 'Catch-up at start-up', 'Finished', '2 new · 1 not seen any more · 1 changed'],
      [started(NOW - 3 * DAY), 'Schedule', 'Finished', 'First run: 39 places'],
    ]);
    // Only a run that changed something has changes to show or export.
    expect(button(`Show changes – ${started(NOW - 3 * DAY)}`).disabled).toBe(true);
    expect(button(`Export changes – ${started(NOW - 10 * 60_000)}`).disabled).toBe(true);

    const show = button(`Show changes – ${started(NOW - 2 * HOUR)}`);
    await act(() => show.click());
    await vi.waitFor(() => expect(host.querySelector('[data-testid="changes"]')).not.toBeNull());
    expect(show.getAttribute('aria-pressed')).toBe('true');
    expect([...host.querySelectorAll('[data-testid="changes"] tbody tr')].map(cells)).toEqual([
      ['New', 'Bean There', 'Bean There street', ''],
      ['New', 'Zest Cafe', 'Zest Cafe street', ''],
      ['Changed', 'Corner Cafe', 'Corner Cafe street', 'Phone: 02-111-1111 → 02-222-2222 | Rating: 4.1 → 4.3'],
      ['Not seen any more', 'Old Mill', 'Old Mill street', ''],
    ]);

    await act(async () => button(`Export changes – ${started(NOW - 2 * HOUR)}`).click());
    await vi.waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const [chunks, fileName, type] = download.mock.calls[0]!;
    expect(fileName).toBe('mapsweep_changes+Cafes-near-City-Hall_2026-03-20.csv');
    expect(type).toBe('text/csv;charset=utf-8');
    const csv = Papa.parse<Record<string, string>>((chunks as string[]).join('').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    // One row per new or gone place, one per changed field.
    expect(csv.data.map((r) => [r.change, r.name, r.field, r.before, r.after])).toEqual([
      ['gone', 'Old Mill', '', '', ''],
      ['added', 'Zest Cafe', '', '', ''],
      ['added', 'Bean There', '', '', ''],
      ['changed', 'Corner Cafe', 'phone', '02-111-1111', '02-222-2222'],
      ['changed', 'Corner Cafe', 'rating', '4.1', '4.3'],
    ]);
  });

  it('follows the saved search chosen, and says when there is nothing yet', async () => {
    const data = health([
      { id: 'cafes', name: 'Cafes', runs: RUNS },
      { id: 'bakeries', name: 'Bakeries', runs: [] },
    ]);
    await act(() => render(h(ChangesPanel, { store, health: data, download: vi.fn() }), host));
    expect(host.querySelectorAll('[data-testid="runs"] tbody tr')).toHaveLength(3);
    const select = host.querySelector('select')!;
    await act(() => {
      select.value = 'bakeries';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(host.querySelector('[data-testid="runs"]')).toBeNull();
    expect(host.textContent).toContain('No runs yet.');
    await act(() => render(h(ChangesPanel, { store, health: health([]), download: vi.fn() }), host));
    expect(host.textContent).toContain('Save a search to see what changes between its runs.');
  });
});
