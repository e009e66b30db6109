/** Reading lists and their progress (the dashboard, the driver, the commands). */
import { countPlaces } from '../details/queue';
import type { Store } from '../store';
import { listQueueId, type PlaceList } from './records';

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
