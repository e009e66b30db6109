import type { Store } from '../store';
import type { Sweep } from '../domain/sweep';
import { listRuns } from './runs';
import type { Run } from '../domain/saved-search';

/**
 * Housekeeping for saved searches: keep the newest `keep` runs of each, delete the rest.
 *
 * Deleting a run deletes its sweep (cells, log, and the run's collection on each listing; a
 * listing found by no other collection goes with it) and its change list. The saved search's
 * memory of places (placeSnapshots) is not per run and is untouched, so the next run still
 * compares with the last one.
 */

/** Runs that may be deleted: every run but the newest `keep`, and never one still collecting. */
export function runsToPrune(runs: readonly Run[], keep: number, sweepStatus: (sweepId: string) => Sweep['status'] | undefined): Run[] {
  const newestFirst = [...runs].sort((a, b) => b.claimedAt - a.claimedAt || (a.id < b.id ? 1 : -1));
  return newestFirst.slice(Math.max(1, keep)).filter((run) => {
    if (run.status === 'starting' || run.status === 'running') return false;
    // A failed run's sweep can be resumed by the user: while it runs or waits, it stays.
    const status = sweepStatus(run.sweepId);
    return status !== 'running' && status !== 'paused';
  });
}

/**
 * Delete the runs of `savedSearchId` beyond the newest `keep`. Per run, the sweep goes first
 * (its own transaction, store.deleteSweep), then the run and its changes together: a worker
 * that dies in between leaves a run whose sweep is gone, which the next prune deletes.
 * Returns how many runs were deleted.
 */
export async function pruneRuns(store: Store, savedSearchId: string, keep: number): Promise<number> {
  const runs = await listRuns(store, { savedSearchId });
  if (runs.length <= keep) return 0;
  const statuses = new Map<string, Sweep['status']>();
  for (const run of runs) {
    const sweep = await store.getSweep(run.sweepId);
    if (sweep) statuses.set(run.sweepId, sweep.status);
  }
  let deleted = 0;
  for (const run of runsToPrune(runs, keep, (id) => statuses.get(id))) {
    // Looked at again just before: the user may have resumed it meanwhile.
    const sweep = await store.getSweep(run.sweepId);
    if (sweep && (sweep.status === 'running' || sweep.status === 'paused')) continue;
    if (sweep) await store.deleteSweep(run.sweepId);
    await store.transact(['runs', 'changes'], 'readwrite', async (tx) => {
      const changes = tx.objectStore('changes');
      const keys = await changes.getAllKeys(IDBKeyRange.bound([run.id], [run.id, []]));
      await Promise.all([...keys.map((k) => changes.delete(k)), tx.objectStore('runs').delete(run.id)]);
    });
    deleted += 1;
  }
  return deleted;
}
