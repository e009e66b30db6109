import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { BROWSING, openStore, type Store } from '../utils/store';
import { pageHiddenKey } from '../utils/config/storage-keys';
import type { Cell, Sweep } from '../utils/domain/sweep';

export interface SweepView {
  store: Store | null;
  sweep: Sweep | null;
  quarantined: Cell[];
  /** The keyword a worker is searching now (from the leased cells); null between cells. */
  currentKeyword: string | null;
  /** The worker tab was in the background at its last page (the browser may slow it down). */
  pageHidden: boolean;
  /** Distinct places in the shown sweep's collection (some may have been stored earlier by another). */
  sweepPlaces: number | null;
  /** Places in the Browsing collection. */
  browsingCount: number | null;
  storeError: string | null;
}

/**
 * The sweep the popup shows (the running one, else the newest), re-read from the store every
 * second. The store is the single source of truth, so the popup works even while the service
 * worker is asleep, and never keeps its own copy of the sweep.
 */
const BROWSING_RECOUNT_MS = 10_000;

export function useLatestSweep(intervalMs = 1000): SweepView {
  const [view, setView] = useState<SweepView>({
    store: null,
    sweep: null,
    quarantined: [],
    currentKeyword: null,
    pageHidden: false,
    sweepPlaces: null,
    browsingCount: null,
    storeError: null,
  });
  useEffect(() => {
    let stopped = false;
    let store: Store | null = null;
    // Counting a collection walks its index (a third of a second at 100,000 places), so the
    // counts are not redone every second: the sweep's only when a commit changed the sweep,
    // the Browsing collection's at most every 10 s.
    let sweepCount: { id: string; updatedAt: number; places: number } | null = null;
    let browsing: { at: number; count: number } | null = null;
    async function tick() {
      try {
        store ??= await openStore();
        const sweeps = await store.listSweeps();
        const sweep = sweeps.find((s) => s.status === 'running') ?? [...sweeps].sort((a, b) => b.createdAt - a.createdAt)[0] ?? null;
        const quarantined = sweep && sweep.counters.cellsQuarantined > 0 ? await store.listCells(sweep.id, 'quarantined') : [];
        if (!browsing || Date.now() - browsing.at > BROWSING_RECOUNT_MS) {
          browsing = { at: Date.now(), count: await store.countListings(BROWSING) };
        }
        if (sweep && (sweepCount?.id !== sweep.id || sweepCount.updatedAt !== sweep.updatedAt)) {
          sweepCount = { id: sweep.id, updatedAt: sweep.updatedAt, places: await store.countListings(sweep.id) };
        }
        const browsingCount = browsing.count;
        const sweepPlaces = sweep ? sweepCount!.places : null;
        let currentKeyword: string | null = null;
        let pageHidden = false;
        if (sweep && (sweep.status === 'running' || sweep.status === 'paused')) {
          // Leased cells are the few being searched now (no read of every pending cell).
          const leased = await store.listCells(sweep.id, 'leased');
          currentKeyword = leased.sort((a, b) => a.keywordIndex - b.keywordIndex)[0]?.keyword ?? null;
          const key = pageHiddenKey(sweep.id);
          pageHidden = sweep.status === 'running' && (await browser.storage.session.get(key))[key] === true;
        }
        if (!stopped) setView({ store, sweep, quarantined, currentKeyword, pageHidden, sweepPlaces, browsingCount, storeError: null });
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
