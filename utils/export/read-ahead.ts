/**
 * The next batch's read is started before this one is handed on: the database reads (in
 * Chromium, IndexedDB's backend runs outside the page's thread) while the page turns the batch
 * into text, instead of the two taking turns. At most two batches are held, so memory still
 * does not grow with the collection.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | null = it.next();
  try {
    for (;;) {
      const result: IteratorResult<T> = await pending;
      pending = null;
      if (result.done) return;
      pending = it.next();
      yield result.value;
    }
  } finally {
    // The consumer stopped early (or failed): let the read under way settle, then close the source.
    if (pending !== null) {
      const last = await pending.catch(() => null);
      if (last && !last.done) await it.return?.();
    }
  }
}
