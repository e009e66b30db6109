import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { leaseNextCell } from '../../utils/queue';
import { runsToPrune } from '../../utils/schedule/retention';
import { listChanges, listRuns } from '../../utils/schedule/runs';
import { createSavedSearch } from '../../utils/schedule/saved-searches';
import { createScheduler, SCHEDULE_ALARM } from '../../utils/schedule/scheduler';
import type { Run } from '../../utils/domain/saved-search';
import type { Store } from '../../utils/store';
import { DEFAULT_KEEP_RUNS, readKeepRuns } from '../../utils/config/storage-keys';
import { cafe, restartableStore, SEOUL, searchInput, seoul, sweepStarter } from './schedule-fixtures';
import { RESULT } from './store-fixtures';

/** The run's sweep finds one place of its own (cid = day) and ends. */
async function collectAndFinish(store: Store, day: number) {
  for (const sweep of await store.listSweeps()) {
    if (sweep.status !== 'running') continue;
    const cell = await leaseNextCell(store, { sweepId: sweep.id, holder: 'loop:1', now: seoul(day, 9, 1), leaseMs: 60_000 });
    await store.commitCell({
      sweepId: sweep.id,
      cellId: cell!.id,
      holder: 'loop:1',
      now: seoul(day, 9, 2),
      keyword: cell!.keyword,
      listings: [cafe(String(100 + day))],
      outcome: { status: 'done', result: RESULT },
    });
    await store.patchSweep(sweep.id, { status: 'finished' });
  }
}

describe('saved-search retention', () => {
  it('keeps the newest N runs when a run completes: older runs, their sweeps, changes and only-there places go', async () => {
    const { store } = await restartableStore();
    let clock = seoul(0, 8);
    const starter = sweepStarter(
      () => store,
      () => clock,
    );
    await createSavedSearch(store, searchInput(), 'ss1', clock);
    const scheduler = createScheduler({
      store,
      alarms: fakeBrowser.alarms,
      now: () => clock,
      tzOffset: SEOUL,
      startSweep: starter.startSweep,
      keepRuns: async () => 3,
    });
    for (let day = 0; day < 5; day++) {
      clock = seoul(day, 9);
      await scheduler.onAlarm({ name: SCHEDULE_ALARM });
      await collectAndFinish(store, day);
      clock = seoul(day, 10);
      await scheduler.onSweepEnded();
    }
    const runs = await listRuns(store, { savedSearchId: 'ss1' });
    expect(runs.map((r) => r.slot)).toEqual([seoul(2, 9), seoul(3, 9), seoul(4, 9)]);
    expect(runs.every((r) => r.status === 'finished')).toBe(true);
    expect((await store.listSweeps()).map((s) => s.id).sort()).toEqual(runs.map((r) => r.sweepId).sort());
    for (const old of starter.created.slice(0, 2)) expect(await store.getSweep(old)).toBeUndefined();
    // Places only the deleted runs found are gone; the kept runs' places and changes stay.
    expect(await store.getListing('google:100')).toBeUndefined();
    expect(await store.getListing('google:101')).toBeUndefined();
    expect(await store.getListing('google:104')).toBeDefined();
    expect((await listChanges(store, runs[2]!.id)).map((c) => [c.kind, c.key])).toEqual(
      [
        ['gone', 'google:103'],
        ['added', 'google:104'],
      ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    );
    const dayOneRun = starter.created[1]!.replace(/^run-/, '');
    expect(await listChanges(store, dayOneRun)).toEqual([]);
  });

  it('never deletes a run still collecting, nor one whose sweep the user resumed', () => {
    const run = (id: string, claimedAt: number, status: Run['status']): Run => ({
      id,
      savedSearchId: 'ss1',
      sweepId: `run-${id}`,
      trigger: 'schedule',
      slot: claimedAt,
      missed: 0,
      previousRunAt: null,
      claimedAt,
      startedAt: claimedAt,
      finishedAt: null,
      status,
      error: null,
      changes: null,
    });
    const runs = [run('a', 1, 'failed'), run('b', 2, 'finished'), run('c', 3, 'stopped'), run('d', 4, 'running'), run('e', 5, 'finished')];
    const paused = new Set(['run-a']);
    const prune = runsToPrune(runs, 1, (id) => (paused.has(id) ? 'paused' : 'finished'));
    expect(prune.map((r) => r.id)).toEqual(['c', 'b']);
    expect(runsToPrune(runs, 10, () => 'finished')).toEqual([]);
  });

  it('reads the setting defensively (default 10, at least 2)', () => {
    expect(readKeepRuns(undefined)).toBe(DEFAULT_KEEP_RUNS);
    expect(DEFAULT_KEEP_RUNS).toBe(10);
    expect(readKeepRuns(0)).toBe(2);
    expect(readKeepRuns(7.4)).toBe(7);
    expect(readKeepRuns('5')).toBe(10);
  });
});
