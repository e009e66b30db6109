/**
 * Redirects to a map site's block page, seen by the browser itself. Kakao answers a blocked
 * search request (`search.map.kakao.com/mapsearch/map.daum`, loaded by the page as a JSONP
 * script) with a 302 to `kakao.com/500.ko.html` (naver-kakao-notes B6): the page's own script
 * only sees a script that did not run, which looks like any failed request, and the tab's URL
 * never changes. The browser's webRequest events do see the redirect, for the hosts the
 * extension has permission for and nothing else (observation only: nothing is blocked or changed).
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import { blockedPageKindOf } from '../providers/registry';

export interface BlockRedirectLog {
  /** The block page a request of this tab was sent to at or after `since` (epoch ms), or null. */
  since(tabId: number, since: number): string | null;
}

/** Registered at once (a service worker only wakes for listeners that exist at start-up). */
export function watchBlockRedirects(browser: Browser, hostPatterns: string[]): BlockRedirectLog {
  const last = new Map<number, { at: number; url: string }>();
  try {
    browser.webRequest.onBeforeRedirect.addListener(
      (details) => {
        if (details.tabId < 0 || !blockedPageKindOf(details.redirectUrl)) return;
        last.set(details.tabId, { at: details.timeStamp, url: details.redirectUrl });
      },
      { urls: hostPatterns },
    );
  } catch (e) {
    // Without webRequest (a test double, a browser that refuses it) such a block is seen as failed
    // requests: retried with backoff, then the cell quarantined — slower, never a false "done".
    console.warn('MapSweep: block redirects are not watched', e);
  }
  return {
    since(tabId, since) {
      const seen = last.get(tabId);
      return seen && seen.at >= since ? seen.url : null;
    },
  };
}
