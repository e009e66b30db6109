/**
 * Naver's list pages, in-process: each tab is a happy-dom tab on the replica
 * (naver-replica-tab.ts: the replica's own handler renders every page, the page's own script
 * grows the lazy list and navigates its pager), and every `collect` is the extension's real
 * collection (utils/providers/naver/collect.ts collectNaverPage, with the pcmap hook's page data),
 * answered as the content script answers it (naver/content.ts). So the real planner, queue,
 * store and driver sweep a Naver world through the real collector, without a browser.
 *
 * As imperfect as the replica (every switch: the box honoured, spilled or ignored, ads, the cap,
 * the pager, the state, …), plus what the sim adds on top of the rendered page: cards unread the
 * first time their place shows (their link and name not yet rendered), and loads that fail (the
 * replica's own HTTP 500 page).
 *
 * The pages run on a clock of their own, advanced by the collector's pauses (the page's timers
 * fire at the next pause), so a collection costs its DOM work, not its waits.
 */
import { collectNaverPage } from '../../utils/providers/naver/collect';
import { pageMarkOf, pressNextPage, type PageMark } from '../../utils/providers/naver/page-turns';
import type { Observation } from '../../utils/domain/sweep';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverSwitches } from '../replica/naver/switches';
import type { World } from '../replica/world';
import { openNaverTab, type NaverTab } from './naver-replica-tab';
import { createRenderedListDriver, type SimListDriver } from './sim-list-pages';

export interface NaverSimOptions {
  switches: Partial<NaverSwitches>;
  random(): number;
  /** Share of cards unread the first time their place is shown (mid-render), as the Google simulation does. */
  unreadableRate: number;
  /** Share of list loads that fail (the replica's HTTP 500 page). */
  failRate: number;
}

/** Counts its loads and its page turns. */
export type NaverSimDriver = SimListDriver;

/** The window the sweep's worker tab has (the list page lays itself out in it). */
const VIEWPORT = { width: 1280, height: 800, panelWidth: 0 };

export function createNaverSimDriver(world: World, o: Partial<NaverSimOptions> & Pick<NaverSimOptions, 'random'>): NaverSimDriver {
  const switches = mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, o.switches ?? {});
  const unreadableRate = o.unreadableRate ?? 0;
  const failRate = o.failRate ?? 0;
  /** The pages' clock (virtual ms): the collector's pauses advance it. */
  let clock = 0;
  /** Places whose card some page has shown (for `unreadableRate`: only the first showing may be unread). */
  const shownBefore = new Set<string>();
  const tabs = new Map<number, { tab: NaverTab; previous: WeakMap<object, PageMark> }>();

  function tabOf(tabId: number) {
    let t = tabs.get(tabId);
    if (!t) {
      const tab = openNaverTab(world, {
        switches,
        now: () => clock,
        immediateTimers: true,
        log: false,
      });
      t = { tab, previous: new WeakMap() };
      tabs.set(tabId, t);
    }
    return t;
  }

  /**
   * Cards shown for the first time lose their place link and name with `unreadableRate` (a card
   * caught mid-render: shown, not readable); a place shown before is always read.
   */
  function unreadNewCards(doc: Document): void {
    if (unreadableRate <= 0) return;
    for (const li of Array.from(doc.querySelectorAll('#_pcmap_list_scroll_container li:not([data-sim-seen])'))) {
      li.setAttribute('data-sim-seen', '');
      // Ads (the help link beside the card's own) are always read, as before.
      if (li.querySelector('a[href*="NSP_M"]')) continue;
      const link = li.querySelector('a[href*="entry=pll"]');
      const id = /\/(\d+)\?entry=pll/.exec(link?.getAttribute('href') ?? '')?.[1];
      if (!link || !id || shownBefore.has(id)) continue;
      shownBefore.add(id);
      if (o.random() >= unreadableRate) continue;
      link.setAttribute('href', '#');
      const name = li.querySelector('.place_bluelink > span');
      if (name) name.textContent = '';
    }
  }

  return createRenderedListDriver({
    async load(tabId, url) {
      const { tab } = tabOf(tabId);
      const failed = failRate > 0 && o.random() < failRate;
      // The load (not the page turns after it) answers the replica's 500 page.
      if (failed) tab.handler.setSwitches({ error500Paths: [...switches.error500Paths, '/'] });
      try {
        await tab.goto(url);
      } finally {
        if (failed) tab.handler.setSwitches({ error500Paths: switches.error500Paths });
      }
    },
    async collect(tabId, options) {
      const { tab, previous } = tabOf(tabId);
      await tab.settle();
      const win = tab.window();
      const doc = tab.doc();
      unreadNewCards(doc);
      // As the content script: one per document, so `previous` is this document's last collection.
      const before = previous.get(win) ?? null;
      const observation: Observation = await collectNaverPage(
        {
          doc,
          url: () => win.location.href,
          now: () => clock,
          sleep: async (ms) => {
            clock += Math.max(0, ms);
            await tab.settle();
            unreadNewCards(doc);
          },
          random: o.random,
          httpStatus: tab.lastStatus,
          hidden: () => false,
          previous: before,
          pageData: tab.pageData(),
        },
        options,
      );
      const mark = pageMarkOf(observation) ?? before;
      if (mark) previous.set(win, mark);
      return observation;
    },
    async nextPage(tabId) {
      const { tab } = tabOf(tabId);
      await tab.settle();
      const pressed = pressNextPage(tab.doc());
      // The replica's pager navigates: the next collection reads the new document.
      if (pressed.clicked) await tab.settle();
      return pressed;
    },
    viewport: () => VIEWPORT,
    async close() {
      await Promise.all([...tabs.values()].map((t) => t.tab.close()));
      tabs.clear();
    },
  });
}
