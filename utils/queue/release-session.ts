import type { Store } from '../store';
import { releaseAllLeases } from './jobs';
import { CELL_JOBS } from './lease';

/**
 * After a browser restart, give back every lease the previous browser session held.
 *
 * A lease is only a time, so a cell whose worker died comes back on its own once the lease
 * runs out (cellTimeout + 30 s, about 90 s by default). After a worker restart that is the
 * right thing: another loop of this browser may still be on the cell. After a browser
 * restart nothing of the old session can still be working (its tabs, its service worker and
 * its content scripts are gone), so waiting out those leases only keeps Resume idle.
 *
 * Call it before any loop of the new session starts (the background does it in its start-up,
 * before `ensureDriving`): every 'leased' cell at that moment is the old session's.
 *
 * One transaction (utils/queue/jobs.ts releaseAllLeases): either every lease is released (and
 * logged) or none. No attempt is counted (the cell did nothing wrong) and a cell keeps its
 * attempts and backoff, so a fresh cell stays fresh and is leased first again.
 *
 * Returns how many cells were released.
 */
export function releaseSessionLeases(store: Store, now: number): Promise<number> {
  return releaseAllLeases(store, CELL_JOBS, now, (cell) => ({
    sweepId: cell.sweepId,
    at: now,
    kind: 'cell-released',
    cellId: cell.id,
    keyword: cell.keyword,
    message: 'Lease of the previous browser session given back after a browser restart',
  }));
}
