import type { IncompleteCoverage } from '../dashboard/incomplete';
import type { ChangeSummary, Run } from '../domain/saved-search';
import type { ErrorKind } from '../domain/sweep';
import type { AuditSummary } from '../domain/audit-page';
import type { HealthData, SavedSearchHealth } from './queries';
import type { StalenessState } from './staleness';
import { agoText, durationText, text, type Text } from '../i18n/text';
import type { FailedAttempt } from '../domain/page-audit';

/**
 * - 'page-changed': the extractor no longer reads the map page (a sweep stopped for it);
 * - 'needs-a-look': a saved search is silent without proof, or a scheduled run could not
 *   start, or a scheduled time passed with no run yet;
 * - 'ok': none of that. Retried errors alone do not change the state; they are counted.
 */
export type HealthState = 'ok' | 'needs-a-look' | 'page-changed';

export function healthState(data: HealthData): HealthState {
  if (data.pageChanged) return 'page-changed';
  return data.searches.some(searchNeedsALook) ? 'needs-a-look' : 'ok';
}

function searchNeedsALook(s: SavedSearchHealth): boolean {
  const latest = s.runs[0];
  return (
    s.staleness.state === 'needs-a-look' ||
    latest?.status === 'not-started' ||
    (latest?.status === 'failed' && latest.error?.code === 'page-changed') ||
    overdue(s)
  );
}

/** A scheduled time passed a while ago (not the minute the alarm is about to take care of). */
function overdue(s: SavedSearchHealth): boolean {
  return s.due.due && (s.due.catchUp || s.due.missed > 0);
}

/**
 * The popup's line: "Health: ok · last new place 2 h ago · 0 errors in 24 h". When the sweep
 * the popup shows has saturated cells, "ok" would be a lie about its completeness: the line
 * says instead how many cells could not be proven and how many places they hold, and is no
 * longer 'ok' (a page that changed still comes first, it stops everything).
 */
export function healthLine(data: HealthData, incomplete: IncompleteCoverage | null = null): { state: HealthState; text: Text } {
  let state = healthState(data);
  let stateText = text(`health_state_${state.replace(/-/g, '_')}`);
  if (incomplete && incomplete.saturated > 0 && state !== 'page-changed') {
    const gaps = incompleteText(incomplete);
    stateText = state === 'ok' ? gaps : text('healthStateAnd', stateText, gaps);
    state = 'needs-a-look';
  }
  return {
    state,
    text: text(
      'health_line',
      stateText,
      data.lastNewPlaceAt === null ? text('health_never') : agoText(data.now - data.lastNewPlaceAt),
      errorsText(data.errors.length),
    ),
  };
}

/** "3 cells saturated, 1 of them unresolved: 240 places found in them may be incomplete". */
export function incompleteText(c: IncompleteCoverage): Text {
  return c.unresolved > 0 ? text('incompleteUnresolved', c.saturated, c.unresolved, c.places) : text('incompleteSaturated', c.saturated, c.places);
}

function errorsText(n: number): Text {
  return n === 1 ? text('health_errors_one') : text('health_errors', n);
}

export interface ErrorRow {
  at: number;
  ago: Text;
  kind: ErrorKind;
  kindText: Text;
  httpStatus: number | null;
  cellId: string | null;
  keyword: string | null;
  url: string | null;
  outcomeText: Text;
  /** English detail from the driver, for the tooltip. */
  message: string;
}

export interface CoverageView {
  state: 'ok' | 'page-changed' | 'shortfall' | 'none';
  lastAt: number | null;
  /** "Last page checked 5 min ago: 20 cards, 20 read, 20 in the network data". */
  text: Text;
  summary: AuditSummary;
}

export interface RunView {
  id: string;
  at: number;
  trigger: Run['trigger'];
  status: Run['status'];
  statusText: Text;
  changes: ChangeSummary | null;
  changesText: Text | null;
}

export interface SavedSearchView {
  id: string;
  name: string;
  staleness: StalenessState;
  stalenessText: Text;
  lastNewPlaceAt: number | null;
  lastSuccessfulRunAt: number | null;
  lastRunAt: number | null;
  nextRunAt: number | null;
  /** Scheduled times skipped while the browser was closed: folded into the latest run, or overdue now. */
  missed: number;
  scheduleText: Text;
  runs: RunView[];
}

export interface HealthPanelView {
  state: HealthState;
  stateText: Text;
  errors: { count: number; since: number; lastAt: number | null; text: Text; rows: ErrorRow[] };
  coverage: CoverageView;
  searches: SavedSearchView[];
}

/** The dashboard's Health panel: the three signals with their times, then each saved search. */
export function healthPanel(data: HealthData): HealthPanelView {
  const state = healthState(data);
  const lastError = data.errors[0];
  return {
    state,
    stateText: text(`health_state_${state.replace(/-/g, '_')}`),
    errors: {
      count: data.errors.length,
      since: data.since,
      lastAt: lastError?.at ?? null,
      text:
        lastError === undefined ? text('health_errors_none') : text('health_errors_summary', errorsText(data.errors.length), agoText(data.now - lastError.at)),
      rows: data.errors.map((e) => errorRow(e, data.now)),
    },
    coverage: coverageView(data),
    searches: data.searches.map((s) => searchView(s, data.now)),
  };
}

function errorRow(e: FailedAttempt, now: number): ErrorRow {
  return {
    at: e.at,
    ago: agoText(now - e.at),
    kind: e.kind,
    kindText:
      e.kind !== 'http' ? text(`health_error_${e.kind}`) : e.httpStatus !== null ? text('health_error_http', e.httpStatus) : text('health_error_http_unknown'),
    httpStatus: e.httpStatus,
    cellId: e.cellId,
    keyword: e.keyword,
    url: e.url,
    outcomeText: text(`health_outcome_${e.outcome}`),
    message: e.message,
  };
}

function coverageView(data: HealthData): CoverageView {
  const s = data.coverage;
  if (data.pageChanged) {
    return { state: 'page-changed', lastAt: s.lastAt, summary: s, text: text('health_coverage_page_changed', agoText(data.now - data.pageChanged.at)) };
  }
  if (!s.last || s.lastAt === null) return { state: 'none', lastAt: null, summary: s, text: text('health_coverage_none') };
  const last = s.last;
  const network = last.networkItems === null ? text('health_network_none') : text('health_network_items', last.networkItems);
  const line = text('health_coverage_last', agoText(data.now - s.lastAt), last.cardsVisible, last.extracted, network);
  if (s.broken > 0 || s.networkShortfalls > 0) {
    return { state: 'shortfall', lastAt: s.lastAt, summary: s, text: text('health_coverage_shortfall', line, s.broken + s.networkShortfalls, s.pages) };
  }
  return { state: 'ok', lastAt: s.lastAt, summary: s, text: line };
}

function searchView(s: SavedSearchHealth, now: number): SavedSearchView {
  const latest = s.runs[0];
  const st = s.staleness;
  let stalenessText: Text;
  if (st.state === 'fresh')
    stalenessText = st.lastNewPlaceAt === null ? text('health_stale_fresh_new') : text('health_stale_fresh', agoText(now - st.lastNewPlaceAt));
  else if (st.state === 'quiet') stalenessText = text('health_stale_quiet', durationText(st.quietForMs));
  else stalenessText = text('health_stale_look', durationText(st.quietForMs), text(`health_look_${(st.reason ?? 'no-audit').replace(/-/g, '_')}`));

  // Missed times: overdue now (the scheduler has not caught up yet), else folded into the latest run.
  const missed = overdue(s) ? s.due.missed + 1 : (latest?.missed ?? 0);
  let scheduleText: Text;
  if (s.due.due && !overdue(s)) {
    scheduleText = text('health_schedule_starting');
  } else if (s.due.due) {
    scheduleText =
      s.search.lastRunAt === null ? text('health_schedule_overdue_first', missed) : text('health_schedule_overdue', agoText(now - s.search.lastRunAt), missed);
  } else if (latest && latest.trigger === 'catch-up' && latest.missed > 0 && latest.previousRunAt !== null) {
    scheduleText = text('health_schedule_caught_up', agoText(latest.claimedAt - latest.previousRunAt), latest.missed);
  } else if (latest) {
    scheduleText =
      s.nextRunAt === null
        ? text('health_schedule_last', agoText(now - latest.claimedAt))
        : text('health_schedule_last_next', agoText(now - latest.claimedAt), { at: s.nextRunAt });
  } else {
    scheduleText = s.nextRunAt === null ? text('health_schedule_never') : text('health_schedule_first', { at: s.nextRunAt });
  }

  return {
    id: s.search.id,
    name: s.search.name,
    staleness: st.state,
    stalenessText,
    lastNewPlaceAt: st.lastNewPlaceAt,
    lastSuccessfulRunAt: st.lastSuccessfulRunAt,
    lastRunAt: s.search.lastRunAt,
    nextRunAt: s.nextRunAt,
    missed,
    scheduleText,
    runs: s.runs.map(runView),
  };
}

function runView(r: Run): RunView {
  return {
    id: r.id,
    at: r.claimedAt,
    trigger: r.trigger,
    status: r.status,
    statusText: r.error ? text(`health_run_${r.status.replace(/-/g, '_')}_why`, r.error.message) : text(`health_run_${r.status.replace(/-/g, '_')}`),
    changes: r.changes,
    changesText: r.changes ? changesText(r.changes) : null,
  };
}

export function changesText(c: ChangeSummary): Text {
  if (c.baseline) return text('health_changes_baseline', c.seen);
  const line = text('health_changes', c.added, c.gone, c.changed);
  return c.complete ? line : text('health_changes_incomplete', line);
}
