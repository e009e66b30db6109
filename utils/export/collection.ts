import type { StoredListing } from '../listing/types';

/**
 * The listings of one collection (a sweep id, or 'browsing'), batch by batch, from the whole
 * store's batches: a place found by several sweeps is in each of their exports, once.
 */
export async function* collectionBatches(
  batches: AsyncIterable<StoredListing[]>,
  collectionId: string | null,
): AsyncGenerator<StoredListing[]> {
  for await (const batch of batches) {
    yield collectionId === null ? batch : batch.filter((l) => l.collections.includes(collectionId));
  }
}
