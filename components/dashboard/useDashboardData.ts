import { useEffect, useRef, useState } from 'preact/hooks';
import { summarise, reloadDue, type CollectionSummary } from '../../utils/dashboard/collections';
import { toRow, type ListingRow } from '../../utils/dashboard/rows';
import { BROWSING, openStore, type Store } from '../../utils/store';
import type { Cell, Sweep } from '../../utils/domain/sweep';
import { allLists, listFailures, listProgress } from '../../utils/lists';

/** How often the dashboard re-reads the store: the store is the single source of truth, as for the popup. */
export const POLL_MS = 2000;
/** Listings per read transaction when loading a collection into the table. */
const BATCH = 2000;
/** While the first load runs, the table grows at most this often (each growth re-renders it). */
const PROGRESS_MS = 250;

export interface CollectionsView {
  store: Store | null;
  sweeps: Sweep[] | null;
  collections: CollectionSummary[];
  /** Listings in the whole store (a place in several collections counts once). */
  totalPlaces: number;
  /** Counts polls, so dependants can re-check the store on every poll. */
  tick: number;
  error: string | null;
  /** Poll now (after a delete, say) instead of waiting for the next tick. */
  refresh(): void;
}

/** Every sweep and the Browsing collection with their place counts, re-read every `intervalMs`. */
export function useCollections(intervalMs = POLL_MS, open: () => Promise<Store> = openStore): CollectionsView {
  const [state, setState] = useState<Omit<CollectionsView, 'refresh'>>({ store: null, sweeps: null, collections: [], totalPlaces: 0, tick: 0, error: null });
  const poll = useRef<() => void>(() => {});
  useEffect(() => {
    let stopped = false;
    let busy = false;
    let store: Store | null = null;
    async function tick() {
      // A slow store (a big delete in progress) must not pile up overlapping reads.
      if (busy) return;
      busy = true;
      try {
        store ??= await open();
        const s = store;
        const sweeps = await s.listSweeps();
        const lists = await allLists(s);
        const ids = [...sweeps.map((w) => w.id), ...lists.map((l) => l.id), BROWSING];
        const [totalPlaces, ...counts] = await Promise.all([s.countListings(), ...ids.map((id) => s.countListings(id))]);
        const places = new Map(ids.map((id, i) => [id, counts[i] ?? 0]));
        const progress = new Map(await Promise.all(lists.map(async (l) => [l.id, await listProgress(s, l)] as const)));
        // What failed, and why, for the lists that have failures (their rows show them).
        const failures = new Map(
          await Promise.all(lists.filter((l) => (progress.get(l.id)?.failed ?? 0) > 0).map(async (l) => [l.id, await listFailures(s, l)] as const)),
        );
        if (!stopped) {
          setState((v) => ({
            store: s,
            sweeps,
            collections: summarise(sweeps, places, lists, progress, failures),
            totalPlaces: totalPlaces ?? 0,
            tick: v.tick + 1,
            error: null,
          }));
        }
      } catch (e) {
        if (!stopped) setState((v) => ({ ...v, error: messageOf(e) }));
      } finally {
        busy = false;
      }
    }
    poll.current = () => void tick();
    void tick();
    const timer = setInterval(tick, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [intervalMs, open]);
  return { ...state, refresh: () => poll.current() };
}

export interface CellsView {
  sweepId: string | null;
  cells: Cell[];
  error: string | null;
}

/** A sweep's cells, re-read every `intervalMs` while it runs and whenever its record changes. */
export function useSweepCells(store: Store | null, sweep: Sweep | null, intervalMs = POLL_MS): CellsView {
  const [view, setView] = useState<CellsView>({ sweepId: null, cells: [], error: null });
  const sweepId = sweep?.id ?? null;
  const running = sweep?.status === 'running';
  const updatedAt = sweep?.updatedAt ?? 0;
  useEffect(() => {
    if (!store || !sweepId) {
      setView({ sweepId: null, cells: [], error: null });
      return;
    }
    let stopped = false;
    const load = async () => {
      try {
        // Audit cells re-search done ground at an offset: they overlap the tiling, so the map leaves them out.
        const cells = (await store.listCells(sweepId)).filter((c) => c.role !== 'audit');
        if (!stopped) setView({ sweepId, cells, error: null });
      } catch (e) {
        if (!stopped) setView((v) => ({ ...v, error: messageOf(e) }));
      }
    };
    void load();
    const timer = running ? setInterval(load, intervalMs) : undefined;
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [store, sweepId, running, updatedAt, intervalMs]);
  return view.sweepId === sweepId ? view : { sweepId, cells: [], error: null };
}

export interface RowsView {
  collectionId: string | null;
  /** Grows in place during the first load; `loaded` says how far (and changes with it). */
  rows: ListingRow[];
  loaded: number;
  /** The first load of this collection is still running. */
  loading: boolean;
  /** Places the collection had when the load started, for the progress text. */
  expected: number;
  error: string | null;
}

interface LoadJob {
  collectionId: string;
  running: boolean;
  startedAt: number;
  durationMs: number;
  /** The collection's count when the load started: a different count later means new places. */
  count: number;
}

/**
 * The selected collection's places as compact rows, read in batches. The first load shows
 * rows as they arrive; later loads (the count changed: a sweep is running) are read aside and
 * swapped in whole, paced by `reloadDue` so a big collection is not re-read every poll.
 */
export function useCollectionRows(store: Store | null, collectionId: string | null, places: number, totalPlaces: number, tick: number): RowsView {
  const [view, setView] = useState<RowsView>({ collectionId: null, rows: [], loaded: 0, loading: false, expected: 0, error: null });
  const job = useRef<LoadJob | null>(null);
  useEffect(() => {
    if (!store || !collectionId) return;
    const current = job.current;
    const first = current?.collectionId !== collectionId;
    if (!first) {
      if (current.running || current.count === places) return;
      if (!reloadDue(Date.now(), current.startedAt, current.durationMs)) return;
    }
    const me: LoadJob = { collectionId, running: true, startedAt: Date.now(), durationMs: 0, count: places };
    job.current = me;
    const rows: ListingRow[] = [];
    if (first) setView({ collectionId, rows, loaded: 0, loading: true, expected: places, error: null });
    void (async () => {
      let shownAt = 0; // the first batch shows at once
      try {
        for await (const batch of store.iterateListings(BATCH, collectionId)) {
          if (job.current !== me) return;
          for (const listing of batch) rows.push(toRow(listing));
          if (first && Date.now() - shownAt >= PROGRESS_MS) {
            shownAt = Date.now();
            setView((v) => ({ ...v, loaded: rows.length }));
          }
        }
        if (job.current === me) setView({ collectionId, rows, loaded: rows.length, loading: false, expected: rows.length, error: null });
      } catch (e) {
        if (job.current === me) setView((v) => ({ ...v, loading: false, error: messageOf(e) }));
      } finally {
        me.running = false;
        me.durationMs = Date.now() - me.startedAt;
      }
    })();
  }, [store, collectionId, places, totalPlaces, tick]);
  return view.collectionId === collectionId ? view : { collectionId, rows: [], loaded: 0, loading: true, expected: places, error: null };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
