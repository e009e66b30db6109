import { StoreError, type Store } from '../store';
import type { Sweep } from '../domain/sweep';
import { diffPlaces, fieldsHash, trackedFields, type FoundPlace } from './changes';
import { dueRun, type TzOffset } from './slots';
import type { ChangeRecord, ChangeSummary, PlaceSnapshot, Run, RunError, SavedSearch } from '../domain/saved-search';

export type ClaimResult =
  | { claimed: true; run: Run; search: SavedSearch }
  | { claimed: false; reason: 'gone' | 'not-due' }
  /** The previous run is still collecting (or paused): the scheduled time waits for it. */
  | { claimed: false; reason: 'run-open'; openRun: Run };

/** The sweep a run creates. Fixed at the claim, so creating it twice fails instead of running twice. */
export function sweepIdOfRun(runId: string): string {
  return `run-${runId}`;
}

/** All of one saved search's runs in the bySavedSearch index. */
function runsOf(searchId: string): IDBKeyRange {
  return IDBKeyRange.bound([searchId], [searchId, []]);
}

/**
 * Take care of the scheduled time now due, if any: create the run ('starting') and move the
 * saved search's lastRunAt to `now`, in ONE transaction. After that commit, no restart can
 * claim the same time again (lastRunAt is past it), and the run's record says a sweep is owed.
 *
 * `manual` claims a run whatever the schedule says (the user's "run now"); it too moves
 * lastRunAt, so a scheduled time just before is not run again right after.
 */
export async function claimRun(store: Store, searchId: string, now: number, tz: TzOffset, manual = false): Promise<ClaimResult> {
  return store.transact(['savedSearches', 'runs', 'sweeps'], 'readwrite', async (tx): Promise<ClaimResult> => {
    const search = await tx.objectStore('savedSearches').get(searchId);
    if (!search) return { claimed: false, reason: 'gone' };
    const due = dueRun(search, now, tz);
    if (!manual && !due.due) return { claimed: false, reason: 'not-due' };

    const latest = await tx.objectStore('runs').index('bySavedSearch').openCursor(runsOf(searchId), 'prev');
    if (latest) {
      const open = latest.value;
      const sweep = open.status === 'running' ? await tx.objectStore('sweeps').get(open.sweepId) : undefined;
      if (open.status === 'starting' || (sweep && (sweep.status === 'running' || sweep.status === 'paused'))) {
        return { claimed: false, reason: 'run-open', openRun: open };
      }
    }

    const slot = manual ? null : due.slot;
    const id = manual ? `${searchId}@m${now.toString(36)}` : `${searchId}@${(slot as number).toString(36)}`;
    const run: Run = {
      id,
      savedSearchId: searchId,
      sweepId: sweepIdOfRun(id),
      trigger: manual ? 'manual' : due.catchUp ? 'catch-up' : 'schedule',
      slot,
      missed: manual ? 0 : due.missed,
      previousRunAt: search.lastRunAt,
      claimedAt: now,
      startedAt: null,
      finishedAt: null,
      status: 'starting',
      error: null,
      changes: null,
    };
    const next: SavedSearch = { ...search, lastRunAt: now };
    // add: a run for this scheduled time that exists already is never overwritten.
    await Promise.all([tx.objectStore('runs').add(run), tx.objectStore('savedSearches').put(next)]);
    return { claimed: true, run, search: next };
  });
}

/** The claimed run's sweep was created ('running'), or could not be ('not-started', with why). */
export async function markStarted(store: Store, runId: string, now: number, error: RunError | null): Promise<Run | undefined> {
  return store.transact(['runs'], 'readwrite', async (tx) => {
    const run = await tx.objectStore('runs').get(runId);
    if (run?.status !== 'starting') return run;
    const next: Run = error ? { ...run, status: 'not-started', error, finishedAt: now } : { ...run, status: 'running', startedAt: now };
    await tx.objectStore('runs').put(next);
    return next;
  });
}

/** Runs in a given state, oldest claim first. A user has tens of saved searches and a run a day each. */
export async function listRuns(store: Store, filter: { savedSearchId?: string; status?: Run['status'] } = {}): Promise<Run[]> {
  const runs = await store.transact(['runs'], 'readonly', (tx) =>
    filter.savedSearchId === undefined ? tx.objectStore('runs').getAll() : tx.objectStore('runs').index('bySavedSearch').getAll(runsOf(filter.savedSearchId)),
  );
  return runs.filter((r) => filter.status === undefined || r.status === filter.status).sort((a, b) => a.claimedAt - b.claimedAt || (a.id < b.id ? -1 : 1));
}

/** A run's change list in key order. */
export function listChanges(store: Store, runId: string): Promise<ChangeRecord[]> {
  return store.transact(['changes'], 'readonly', (tx) => tx.objectStore('changes').getAll(IDBKeyRange.bound([runId], [runId, []])));
}

const SETTLE_STORES = ['runs', 'sweeps', 'listings', 'placeSnapshots', 'changes', 'savedSearches'] as const;

/**
 * Close a running run whose sweep has ended, in ONE transaction: for a finished sweep, compare
 * what it found with what the saved search remembered, write the changes, the new memory, the
 * run's summary and the saved search's times together. A worker that dies half way leaves
 * nothing written, and the next call does it all again; a settled run is left alone.
 * Returns the run as it now is (still 'running' while its sweep runs or is paused).
 */
export async function settleRun(store: Store, runId: string, now: number): Promise<Run | undefined> {
  return store.transact([...SETTLE_STORES], 'readwrite', async (tx) => {
    const runs = tx.objectStore('runs');
    const run = await runs.get(runId);
    if (run?.status !== 'running') return run;
    const sweep = await tx.objectStore('sweeps').get(run.sweepId);
    const ended = endOf(sweep);
    if (ended === 'open') return run;
    if (ended !== 'finished') {
      const next: Run = { ...run, status: ended.status, error: ended.error, finishedAt: now };
      await runs.put(next);
      return next;
    }
    const finished = sweep as Sweep;
    const search = await tx.objectStore('savedSearches').get(run.savedSearchId);
    if (!search) {
      const next: Run = { ...run, status: 'failed', finishedAt: now, error: { code: 'saved-search-gone', message: 'The saved search was deleted.' } };
      await runs.put(next);
      return next;
    }

    const previous = new Map<string, PlaceSnapshot>();
    const snapshots = tx.objectStore('placeSnapshots');
    let snap = await snapshots.openCursor(IDBKeyRange.bound([search.id], [search.id, []]));
    while (snap) {
      previous.set(snap.value.key, snap.value);
      snap = await snap.continue();
    }
    const found: FoundPlace[] = [];
    let listing = await tx.objectStore('listings').index('byCollection').openCursor(run.sweepId);
    while (listing) {
      found.push({ key: listing.value.key, fields: trackedFields(listing.value) });
      listing = await listing.continue();
    }

    const diff = diffPlaces(previous, found);
    const baseline = search.lastSuccessfulRunAt === null;
    // Cells that failed for good were not searched, and a saturated cell lists only some of its
    // places (a different 120 each time): their places are not "gone", only unseen.
    const complete = finished.counters.cellsQuarantined === 0 && finished.counters.cellsSaturated === 0;
    const summary: ChangeSummary = {
      baseline,
      seen: found.length,
      added: baseline ? 0 : diff.added.length,
      gone: baseline || !complete ? 0 : diff.gone.length,
      changed: baseline ? 0 : diff.changed.length,
      complete,
    };

    const writes: Promise<unknown>[] = [];
    const remember = (p: FoundPlace) =>
      writes.push(snapshots.put({ savedSearchId: search.id, key: p.key, hash: fieldsHash(p.fields), fields: p.fields, runId: run.id, seenAt: now }));
    diff.added.forEach(remember);
    diff.changed.forEach(remember);
    // Unchanged places keep their snapshot (same hash); only the first run writes them all.
    if (complete) for (const g of diff.gone) writes.push(snapshots.delete([search.id, g.key]));
    if (!baseline) {
      const changes = tx.objectStore('changes');
      const row = (key: string, kind: ChangeRecord['kind'], fields: ChangeRecord['fields'], d: ChangeRecord['diff']): ChangeRecord => ({
        runId: run.id,
        savedSearchId: search.id,
        key,
        kind,
        fields,
        diff: d,
        at: now,
      });
      for (const a of diff.added) writes.push(changes.put(row(a.key, 'added', a.fields, [])));
      for (const c of diff.changed) writes.push(changes.put(row(c.key, 'changed', c.fields, c.diff)));
      if (complete) for (const g of diff.gone) writes.push(changes.put(row(g.key, 'gone', g.fields, [])));
    }
    const foundNew = baseline ? found.length > 0 : diff.added.length > 0;
    const next: Run = { ...run, status: 'finished', finishedAt: now, changes: summary };
    writes.push(runs.put(next));
    writes.push(
      tx.objectStore('savedSearches').put({
        ...search,
        lastSuccessfulRunAt: now,
        lastNewPlaceAt: foundNew ? now : search.lastNewPlaceAt,
      }),
    );
    await Promise.all(writes);
    return next;
  });
}

type Ending = 'open' | 'finished' | { status: 'stopped' | 'failed'; error: RunError | null };

function endOf(sweep: Sweep | undefined): Ending {
  if (!sweep) return { status: 'failed', error: { code: 'sweep-gone', message: 'The run’s sweep was deleted.' } };
  switch (sweep.status) {
    case 'running':
    case 'paused':
      return 'open';
    case 'finished':
      return 'finished';
    case 'stopped':
      return { status: 'stopped', error: null };
    case 'failed':
      return {
        status: 'failed',
        error: {
          code: sweep.problem?.kind === 'extractor' ? 'page-changed' : 'failed',
          message: sweep.problem?.message ?? 'The sweep failed.',
        },
      };
  }
}

/** Settle every running run whose sweep has ended. Returns the runs that changed state. */
export async function settleRuns(store: Store, now: number): Promise<Run[]> {
  const out: Run[] = [];
  for (const run of await listRuns(store, { status: 'running' })) {
    const next = await settleRun(store, run.id, now);
    if (next && next.status !== 'running') out.push(next);
  }
  return out;
}

export function isDuplicateSweep(e: unknown): boolean {
  return e instanceof StoreError && e.code === 'exists';
}
