/**
 * The PageDriver plumbing of in-process list pages (Naver, Kakao): one page per tab, loaded at
 * page 1 and turned by the page's own next control while it says there is more; this counts
 * loads and page turns.
 *
 * Two ways in. `createRenderedListDriver`: the page is rendered (naver-sim-page.ts and
 * kakao-sim-page.ts render the replica's own pages in happy-dom) and the sim answers each call
 * as the extension's content script would, with the real collector. `createSimListDriver`: a
 * test states what each tab shows as an Observation of its own (a test of the driver's rules,
 * not of a collector).
 */
import type { PageDriver } from '../../utils/browser/page-driver';
import type { Observation } from '../../utils/domain/sweep';
import type { Viewport } from '../../utils/geo/types';
import type { CollectOptions } from '../../utils/messaging/protocol';

export interface SimListDriver extends PageDriver {
  readonly loads: number;
  /** Next-page presses that turned a page. */
  readonly pageTurns: number;
  /** Frees what the pages hold (their windows); the driver is not used after. */
  close(): Promise<void>;
}

/** A rendered list page per tab, answered as the content script answers (the timeouts are the sim's own clock's business). */
export interface RenderedListPages {
  /** Navigate the tab to `url` and let the page load (counted before this is called). */
  load(tabId: number, url: string): Promise<void>;
  collect(tabId: number, options: CollectOptions): Promise<Observation>;
  /** Press the page's own next control (the content script's answer to `nextPage`). */
  nextPage(tabId: number): Promise<{ clicked: boolean }>;
  /** The first-page controls (Kakao's "현 지도 내 장소검색", "장소 더보기", page 1): the content script's answers. */
  firstPage?: {
    ready(tabId: number, options: CollectOptions): Promise<boolean>;
    press(tabId: number): Promise<{ clicked: boolean }>;
  };
  viewport(): Viewport;
  close(): Promise<void>;
}

export function createRenderedListDriver(pages: RenderedListPages): SimListDriver {
  const loaded = new Set<number>();
  let loads = 0;
  let pageTurns = 0;
  const firstPage = pages.firstPage;
  return {
    get loads() {
      return loads;
    },
    get pageTurns() {
      return pageTurns;
    },
    async load(tabId, url) {
      loads++;
      loaded.add(tabId);
      await pages.load(tabId, url);
      return { url };
    },
    async collect(tabId, options) {
      if (!loaded.has(tabId)) throw new Error('no page was loaded in this tab');
      return pages.collect(tabId, options);
    },
    async nextPage(tabId) {
      if (!loaded.has(tabId)) return { clicked: false };
      const pressed = await pages.nextPage(tabId);
      if (pressed.clicked) pageTurns++;
      return pressed;
    },
    ...(firstPage && {
      firstPage: {
        ready: (tabId: number, options: CollectOptions) => firstPage.ready(tabId, options),
        press: (tabId: number) => firstPage.press(tabId),
      },
    }),
    async viewport() {
      return pages.viewport();
    },
    async exists() {
      return true;
    },
    close: () => pages.close(),
  };
}

/** What a tab holds: the URL it loaded and the list page it shows (1 after a load). */
export interface SimListTab {
  url: string;
  page: number;
}

export function createSimListDriver<T extends SimListTab>(sim: {
  /** A load of `url` (counted before this is called): the tab it leaves. */
  load(url: string): T;
  /** What the tab shows now (`undefined`: nothing was loaded in it). */
  observe(tab: T | undefined): Observation;
  viewport(): Viewport;
}): SimListDriver {
  const tabs = new Map<number, T>();
  return createRenderedListDriver({
    async load(tabId, url) {
      tabs.set(tabId, sim.load(url));
    },
    async collect(tabId) {
      return sim.observe(tabs.get(tabId));
    },
    async nextPage(tabId) {
      const tab = tabs.get(tabId);
      if (!tab || !sim.observe(tab).pager?.more) return { clicked: false };
      tab.page++;
      return { clicked: true };
    },
    viewport: () => sim.viewport(),
    close: async () => tabs.clear(),
  });
}
