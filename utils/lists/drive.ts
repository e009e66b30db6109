/**
 * Which lists run, in which tab: every running list gets one loop (run.ts) in a worker tab of
 * its own (a window the controller opens, never the person's tab), started again by the
 * watchdog after a service-worker restart; paused after a browser restart until Resume, as a
 * sweep is. The loop's exit decides the list's status, through the one table (status.ts).
 */
import type { DetailsDeps, DetailsExit } from '../details/runner';
import { allLists } from './read';
import type { ListProblem, PlaceList } from './records';
import { runList } from './run';
import { listTransition } from './status';

export interface ListDriverDeps extends DetailsDeps {
  /** A worker tab for the list (its own window, kept for the session), or null when none could be opened. */
  workerTab(list: PlaceList): Promise<number | null>;
  /** The list finished, or waits for the person (a block page): a notification, the badge. */
  attention?(list: PlaceList, reason: 'finished' | 'blocked'): void;
}

export function createListDriver(deps: ListDriverDeps) {
  const driving = new Map<string, number | null>();
  const stops = new Set<string>();
  let loops = 0;

  const pause = (list: PlaceList, kind: ListProblem['kind'], message: string) =>
    listTransition(deps.store, list.id, { event: 'pause', problem: { kind, message, at: deps.now() } }, deps.now());

  async function drive(list: PlaceList): Promise<void> {
    const tabId = await deps.workerTab(list);
    if (tabId === null) {
      await pause(list, 'tab-closed', 'No tab could be opened for the list. Press Resume to try again.');
      return;
    }
    driving.set(list.id, tabId);
    const exit: DetailsExit = await runList(deps, list, tabId, {
      holder: `list:${++loops}:${Math.floor(deps.random() * 36 ** 6).toString(36)}`,
      stopped: () => stops.has(list.id),
    });
    if (exit === 'finished') {
      const done = await listTransition(deps.store, list.id, { event: 'finish' }, deps.now());
      if (done.ok) deps.attention?.(done.list, 'finished');
    } else if (exit === 'blocked') {
      const paused = await pause(list, 'blocked', "The site showed a captcha or consent page in the list's tab: answer it there, then press Resume.");
      if (paused.ok) deps.attention?.(paused.list, 'blocked');
    } else if (exit === 'tab-closed') {
      await pause(list, 'tab-closed', "The list's tab was closed. Press Resume to go on in a new one.");
    }
    // 'stopped' and 'not-finished': the person paused, stopped or deleted it; its status says so already.
  }

  /** Start a loop for every running list that has none; whether any list runs. Safe to call often. */
  async function ensure(): Promise<boolean> {
    const lists = await allLists(deps.store);
    for (const list of lists) {
      if (list.status !== 'running' || driving.has(list.id)) continue;
      stops.delete(list.id);
      driving.set(list.id, null);
      void drive(list)
        .catch((e) => console.error('MapSweep: collecting a list failed', e))
        .finally(() => {
          driving.delete(list.id);
          // Paused and resumed while the loop finished its place: the list runs again, and needs a loop.
          if (stops.delete(list.id)) void ensure();
        });
    }
    return lists.some((l) => l.status === 'running');
  }

  return {
    ensure,
    /** Ask a list's loop to end after the place in hand (paused, stopped, deleted). */
    stop(listId: string): void {
      if (driving.has(listId)) stops.add(listId);
    },
    /** Tabs a list's loop works in now: their pages are the list's, not the person's browsing. */
    tabsInUse(): Set<number> {
      return new Set([...driving.values()].filter((t): t is number => t !== null));
    },
    /** After a browser restart nothing runs by itself: running lists wait for Resume. */
    async onBrowserStart(): Promise<void> {
      for (const list of await allLists(deps.store)) {
        if (list.status === 'running') await pause(list, 'restart', 'The browser restarted. Press Resume to go on where the list was.');
      }
    },
  };
}

export type ListDriver = ReturnType<typeof createListDriver>;
