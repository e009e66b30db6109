/**
 * The browser glue of the details pass: the sweep's own page driver for loads (one navigation,
 * waited for, utils/browser/page-driver.ts) and the details message for the read.
 */
import type { PageDriver } from '../browser/page-driver';
import { askUntilAnswered } from '../browser/ask-tab';
import type { Listing } from '../domain/listing';
import { sendDetailsMessage, type CollectPlaceRequest } from '../messaging/details-protocol';
import type { PlacePageDriver } from './runner';

export type SendCollectPlace = (tabId: number, req: CollectPlaceRequest) => Promise<Listing | null>;

/** The worker tab's own page (frame 0) answers: the content scripts of its iframes never do. */
export const sendCollectPlace: SendCollectPlace = (tabId, req) => sendDetailsMessage('collectPlace', req, { tabId, frameId: 0 });

/**
 * `send` is the details messenger to the tab's top frame, e.g.
 * `(tabId, req) => sendDetailsMessage('collectPlace', req, { tabId, frameId: 0 })`.
 * A transport error (the content script not injected yet, the page replacing itself while it
 * answered: Google rewrites `/maps?cid=` to the place URL) is asked again until `timeoutMs`.
 */
export function createPlacePageDriver(
  page: Pick<PageDriver, 'load' | 'exists'>,
  send: SendCollectPlace,
  sleep: (ms: number) => Promise<void>,
  now: () => number = Date.now,
): PlacePageDriver {
  return {
    load: (tabId, url, timeoutMs) => page.load(tabId, url, timeoutMs),
    exists: (tabId) => page.exists(tabId),
    collectPlace: (tabId, req, timeoutMs) => askUntilAnswered(() => send(tabId, req), timeoutMs, "The place page's content script", sleep, now),
  };
}
