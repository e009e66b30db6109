// @vitest-environment happy-dom
/**
 * Kakao's first page takes up to three of the page's own controls ("현 지도 내 장소검색",
 * "장소 더보기", page 1), each of which makes the page send a search (issue 22). None of them may
 * be pressed outside the host's pacing lane: the content script never presses them on its own
 * (utils/providers/kakao/collect.ts), and the real driver presses each in a turn of its own
 * (utils/sweep/paged-visit.ts prepareFirstPage). The driver runs here against the replica's search
 * page in happy-dom (kakao-content-harness.ts) with the real pacer on a virtual clock, and every
 * search the page sends is stamped with that clock.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageDriver } from '../../utils/browser/page-driver';
import { collectKakaoPage, type KakaoCollectEnv } from '../../utils/providers/kakao/collect';
import { kakaoFirstPageReady, kakaoPreparation, pressKakaoControl, pressKakaoNextPage } from '../../utils/providers/kakao/first-page';
import type { CollectOptions } from '../../utils/messaging/protocol';
import { kakaoProvider } from '../../utils/providers/kakao/provider';
import { parseMapDaumUrl, parseSearchPageUrl, viewForBox } from '../../utils/providers/kakao/urls';
import { openStore } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { DEFAULT_KAKAO_SWITCHES } from '../replica/kakao/switches';
import { seededRandom } from '../helpers/random';
import { openKakaoPage, type KakaoPageHarness } from '../helpers/kakao-content-harness';

const OPTIONS: CollectOptions = { cap: 510, stallMs: 8000, maxMs: 90_000, settleMs: 15_000, scrollPauseMs: 0 };
const CELL = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
/** Virtual ms between a search the page sends and the harness's server seeing it (kakao-content-harness.ts). */
const HARNESS_LATENCY_MS = 40;
const CANVAS = { width: 1024 - DEFAULT_KAKAO_SWITCHES.panelWidth, height: 768 };

let open: KakaoPageHarness | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

describe('the content script presses nothing on its own', () => {
  it('reading the first page sends no search beyond the one its load made', async () => {
    open = openKakaoPage('cafe', viewForBox(CELL, CANVAS)!);
    const first = await collectKakaoPage(open.env, OPTIONS);
    // The page's own search on load, and nothing else: no tick, no "더보기", no page 1.
    expect(open.sent).toHaveLength(1);
    expect(first.warnings.some((w) => w.startsWith('kakao-bounds-not-ticked'))).toBe(true);
  });

  it('waiting for the page sends nothing; each press sends exactly one search', async () => {
    open = openKakaoPage('cafe', viewForBox(CELL, CANVAS)!);
    const h = open;
    const prep = kakaoPreparation();
    const presses: number[] = [];
    // The search the page sends on load is answered first.
    h.advance(100);
    expect(h.sent).toHaveLength(1);
    for (;;) {
      const before = h.sent.length;
      const { ready } = await kakaoFirstPageReady(h.env, OPTIONS, prep);
      // The wait only lets the previous press's answer in (it was sent at the press).
      expect(h.sent.length).toBe(before);
      if (ready) break;
      expect(await pressKakaoControl(h.env, prep)).toEqual({ clicked: true });
      h.advance(1000);
      presses.push(h.sent.length - before);
    }
    // Defaults: unticked control, a preview, "더보기" landing on page 2: three presses, one search each.
    expect(presses).toEqual([1, 1, 1]);
    const first = await collectKakaoPage(h.env, OPTIONS);
    expect(first.pager).toEqual({ page: 1, more: true });
    expect(parseMapDaumUrl(h.sent.at(-1)!)!.rect).not.toBeNull();
    expect(first.warnings.filter((w) => /kakao-(bounds|page-1|no-bounds)/.test(w))).toEqual([]);
  });
});

describe('the driver presses each control in its own turn of the lane', () => {
  it('every search the page sends is at least the delay after the one before (page loads, presses, page turns)', { timeout: 120_000 }, async () => {
    const delayMs = 2000;
    const settings = { ...DEFAULT_SETTINGS, delayMs, jitterMs: 0 };
    let clock = 1_000_000;
    /** The page's clock runs with the test's: `clock = base + page.now()` while a page is open. */
    let base = clock;
    const tick = (ms: number) => {
      if (open) {
        open.advance(Math.max(0, ms));
        clock = base + open.now();
      } else clock += Math.max(0, ms);
    };
    /** What the site saw: each page load, and each map.daum search the page sent (when it was answered). */
    const seen: { at: number; what: 'load' | 'search'; first: boolean }[] = [];
    let loads = 0;
    let paused = false;
    const store = await openStore({ name: 'kakao-first-page-paced' });

    const envOf = (h: KakaoPageHarness): KakaoCollectEnv => ({
      ...h.env,
      now: () => base + h.now(),
      sleep: async (ms) => {
        tick(ms);
        await Promise.resolve();
      },
    });
    const page: PageDriver = {
      async load(_tab, url) {
        const info = parseSearchPageUrl(url)!;
        open?.close();
        base = clock;
        // As the site sees it: the harness answers the page's searches this long after they are sent.
        seen.push({ at: clock + HARNESS_LATENCY_MS, what: 'load', first: false });
        loads++;
        // The page's own first search starts with the load (part of it, as its assets are).
        let afterLoad = true;
        const h = openKakaoPage(info.query ?? '', info.view!, {});
        const push = h.sent.push.bind(h.sent);
        h.sent.push = (...urls: string[]) => {
          seen.push({ at: base + h.now(), what: 'search', first: afterLoad });
          afterLoad = false;
          return push(...urls);
        };
        open = h;
        // The second cell: the user pauses while its page shows (its presses must not happen).
        if (loads === 2) {
          await store.patchSweep('kp', { status: 'paused', pauseReason: 'user' });
          paused = true;
        }
        return { url };
      },
      collect: async (_tab, options) => collectKakaoPage(envOf(open!), options),
      nextPage: async () => pressKakaoNextPage(envOf(open!)),
      firstPage: {
        ready: async (_tab, options) => (await kakaoFirstPageReady(envOf(open!), options, prep())).ready,
        press: async () => pressKakaoControl(envOf(open!), prep()),
      },
      viewport: async () => ({ width: 1024, height: 768, panelWidth: DEFAULT_KAKAO_SWITCHES.panelWidth }),
      exists: async () => true,
    };
    // One preparation per document, as the content script keeps it.
    const preps = new WeakMap<KakaoPageHarness, ReturnType<typeof kakaoPreparation>>();
    const prep = () => {
      if (!preps.has(open!)) preps.set(open!, kakaoPreparation());
      return preps.get(open!)!;
    };

    const random = seededRandom(4);
    const areaText = `${CELL.south},${CELL.west},${CELL.north},${CELL.east}`;
    const plan = planSweep({ areaText, keywordsText: 'cafe', settings, viewport: await page.viewport(1), origin: null, provider: kakaoProvider }, 'kp', clock);
    if (!plan.ok) throw new Error(plan.error.message);
    await store.createSweep(plan.sweep, plan.cells);
    const sleep = async (ms: number) => {
      tick(ms);
      await Promise.resolve();
    };
    const pacer = createPacer({ now: () => clock, sleep, random, timing: () => settings });
    const exit = await runWorker({ store, page, pacer, now: () => clock, sleep, random, attention: () => {} }, 'kp', 1);

    expect(paused).toBe(true);
    expect(exit).toBe('not-running');
    // A page load and the search its page sends on load are one request of the extension's.
    const caused = seen.filter((s) => !s.first);
    const gaps = caused.slice(1).map((s, i) => s.at - caused[i]!.at);
    console.log(`kakao: ${loads} page loads and ${caused.length - loads} searches they did not make themselves; smallest gap ${Math.min(...gaps)} ms`);
    // The visit pressed its three controls and walked its pages: more than a load's worth.
    expect(caused.filter((s) => s.what === 'search').length).toBeGreaterThanOrEqual(3);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delayMs);
    // Paused while the second cell's page showed: nothing of it was pressed.
    const secondLoad = seen.filter((s) => s.what === 'load')[1]!;
    expect(seen.filter((s) => s.at > secondLoad.at && !s.first)).toEqual([]);
    const cells = await store.listCells('kp');
    expect(cells.filter((c) => c.status === 'leased')).toEqual([]);
  });
});
