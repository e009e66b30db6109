/**
 * A wait that a pause ends at once (rejecting with the signal's reason). Its abort listener is
 * removed when the wait ends on its own: the pass's one signal sees a wait per site and request,
 * and 10,000 sites must not leave 10,000 listeners on it.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
