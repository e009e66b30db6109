import type { WxtBrowser as Browser } from 'wxt/browser';
import type { Store } from '../store';
import { claimRun, isDuplicateSweep, listRuns, markStarted, settleRuns, type ClaimResult } from './runs';
import { readKeepRuns } from '../config/storage-keys';
import { pruneRuns } from './retention';
import { listSavedSearches } from './saved-searches';
import { nextSlotAfter, type TzOffset } from './slots';
import type { Run, RunError, SavedSearch } from '../domain/saved-search';

export const SCHEDULE_ALARM = 'mapsweep-schedule';
/** Besides the alarm at the next scheduled time, a tick this often catches what a lost alarm would miss. */
const SAFETY_TICK_MINUTES = 60;

export type StartOutcome = { ok: true } | { ok: false; error: RunError };

export interface SchedulerDeps {
  store: Store;
  alarms: Pick<Browser['alarms'], 'create' | 'clear'>;
  now(): number;
  /** Minutes east of UTC at an instant: `(at) => -new Date(at).getTimezoneOffset()` in the browser. */
  tzOffset: TzOffset;
  /**
   * Create (and set driving) the sweep of a run, with exactly this id. Creating a sweep whose
   * id exists must fail (the store's createSweep does, with StoreError 'exists'): that is how a
   * restart that repeats a start is told apart from a new one.
   */
  startSweep(search: SavedSearch, sweepId: string): Promise<StartOutcome>;
  /** How many runs of each saved search to keep (the options page's setting); DEFAULT_KEEP_RUNS when absent. */
  keepRuns?(): Promise<number>;
}

/** What a tick did, for logs and tests. */
export interface TickReport {
  started: Run[];
  /** Runs claimed but refused by startSweep (no map tab, bad area…). */
  notStarted: Run[];
  /** Saved searches due whose previous run is still open. */
  waiting: string[];
  /** Runs that ended since the last tick (changes recorded). */
  settled: Run[];
  nextAlarmAt: number | null;
}

/**
 * Scheduled re-collection. All state is in the store: a saved search's lastRunAt and its runs.
 * The scheduler may be created afresh on every service-worker start; calls on one instance run
 * one after another, so a start-up and an alarm arriving together cannot interleave.
 *
 * On each tick: settle runs whose sweep ended, finish starts a dead worker left half done,
 * claim and start the runs now due (one per saved search, however many scheduled times
 * passed while the browser was closed), and set the alarm for the next scheduled time.
 */
export function createScheduler(deps: SchedulerDeps) {
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };

  async function start(run: Run, search: SavedSearch): Promise<Run> {
    let error: RunError | null = null;
    try {
      const outcome = await deps.startSweep(search, run.sweepId);
      if (!outcome.ok) error = outcome.error;
    } catch (e) {
      // The sweep exists: an earlier start got that far before its worker died.
      if (!isDuplicateSweep(e)) error = { code: 'internal', message: e instanceof Error ? e.message : String(e) };
    }
    return (await markStarted(deps.store, run.id, deps.now(), error)) ?? run;
  }

  /** Runs left 'starting' by a worker that died between the claim and marking the start. */
  async function finishStarts(searches: ReadonlyMap<string, SavedSearch>, report: TickReport): Promise<void> {
    for (const run of await listRuns(deps.store, { status: 'starting' })) {
      const search = searches.get(run.savedSearchId);
      if (!search) continue;
      const exists = (await deps.store.getSweep(run.sweepId)) !== undefined;
      const next = exists ? ((await markStarted(deps.store, run.id, deps.now(), null)) ?? run) : await start(run, search);
      (next.status === 'not-started' ? report.notStarted : report.started).push(next);
    }
  }

  async function armAlarm(searches: readonly SavedSearch[], now: number): Promise<number | null> {
    const next = searches
      .map((s) => nextSlotAfter(s, now, deps.tzOffset))
      .filter((t): t is number => t !== null)
      .reduce<number | null>((min, t) => (min === null || t < min ? t : min), null);
    if (next === null) await deps.alarms.clear(SCHEDULE_ALARM);
    else await deps.alarms.create(SCHEDULE_ALARM, { when: next, periodInMinutes: SAFETY_TICK_MINUTES });
    return next;
  }

  /**
   * Settle runs whose sweep ended, then apply the retention setting to their saved searches:
   * the store grows with the number of saved searches, not with months of runs.
   */
  async function settleAndPrune(): Promise<Run[]> {
    const settled = await settleRuns(deps.store, deps.now());
    if (settled.length === 0) return settled;
    const keep = readKeepRuns(deps.keepRuns ? await deps.keepRuns().catch(() => undefined) : undefined);
    for (const id of new Set(settled.map((r) => r.savedSearchId))) await pruneRuns(deps.store, id, keep);
    return settled;
  }

  async function tick(): Promise<TickReport> {
    const report: TickReport = { started: [], notStarted: [], waiting: [], settled: [], nextAlarmAt: null };
    report.settled = await settleAndPrune();
    const searches = await listSavedSearches(deps.store);
    await finishStarts(new Map(searches.map((s) => [s.id, s])), report);
    for (const search of searches) {
      const claim: ClaimResult = await claimRun(deps.store, search.id, deps.now(), deps.tzOffset);
      if (claim.claimed) {
        const run = await start(claim.run, claim.search);
        (run.status === 'not-started' ? report.notStarted : report.started).push(run);
      } else if (claim.reason === 'run-open') {
        report.waiting.push(search.id);
      }
    }
    report.nextAlarmAt = await armAlarm(searches, deps.now());
    return report;
  }

  return {
    /** Every service-worker start (browser start-up or a worker restarted after idling). */
    onStartup: () => serial(tick),
    /** Wire to alarms.onAlarm; other alarms are ignored. */
    onAlarm: (alarm: { name: string }): Promise<TickReport | null> => (alarm.name === SCHEDULE_ALARM ? serial(tick) : Promise.resolve(null)),
    /** A sweep ended (finished, stopped, failed): record its run's changes now rather than at the next tick. */
    onSweepEnded: () => serial(settleAndPrune),
    /** The user's "run now": a run whatever the schedule, unless one is still open. */
    runNow: (searchId: string) =>
      serial(async (): Promise<ClaimResult | { claimed: true; run: Run }> => {
        const claim = await claimRun(deps.store, searchId, deps.now(), deps.tzOffset, true);
        if (!claim.claimed) return claim;
        return { claimed: true, run: await start(claim.run, claim.search) };
      }),
    /** After a saved search is created or its schedule changed: the alarm follows. */
    rearm: () => serial(async () => armAlarm(await listSavedSearches(deps.store), deps.now())),
    tick: () => serial(tick),
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
