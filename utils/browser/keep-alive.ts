/**
 * The background is suspended when it looks idle: Firefox's event page 30 s after its last
 * extension API call or event (ext-backgroundPage.js, "parentapicall"), Chrome's service worker
 * likewise since Chrome 110. Waiting for a page's content script to finish a long collection (up
 * to 90 s), or building a file from the store, makes no API call. While such work runs, one cheap
 * call every few seconds says the background is at work; it stops with the work, so an idle
 * background is still suspended as the browser wishes.
 */
export const KEEP_ALIVE_MS = 10_000;

export type Ping = () => Promise<unknown>;

export async function keptAlive<T>(ping: Ping | undefined, work: () => Promise<T>, everyMs = KEEP_ALIVE_MS): Promise<T> {
  const timer = ping
    ? setInterval(() => {
        try {
          void ping().catch(() => {});
        } catch {
          // A browser without the call: the work goes on, unkept.
        }
      }, everyMs)
    : null;
  try {
    return await work();
  } finally {
    if (timer) clearInterval(timer);
  }
}
