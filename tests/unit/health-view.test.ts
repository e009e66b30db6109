import { describe, expect, it } from 'vitest';
import { auditObservation, summariseAudits } from '../../utils/domain/audit-page';
import type { HealthData, SavedSearchHealth } from '../../utils/health/queries';
import { staleness } from '../../utils/health/staleness';
import { agoText, renderText, type Text } from '../../utils/i18n/text';
import type { FailedAttempt, PageAudit } from '../../utils/domain/page-audit';
import { healthLine, healthPanel } from '../../utils/health/view';
import { dueRun, nextSlotAfter } from '../../utils/schedule/slots';
import type { Run, RunStatus, SavedSearch } from '../../utils/domain/saved-search';
import type { ErrorKind } from '../../utils/domain/sweep';
import { MESSAGES } from '../../scripts/locales';
import { cafe, DAY, HOUR, MINUTE, SEOUL, seoul } from './schedule-fixtures';

const lang =
  (i: 0 | 1) =>
  (key: string, ...params: (string | number)[]) =>
    (MESSAGES[key]?.[i] ?? `«${key}»`).replace(/\$(\d)/g, (_, n: string) => String(params[Number(n) - 1]));
const en = lang(0);
const ko = lang(1);
const time = (at: number) => new Date(at).toISOString();
const NOW = seoul(20, 12);

function search(id: string, overrides: Partial<SavedSearch> = {}): SavedSearch {
  return {
    id,
    name: id,
    areaText: '',
    keywordsText: '',
    repeat: 'daily',
    hour: 9,
    weekday: 0,
    thresholdDays: 7,
    createdAt: seoul(0, 8),
    lastRunAt: seoul(20, 9),
    lastSuccessfulRunAt: seoul(20, 10),
    lastNewPlaceAt: seoul(20, 10),
    ...overrides,
  };
}

function run(status: RunStatus, overrides: Partial<Run> = {}): Run {
  return {
    id: `r-${status}`,
    savedSearchId: 'x',
    sweepId: `run-r-${status}`,
    trigger: 'schedule',
    slot: seoul(20, 9),
    missed: 0,
    previousRunAt: seoul(19, 9),
    claimedAt: seoul(20, 9),
    startedAt: seoul(20, 9),
    finishedAt: null,
    status,
    error: null,
    changes: null,
    ...overrides,
  };
}

function health(s: SavedSearch, runs: Run[], audit: SavedSearchHealth['latestAudit'] = null): SavedSearchHealth {
  return {
    search: s,
    runs,
    latestAudit: audit,
    staleness: staleness({ search: s, latestAudit: audit }, NOW),
    due: dueRun(s, NOW, SEOUL),
    nextRunAt: nextSlotAfter(s, NOW, SEOUL),
  };
}

const KINDS: ErrorKind[] = ['timeout', 'http', 'navigation', 'blocked', 'consent', 'extractor', 'limited', 'internal'];
const OUTCOMES: FailedAttempt['outcome'][] = ['retry', 'quarantined', 'paused', 'stopped'];
const errors: FailedAttempt[] = KINDS.flatMap((kind, i) =>
  OUTCOMES.map((outcome, j) => ({
    sweepId: 's',
    at: NOW - (i * 4 + j + 1) * MINUTE,
    cellId: 's/0/r0c0',
    keyword: 'cafe',
    url: 'https://www.google.com/maps/search/cafe/',
    kind,
    httpStatus: kind === 'http' && j > 0 ? 503 : null,
    outcome,
    message: 'm',
  })),
);

const audit = {
  ...auditObservation({
    url: '',
    pageKind: 'results',
    cardsVisible: 2,
    listings: [cafe('1'), cafe('2')],
    networkItems: 2,
    networkKeys: ['google:1', 'google:2'],
    endOfList: true,
    capHit: false,
    finalView: null,
    elapsedMs: 0,
    stopReason: 'end',
    warnings: [],
  }),
  firstKnown: 2,
};

const page = (at: number, a: PageAudit) => ({ sweepId: 's', at, cellId: null, url: null, audit: a });

/** Data reaching every branch of the view: each run status, each staleness reason, each schedule text. */
function everything(pageChanged: boolean): HealthData {
  const old = { lastNewPlaceAt: seoul(1, 10) };
  return {
    now: NOW,
    since: NOW - DAY,
    errors,
    coverage: summariseAudits([
      { at: NOW - HOUR, audit },
      { at: NOW - 2 * HOUR, audit: { ...audit, verdict: 'shortfall' } },
    ]),
    pageChanged: pageChanged ? { sweepId: 's', at: NOW - 3 * HOUR, message: 'm' } : null,
    lastNewPlaceAt: NOW - 2 * HOUR,
    searches: [
      health(search('fresh'), [run('finished', { changes: { baseline: false, seen: 10, added: 2, gone: 1, changed: 3, complete: true } })]),
      health(search('fresh-new', { lastNewPlaceAt: null, createdAt: NOW - HOUR, lastRunAt: null, lastSuccessfulRunAt: null }), []),
      health(
        search('quiet', old),
        [run('finished', { changes: { baseline: true, seen: 10, added: 0, gone: 0, changed: 0, complete: true } })],
        page(NOW - DAY, audit),
      ),
      health(search('no-audit', old), [run('running')]),
      health(
        search('unconfirmed', old),
        [run('failed', { error: { code: 'page-changed', message: 'page changed' } })],
        page(NOW - DAY, { ...audit, firstKnown: 0 }),
      ),
      health(search('never', { ...old, lastSuccessfulRunAt: null }), [run('not-started', { error: { code: 'no-map-tab', message: 'no tab' } })]),
      health(search('caught-up'), [run('starting', { trigger: 'catch-up', missed: 2, previousRunAt: seoul(17, 9), claimedAt: seoul(20, 11) })]),
      health(search('overdue', { lastRunAt: seoul(17, 9) }), [
        run('stopped', { changes: { baseline: false, seen: 1, added: 0, gone: 0, changed: 0, complete: false } }),
      ]),
      health(search('overdue-first', { lastRunAt: null, createdAt: seoul(18, 8) }), []),
      health(search('off', { repeat: 'off' }), [run('failed', { trigger: 'manual', slot: null })]),
      health(search('off-never', { repeat: 'off', lastRunAt: null }), []),
      // 12:00 today is its hour and the alarm has not fired yet: starting, not overdue.
      health(search('due-now', { hour: 12 }), [run('finished')]),
    ],
  };
}

/** The other ends: one error or none, nothing audited, no network data, short silences. */
function sparse(): HealthData[] {
  const noNetwork = { ...audit, networkItems: null, networkMatched: null };
  const shortThreshold = (id: string, quietMs: number) => health(search(id, { thresholdDays: 0.01, lastNewPlaceAt: NOW - quietMs }), [run('not-started')]);
  return [
    { ...everything(false), errors: errors.slice(0, 1), lastNewPlaceAt: null, coverage: summariseAudits([]), searches: [] },
    {
      ...everything(false),
      errors: [],
      coverage: summariseAudits([{ at: NOW - 10_000, audit: noNetwork }]),
      searches: [shortThreshold('minutes', 30 * MINUTE), shortThreshold('hours', 5 * HOUR)],
    },
  ];
}

function texts(value: unknown, out: Text[] = []): Text[] {
  if (Array.isArray(value)) for (const v of value) texts(v, out);
  else if (value && typeof value === 'object') {
    if (typeof (value as Text).key === 'string' && !('sweepId' in value)) out.push(value as Text);
    for (const v of Object.values(value)) texts(v, out);
  }
  return out;
}

describe('health view models', () => {
  it('every text they produce exists in English and Korean with the placeholders it fills', () => {
    const data = [everything(false), everything(true), ...sparse()];
    const all = data.flatMap((d) => [...texts(healthPanel(d)), ...texts(healthLine(d))]);
    const keys = new Set(all.map((t) => t.key));
    // Every health string is reachable (none is dead), and the data above reaches them all.
    expect(Object.keys(MESSAGES).filter((k) => k.startsWith('health_') && !keys.has(k))).toEqual([]);
    for (const t of all) {
      const entry = MESSAGES[t.key];
      expect(entry, t.key).toBeDefined();
      for (const message of entry!) {
        const used = [...message.matchAll(/\$(\d)/g)].map((m) => Number(m[1]));
        expect(Math.max(0, ...used), `${t.key}: ${message}`).toBe((t.params ?? []).length);
      }
      expect(renderText(t, ko, time)).not.toMatch(/«|\$\d/);
    }
  });

  it('renders the popup line and the panel in plain English', () => {
    const data = everything(false);
    expect(renderText(healthLine(data).text, en, time)).toBe('Health: needs a look · last new place 2 h ago · 32 errors in 24 h');
    const panel = healthPanel(data);
    const byId = Object.fromEntries(panel.searches.map((s) => [s.id, s]));
    const r = (t: Text) => renderText(t, en, time);
    expect(r(panel.errors.text)).toBe('32 errors in 24 h, the last 1 min ago.');
    expect(panel.errors.rows.map((row) => r(row.kindText))).toContain('HTTP 503');
    expect(r(panel.coverage.text)).toBe('Last page checked 1 h ago: 2 cards visible, 2 read, 2 in the page’s own data. 1 of 2 pages were read short.');
    expect(r(byId.fresh!.runs[0]!.changesText!)).toBe('2 new · 1 not seen any more · 3 changed');
    expect(r(byId.quiet!.stalenessText)).toBe('Quiet: no new place for 19 days, and the latest check found the first results all stored already.');
    expect(r(byId.unconfirmed!.stalenessText)).toBe('Needs a look: no new place for 19 days, and the latest page check could not confirm it.');
    expect(r(byId['caught-up']!.scheduleText)).toBe('Caught up at start-up: last run was 3 days ago, 2 runs missed.');
    expect(byId['caught-up']!.missed).toBe(2);
    expect(r(byId.overdue!.scheduleText)).toBe('Last run 3 days ago, 3 runs missed; one runs as soon as possible.');
    expect(r(byId['overdue-first']!.scheduleText)).toBe('3 scheduled runs missed; one runs as soon as possible.');
    expect(r(byId.overdue!.runs[0]!.changesText!)).toBe('0 new · 0 not seen any more · 0 changed (some cells failed, so places there are not counted as gone)');
    expect(r(byId.never!.runs[0]!.statusText)).toBe('Could not start: no tab');
    expect(r(byId['off-never']!.scheduleText)).toBe('Not scheduled.');
    expect(r(byId['due-now']!.scheduleText)).toBe('A scheduled run is starting.');
    expect(byId['due-now']!.missed).toBe(0);
  });

  it('says "ok" when nothing needs the user, and "the map page changed" above everything', () => {
    const quietOnly: HealthData = { ...everything(false), errors: [], searches: [everything(false).searches[0]!] };
    expect(renderText(healthLine(quietOnly).text, en, time)).toBe('Health: ok · last new place 2 h ago · 0 errors in 24 h');
    expect(healthLine(everything(true)).state).toBe('page-changed');
  });

  it('says how long ago in the unit a person would use', () => {
    const r = (ms: number) => renderText(agoText(ms), en, time);
    expect([r(30_000), r(5 * MINUTE), r(2 * HOUR), r(47 * HOUR), r(3 * DAY + HOUR)]).toEqual(['just now', '5 min ago', '2 h ago', '47 h ago', '3 days ago']);
  });
});
