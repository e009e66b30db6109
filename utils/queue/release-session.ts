import { fromRecord, handled, withQueueKey, type Store } from '../store';

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
 * One readwrite transaction over cells and events: either every lease is released (and
 * logged) or none. No attempt is counted (the cell did nothing wrong) and a cell keeps its
 * attempts and backoff, so a fresh cell stays fresh and is leased first again.
 *
 * Returns how many cells were released.
 */
export async function releaseSessionLeases(store: Store, now: number): Promise<number> {
  return store.transact(['sweeps', 'cells', 'events'], 'readwrite', async (tx) => {
    const cells = tx.objectStore('cells');
    const writes: Promise<unknown>[] = [];
    let released = 0;
    for (const sweepId of await tx.objectStore('sweeps').getAllKeys()) {
      // The status index reads exactly the leased cells: at most the old session's workers.
      for (const record of await cells.index('bySweepStatus').getAll([sweepId, 'leased'])) {
        const cell = fromRecord(record);
        writes.push(handled(cells.put(withQueueKey({ ...cell, status: 'pending', leaseHolder: null, leaseUntil: 0 }))));
        writes.push(
          handled(
            tx.objectStore('events').add({
              sweepId,
              at: now,
              kind: 'cell-released',
              cellId: cell.id,
              keyword: cell.keyword,
              message: 'Lease of the previous browser session given back after a browser restart',
            }),
          ),
        );
        released += 1;
      }
    }
    await Promise.all(writes);
    return released;
  });
}
