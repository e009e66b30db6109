/**
 * Kakao's search page, in-process: every load renders the replica's own search page with its own
 * script (tests/helpers/kakao-content-harness.ts openKakaoPage: the page sends its search, the
 * MAIN-world hook copies the answers, the fake network answers with the replica's own functions
 * on a virtual clock), and every call is the extension's real content script answer
 * (utils/providers/kakao/collect.ts: the first-page controls pressed by kakaoFirstPageReady /
 * pressKakaoControl, collectKakaoPage, pressKakaoNextPage), as kakao/content.ts wires them. So
 * the real planner, queue, store and driver sweep a Kakao world through the real collector.
 *
 * The map is the view the URL asks for (or the replica's default when `urlView: 'ignored'`, as
 * the replica server does), in a window of `window` size; everything else is the replica's
 * switches. On top of the rendered page the sim adds: loads that fail (the tab shows Kakao's
 * error page, HTTP 500), cards unread the first time their place shows (no place link yet), and
 * answers whose counts the extension cannot read (`reportsTotal: false`).
 *
 * The harness renders into the global document, so one tab at a time (the sweeps here run one
 * worker loop); where no global document exists (a node-environment test, the bench), vitest's
 * happy-dom globals are installed first (happy-dom-globals.ts).
 */
import { collectKakaoPage, type KakaoCollectEnv } from '../../utils/providers/kakao/collect';
import { kakaoFirstPageReady, kakaoPreparation, pressKakaoControl, pressKakaoNextPage, type KakaoPreparation } from '../../utils/providers/kakao/first-page';
import type { KakaoNetwork } from '../../utils/providers/kakao/network';
import { parseSearchPageUrl, viewAt, type KakaoView } from '../../utils/providers/kakao/urls';
import { kakaoBlockPageHtml } from '../replica/kakao/pages';
import type { KakaoWorld } from '../replica/kakao/places';
import { DEFAULT_KAKAO_SWITCHES, mergeKakaoSwitches, type KakaoSwitches } from '../replica/kakao/switches';
import { openKakaoPage, type KakaoPageHarness } from './kakao-content-harness';
import { ensureHappyDomGlobals } from './happy-dom-globals';
import { createRenderedListDriver, type SimListDriver } from './sim-list-pages';

export interface KakaoSimOptions {
  switches: Partial<KakaoSwitches>;
  random(): number;
  /** Share of loads that fail (the tab shows Kakao's error page with HTTP 500; the judge retries). */
  failRate: number;
  /** Share of cards unread the first time their place is shown (no place link rendered yet). */
  unreadableRate: number;
  /** The window (CSS px); the map is what lies right of `switches.panelWidth`. */
  window: { width: number; height: number };
  /** The extension reads the answers' `place_totalcount` and `page_count` (default true); false: as if they never said. */
  reportsTotal: boolean;
}

/** Counts its loads and its page turns. */
export type KakaoSimDriver = SimListDriver;

/** The level the replica's map opens at when it ignores the URL's view (server.ts DEFAULT_LEVEL). */
const DEFAULT_LEVEL = 5;
/** What the real PageDriver reports for a worker tab (utils/browser/page-driver.ts RESULTS_PANEL_WIDTH). */
const PANEL_WIDTH = 408;

interface Shown {
  tabId: number;
  env: KakaoCollectEnv;
  /** One per document, as the content script keeps it. */
  prep: KakaoPreparation;
  harness: KakaoPageHarness | null;
}

export function createKakaoSimDriver(kw: KakaoWorld, o: Partial<KakaoSimOptions> & Pick<KakaoSimOptions, 'random'>): KakaoSimDriver {
  const switches = mergeKakaoSwitches(DEFAULT_KAKAO_SWITCHES, o.switches ?? {});
  const win = o.window ?? { width: 1280, height: 800 };
  const unreadableRate = o.unreadableRate ?? 0;
  /** Places whose card some page has shown (for `unreadableRate`). */
  const shownBefore = new Set<string>();
  let shown: Shown | null = null;

  /** Cards shown for the first time lose their place link with `unreadableRate` (shown, not readable). */
  function unreadNewCards(): void {
    if (unreadableRate <= 0) return;
    const list = document.getElementById('info.search.place.list');
    for (const li of Array.from(list?.querySelectorAll('li:not([data-sim-seen])') ?? [])) {
      li.setAttribute('data-sim-seen', '');
      const link = li.querySelector('a.moreview');
      const id = /\/(\d+)$/.exec(link?.getAttribute('href') ?? '')?.[1];
      if (!link || !id || shownBefore.has(id)) continue;
      shownBefore.add(id);
      if (o.random() < unreadableRate) link.removeAttribute('href');
    }
  }

  /** The env the content script would have, with the sim's additions on top of the harness's. */
  function envOf(h: KakaoPageHarness, url: string): KakaoCollectEnv {
    return {
      ...h.env,
      url: () => url,
      sleep: async (ms) => {
        await h.env.sleep(ms);
        unreadNewCards();
      },
      network: o.reportsTotal === false ? withoutCounts(h.env.network) : h.env.network,
    };
  }

  /** A failed load: Kakao's error page, nothing of the search page (a clock of its own, as the harness's). */
  function failedEnv(url: string): KakaoCollectEnv {
    document.head.innerHTML = '';
    document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(kakaoBlockPageHtml())![1]!;
    let now = 0;
    return {
      doc: document,
      url: () => url,
      now: () => now,
      sleep: async (ms) => {
        now += Math.max(0, ms);
      },
      requests: () => [],
      network: { exchanges: () => [], pending: () => 0 },
      httpStatus: () => 500,
      hidden: () => false,
    };
  }

  function current(tabId: number): Shown {
    if (!shown || shown.tabId !== tabId) throw new Error(`kakao sim: tab ${tabId} shows no page (one tab at a time)`);
    return shown;
  }

  return createRenderedListDriver({
    async load(tabId, url) {
      await ensureHappyDomGlobals();
      if (shown && shown.tabId !== tabId) throw new Error('kakao sim: one tab at a time (the harness renders into the global document)');
      shown?.harness?.close();
      // The page lays its map out in the window (the replica page reads innerWidth/innerHeight).
      Object.assign(globalThis, { innerWidth: win.width, innerHeight: win.height });
      const info = parseSearchPageUrl(url);
      const failed = (o.failRate ?? 0) > 0 && o.random() < o.failRate!;
      if (failed || !info) {
        shown = { tabId, env: failedEnv(url), prep: kakaoPreparation(), harness: null };
        return;
      }
      const view: KakaoView = (switches.urlView === 'honoured' ? info.view : null) ?? viewAt(kw.world.centre, DEFAULT_LEVEL)!;
      const harness = openKakaoPage(info.query ?? '', view, switches, kw);
      shown = { tabId, env: envOf(harness, url), prep: kakaoPreparation(), harness };
      unreadNewCards();
    },
    async collect(tabId, options) {
      const { env } = current(tabId);
      unreadNewCards();
      // kakao/content.ts adds the canvas it measures; happy-dom lays nothing out, and the driver
      // proves Kakao's cells by the reported box, not the canvas.
      return collectKakaoPage(env, options);
    },
    nextPage: async (tabId) => pressKakaoNextPage(current(tabId).env),
    firstPage: {
      ready: async (tabId, options) => (await kakaoFirstPageReady(current(tabId).env, options, current(tabId).prep)).ready,
      press: (tabId) => pressKakaoControl(current(tabId).env, current(tabId).prep),
    },
    viewport: () => ({ width: win.width, height: win.height, panelWidth: PANEL_WIDTH }),
    async close() {
      shown?.harness?.close();
      shown = null;
    },
  });
}

/** The hook's copies without the counts the answers carry (`place_totalcount`, `page_count`). */
function withoutCounts(network: Pick<KakaoNetwork, 'exchanges' | 'pending'>): Pick<KakaoNetwork, 'exchanges' | 'pending'> {
  return {
    exchanges: () => network.exchanges().map((e) => (e.result.kind === 'ok' ? { ...e, result: { ...e.result, totalCount: null, pageCount: null } } : e)),
    pending: () => network.pending(),
  };
}
