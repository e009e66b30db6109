/**
 * What the extension costs per cell beyond the page itself. A sweep runs from the popup with
 * the tests' settings minus pacing (delay and jitter 0); its time per cell is from the sweep's
 * creation to its finish (both stamped by the extension) over the searches it loaded. Then a
 * plain Playwright script, in a Chromium without the extension, visits the same search URLs in
 * the same order and scrolls each list to its end (chromium-plain.ts). Both hit the same replica.
 * Rounds alternate sweep and plain run so background load falls on both.
 */
import { newProfileDir, readAll, readSweeps, waitFor } from '../../tests/browser/harness';
import { startSweepFromPopup } from '../../tests/browser/extension';
import { seededRandom } from '../../tests/helpers/random';
import { chromiumArgs } from '../../tests/replica/server';
import type { Cell } from '../../utils/domain/sweep';
import { areaAround, dispose, extensionBrowser, median, openMapTab, round, spread, UNPACED_SETTINGS, type BenchContext } from './chromium-context';
import { visitLikeAPerson, type PlainVisit } from './chromium-plain';
import { launchPlainBrowser } from './chromium-session';

/** A small district of the bench world: a few dozen searches, some crowded enough to split. */
export const OVERHEAD_AREA = areaAround(0.012, 37.53, 127.02);

export interface OverheadRound {
  cells: number;
  extension_ms_per_cell: number;
  plain_ms_per_cell: number;
  ratio: number;
  /** Organic cards the sweep recorded vs the plain script saw: the same work on both sides. */
  extension_cards: number;
  plain_cards: number;
}

export interface OverheadDetails {
  settings: typeof UNPACED_SETTINGS;
  rounds: OverheadRound[];
  plain_outcomes: Record<PlainVisit['outcome'], number>;
}

interface SweepRun {
  urls: string[];
  msPerCell: number;
  cards: number;
}

export async function measureOverhead(ctx: BenchContext, rounds: number): Promise<{ ratio: number; details: OverheadDetails }> {
  const done: OverheadRound[] = [];
  const outcomes: Record<PlainVisit['outcome'], number> = { end: 0, cap: 0, place: 0, 'not-found': 0, stalled: 0 };
  let firstUrls: string[] | null = null;
  for (let i = 0; i < rounds; i++) {
    const sweep = await sweepOnce(ctx);
    if (firstUrls && firstUrls.join('\n') !== sweep.urls.join('\n')) ctx.log('  overhead: this sweep loaded other URLs than the first one');
    firstUrls ??= sweep.urls;
    const plain = await plainOnce(ctx, sweep.urls, i);
    for (const v of plain.visits) outcomes[v.outcome] += 1;
    const r: OverheadRound = {
      cells: sweep.urls.length,
      extension_ms_per_cell: Math.round(sweep.msPerCell),
      plain_ms_per_cell: Math.round(plain.msPerCell),
      ratio: round(sweep.msPerCell / plain.msPerCell),
      extension_cards: sweep.cards,
      plain_cards: plain.visits.reduce((n, v) => n + v.cards, 0),
    };
    ctx.log(
      `  overhead round ${i + 1}: ${r.cells} cells, extension ${r.extension_ms_per_cell} ms/cell, plain ${r.plain_ms_per_cell} ms/cell, ratio ${r.ratio}`,
    );
    done.push(r);
  }
  ctx.log(
    `  overhead ratio ${spread(
      done.map((r) => r.ratio),
      '×',
    )}`,
  );
  return { ratio: round(median(done.map((r) => r.ratio))), details: { settings: UNPACED_SETTINGS, rounds: done, plain_outcomes: outcomes } };
}

async function sweepOnce(ctx: BenchContext): Promise<SweepRun> {
  const b = await extensionBrowser(ctx, newProfileDir());
  try {
    const map = await openMapTab(b.context);
    const from = ctx.replica.requests.length;
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: OVERHEAD_AREA }, UNPACED_SETTINGS);
    // The person looks at the map while it works (the popup would close on its own).
    await map.bringToFront();
    const sweep = await waitFor(
      async () => (await readSweeps(popup)).find((s) => s.status !== 'running') ?? null,
      'the overhead sweep to finish',
      300_000,
      250,
    );
    if (sweep.status !== 'finished') throw new Error(`overhead: the sweep ended ${sweep.status}: ${sweep.problem?.message ?? ''}`);
    const { createdAt, updatedAt } = sweep as unknown as { createdAt: number; updatedAt: number };
    const urls = ctx.replica.requests
      .slice(from)
      .filter((r) => r.kind === 'page' && r.path.startsWith('/maps/search/'))
      .map((r) => `https://www.google.com${r.path}`);
    const cells = await readAll<Cell>(popup, 'cells');
    const cards = cells.reduce((n, c) => n + (c.result?.organic ?? 0), 0);
    return { urls, msPerCell: (updatedAt - createdAt) / urls.length, cards };
  } finally {
    await dispose(b);
  }
}

async function plainOnce(ctx: BenchContext, urls: string[], seed: number): Promise<{ msPerCell: number; visits: PlainVisit[] }> {
  const { browser, page } = await launchPlainBrowser(chromiumArgs(ctx.replica.port));
  try {
    const random = seededRandom(1000 + seed);
    const visits: PlainVisit[] = [];
    const start = Date.now();
    for (const url of urls) visits.push(await visitLikeAPerson(page, url, UNPACED_SETTINGS.scrollPauseMs, random));
    return { msPerCell: (Date.now() - start) / urls.length, visits };
  } finally {
    await browser.close();
  }
}
