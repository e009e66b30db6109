/**
 * Check this page (issue 41): the popup asks the background, the background asks the map tab's
 * content script what it sees, without a scroll, a click or a request (`look`).
 */
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Reply } from '../domain/errors';
import type { PageLook } from '../domain/page-look';
import type { CollectOptions } from './protocol';
import type { Covered } from './senders';

export interface PageCheckProtocol {
  /** Background → the map tab (every frame; the list's answers first): what the readers see now. */
  lookAtPage(): PageLook;
  /**
   * Popup → background: check the tab `tabId` (the map tab the popup was opened over), or, without
   * one, the map tab used last. The reply's check is utils/report/check.ts's PageCheck.
   */
  checkPage(req: { tabId?: number }): Reply<{ check: unknown }>;
  /** Background → the map tab: the document that answers a look, as HTML, with the look (a page report's source). */
  pageSnapshot(): { html: string; look: PageLook };
  /**
   * Popup → background: the source of a page report of that tab — its site, address, HTML and the
   * check — which the popup redacts (utils/report/report.ts) before it shows or saves anything.
   */
  pageReportSource(req: { tabId?: number }): Reply<{ site: string; url: string; html: string; check: unknown }>;
}

export const { sendMessage: sendCheckMessage, onMessage: onCheckMessage } = defineExtensionMessaging<PageCheckProtocol>();
void (true satisfies Covered<PageCheckProtocol>);

/**
 * The sweep's collect, as a look: no scroll and no wait for more than the page shows within a
 * second and a half. Content scripts pass it to their site's collect.
 */
export const LOOK_OPTIONS: CollectOptions = { cap: 100_000, stallMs: 0, maxMs: 0, settleMs: 1_500, scrollPauseMs: 0, look: true };
