import type { WxtBrowser as Browser } from 'wxt/browser';
import { keptAlive } from './keep-alive';
import type { Viewport } from '../geo/types';
import type { CollectOptions } from '../messaging/protocol';
import { blockedPageKindOf } from '../providers/registry';
import { blockObservation, type Observation } from '../domain/sweep';

export { blockObservation };

/** What the sweep driver needs from a worker tab; the browser glue lives only here. */
export interface PageDriver {
  /** Navigate and wait for the load to finish. Rejects with a TimeoutError after `timeoutMs`. */
  load(tabId: number, url: string, timeoutMs: number): Promise<{ url: string }>;
  /** Ask the tab's content script to scroll and extract; retries while the page is still swapping. */
  collect(tabId: number, options: CollectOptions, timeoutMs: number): Promise<Observation>;
  /**
   * Paged lists (Naver, Kakao): press the page's own next control (BackgroundToContent.nextPage).
   * Absent where no provider pages (a test's simulated page).
   */
  nextPage?(tabId: number): Promise<{ clicked: boolean }>;
  /**
   * Lists whose first page needs some of the page's own controls pressed before it can be read
   * (MapProvider.firstPageControls; Kakao). Each press makes the site search again, so the driver
   * presses in its turn of the host's pacing lane, and waits for the page outside it. Absent: no
   * page of this glue needs it (a test's simulated page).
   */
  firstPage?: {
    /** Waits until the page shows what its load or the newest press brought; false while a control is still to be pressed. */
    ready(tabId: number, options: CollectOptions, timeoutMs: number): Promise<boolean>;
    /** Presses that one control (BackgroundToContent.pressFirstPageControl). */
    press(tabId: number): Promise<{ clicked: boolean }>;
  };
  /**
   * A block page one of the tab's requests was redirected to at or after `since` (epoch ms), as
   * the browser saw it (utils/browser/block-redirects.ts); null when none. Absent: not watched.
   */
  blockedSince?(tabId: number, since: number): Promise<string | null>;
  viewport(tabId: number): Promise<Viewport>;
  exists(tabId: number): Promise<boolean>;
}

export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** The content script ran and failed (e.g. the page changed under the extractor). */
export class ContentScriptError extends Error {
  override name = 'ContentScriptError';
}

/**
 * Errors of the messaging channel itself: the script is not injected yet, or the page went
 * away (the single-result redirect) while it was answering. Only these are worth a retry.
 */
export function isTransportError(e: unknown): boolean {
  return /Receiving end does not exist|message port closed|message channel closed|Could not establish connection|No response|frame was removed|back\/forward cache|context invalidated/i.test(
    errorMessage(e),
  );
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Pixels the results panel covers on the left of Google Maps at desktop widths. */
export const RESULTS_PANEL_WIDTH = 408;

export interface ContentChannel {
  collect(tabId: number, options: CollectOptions): Promise<Observation>;
  nextPage(tabId: number): Promise<{ clicked: boolean }>;
  /** BackgroundToContent.firstPageReady and pressFirstPageControl (absent: no page of this glue needs them). */
  firstPage?: {
    ready(tabId: number, options: CollectOptions): Promise<{ ready: boolean }>;
    press(tabId: number): Promise<{ clicked: boolean }>;
  };
  /** Block redirects the browser saw (absent: not watched). */
  blockRedirects?: { since(tabId: number, since: number): string | null };
}

export function createPageDriver(browser: Browser, channel: ContentChannel, sleep: (ms: number) => Promise<void>): PageDriver {
  const ping = () => browser.runtime.getPlatformInfo();
  /**
   * The content script's answer to `ask`, asked again while the script is not there yet or the
   * page is replacing itself; `blocked` when the tab went to a block page no script runs on.
   */
  async function answer<T>(tabId: number, ask: () => Promise<T>, blocked: (url: string, kind: 'captcha' | 'consent') => T, timeoutMs: number): Promise<T> {
    // A collection may take a minute with no API call from here: the background is kept from being suspended meanwhile.
    return keptAlive(ping, () => answerOrTimeout(tabId, ask, blocked, timeoutMs));
  }

  async function answerOrTimeout<T>(
    tabId: number,
    ask: () => Promise<T>,
    blocked: (url: string, kind: 'captcha' | 'consent') => T,
    timeoutMs: number,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown = null;
    while (Date.now() < deadline) {
      try {
        return await withTimeout(ask(), deadline - Date.now());
      } catch (e) {
        lastError = e;
        if (e instanceof TimeoutError) throw e;
        // The page may have replaced itself with a block page mid-scroll (the site sends a
        // blocked list request's tab to /sorry/): no content script will ever answer there.
        // Checked first: the channel's error then is whatever the browser says on navigation.
        const url = (await browser.tabs.get(tabId)).url ?? '';
        const kind = blockedPageKindOf(url);
        if (kind) return blocked(url, kind);
        // The content script answered with an error of its own: asking again will not help.
        if (!isTransportError(e)) throw new ContentScriptError(errorMessage(e));
        // "Receiving end does not exist" (script not injected yet) or "message port closed"
        // (the page replaced itself, e.g. the single-result redirect): wait for the next page.
        await sleep(400);
        await waitComplete(browser, tabId, Math.max(0, deadline - Date.now()), sleep);
      }
    }
    throw new TimeoutError(`The page's content script did not answer: ${String(lastError)}`);
  }

  /** A press of one of the page's own controls. */
  async function press(sent: Promise<{ clicked: boolean }>): Promise<{ clicked: boolean }> {
    try {
      return await withTimeout(sent, 15_000);
    } catch (e) {
      // The click navigated before the answer got out (the page replaced itself): it was
      // pressed. The next collection checks the page anyway (expectPage, firstPage.ready).
      if (isTransportError(e)) return { clicked: true };
      throw e instanceof TimeoutError ? e : new ContentScriptError(errorMessage(e));
    }
  }

  const firstPage = channel.firstPage;
  return {
    load(tabId, url, timeoutMs) {
      return new Promise((resolve, reject) => {
        // Wait for a 'loading' of this navigation before trusting 'complete': the event for the
        // previous page can still be in flight when tabs.update returns.
        let sawLoading = false;
        const done = (fn: () => void) => {
          clearTimeout(timer);
          browser.tabs.onUpdated.removeListener(listener);
          fn();
        };
        const listener = (id: number, change: { status?: string }, tab: { url?: string }) => {
          if (id !== tabId) return;
          if (change.status === 'loading') sawLoading = true;
          if (change.status === 'complete' && sawLoading) done(() => resolve({ url: tab.url ?? url }));
        };
        const timer = setTimeout(
          () => done(() => reject(new TimeoutError(`The page did not finish loading within ${Math.round(timeoutMs / 1000)} s.`))),
          timeoutMs,
        );
        browser.tabs.onUpdated.addListener(listener);
        browser.tabs.update(tabId, { url }).catch((e: unknown) => done(() => reject(e)));
      });
    },

    collect(tabId, options, timeoutMs) {
      return answer(tabId, () => channel.collect(tabId, options), blockObservation, timeoutMs);
    },

    ...(firstPage && {
      firstPage: {
        // A block page is "ready": the collection that follows reads it as the block it is.
        ready: async (tabId, options, timeoutMs) =>
          (
            await answer(
              tabId,
              () => firstPage.ready(tabId, options),
              () => ({ ready: true }),
              timeoutMs,
            )
          ).ready,
        press: (tabId) => press(firstPage.press(tabId)),
      },
    }),

    async blockedSince(tabId, since) {
      return channel.blockRedirects?.since(tabId, since) ?? null;
    },

    nextPage(tabId) {
      return press(channel.nextPage(tabId));
    },

    async viewport(tabId) {
      const tab = await browser.tabs.get(tabId);
      return { width: tab.width ?? 1280, height: tab.height ?? 800, panelWidth: RESULTS_PANEL_WIDTH };
    },

    async exists(tabId) {
      try {
        await browser.tabs.get(tabId);
        return true;
      } catch {
        return false;
      }
    },
  };
}

async function waitComplete(browser: Browser, tabId: number, maxMs: number, sleep: (ms: number) => Promise<void>) {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    const tab = await browser.tabs.get(tabId);
    if (tab.status === 'complete') return;
    await sleep(200);
  }
}

/** `promise`, or a TimeoutError after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(`No answer within ${Math.round(ms / 1000)} s.`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
