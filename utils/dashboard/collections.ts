import { BROWSING } from '../store';
import type { Sweep, SweepStatus } from '../domain/sweep';
import type { ListFailure, ListProgress, ListStatus, PlaceList } from '../lists';

/** A row of the Collections panel: a sweep, a list of places (issue 40), or the places collected while browsing. */
export type CollectionSummary =
  | { kind: 'sweep'; id: string; sweep: Sweep; places: number }
  | { kind: 'list'; id: string; list: PlaceList; places: number; progress: ListProgress | null; failures?: ListFailure[] }
  | { kind: 'browsing'; id: typeof BROWSING; places: number };

/** Newest sweep or list first, then Browsing (which is always there, even when empty). */
export function summarise(
  sweeps: readonly Sweep[],
  places: ReadonlyMap<string, number>,
  lists: readonly PlaceList[] = [],
  progress: ReadonlyMap<string, ListProgress> = new Map(),
  failures: ReadonlyMap<string, ListFailure[]> = new Map(),
): CollectionSummary[] {
  const rows: (CollectionSummary & { at: number })[] = [
    ...sweeps.map((sweep) => ({ kind: 'sweep' as const, id: sweep.id, sweep, places: places.get(sweep.id) ?? 0, at: sweep.createdAt })),
    ...lists.map((list) => ({
      kind: 'list' as const,
      id: list.id,
      list,
      places: places.get(list.id) ?? 0,
      progress: progress.get(list.id) ?? null,
      failures: failures.get(list.id) ?? [],
      at: list.createdAt,
    })),
  ];
  const out: CollectionSummary[] = rows.sort((a, b) => b.at - a.at).map(({ at: _at, ...row }) => row as CollectionSummary);
  out.push({ kind: 'browsing', id: BROWSING, places: places.get(BROWSING) ?? 0 });
  return out;
}

export interface ListActions {
  pause: boolean;
  resume: boolean;
  stop: boolean;
  delete: boolean;
  /** Read its places' reviews (once its places are collected). */
  readReviews: boolean;
}

/** A list's controls, by the same table the background checks (utils/lists/status.ts). */
export function listActions(status: ListStatus): ListActions {
  return {
    pause: status === 'running',
    resume: status === 'paused',
    stop: status === 'running' || status === 'paused',
    delete: status !== 'running',
    readReviews: status === 'finished',
  };
}

/** What the dashboard opens on: the running sweep, else the newest, else Browsing. */
export function defaultSelection(sweeps: readonly Sweep[]): string {
  const running = sweeps.find((s) => s.status === 'running');
  if (running) return running.id;
  const newest = [...sweeps].sort((a, b) => b.createdAt - a.createdAt)[0];
  return newest?.id ?? BROWSING;
}

export interface SweepActions {
  resume: boolean;
  stop: boolean;
  /** A running sweep is stopped first: its worker would otherwise commit into a deleted sweep. */
  delete: boolean;
}

/** The same rules as the popup's controls (the background refuses anything else anyway). */
export function sweepActions(status: SweepStatus): SweepActions {
  return {
    resume: status === 'paused' || status === 'failed',
    stop: status !== 'stopped' && status !== 'finished',
    delete: status !== 'running',
  };
}

/**
 * Whether a reload of a whole collection is due: at least `minIntervalMs` apart, and never
 * more often than `loadShare` of the time, so that a 100,000-place collection that takes a
 * second to read is re-read every 10 s while a sweep runs, not every 2 s.
 */
export function reloadDue(now: number, lastStartedAt: number | null, lastDurationMs: number, minIntervalMs = 2000, loadShare = 0.1): boolean {
  if (lastStartedAt === null) return true;
  return now - lastStartedAt >= Math.max(minIntervalMs, lastDurationMs / loadShare);
}
