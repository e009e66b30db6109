/**
 * The visitor reviews page's script (client/reviews-page.js), as text for the page and as functions for
 * Node: the server renders the first page with the same functions the browser renders the next ones
 * with, so the items look the same whichever way they came, and unit tests check exactly those.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageWindow } from '../client-renderer';
import type { ServedNaverReview } from './reviews-view';
import type { NaverReviewsSwitches } from './reviews-switches';

let source: string | null = null;

/** The plain-JS source of client/reviews-page.js. */
export function naverReviewsScript(): string {
  // A path, not a URL object: under happy-dom the global URL is not Node's.
  source ??= readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'client', 'reviews-page.js'), 'utf8');
  return source;
}

/** How an item is drawn (the switches' forms, and what the items need of the page). */
export interface NaverReviewRenderOptions {
  expander: NaverReviewsSwitches['naverReviewsExpander'];
  idMode: NaverReviewsSwitches['naverReviewsId'];
  replyHead: NaverReviewsSwitches['naverReviewsReplyHead'];
  fullDate: NaverReviewsSwitches['naverReviewsFullDate'];
  placeName: string;
  /** `/{type}/{id}/review/visitor`: share links point here. */
  pagePath: string;
}

export interface NaverReviewsClient {
  /** Wires the page: the more control or scrolling, the sort tabs, the expanders. */
  replicaNaverReviewsPage(config: unknown, win: PageWindow): void;
  renderNaverReview(item: ServedNaverReview, opts: NaverReviewRenderOptions): string;
  renderNaverSortTabs(current: string, pagePath: string): string;
  renderNaverMoreSlot(config: { more: string; end: string }, cursor: string | null): string;
  naverReviewsRequestUrl(listPath: string, sort: string, size: number, cursor: string | null): string;
}

let client: NaverReviewsClient | null = null;

export function naverReviewsClient(): NaverReviewsClient {
  client ??= new Function(
    `${naverReviewsScript()}\nreturn { replicaNaverReviewsPage, renderNaverReview, renderNaverSortTabs, renderNaverMoreSlot, naverReviewsRequestUrl };`,
  )() as NaverReviewsClient;
  return client;
}
