/**
 * Which lists run, in which tab: every running list gets one loop (run.ts) in a worker tab of
 * its own (a window the controller opens, never the person's tab), started again by the
 * watchdog after a service-worker restart; paused after a browser restart until Resume, as a
 * sweep is. The loop's exit decides the list's status, through the one table (status.ts).
 */
import type { DetailsDeps, DetailsExit } from '../details/runner';
import { allLists, getList } from './read';
import { listReviewsSettings } from './reviews';
import { runReviewQueues, type ReviewsExit, type ReviewsPageDriver } from '../reviews/runner';
import { listQueueId, type ListProblem, type PlaceList } from './records';
import { guardTab, unguardTab, type GuardApi } from '../browser/tab-guard';
import { NO_HOST_ACCESS_MESSAGE } from '../browser/host-access';
import { PROVIDERS } from '../providers/registry';
import { runList } from './run';
import { listTransition } from './status';

export interface ListDriverDeps extends DetailsDeps {
  /** The reviews steps in a worker tab (utils/reviews/wire.ts createReviewsPageDriver); absent: a list's reviews are not read. */
  reviewsPage?: ReviewsPageDriver;
  /** A worker tab for the list (its own window, kept for the session), or null when none could be opened. */
  workerTab(list: PlaceList): Promise<number | null>;
  /** The browser's declarativeNetRequest (utils/browser/tab-guard.ts): keeps the list's tab on the map sites. Absent: share links are not followed. */
  guardApi?: GuardApi;
  /** The list finished, or waits for the person (a block page): a notification, the badge. */
  attention?(list: PlaceList, reason: 'finished' | 'blocked' | 'host-access'): void;
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
    // The tab goes to the map sites' domains only (a share link may point anywhere): without the
    // guard, a list with share links waits rather than follow them.
    const guarded = await guardTab(
      deps.guardApi,
      tabId,
      PROVIDERS.flatMap((p) => p.siteDomains),
    );
    if (!guarded && list.counts.shares > 0) {
      await pause(list, 'no-guard', "This browser cannot keep the list's tab on the map sites, so its share links are not opened.");
      return;
    }
    try {
      await collect(list, tabId);
    } finally {
      if (guarded) await unguardTab(deps.guardApi, tabId);
    }
  }

  async function collect(list: PlaceList, tabId: number): Promise<void> {
    const opts = { holder: `list:${++loops}:${Math.floor(deps.random() * 36 ** 6).toString(36)}`, stopped: () => stops.has(list.id) };
    let exit: DetailsExit | ReviewsExit = await runList(deps, list, tabId, opts);
    // Its places read; their reviews next when Read reviews was pressed, in the same tab.
    const reviews = exit === 'finished' && deps.reviewsPage ? await reviewsOf(list.id) : null;
    if (reviews && deps.reviewsPage) {
      const source = {
        queues: list.sites.map((provider) => ({ queueId: listQueueId(list.id, provider), provider })),
        going: async () => (await getList(deps.store, list.id))?.status === 'running',
      };
      exit = await runReviewQueues({ ...deps, page: deps.reviewsPage }, source, tabId, reviews, opts);
    }
    await settle(list, exit);
  }

  /** The list's status after its loop ended. 'stopped' and 'not-finished': the person paused, stopped or deleted it; its status says so already. */
  async function settle(list: PlaceList, exit: DetailsExit | ReviewsExit): Promise<void> {
    if (exit === 'finished') {
      const done = await listTransition(deps.store, list.id, { event: 'finish' }, deps.now());
      if (done.ok) deps.attention?.(done.list, 'finished');
    } else if (exit === 'blocked' || exit === 'limited') {
      const paused =
        exit === 'blocked'
          ? await pause(list, 'blocked', "The site showed a captcha or consent page in the list's tab: answer it there, then press Resume.")
          : await pause(list, 'signed-out', 'The site shows its reviews only to signed-in people: sign in in this browser, then press Resume.');
      if (paused.ok) deps.attention?.(paused.list, 'blocked');
    } else if (exit === 'no-host-access') {
      const paused = await pause(list, 'host-access', NO_HOST_ACCESS_MESSAGE);
      if (paused.ok) deps.attention?.(paused.list, 'host-access');
    } else if (exit === 'tab-closed') {
      await pause(list, 'tab-closed', "The list's tab was closed. Press Resume to go on in a new one.");
    }
  }

  /** The reviews settings of a list whose reviews were asked for, or null. */
  async function reviewsOf(listId: string) {
    const now = await getList(deps.store, listId);
    return now ? listReviewsSettings(now) : null;
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
