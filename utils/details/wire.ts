/**
 * The place-details pass as the controller drives it: started when a sweep finishes with the
 * setting on, resumed after a service-worker or browser restart like the sweep itself (the
 * queue is in the store), one loop per sweep, never two on one tab.
 *
 *   sweep finished ─▶ start(sweepId, tab) ─▶ enqueueDetails (once, one transaction) ─▶ runDetails ─▶ exit
 */
import type { Sweep } from '../domain/sweep';
// The one place a sweep recorded before providers existed gets its site (Google's).
import { providerFor } from '../providers/registry';
import { enqueueDetails, isQueued, countPlaces, releasePlaceLeases } from './queue';
import { runDetails, type DetailsDeps, type DetailsExit } from './runner';

/** Whether a sweep was started with the place-details pass on (sweeps from before the setting: off). */
export function placeDetailsOn(settings: unknown): boolean {
  return typeof settings === 'object' && settings !== null && (settings as { placeDetails?: unknown }).placeDetails === true;
}

export interface DetailsPassDeps extends DetailsDeps {
  newId(): string;
  /** The pass ended for a reason the user should hear of ('blocked': solve the page, then it goes on at the next start). */
  attention?(sweep: Sweep, exit: DetailsExit): void;
}

export type StartResult = DetailsExit | 'off' | 'already-running' | 'tab-busy';

export function createDetailsPass(deps: DetailsPassDeps) {
  const driving = new Map<string, { tabId: number; done: Promise<StartResult> }>();
  const stops = new Set<string>();

  /**
   * Run the pass of a finished sweep in `tabId` until its queue is empty (or it is blocked,
   * stopped, the tab closes). Resolves with why it ended. Safe to call again: a sweep whose
   * pass runs already is not started twice, and a queue filled before is not filled again.
   */
  function start(sweepId: string, tabId: number): Promise<StartResult> {
    const running = driving.get(sweepId);
    if (running) return Promise.resolve('already-running');
    if ([...driving.values()].some((d) => d.tabId === tabId)) return Promise.resolve('tab-busy');
    stops.delete(sweepId);
    const done = (async (): Promise<StartResult> => {
      const sweep = await deps.store.getSweep(sweepId);
      if (sweep?.status !== 'finished' || !placeDetailsOn(sweep.settings)) return 'off';
      await enqueueDetails(deps.store, sweepId, deps.now(), { provider: providerFor(sweep.provider).id, lang: sweep.settings.lang });
      const exit = await runDetails(deps, sweepId, tabId, { holder: `details:${deps.newId()}`, stopped: () => stops.has(sweepId) });
      if (exit === 'blocked' || exit === 'finished') deps.attention?.(sweep, exit);
      return exit;
    })();
    driving.set(sweepId, { tabId, done });
    void done.finally(() => driving.delete(sweepId)).catch(() => {});
    return done;
  }

  /** Finished sweeps with the pass on whose queue is not filled yet or still has open places. */
  async function resumable(): Promise<Sweep[]> {
    const out: Sweep[] = [];
    for (const sweep of await deps.store.listSweeps()) {
      if (sweep.status !== 'finished' || !placeDetailsOn(sweep.settings)) continue;
      if (!(await isQueued(deps.store, sweep.id))) {
        out.push(sweep);
        continue;
      }
      const c = await countPlaces(deps.store, sweep.id);
      if (c.pending + c.leased > 0) out.push(sweep);
    }
    return out;
  }

  return {
    start,
    resumable,
    /** Ask a sweep's loop to end after the place in hand (a new sweep wants the tab, the sweep is deleted). */
    stop(sweepId: string): void {
      if (driving.has(sweepId)) stops.add(sweepId);
    },
    /** Tabs a pass drives now: their pages are the pass's, not something the person browsed. */
    tabsInUse(): Set<number> {
      return new Set([...driving.values()].map((d) => d.tabId));
    },
    isDriving: (sweepId: string) => driving.has(sweepId),
    /** After a restart no loop of the old session is alive: its places are available at once. */
    onRestart: () => releasePlaceLeases(deps.store, deps.now()),
    /** A sweep's pass progress, for the popup (done + failed of total). */
    progress: (sweepId: string) => countPlaces(deps.store, sweepId),
  };
}

export type DetailsPass = ReturnType<typeof createDetailsPass>;
