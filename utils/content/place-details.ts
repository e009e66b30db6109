/**
 * The content-script side of the place-details pass, shared by the three sites: answer
 * `collectPlace` (utils/messaging/details-protocol.ts) from the extension's background only, by waiting
 * (bounded) until the page shows the place asked for and reading it with the site's reader.
 * Read-only on the page: never clicks, scrolls or navigates.
 */
import { guarded } from '../messaging/senders';
import type { WxtBrowser as Browser } from 'wxt/browser';
import type { Listing } from '../domain/listing';
import { onDetailsMessage, type CollectPlaceRequest } from '../messaging/details-protocol';

export interface PlaceReadEnv {
  doc: Document;
  /** The page URL now (sites rewrite it after load). */
  url(): string;
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** A site's reader: the place the page shows now, or null when it shows none (yet). */
export type PlaceReader = (doc: Document, url: string) => Listing | null;

const POLL_MS = 250;

/**
 * Poll `read` until it gives the place `req.key` names, or `req.settleMs` passed. A place that
 * is not the one asked for is returned as read at the end (the background counts it as a
 * failed attempt, never merges it); null when the page never showed a place.
 */
export async function waitForPlace(env: PlaceReadEnv, req: CollectPlaceRequest, read: PlaceReader): Promise<Listing | null> {
  const start = env.now();
  let last: Listing | null = null;
  for (;;) {
    last = read(env.doc, env.url());
    if (last && last.key === req.key) return last;
    if (env.now() - start >= req.settleMs) return last;
    await env.sleep(POLL_MS);
  }
}

export interface AnswerOptions {
  /** Called when the background asks: the page is the pass's, not something the person browsed (stop collecting while browsing). */
  onAsked?(): void;
  /** Whether this frame may answer (Naver: the top frame only). Default: yes. */
  answers?(): boolean;
}

/**
 * Register the `collectPlace` answer. Only the extension's background may ask (a
 * tabs.sendMessage has no tab in its sender); the reply is page content, shape-checked again
 * by the store and checked against the stored place before any merge (utils/details/queue.ts).
 */
export function answerCollectPlace(win: Window, browser: Pick<Browser, 'runtime'>, read: PlaceReader, opts: AnswerOptions = {}): () => void {
  if (opts.answers && !opts.answers()) return () => {};
  return onDetailsMessage(
    'collectPlace',
    guarded('collectPlace', { runtime: browser.runtime }, async (message) => {
      opts.onAsked?.();
      return waitForPlace(
        { doc: win.document, url: () => win.location.href, now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
        message.data,
        read,
      );
    }),
  );
}
