/**
 * What the browser's network saw of the pass's own requests (the worker's, tab -1), through
 * webRequest's events, which only observe: where a redirect points (a `redirect: 'manual'`
 * fetch gets an opaque answer, without its Location) and the address an answer came from
 * (`ip`: a public name resolved into the user's own network is only known here). The events
 * may reach the worker a little after the fetch resolved, so each question waits a short while
 * for its answer; none is an answer too (a browser that reports nothing: Firefox gives no `ip`
 * for some requests).
 */

import { createAddressJudge, type AddressJudge } from './answer-address';
import type { SiteFailure } from './queue';

/** The fields of webRequest's details this reads. */
export interface NetworkEvent {
  url: string;
  tabId: number;
  statusCode?: number;
  ip?: string;
  redirectUrl?: string;
  responseHeaders?: { name: string; value?: string }[];
}

export interface NetworkEvents {
  /** onHeadersReceived (with responseHeaders), onBeforeRedirect, onResponseStarted: each event as it comes (the listener blocks nothing). */
  listen(listener: (e: NetworkEvent) => undefined): void;
}

export interface NetworkWatch {
  /** A moment to ask from: taken before a request, so that only its own events answer for it. */
  mark(): number;
  /** The Location of the redirect `url` answered since `since`, or null when none was seen within the wait. */
  locationOf(url: string, since: number, signal?: AbortSignal): Promise<string | null>;
  /**
   * The address `url` was answered from since `since`, or null when none was seen within the
   * wait. Never an earlier request's: a name may answer from a public address once and from the
   * user's router the next time (DNS rebinding).
   */
  addressOf(url: string, since: number, signal?: AbortSignal): Promise<string | null>;
  /** Whether an answer from `address` may be read (answer-address.ts), judged over every answer this watch saw. */
  refusal(host: string, address: string): SiteFailure | null;
}

/** How long a question waits for its event after the fetch resolved. */
export const EVENT_WAIT_MS = 2000;
/** URLs remembered at most (the pass fetches one page per host at a time, a few hosts at once). */
const KEPT = 500;

interface Seen {
  location?: { value: string; at: number };
  ip?: { value: string; at: number };
}

export function createNetworkWatch(events: NetworkEvents, wait = EVENT_WAIT_MS, judge: AddressJudge = createAddressJudge()): NetworkWatch {
  // A clock that only moves on: each event is stamped with the next tick, a mark is the tick now.
  let tick = 0;
  const seen = new Map<string, Seen>();
  const waiting = new Map<string, (() => void)[]>();
  const wake = (url: string) => {
    for (const w of [...(waiting.get(url) ?? [])]) w();
  };
  events.listen((e) => {
    if (e.tabId !== -1) return undefined;
    const entry = seen.get(e.url) ?? {};
    const at = ++tick;
    const location = e.redirectUrl ?? e.responseHeaders?.find((h) => h.name.toLowerCase() === 'location')?.value;
    if (location && e.statusCode !== undefined && e.statusCode >= 300 && e.statusCode < 400) entry.location = { value: location, at };
    else if (e.redirectUrl) entry.location = { value: e.redirectUrl, at };
    if (e.ip) entry.ip = { value: e.ip, at };
    if (seen.size >= KEPT && !seen.has(e.url)) seen.delete(seen.keys().next().value!);
    seen.set(e.url, entry);
    wake(e.url);
    return undefined;
  });
  const ask = async (url: string, field: 'location' | 'ip', since: number, signal?: AbortSignal): Promise<string | null> => {
    const until = Date.now() + wait;
    for (;;) {
      const value = seen.get(url)?.[field];
      if (value && value.at > since) return value.value;
      const left = until - Date.now();
      if (left <= 0 || signal?.aborted) return null;
      // Woken by the event, the end of the wait or the caller giving up, whichever is first; the
      // waiter leaves the list in every case (a browser that never reports a URL must not make
      // the list grow for as long as the worker lives).
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          const rest = (waiting.get(url) ?? []).filter((w) => w !== done);
          if (rest.length > 0) waiting.set(url, rest);
          else waiting.delete(url);
          resolve();
        };
        const timer = setTimeout(done, left);
        signal?.addEventListener('abort', done, { once: true });
        waiting.set(url, [...(waiting.get(url) ?? []), done]);
      });
    }
  };
  return {
    mark: () => tick,
    refusal: (host, address) => judge.refusal(host, address),
    locationOf: (url, since, signal) => ask(url, 'location', since, signal),
    addressOf: (url, since, signal) => ask(url, 'ip', since, signal),
  };
}
