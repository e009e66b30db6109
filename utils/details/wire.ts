/**
 * The place-details pass as the controller drives it: a pass over a finished sweep's places
 * (utils/queue/sweep-pass.ts) whose queue is the place pages to read (queue.ts) and whose loop
 * reads them (runner.ts).
 */
import { keeper, sweepFilter } from '../filters';
import type { Sweep } from '../domain/sweep';
import { createSweepPass, type PassStart } from '../queue/sweep-pass';
// The one place a sweep recorded before providers existed gets its site (Google's).
import { providerFor, SITE_FILTER_CONTEXT } from '../providers/registry';
import { enqueueDetails, isQueued, countPlaces, releasePlaceLeases } from './queue';
import { runDetails, type DetailsDeps, type DetailsExit } from './runner';

/** Whether a sweep was started with the place-details pass on (sweeps from before the setting: off). */
export function placeDetailsOn(settings: unknown): boolean {
  return typeof settings === 'object' && settings !== null && (settings as { placeDetails?: unknown }).placeDetails === true;
}

export interface DetailsPassDeps extends DetailsDeps {
  newId(): string;
  /** The pass ended for a reason the user should hear of ('blocked': solve the page; 'no-host-access': allow the map sites; then it goes on at the next start). */
  attention?(sweep: Sweep, exit: DetailsExit): void;
}

export type StartResult = PassStart<DetailsExit>;

export function createDetailsPass(deps: DetailsPassDeps) {
  const pass = createSweepPass<DetailsExit>(
    {
      name: 'details',
      on: (sweep) => placeDetailsOn(sweep.settings),
      // Only the places that pass the sweep's filters cost a page load (utils/filters).
      fill: (sweep) =>
        enqueueDetails(deps.store, sweep.id, deps.now(), {
          provider: providerFor(sweep.provider).id,
          lang: sweep.settings.lang,
          keep: keeper(sweepFilter(sweep), SITE_FILTER_CONTEXT),
        }),
      isFilled: (sweepId) => isQueued(deps.store, sweepId),
      open: async (sweepId) => {
        const c = await countPlaces(deps.store, sweepId);
        return c.pending + c.leased;
      },
      run: (sweepId, tabId, opts) => runDetails(deps, sweepId, tabId, opts),
      releaseAll: () => releasePlaceLeases(deps.store, deps.now()),
    },
    {
      store: deps.store,
      newId: deps.newId,
      ended: (sweep, exit) => {
        if (exit === 'blocked' || exit === 'no-host-access' || exit === 'finished') deps.attention?.(sweep, exit);
      },
    },
  );
  return {
    ...pass,
    /** A sweep's pass progress, for the popup (done + failed of total). */
    progress: (sweepId: string) => countPlaces(deps.store, sweepId),
  };
}

export type DetailsPass = ReturnType<typeof createDetailsPass>;
