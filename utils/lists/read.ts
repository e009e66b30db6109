/** Reading lists and their progress (the dashboard, the driver, the commands). */
import { countPlaces } from '../details/queue';
import type { Store } from '../store';
import { isShareKey, listQueueId, type PlaceList } from './records';

export function getList(store: Store, id: string): Promise<PlaceList | undefined> {
  return store.transact(['placeLists'], 'readonly', (tx) => tx.objectStore('placeLists').get(id));
}

/** Every list, newest first. */
export async function allLists(store: Store): Promise<PlaceList[]> {
  const lists = await store.transact(['placeLists'], 'readonly', (tx) => tx.objectStore('placeLists').getAll());
  return lists.sort((a, b) => b.createdAt - a.createdAt);
}

export interface ListProgress {
  /** Page loads still to make (share links included). */
  open: number;
  /** Entries read (or in the collection from before, with nothing to add). */
  done: number;
  /** Entries left after their last attempt (their reasons are in the list's log). */
  failed: number;
  total: number;
}

export async function listProgress(store: Store, list: Pick<PlaceList, 'id' | 'sites'>): Promise<ListProgress> {
  const out: ListProgress = { open: 0, done: 0, failed: 0, total: 0 };
  for (const site of list.sites) {
    const c = await countPlaces(store, listQueueId(list.id, site));
    out.open += c.pending + c.leased;
    out.done += c.done;
    out.failed += c.failed;
    out.total += c.total;
  }
  return out;
}

/** One entry of a list that was left failed: its line, what it named, and why (the last attempt's reason). */
export interface ListFailure {
  line: number | null;
  entry: string;
  reason: string;
}

/** The entries left failed (the first `max`, by line): what the list's row shows under "failed". */
export async function listFailures(store: Store, list: Pick<PlaceList, 'id' | 'sites'>, max = 200): Promise<ListFailure[]> {
  const out: ListFailure[] = [];
  await store.transact(['placeQueue'], 'readonly', async (tx) => {
    const index = tx.objectStore('placeQueue').index('bySweepStatus');
    for (const site of list.sites) {
      for (const job of await index.getAll([listQueueId(list.id, site), 'failed'], max)) {
        out.push({ line: job.line ?? null, entry: isShareKey(job.key) ? job.url : job.key, reason: job.lastError ?? 'failed' });
      }
    }
  });
  return out.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER)).slice(0, max);
}
