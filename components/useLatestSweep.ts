import { useEffect, useState } from 'preact/hooks';
import { BROWSING, openStore, type Store } from '../utils/store';
import type { Cell, Sweep } from '../utils/sweep/types';

export interface SweepView {
  store: Store | null;
  sweep: Sweep | null;
  quarantined: Cell[];
  /** Places in the Browsing collection. */
  browsingCount: number | null;
  storeError: string | null;
}

/**
 * The sweep the popup shows (the running one, else the newest), re-read from the store every
 * second. The store is the single source of truth, so the popup works even while the service
 * worker is asleep, and never keeps its own copy of the sweep.
 */
export function useLatestSweep(intervalMs = 1000): SweepView {
  const [view, setView] = useState<SweepView>({ store: null, sweep: null, quarantined: [], browsingCount: null, storeError: null });
  useEffect(() => {
    let stopped = false;
    let store: Store | null = null;
    async function tick() {
      try {
        store ??= await openStore();
        const sweeps = await store.listSweeps();
        const sweep =
          sweeps.find((s) => s.status === 'running') ??
          [...sweeps].sort((a, b) => b.createdAt - a.createdAt)[0] ??
          null;
        const quarantined = sweep && sweep.counters.cellsQuarantined > 0 ? await store.listCells(sweep.id, 'quarantined') : [];
        const browsingCount = await store.countListings(BROWSING);
        if (!stopped) setView({ store, sweep, quarantined, browsingCount, storeError: null });
      } catch (e) {
        if (!stopped) setView((v) => ({ ...v, storeError: e instanceof Error ? e.message : String(e) }));
      }
    }
    void tick();
    const timer = setInterval(tick, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [intervalMs]);
  return view;
}
