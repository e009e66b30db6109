/**
 * Deleting a list: its record, its queues, its log, and its membership of every place, in ONE
 * transaction; a place no other collection holds goes with it (as a sweep's places do, utils/
 * store/store.ts deleteSweep). Refused while the list runs: its loop would commit into a list
 * that no longer exists.
 */
import { handled, type Store } from '../store';
import { listQueueId } from './records';

export function deleteList(store: Store, id: string): Promise<'deleted' | 'running' | 'not-found'> {
  return store.transact(
    ['placeLists', 'placeQueue', 'events', 'listings'],
    'readwrite',
    async (tx) => {
      const lists = tx.objectStore('placeLists');
      const list = await lists.get(id);
      if (!list) return 'not-found';
      if (list.status === 'running') return 'running';
      const writes: Promise<unknown>[] = [handled(lists.delete(id))];
      const queue = tx.objectStore('placeQueue');
      for (const site of list.sites) for (const key of await queue.index('bySweep').getAllKeys(listQueueId(id, site))) writes.push(handled(queue.delete(key)));
      const events = tx.objectStore('events');
      for (const key of await events.index('bySweep').getAllKeys(id)) writes.push(handled(events.delete(key)));
      let cursor = await tx.objectStore('listings').index('byCollection').openCursor(id);
      while (cursor) {
        const collections = cursor.value.collections.filter((c) => c !== id);
        writes.push(handled<unknown>(collections.length === 0 ? cursor.delete() : cursor.update({ ...cursor.value, collections })));
        cursor = await cursor.continue();
      }
      await Promise.all(writes);
      return 'deleted' as const;
    },
    { durability: 'strict' },
  );
}
