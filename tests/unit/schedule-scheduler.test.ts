import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { loadHealth } from '../../utils/health/queries';
import { renderText } from '../../utils/i18n/text';
import { healthPanel } from '../../utils/health/view';
import { claimRun, listRuns, sweepIdOfRun } from '../../utils/schedule/runs';
import { createSavedSearch, getSavedSearch } from '../../utils/schedule/saved-searches';
import { createScheduler, SCHEDULE_ALARM, type StartOutcome } from '../../utils/schedule/scheduler';
import type { SavedSearch } from '../../utils/domain/saved-search';
import type { Store } from '../../utils/store';
import { MESSAGES } from '../../scripts/locales';
import { restartableStore, SEOUL, searchInput, seoul, sweepStarter } from './schedule-fixtures';

const en = (key: string, ...params: (string | number)[]) =>
  (MESSAGES[key]?.[0] ?? `«${key}»`).replace(/\$(\d)/g, (_, i: string) => String(params[Number(i) - 1]));
const time = (at: number) => new Date(at).toISOString();

/**
 * A "browser" whose worker can be restarted: each start opens the database afresh and makes a
 * new scheduler on it, as a new service worker would. Only the store carries anything over.
 */
async function world(firstRunAt: number | null = seoul(0, 9)) {
  const { store: first, reopen } = await restartableStore();
  let store: Store = first;
  let clock = seoul(0, 8);
  const starter = sweepStarter(
    () => store,
    () => clock,
  );
  const search = await createSavedSearch(first, searchInput(), 'ss1', seoul(0, 8));
  const boot = () => createScheduler({ store, alarms: fakeBrowser.alarms, now: () => clock, tzOffset: SEOUL, startSweep: starter.startSweep });
  let scheduler = boot();
  if (firstRunAt !== null) {
    clock = firstRunAt;
    await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    await finishSweeps(store);
    await scheduler.onSweepEnded();
  }
  return {
    search,
    starter,
    get store() {
      return store;
    },
    get scheduler() {
      return scheduler;
    },
    set clock(t: number) {
      clock = t;
    },
    /** The browser closes (the worker dies without warning) and starts again at `at`. */
    async restartAt(at: number) {
      store.close();
      clock = at;
      store = await reopen();
      scheduler = boot();
      return scheduler.onStartup();
    },
  };
}

/** Pretend the sweeps ran to the end (the driver is not what these tests are about). */
async function finishSweeps(store: Store) {
  for (const s of await store.listSweeps()) if (s.status === 'running') await store.patchSweep(s.id, { status: 'finished' });
}

describe('scheduled re-collection across worker restarts (fake time, same database)', () => {
  it('runs at the hour when the alarm fires, and arms the alarm for the next day', async () => {
    const w = await world(null);
    w.clock = seoul(0, 9);
    const report = await w.scheduler.onAlarm({ name: SCHEDULE_ALARM });
    expect(report?.started.map((r) => [r.trigger, r.slot, r.missed])).toEqual([['schedule', seoul(0, 9), 0]]);
    expect(w.starter.created).toEqual([sweepIdOfRun(`ss1@${seoul(0, 9).toString(36)}`)]);
    const alarm = await fakeBrowser.alarms.get(SCHEDULE_ALARM);
    expect(alarm?.scheduledTime).toBe(seoul(1, 9));
    // Another alarm (the watchdog) is not the scheduler's.
    expect(await w.scheduler.onAlarm({ name: 'watchdog' })).toBeNull();
  });

  it('closed over the scheduled hour → exactly one catch-up run at the next start-up', async () => {
    const w = await world();
    const report = await w.restartAt(seoul(1, 11));
    expect(report.started.map((r) => [r.trigger, r.slot, r.missed])).toEqual([['catch-up', seoul(1, 9), 0]]);
    expect(w.starter.created).toHaveLength(2);
    expect((await getSavedSearch(w.store, 'ss1'))?.lastRunAt).toBe(seoul(1, 11));
  });

  it('closed for three days → one run, and the Health panel reports 2 runs missed', async () => {
    const w = await world();
    const report = await w.restartAt(seoul(3, 10));
    expect(report.started).toHaveLength(1);
    expect(report.started[0]).toMatchObject({ trigger: 'catch-up', slot: seoul(3, 9), missed: 2, previousRunAt: seoul(0, 9) });
    expect(w.starter.created).toHaveLength(2);

    const panel = healthPanel(await loadHealth(w.store, seoul(3, 10), SEOUL));
    const row = panel.searches[0]!;
    expect(row.missed).toBe(2);
    expect(renderText(row.scheduleText, en, time)).toBe('Caught up at start-up: last run was 3 days ago, 2 runs missed.');
  });

  it('before the catch-up has run, the panel shows the overdue state (3 times missed so far)', async () => {
    const w = await world();
    const panel = healthPanel(await loadHealth(w.store, seoul(3, 10), SEOUL));
    expect(panel.state).toBe('needs-a-look');
    expect(renderText(panel.searches[0]!.scheduleText, en, time)).toBe('Last run 3 days ago, 3 runs missed; one runs as soon as possible.');
  });

  it('restarting twice in one day does not run twice', async () => {
    const w = await world();
    // Each run's sweep finishes quickly, so nothing but the stored lastRunAt stands in the way.
    const first = await w.restartAt(seoul(1, 10));
    await finishSweeps(w.store);
    const second = await w.restartAt(seoul(1, 14));
    await finishSweeps(w.store);
    const third = await w.restartAt(seoul(1, 23, 59));
    expect(first.started).toHaveLength(1);
    expect(second.started).toHaveLength(0);
    expect(third.started).toHaveLength(0);
    expect(w.starter.created).toHaveLength(2);
    // The next day is a new scheduled time.
    expect((await w.restartAt(seoul(2, 9, 30))).started).toHaveLength(1);
  });

  it('a start-up and an alarm arriving together start one run', async () => {
    const w = await world();
    w.clock = seoul(1, 9);
    const [a, b] = await Promise.all([w.scheduler.onStartup(), w.scheduler.onAlarm({ name: SCHEDULE_ALARM })]);
    expect(a.started.length + (b?.started.length ?? 0)).toBe(1);
    expect(w.starter.created).toHaveLength(2);
  });

  it('two scheduler instances on one database never claim the same time twice', async () => {
    const w = await world();
    const search = (await getSavedSearch(w.store, 'ss1')) as SavedSearch;
    const claims = await Promise.all(Array.from({ length: 5 }, () => claimRun(w.store, search.id, seoul(1, 9), SEOUL)));
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
  });

  it('a worker that dies between the claim and the sweep: the next start-up creates the sweep once', async () => {
    const w = await world();
    await claimRun(w.store, 'ss1', seoul(1, 9), SEOUL); // claimed, then the worker died
    const report = await w.restartAt(seoul(1, 9, 5));
    expect(report.started.map((r) => r.status)).toEqual(['running']);
    expect(w.starter.created).toHaveLength(2);
    expect((await w.restartAt(seoul(1, 10))).started).toHaveLength(0);
    expect(w.starter.created).toHaveLength(2);
  });

  it('a worker that dies after creating the sweep but before marking the start: not created again', async () => {
    const w = await world();
    const claim = await claimRun(w.store, 'ss1', seoul(1, 9), SEOUL);
    if (!claim.claimed) throw new Error('not claimed');
    await w.starter.startSweep(claim.search, claim.run.sweepId); // created, then the worker died
    const report = await w.restartAt(seoul(1, 9, 5));
    expect(report.started.map((r) => [r.id, r.status])).toEqual([[claim.run.id, 'running']]);
    expect(w.starter.created).toHaveLength(2);
    expect(await w.store.listSweeps()).toHaveLength(2);
  });

  it('a due time waits while the previous run is still collecting, then runs once', async () => {
    const w = await world();
    await w.restartAt(seoul(1, 9));
    // Day 1's sweep is still running (or paused) on day 2.
    const waiting = await w.restartAt(seoul(2, 9, 30));
    expect(waiting.started).toHaveLength(0);
    expect(waiting.waiting).toEqual(['ss1']);
    await finishSweeps(w.store);
    const after = await w.restartAt(seoul(2, 12));
    expect(after.settled.map((r) => r.status)).toEqual(['finished']);
    expect(after.started.map((r) => [r.trigger, r.slot, r.missed])).toEqual([['catch-up', seoul(2, 9), 0]]);
  });

  it('a refused start is recorded on the run, shown, and not retried as a new run', async () => {
    const { store } = await restartableStore();
    await createSavedSearch(store, searchInput(), 'ss1', seoul(0, 8));
    let calls = 0;
    const refuse = async (): Promise<StartOutcome> => {
      calls += 1;
      return { ok: false, error: { code: 'no-map-tab', message: 'Open Google Maps in a tab first.' } };
    };
    const scheduler = createScheduler({ store, alarms: fakeBrowser.alarms, now: () => seoul(0, 9, 1), tzOffset: SEOUL, startSweep: refuse });
    const report = await scheduler.onStartup();
    expect(report.notStarted.map((r) => r.error?.code)).toEqual(['no-map-tab']);
    expect((await scheduler.onStartup()).notStarted).toHaveLength(0);
    expect(calls).toBe(1);
    const panel = healthPanel(await loadHealth(store, seoul(0, 9, 2), SEOUL));
    expect(panel.state).toBe('needs-a-look');
    expect(renderText(panel.searches[0]!.runs[0]!.statusText, en, time)).toBe('Could not start: Open Google Maps in a tab first.');
  });

  it('keeps the last run time in the store: a new instance sees it', async () => {
    const w = await world();
    await w.restartAt(seoul(1, 9, 1));
    const runs = await listRuns(w.store, { savedSearchId: 'ss1' });
    expect(runs.map((r) => r.claimedAt)).toEqual([seoul(0, 9), seoul(1, 9, 1)]);
    expect((await getSavedSearch(w.store, 'ss1'))?.lastRunAt).toBe(seoul(1, 9, 1));
  });
});
