/**
 * Deleting a list: its record, its queues (place pages and reviews), its log, and its membership
 * of every place, in ONE transaction; a place no other collection holds goes with it, its reviews
 * too (as a sweep's places do, utils/store/store.ts deleteSweep). Refused while the list runs: its loop would commit into a list
 * that no longer exists.
 */
import { handled, type Store } from '../store';
import { listQueueId } from './records';

export function deleteList(store: Store, id: string): Promise<'deleted' | 'running' | 'not-found'> {
  return store.transact(
    ['placeLists', 'placeQueue', 'reviewQueue', 'reviews', 'events', 'listings'],
    'readwrite',
    async (tx) => {
      const lists = tx.objectStore('placeLists');
      const list = await lists.get(id);
      if (!list) return 'not-found';
      if (list.status === 'running') return 'running';
      const writes: Promise<unknown>[] = [handled(lists.delete(id))];
      const queue = tx.objectStore('placeQueue');
      const reviewQueue = tx.objectStore('reviewQueue');
      const events = tx.objectStore('events');
      // Its queues, one per site (place pages and reviews), and its log: the list's own and each queue's.
      for (const queueId of [id, ...list.sites.map((site) => listQueueId(id, site))]) {
        for (const key of await queue.index('bySweep').getAllKeys(queueId)) writes.push(handled(queue.delete(key)));
        for (const key of await reviewQueue.index('bySweep').getAllKeys(queueId)) writes.push(handled(reviewQueue.delete(key)));
        for (const key of await events.index('bySweep').getAllKeys(queueId)) writes.push(handled(events.delete(key)));
      }
      const reviews = tx.objectStore('reviews');
      let cursor = await tx.objectStore('listings').index('byCollection').openCursor(id);
      while (cursor) {
        const collections = cursor.value.collections.filter((c) => c !== id);
        if (collections.length === 0) {
          // A place only this list held goes, and its reviews with it (reviewers' names among them).
          for (const key of await reviews.index('byPlace').getAllKeys(cursor.value.key)) writes.push(handled(reviews.delete(key)));
          writes.push(handled<unknown>(cursor.delete()));
        } else writes.push(handled<unknown>(cursor.update({ ...cursor.value, collections })));
        cursor = await cursor.continue();
      }
      await Promise.all(writes);
      return 'deleted' as const;
    },
    { durability: 'strict' },
  );
}
