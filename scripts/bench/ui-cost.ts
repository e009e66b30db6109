/**
 * Two page-side costs of issue 5, measured in real Chromium and printed, never asserted:
 *
 * - benchDashboard100k: the dashboard opened on a Browsing collection of 100,000 places in the
 *   extension's real IndexedDB (production build): time from navigation start to the first
 *   listing row painted, to the whole collection loaded, and the work of one scroll jump near
 *   the middle of the table.
 * - benchBrowsingCost: what collecting while browsing costs a Google Maps page: the very
 *   collector the content script runs (createBrowsingCollector), put into a replica search page
 *   whose feed is scrolled batch after batch; extraction time per scan that read new cards,
 *   per 20 cards.
 *
 * Code that must run inside a page is bundled with esbuild from the small entries below and
 * evaluated as a string: an extension page's CSP forbids inline scripts but not CDP's evaluate,
 * and a string does not carry the helpers tsx adds to functions (`__name`), which a page lacks.
 *
 * Run alone: `npx tsx scripts/bench/ui-cost-run.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { EXTENSION_ORIGIN, launchBrowser, newProfileDir, openPopup, waitFor, type RunningBrowser } from '../../tests/browser/harness';
import { chromiumArgs, startReplica } from '../../tests/replica/server';
import { createWorld } from '../../tests/replica/world';
import { CENTRE, dispose, median, round, spread } from './chromium-context';
import { launchPlainBrowser } from './chromium-session';
import { percentile } from './stats';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** How many places the dashboard bench stores, and how many per commitBrowsing transaction. */
export const DASHBOARD_PLACES = 100_000;
const FILL_BATCH = 2_000;
/** Dashboard openings measured on the same store (the first one also warms IndexedDB's caches). */
const DASHBOARD_OPENINGS = 3;
/** Scroll jumps around the middle of the table, each to a window no earlier jump rendered. */
const SCROLL_JUMPS = 30;
/** The table's fixed row height (components/dashboard/ListingsTable.tsx ROW_HEIGHT). */
const ROW_HEIGHT = 28;

type Log = (line: string) => void;
const defaultLog: Log = (line) => console.log(line);

/** Entry bundled for an extension page: fills the Browsing collection through the real store. */
const FILL_ENTRY = `
import { openStore } from './utils/store';
import { idsFromPair } from './utils/providers/google/ids';
import { cidUrl } from './utils/providers/google/urls';
import type { Listing } from './utils/domain/listing';

const CATEGORIES = ['Cafe', 'Korean restaurant', 'Pharmacy', 'Bakery', 'Hair salon', 'Convenience store', 'Bar', 'Dentist'];
const NAMES = ['카페 온도', 'Seoul Table', '할매국밥', 'Slow Brew', '고향식당', 'Daily Roast', '명동칼국수', 'Golden Spoon'];
const STREETS = ['Sejong-daero', 'Eulji-ro', 'Jong-ro', 'Toegye-ro', 'Namdaemun-ro', 'Cheonggyecheon-ro'];

/** A valid, varied listing for index i; every field is a pure function of i, so runs compare. */
function synthetic(i: number): Listing {
  // An odd multiplier is a bijection modulo 2^64: distinct i, distinct CID.
  const ids = idsFromPair(0x357ca2b1e0000000n + BigInt(i % 4096), BigInt(i + 1) * 0x9e3779b97f4a7c15n);
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  return {
    key: 'google:' + ids.cid,
    provider: 'google',
    placeId: ids.placeId,
    featureId: ids.featureId,
    cid: ids.cid,
    name: NAMES[h % NAMES.length] + ' ' + (i + 1),
    category: h % 11 === 0 ? null : CATEGORIES[(h >>> 4) % CATEGORIES.length]!,
    address: ((h >>> 8) % 300) + 1 + ' ' + STREETS[(h >>> 12) % STREETS.length] + ', Jung-gu, Seoul',
    phone: h % 5 === 0 ? null : '02-' + (1000 + ((h >>> 3) % 9000)) + '-' + (1000 + ((h >>> 7) % 9000)),
    website: h % 3 === 0 ? 'https://example.com/place/' + i : null,
    rating: h % 7 === 0 ? null : 1 + ((h >>> 5) % 41) / 10,
    reviews: h % 7 === 0 ? null : (h >>> 9) % 5000,
    lat: 37.5665 + (((h >>> 2) % 10000) - 5000) / 100000,
    lng: 126.978 + (((h >>> 14) % 10000) - 5000) / 80000,
    url: cidUrl(ids.cid),
    sponsored: false,
  };
}

/** Stores places [0, total) in the Browsing collection; resolves with its count and where the time went. */
export async function fill(total: number, batch: number): Promise<{ stored: number; makeMs: number; commitMs: number }> {
  const store = await openStore();
  const now = Date.now();
  let makeMs = 0;
  let commitMs = 0;
  for (let start = 0; start < total; start += batch) {
    const t0 = performance.now();
    const listings: Listing[] = [];
    for (let i = start; i < Math.min(total, start + batch); i++) listings.push(synthetic(i));
    const t1 = performance.now();
    await store.commitBrowsing(listings, now);
    makeMs += t1 - t0;
    commitMs += performance.now() - t1;
  }
  return { stored: await store.countListings('browsing'), makeMs, commitMs };
}
`;

/**
 * Installed before the dashboard's own scripts (CDP's init script). A MutationObserver notes,
 * in the page's clock (0 = navigation start), when the first listing row is in the DOM, the
 * frame after it (a rAF, then a task: the frame with the rows has been produced), and when the
 * table holds every place and the status no longer says it is loading.
 */
function probeScript(places: number): string {
  return `(() => {
  const probe = { firstRowMs: null, firstRowPaintedMs: null, allLoadedMs: null, allLoadedPaintedMs: null };
  globalThis.__uiCost = probe;
  const afterFrame = (key) => requestAnimationFrame(() => setTimeout(() => { probe[key] = performance.now(); }, 0));
  const observer = new MutationObserver(() => {
    if (probe.firstRowMs === null && document.querySelector('.table-scroll tbody tr[aria-rowindex]')) {
      probe.firstRowMs = performance.now();
      afterFrame('firstRowPaintedMs');
    }
    if (probe.allLoadedMs === null) {
      const table = document.querySelector('.table-scroll table');
      const status = document.querySelector('.listings [role="status"]');
      if (table && table.getAttribute('aria-rowcount') === '${places + 1}' && status && !/^Loading/.test(status.textContent || '')) {
        probe.allLoadedMs = performance.now();
        afterFrame('allLoadedPaintedMs');
        observer.disconnect();
      }
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['aria-rowcount'] });
})();`;
}

/**
 * In the loaded dashboard: jump the table's scroll area to rows around the middle, one jump at
 * a time. Each sample runs from the scroll event (dispatched at the start of a frame) to the
 * target row being in the DOM and laid out: the script, rendering and layout one jump costs the
 * frame. Paint and compositing are left out; they do not depend on the collection's size.
 */
function scrollJumpsScript(places: number, jumps: number): string {
  return `(async () => {
  const el = document.querySelector('.table-scroll');
  const times = [];
  for (let k = 0; k < ${jumps}; k++) {
    const target = ${Math.floor(places / 2)} + (k - ${Math.floor(jumps / 2)}) * 400;
    times.push(await new Promise((resolve, reject) => {
      let start = null;
      const timer = setTimeout(() => reject(new Error('row ' + target + ' never rendered')), 10000);
      document.addEventListener('scroll', () => { start = performance.now(); }, { capture: true, once: true });
      const observer = new MutationObserver(() => {
        const row = el.querySelector('tr[aria-rowindex="' + (target + 2) + '"]');
        if (!row || start === null) return;
        row.getBoundingClientRect();
        const ms = performance.now() - start;
        observer.disconnect();
        clearTimeout(timer);
        resolve(ms);
      });
      observer.observe(el, { childList: true, subtree: true });
      el.scrollTop = target * ${ROW_HEIGHT};
    }));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
  }
  return times;
})()`;
}

interface DashboardProbe {
  firstRowMs: number | null;
  firstRowPaintedMs: number | null;
  allLoadedMs: number | null;
  allLoadedPaintedMs: number | null;
}

export interface DashboardCost {
  /** Navigation start to the frame after the first listing rows entered the DOM. */
  first_rows_ms: number;
  /** Navigation start to the frame after all 100,000 places were in the table. */
  all_loaded_ms: number;
  /** One scroll jump near the middle: scroll event to the new rows laid out. */
  scroll_frame_ms?: { median: number; p95: number };
}

/** The dashboard on a 100,000-place Browsing collection; medians over DASHBOARD_OPENINGS openings. */
export async function benchDashboard100k(log: Log = defaultLog): Promise<DashboardCost> {
  const fillBundle = await bundle(FILL_ENTRY, 'UiCostFill');
  let b: RunningBrowser | null = null;
  try {
    b = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: [] });
    const popup = await openPopup(b.context);
    await popup.evaluate(fillBundle);
    const fill = (await popup.evaluate(`UiCostFill.fill(${DASHBOARD_PLACES}, ${FILL_BATCH})`)) as { stored: number; makeMs: number; commitMs: number };
    if (fill.stored !== DASHBOARD_PLACES) throw new Error(`the Browsing collection holds ${fill.stored} places, not ${DASHBOARD_PLACES}`);
    log(
      `  dashboard: ${fill.stored} places stored by commitBrowsing in ${(fill.commitMs / 1000).toFixed(1)} s (${(fill.makeMs / 1000).toFixed(1)} s making them)`,
    );
    // The popup polls the store too; closed, it does not compete with the dashboard's reads.
    await popup.close();

    const firstRows: number[] = [];
    const allLoaded: number[] = [];
    let scroll: number[] = [];
    for (let opening = 1; opening <= DASHBOARD_OPENINGS; opening++) {
      const page = await b.context.newPage();
      await page.addInitScript(probeScript(DASHBOARD_PLACES));
      await page.goto(`${EXTENSION_ORIGIN}/dashboard.html`);
      const probe = await waitFor(
        async () => {
          const p = (await page.evaluate('globalThis.__uiCost')) as DashboardProbe | undefined;
          return p?.allLoadedPaintedMs != null ? p : null;
        },
        'all places in the table',
        90_000,
        100,
      );
      firstRows.push(probe.firstRowPaintedMs!);
      allLoaded.push(probe.allLoadedPaintedMs!);
      log(
        `  dashboard opening ${opening}: first rows in DOM ${probe.firstRowMs!.toFixed(0)} ms, painted ${probe.firstRowPaintedMs!.toFixed(0)} ms; ` +
          `all ${DASHBOARD_PLACES} loaded ${probe.allLoadedMs!.toFixed(0)} ms, painted ${probe.allLoadedPaintedMs!.toFixed(0)} ms`,
      );
      // Jumps are measured once, in the last (warm) opening.
      if (opening === DASHBOARD_OPENINGS) scroll = await scrollJumps(page);
      await page.close();
    }
    log(`  dashboard first rows: ${spread(firstRows, 'ms', 0)}; all loaded: ${spread(allLoaded, 'ms', 0)}`);
    log(`  dashboard scroll jump near the middle: ${spread(scroll, 'ms', 1)}`);
    return {
      first_rows_ms: round(median(firstRows), 0),
      all_loaded_ms: round(median(allLoaded), 0),
      scroll_frame_ms: { median: round(median(scroll), 1), p95: round(percentile(scroll, 0.95), 1) },
    };
  } finally {
    await dispose(b);
  }
}

async function scrollJumps(page: Page): Promise<number[]> {
  // The section is below the coverage map: bring the table into view so its rows are laid out on screen.
  await page.locator('.table-scroll').scrollIntoViewIfNeeded();
  return (await page.evaluate(scrollJumpsScript(DASHBOARD_PLACES, SCROLL_JUMPS))) as number[];
}

/** Entry bundled for a Google Maps page: the content script's collector, timed per scan. */
const COLLECTOR_ENTRY = `
import { createBrowsingCollector, type BrowsingCollector } from './utils/content/browsing';

export interface ScanSample { ms: number; cards: number }

/** Starts the collector exactly as the content script wires it, except that nothing is sent. */
export function install(): void {
  const samples: ScanSample[] = [];
  let collector: BrowsingCollector | null = null;
  collector = createBrowsingCollector({
    doc: document,
    url: () => location.href,
    now: () => performance.now(),
    send: () => {},
    // Every scheduled call is wrapped: a call that read new cards (a scan, not a flush) is a sample,
    // its time taken from the collector's own stats.
    schedule: (fn, ms) =>
      setTimeout(() => {
        const before = { ms: collector!.stats.extractMs, cards: collector!.stats.cardsRead };
        fn();
        const cards = collector!.stats.cardsRead - before.cards;
        if (cards > 0) samples.push({ ms: collector!.stats.extractMs - before.ms, cards });
      }, ms),
    observe: (target, onChange) => {
      const observer = new MutationObserver(onChange);
      observer.observe(target, { childList: true, subtree: true });
      return observer;
    },
  });
  collector.start();
  (globalThis as unknown as { __browsingBench: object }).__browsingBench = { samples, stats: collector.stats };
}
`;

interface ScanSample {
  ms: number;
  cards: number;
}

/** The replica searches browsed: two worlds, four categories each, all at zoom 15 (≥ 100 results). */
const BROWSING_SEEDS = [7, 8];
const BROWSING_QUERIES = ['cafe', 'restaurant', 'bar', 'bakery'];
/** Feed batches loaded per page after the first (the feed ends at 120 places). */
const SCROLLS_PER_PAGE = 5;

export interface BrowsingCost {
  /** Extraction time of one scan that read new cards, scaled to 20 cards. */
  ms_per_20_cards: { median: number; p95: number };
  samples: number;
}

/**
 * Extraction cost of collecting while browsing. A plain Chromium (no extension, so only the
 * collector under test reads the page) loads replica searches; the collector is started in the
 * page, then the feed is scrolled to its end one batch at a time, waiting for each batch's scan.
 */
export async function benchBrowsingCost(log: Log = defaultLog): Promise<BrowsingCost> {
  const collectorBundle = await bundle(COLLECTOR_ENTRY, 'UiCostCollector');
  const perScan: number[] = [];
  // A page's first scan runs the collector's code cold and reads the sponsored card too.
  const firstScans: number[] = [];
  let cards = 0;
  for (const seed of BROWSING_SEEDS) {
    const world = createWorld({ seed, places: 20_000, centre: CENTRE, radiusKm: 6 });
    const replica = await startReplica({ world, switches: { batchDelayMs: 100 } });
    const { browser, page } = await launchPlainBrowser(chromiumArgs(replica.port));
    try {
      for (const query of BROWSING_QUERIES) {
        const samples = await browseOnePage(page, collectorBundle, query);
        samples.forEach((s, i) => {
          perScan.push((s.ms / s.cards) * 20);
          if (i === 0) firstScans.push((s.ms / s.cards) * 20);
        });
        const read = samples.reduce((n, s) => n + s.cards, 0);
        cards += read;
        log(`  browsing seed ${seed} "${query}": ${read} cards in ${samples.length} scans, ${samples.map((s) => s.ms.toFixed(1)).join(' ')} ms`);
      }
    } finally {
      await browser.close().catch(() => {});
      await replica.close();
    }
  }
  if (perScan.length === 0) throw new Error('no scan read any card');
  log(`  browsing: ${spread(perScan, 'ms per 20 cards', 2)}; ${cards} cards; first scans of a page alone: ${spread(firstScans, 'ms', 2)}`);
  return { ms_per_20_cards: { median: round(median(perScan), 2), p95: round(percentile(perScan, 0.95), 2) }, samples: perScan.length };
}

async function browseOnePage(page: Page, collectorBundle: string, query: string): Promise<ScanSample[]> {
  await page.goto(`https://www.google.com/maps/search/${query}/@${CENTRE.lat},${CENTRE.lng},15z`);
  await page.waitForSelector('[role="feed"] [role="article"]');
  await page.evaluate(`${collectorBundle};UiCostCollector.install()`);
  const cardCount = () => page.evaluate(`document.querySelectorAll('[role="feed"] [role="article"]').length`) as Promise<number>;
  const sampleCount = () => page.evaluate('globalThis.__browsingBench.samples.length') as Promise<number>;
  await waitFor(async () => (await sampleCount()) >= 1, 'the first scan', 10_000, 50);
  for (let i = 0; i < SCROLLS_PER_PAGE; i++) {
    const before = await cardCount();
    const scans = await sampleCount();
    await page.evaluate(`(() => { const feed = document.querySelector('[role="feed"]'); feed.scrollTop = feed.scrollHeight; })()`);
    const grew = await waitFor(async () => (await cardCount()) > before, 'the next batch', 10_000, 50).catch(() => false);
    if (!grew) break; // the end of the list
    await waitFor(async () => (await sampleCount()) > scans, 'the scan of the new batch', 10_000, 50);
  }
  // One more scan window: a batch may still be read in two scans if it arrived while one ran.
  await page.waitForTimeout(400);
  return (await page.evaluate('globalThis.__browsingBench.samples')) as ScanSample[];
}

/** One script defining `globalThis[globalName]`, from a TypeScript entry that imports the project by relative path. */
async function bundle(contents: string, globalName: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents, resolveDir: REPO, sourcefile: `${globalName}.ts`, loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'error',
  });
  return `${out.outputFiles[0]!.text};globalThis.${globalName} = ${globalName};`;
}
