import { isTransportError, TimeoutError, withTimeout } from './page-driver';

/**
 * Ask a tab's content script, again while the answer is a transport error (the content script not
 * injected yet, the page replacing itself while it answered: Google rewrites `/maps?cid=` to the
 * place URL), until `timeoutMs`. Any other error, and the timeout, reach the caller.
 */
export async function askUntilAnswered<T>(
  ask: () => Promise<T>,
  timeoutMs: number,
  what: string,
  sleep: (ms: number) => Promise<void>,
  now: () => number = Date.now,
): Promise<T> {
  const deadline = now() + timeoutMs;
  let lastError: unknown = null;
  while (now() < deadline) {
    try {
      return await withTimeout(ask(), Math.max(1, deadline - now()));
    } catch (e) {
      lastError = e;
      if (e instanceof TimeoutError || !isTransportError(e)) throw e;
      await sleep(400);
    }
  }
  throw new TimeoutError(`${what} did not answer: ${String(lastError)}`);
}
