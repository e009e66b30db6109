/**
 * The PageDriver plumbing the in-process Naver and Kakao pages share (naver-sim-page.ts,
 * kakao-sim-page.ts): one list page per tab, loaded at page 1 and turned by the page's own next
 * control while it says there is more. Each sim says what a load leaves in the tab and what
 * the tab shows; this counts loads and page turns.
 */
import type { PageDriver } from '../../utils/browser/page-driver';
import type { Observation } from '../../utils/domain/sweep';
import type { Viewport } from '../../utils/geo/types';

export interface SimListDriver extends PageDriver {
  readonly loads: number;
  /** Next-page presses that turned a page. */
  readonly pageTurns: number;
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
  /**
   * The page the next control lands on from `page` (default page + 1). A page turn that lands
   * elsewhere is what the product must catch: the sim shows it and checks nothing itself.
   */
  turn?(page: number): number;
}): SimListDriver {
  const tabs = new Map<number, T>();
  let loads = 0;
  let pageTurns = 0;
  return {
    get loads() {
      return loads;
    },
    get pageTurns() {
      return pageTurns;
    },
    async load(tabId, url) {
      loads++;
      tabs.set(tabId, sim.load(url));
      return { url };
    },
    async collect(tabId) {
      return sim.observe(tabs.get(tabId));
    },
    async nextPage(tabId) {
      const tab = tabs.get(tabId);
      if (!tab || !sim.observe(tab).pager?.more) return { clicked: false };
      tab.page = sim.turn?.(tab.page) ?? tab.page + 1;
      pageTurns++;
      return { clicked: true };
    },
    async viewport() {
      return sim.viewport();
    },
    async exists() {
      return true;
    },
  };
}
