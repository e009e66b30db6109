/**
 * The leases this browser holds in the team's database (utils/team/lease.ts), kept alive while
 * the cell's local lease runs: a heartbeat per held cell, every third of the lease. A cell
 * given back here, or whose loop died, is left to run out there.
 */
import type { Cell } from '../domain/sweep';
import type { Store } from '../store';
import type { Couch } from './couch';
import type { CellDoc } from './docs';
import { renewCell } from './lease';

/** A cell this browser holds in the database: its newest document and the loop that holds it. */
export interface Held {
  doc: CellDoc;
  holder: string;
  heartbeat: unknown;
}

export interface Heartbeats {
  start(couch: Couch, cell: Cell, holder: string, doc: CellDoc, leaseMs: number): void;
  /** Stops a cell's heartbeat; what was held (its newest document), if anything. */
  stop(cellId: string): Held | undefined;
}

export function createHeartbeats(deps: {
  store: Pick<Store, 'getCell'>;
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}): Heartbeats {
  const held = new Map<string, Held>();

  function stop(cellId: string): Held | undefined {
    const h = held.get(cellId);
    if (h) deps.clearInterval(h.heartbeat);
    held.delete(cellId);
    return h;
  }

  function start(couch: Couch, cell: Cell, holder: string, doc: CellDoc, leaseMs: number) {
    const entry: Held = { doc, holder, heartbeat: null };
    let busy = false;
    entry.heartbeat = deps.setInterval(
      () => {
        if (busy) return;
        busy = true;
        void (async () => {
          const local = await deps.store.getCell(cell.id);
          if (held.get(cell.id) !== entry) return;
          if (local?.status === 'leased' && local.leaseHolder === holder && local.leaseUntil > deps.now()) {
            const renewed = await renewCell(couch, entry.doc, deps.now(), leaseMs);
            if (renewed.kind === 'mine') entry.doc = renewed.doc;
            else stop(cell.id);
          } else if (!local || local.status === 'pending' || local.status === 'quarantined' || local.status === 'leased') {
            // Gone (the sweep deleted), or no longer this loop's here (its local lease ran out: the loop died).
            // Given back here too (a pause, a failed visit, a search to do again at once): the lease is
            // left to run out rather than given back, so that this browser, which takes it again at
            // once in most of these cases, is not beaten to a cell it had begun.
            stop(cell.id);
          }
          // Settled here: `settled` writes the result with this lease; nothing to do.
        })()
          .catch(() => {
            // The database away: the lease runs out on its own, and the result waits in the outbox.
          })
          .finally(() => (busy = false));
      },
      Math.max(1000, Math.floor(leaseMs / 3)),
    );
    held.set(cell.id, entry);
  }

  return { start, stop };
}
