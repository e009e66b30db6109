/**
 * A pass over a finished sweep's places, in the sweep's worker tab: the place details
 * (utils/details/wire.ts) and the reviews (utils/reviews/wire.ts) are two of it. Started when a
 * sweep finishes with the pass on, resumed after a service-worker or browser restart like the
 * sweep itself (its queue is in the store), one loop per sweep, never two on one tab.
 *
 *   sweep finished ─▶ start(sweepId, tab) ─▶ fill (once, one transaction) ─▶ run ─▶ exit
 */
import type { Sweep } from '../domain/sweep';
import type { Store } from '../store';

export interface SweepPassSpec<Exit extends string> {
  /** Names this pass's lease holders ("details", "reviews"). */
  name: string;
  /** Whether the sweep was started with the pass on. */
  on(sweep: Sweep): boolean;
  /** Whether the pass waits for the user on this sweep (not started again until then). */
  waiting?(sweepId: string): Promise<boolean>;
  /** Fill the sweep's queue, once (a filled queue is not filled again). */
  fill(sweep: Sweep): Promise<unknown>;
  isFilled(sweepId: string): Promise<boolean>;
  /** Open jobs left. */
  open(sweepId: string): Promise<number>;
  run(sweepId: string, tabId: number, opts: { holder: string; stopped(): boolean }): Promise<Exit>;
  /** After a restart no loop of the old session is alive: its jobs are available at once. */
  releaseAll(): Promise<number>;
}

export type PassStart<Exit extends string> = Exit | 'off' | 'already-running' | 'tab-busy';

export function createSweepPass<Exit extends string>(
  spec: SweepPassSpec<Exit>,
  deps: { store: Store; newId(): string; ended?(sweep: Sweep, exit: Exit): void },
) {
  const driving = new Map<string, { tabId: number; done: Promise<PassStart<Exit>> }>();
  const stops = new Set<string>();

  /**
   * Run the pass of a finished sweep in `tabId` until its queue is empty (or it is blocked,
   * stopped, the tab closes). Resolves with why it ended. Safe to call again: a sweep whose
   * pass runs already is not started twice, and a queue filled before is not filled again.
   */
  function start(sweepId: string, tabId: number): Promise<PassStart<Exit>> {
    if (driving.has(sweepId)) return Promise.resolve('already-running');
    if ([...driving.values()].some((d) => d.tabId === tabId)) return Promise.resolve('tab-busy');
    stops.delete(sweepId);
    const done = (async (): Promise<PassStart<Exit>> => {
      const sweep = await deps.store.getSweep(sweepId);
      if (sweep?.status !== 'finished' || !spec.on(sweep) || (await spec.waiting?.(sweepId))) return 'off';
      await spec.fill(sweep);
      const exit = await spec.run(sweepId, tabId, { holder: `${spec.name}:${deps.newId()}`, stopped: () => stops.has(sweepId) });
      deps.ended?.(sweep, exit);
      return exit;
    })();
    driving.set(sweepId, { tabId, done });
    void done.finally(() => driving.delete(sweepId)).catch(() => {});
    return done;
  }

  /** Finished sweeps with the pass on whose queue is not filled yet or still has open jobs. */
  async function resumable(): Promise<Sweep[]> {
    const out: Sweep[] = [];
    for (const sweep of await deps.store.listSweeps()) {
      if (sweep.status !== 'finished' || !spec.on(sweep) || (await spec.waiting?.(sweep.id))) continue;
      if (!(await spec.isFilled(sweep.id)) || (await spec.open(sweep.id)) > 0) out.push(sweep);
    }
    return out;
  }

  return {
    start,
    resumable,
    /** Ask a sweep's loop to end after the job in hand (a new sweep wants the tab, the sweep is deleted). */
    stop(sweepId: string): void {
      if (driving.has(sweepId)) stops.add(sweepId);
    },
    /** Tabs a pass drives now: their pages are the pass's, not something the person browsed. */
    tabsInUse: (): Set<number> => new Set([...driving.values()].map((d) => d.tabId)),
    isDriving: (sweepId: string) => driving.has(sweepId),
    onRestart: () => spec.releaseAll(),
  };
}
