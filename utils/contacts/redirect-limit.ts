/**
 * At most `max` redirects per page fetch (issue 23: 5). A fetch cannot count its own hops: it
 * follows up to the browser's 20, and a `redirect: 'manual'` answer is opaque (no status, no
 * Location). The browser's webRequest events can: `onBeforeRedirect` reports each hop of the
 * worker's own requests (tab -1), and a fetch whose hops pass the limit is aborted with
 * RedirectRefused, which the fetcher reports as a permanent failure; so is a fetch redirected
 * to a private or invalid address (the website's own URL was checked before the fetch).
 */
import type { FetchFn } from './fetch-page';
import { websiteKind } from './website-kind';

export const MAX_REDIRECTS = 5;

/** A redirect the pass does not follow: past the limit, or to a private address. */
export class RedirectRefused extends Error {
  override name = 'RedirectRefused';
}

/** One redirect as webRequest reports it. */
export interface RedirectEvent {
  url: string;
  redirectUrl: string;
  tabId: number;
}

export interface RedirectSource {
  addListener(listener: (e: RedirectEvent) => void): void;
}

/**
 * `fetchFn`, each call aborted once its redirects pass `max`. Hops are matched by URL: the pass
 * fetches one page of a host at a time (utils/contacts/host-lanes.ts), so two fetches in flight
 * never share a URL; an event for a URL nobody fetches (a tab's) is ignored.
 */
export function limitRedirects(fetchFn: FetchFn, redirects: RedirectSource, max = MAX_REDIRECTS): FetchFn {
  const inFlight = new Map<string, { hops: number; stop(reason: Error): void }>();
  const listen = (e: RedirectEvent) => {
    if (e.tabId !== -1) return;
    const call = inFlight.get(e.url);
    if (!call) return;
    inFlight.delete(e.url);
    call.hops++;
    if (call.hops > max) call.stop(new RedirectRefused(`more than ${max} redirects`));
    // A public website sending the user's browser into their own network (router, intranet) is not followed.
    else if (websiteKind(e.redirectUrl).kind === 'invalid') call.stop(new RedirectRefused('redirected to a private or invalid address'));
    else inFlight.set(e.redirectUrl, call);
  };
  try {
    redirects.addListener(listen);
  } catch (e) {
    // Without webRequest's events (a test double, a browser that refuses them) a chain is followed
    // as far as the browser's own 20: one page more or less, never a page read that was not asked for.
    console.warn('MapSweep: redirects of website pages are not counted', e);
  }
  return async (url, init) => {
    const abort = new AbortController();
    const call = { hops: 0, stop: (reason: Error) => abort.abort(reason) };
    inFlight.set(url, call);
    try {
      return await fetchFn(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal });
    } finally {
      for (const [u, c] of inFlight) if (c === call) inFlight.delete(u);
    }
  };
}
