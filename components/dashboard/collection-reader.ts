import { collectionReadPath } from '../../utils/dashboard/collections';
import type { StoredListing } from '../../utils/listing/types';
import type { Store } from '../../utils/store';

export interface StoreCounts {
  inCollection: number;
  total: number;
}

/**
 * One collection's listings in batches, by whichever read is faster for its share of the store.
 * Pass the counts when already known: counting 100,000 entries of the collection index alone
 * takes about a third of a second.
 */
export async function* readCollection(store: Store, collectionId: string, batchSize: number, known?: StoreCounts): AsyncGenerator<StoredListing[]> {
  const { inCollection, total } = known ?? (await countFor(store, collectionId));
  if (collectionReadPath(inCollection, total) === 'index') {
    yield* store.iterateListings(batchSize, collectionId);
    return;
  }
  for await (const batch of store.iterateListings(batchSize)) yield batch.filter((l) => l.collections.includes(collectionId));
}

async function countFor(store: Store, collectionId: string): Promise<StoreCounts> {
  const [inCollection, total] = await Promise.all([store.countListings(collectionId), store.countListings()]);
  return { inCollection, total };
}
