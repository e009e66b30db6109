/**
 * How to read a collection's listings. Chromium walks an index cursor about 4–5× slower per
 * record than it returns `getAll` batches (100,000 places: 7.8 s against 1.7 s), so when the
 * collection is most of the store, reading everything and dropping the rest is the faster way;
 * for a small collection in a big store the index wins.
 */
export function collectionReadPath(collectionCount: number, totalCount: number): 'scan' | 'index' {
  return collectionCount * 4 >= totalCount ? 'scan' : 'index';
}
