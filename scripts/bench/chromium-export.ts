/**
 * The popup's Export CSV as the product runs it, in the production build: seconds from the
 * click until the downloaded file is complete, and the browser's memory meanwhile.
 *
 * Over LONG_EXPORT_PLACES (20,000) the popup only asks the service worker, which opens the
 * offscreen document that builds the file and hands it to the downloads API: no page of
 * Playwright's sees that download, so the end is the downloads API's own `onChanged` state
 * `complete`, heard in the service worker (a listener installed before the click), and the
 * popup is closed once the export has started, as a real popup closes when it loses focus. At
 * or under it the popup builds the file itself and the page's download event ends the run.
 *
 * Memory: the summed VmRSS of the whole Chromium process tree (browser, renderers, the
 * offscreen document, utility processes) read from /proc every 100 ms, its peak against the
 * idle level just before the click; the summed Pss (shared pages counted once) every fifth
 * sample; and the summed RssAnon (private memory only: RSS also counts the database's and the
 * file's pages mapped in, which grow with what was read, not with what the export holds). Not performance.measureUserAgentSpecificMemory: it needs a cross-origin-isolated page
 * and would measure one page, while the export spans the worker, the offscreen document and the
 * browser process that writes the file.
 *
 * Run alone: `npx tsx scripts/bench/chromium-export.ts [--sizes=10000,100000,200000] [--runs=3]`
 * (needs `npm run build`).
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Page, Worker } from 'playwright-core';
import { launchBrowser, newProfileDir, openPopup, serviceWorker, type RunningBrowser } from '../../tests/browser/harness';
import { LONG_EXPORT_PLACES } from '../../utils/export/limits';
import { areaAround, CENTRE, dispose, extensionBrowser, median, round, spread, UNPACED_SETTINGS, type BenchContext } from './chromium-context';
import { callBench, installBench, processTree, requireChromium, sampleMemory, treeMemory, type TreeMemory } from './chromium-session';
import { logLine, numbersOf, optionOf, runPrinted } from './standalone';

export interface ExportRun {
  seconds: number;
  /** Where the file was built: the popup itself, or the offscreen document through the downloads API. */
  path: 'popup' | 'offscreen';
  /** The process tree's summed RSS: its peak during the export, and the idle level before the click. */
  peak_mb: number;
  baseline_mb: number;
  peak_over_baseline_mb: number;
  /** The same as Pss (shared pages counted once), sampled every 500 ms. */
  peak_pss_mb: number;
  baseline_pss_mb: number;
  /**
   * The same sum of RssAnon only (heap and other private memory, not file pages mapped in):
   * what the export itself allocates, apart from the database's and the file's pages the
   * kernel maps and may drop.
   */
  peak_anon_over_baseline_mb: number;
  rows: number;
  file_mb: number;
  samples: number;
}

/** Summed RssAnon of the process tree, MB. */
function treeAnonMb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      const m = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += m ? Number(m[1]) : 0;
    } catch {
      // Gone already.
    }
  }
  return kb / 1024;
}

/** The peak of treeAnonMb every 100 ms until stopped. */
function sampleAnon(root: number): () => number {
  let peak = treeAnonMb(root);
  const timer = setInterval(() => (peak = Math.max(peak, treeAnonMb(root))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, treeAnonMb(root));
  };
}

export interface ExportDetails {
  places: number;
  fill_s: number;
  runs: ExportRun[];
  seconds_median: number;
  peak_over_baseline_mb: number;
  peak_over_baseline_mb_median: number;
  peak_pss_mb: number;
  peak_pss_over_baseline_mb: number;
  peak_anon_over_baseline_mb_median: number;
}

type Log = (line: string) => void;

/** The hook chromium.ts calls: one size, in a browser of the bench's replica context. */
export async function measureExport(
  ctx: BenchContext,
  places: number,
  runs: number,
): Promise<{ figures: { seconds: number; peak_mb: number }; details: ExportDetails }> {
  const details = await exportRuns(() => extensionBrowser(ctx, newProfileDir()), places, runs, ctx.log);
  return { figures: { seconds: details.seconds_median, peak_mb: Math.max(...details.runs.map((r) => r.peak_mb)) }, details };
}

export interface ExportScaling {
  sizes: Record<string, ExportDetails>;
  /** Peak RSS over idle at the largest size ÷ at the smallest long (offscreen) size: ≈ 1 when memory does not grow with the collection. */
  memory_growth_ratio: number | null;
}

/** Each size in a fresh profile (an export's cost must not include the last one's leftovers). */
export async function measureExportScaling(sizes: readonly number[], runs: number, log: Log = () => {}): Promise<ExportScaling> {
  const out: Record<string, ExportDetails> = {};
  for (const places of sizes) {
    log(`export scaling: ${places} places`);
    // The export needs no map site: the browser is started without the replica's resolver.
    out[String(places)] = await exportRuns(() => launchBrowser({ profileDir: newProfileDir(), resolverArgs: [] }), places, runs, log);
  }
  const long = Object.values(out)
    .filter((d) => d.places > LONG_EXPORT_PLACES)
    .sort((a, b) => a.places - b.places);
  const ratio = long.length >= 2 ? long[long.length - 1]!.peak_over_baseline_mb_median / Math.max(1, long[0]!.peak_over_baseline_mb_median) : null;
  return { sizes: out, memory_growth_ratio: ratio === null ? null : round(ratio) };
}

async function exportRuns(launch: () => Promise<RunningBrowser>, places: number, runs: number, log: Log): Promise<ExportDetails> {
  const b = await launch();
  try {
    const setup = await openPopup(b.context);
    await installBench(setup, log);
    const seeded = await callBench(setup, 'seedSweep', {
      sweepId: 'bench-export',
      keywordsText: 'cafe',
      areaText: areaAround(0.03, CENTRE.lat, CENTRE.lng),
      status: 'finished',
      pauseReason: null,
      settings: UNPACED_SETTINGS,
      listings: places,
    });
    await setup.close();
    if (seeded.listings !== places) throw new Error(`export: ${seeded.listings} places stored, ${places} asked`);
    log(`  export: ${seeded.listings} places filled in ${(seeded.fillMs / 1000).toFixed(1)} s`);
    const sw = await serviceWorker(b.context);
    const done: ExportRun[] = [];
    for (let i = 0; i < runs; i++) done.push(await oneRun(b, sw, places));
    const over = done.map((r) => r.peak_over_baseline_mb);
    log(
      `  export of ${places} places (${done[0]!.path}): ${spread(
        done.map((r) => r.seconds),
        's',
      )}; peak RSS ${spread(
        done.map((r) => r.peak_mb),
        'MB',
        0,
      )}, ` +
        `over idle ${spread(over, 'MB', 0)}; peak Pss ${spread(
          done.map((r) => r.peak_pss_mb),
          'MB',
          0,
        )} ` +
        `(idle ${spread(
          done.map((r) => r.baseline_pss_mb),
          'MB',
          0,
        )}); RssAnon over idle ${spread(
          done.map((r) => r.peak_anon_over_baseline_mb),
          'MB',
          0,
        )}; ${done[0]!.file_mb} MB file`,
    );
    return {
      places,
      fill_s: round(seeded.fillMs / 1000, 1),
      runs: done,
      seconds_median: round(median(done.map((r) => r.seconds))),
      peak_over_baseline_mb: Math.max(...over),
      peak_over_baseline_mb_median: Math.round(median(over)),
      peak_pss_mb: Math.max(...done.map((r) => r.peak_pss_mb)),
      peak_pss_over_baseline_mb: Math.max(...done.map((r) => r.peak_pss_mb - r.baseline_pss_mb)),
      peak_anon_over_baseline_mb_median: Math.round(median(done.map((r) => r.peak_anon_over_baseline_mb))),
    };
  } finally {
    await dispose(b);
  }
}

/** A fresh popup, as a person opens it to export; the sweep's count must show before the click. */
async function readyPopup(b: RunningBrowser, places: number): Promise<Page> {
  const popup = await openPopup(b.context);
  const button = popup.getByRole('button', { name: 'Export CSV', exact: true });
  await button.waitFor({ timeout: 30_000 });
  const count = places.toLocaleString('en-US');
  const option = popup.getByLabel('Places to export').locator('option:checked');
  for (const until = Date.now() + 30_000; !((await option.textContent()) ?? '').includes(count); ) {
    if (Date.now() > until) throw new Error(`export: the popup never showed ${count} places to export`);
    await popup.waitForTimeout(100);
  }
  return popup;
}

interface DownloadDone {
  state: string;
  filename: string;
  error?: string;
}

/**
 * Resolves in the service worker when the next download reaches `complete` or `interrupted`
 * (downloads.onChanged, the event the product itself waits on), with its file's path.
 */
function nextDownloadInWorker(sw: Worker): Promise<DownloadDone> {
  // A source string, not a function: tsx would wrap a function's source in helpers the worker lacks.
  return sw.evaluate(`new Promise((resolve) => {
    const api = globalThis.chrome;
    const listener = (d) => {
      const state = d.state && d.state.current;
      if (state !== 'complete' && state !== 'interrupted') return;
      api.downloads.onChanged.removeListener(listener);
      api.downloads.search({ id: d.id }).then((items) =>
        resolve({ state, filename: (items[0] && items[0].filename) || '', error: (d.error && d.error.current) || undefined }));
    };
    api.downloads.onChanged.addListener(listener);
  })`) as Promise<DownloadDone>;
}

async function oneRun(b: RunningBrowser, sw: Worker, places: number): Promise<ExportRun> {
  const long = places > LONG_EXPORT_PLACES;
  const popup = await readyPopup(b, places);
  const pid = b.process.pid!;
  await popup.waitForTimeout(1500);
  const idle: TreeMemory[] = [];
  for (let k = 0; k < 5; k++) {
    idle.push(treeMemory(pid));
    await popup.waitForTimeout(100);
  }
  const baseline = median(idle.map((m) => m.rssMb));
  const baselinePss = median(idle.map((m) => m.pssMb));
  const baselineAnon = treeAnonMb(pid);
  const stopAnon = sampleAnon(pid);
  const button = popup.getByRole('button', { name: 'Export CSV', exact: true });

  let file: string;
  let seconds: number;
  let memory: ReturnType<ReturnType<typeof sampleMemory>['stop']>;
  if (long) {
    const finished = nextDownloadInWorker(sw);
    // The listener is in place before the click (evaluate has run once the worker answers this).
    await sw.evaluate('0');
    const sampler = sampleMemory(pid, 100);
    const start = Date.now();
    await button.click();
    // Once the export has started (its progress shows), the popup goes, as a real one does.
    const status = popup.getByTestId('export-status');
    for (const until = Date.now() + 30_000; !/Exporting|Writing|Exported/.test((await status.textContent().catch(() => '')) ?? ''); ) {
      if (Date.now() > until) throw new Error('export: no progress in the popup after the click');
      await new Promise((r) => setTimeout(r, 20));
    }
    await popup.close();
    const item = await finished;
    seconds = (Date.now() - start) / 1000;
    memory = sampler.stop();
    if (item.state !== 'complete') throw new Error(`export: the download ended ${item.state}: ${item.error ?? ''}`);
    file = item.filename;
  } else {
    const sampler = sampleMemory(pid, 100);
    const start = Date.now();
    const [download] = await Promise.all([popup.waitForEvent('download', { timeout: 120_000 }), button.click()]);
    file = await download.path();
    seconds = (Date.now() - start) / 1000;
    memory = sampler.stop();
    await popup.close();
  }
  const peakAnon = stopAnon();
  if (!file || !existsSync(file)) throw new Error(`export: no file at ${JSON.stringify(file)}`);
  const size = statSync(file).size;
  const text = readFileSync(file, 'utf8');
  rmSync(file, { force: true });
  const rows = text.split('\r\n').filter((line) => line !== '').length - 1;
  if (rows !== places) throw new Error(`export: ${rows} rows in the CSV, ${places} places stored`);
  return {
    seconds: round(seconds),
    path: long ? 'offscreen' : 'popup',
    peak_mb: Math.round(memory.peakRssMb),
    baseline_mb: Math.round(baseline),
    peak_over_baseline_mb: Math.round(memory.peakRssMb - baseline),
    peak_pss_mb: Math.round(memory.peakPssMb),
    baseline_pss_mb: Math.round(baselinePss),
    peak_anon_over_baseline_mb: Math.round(peakAnon - baselineAnon),
    rows,
    file_mb: round(size / 2 ** 20, 1),
    samples: memory.samples,
  };
}

/** The export sizes `npm run bench` measures: one below the long-export threshold, and two far above it. */
export const EXPORT_SCALING_SIZES = [10_000, 100_000, 200_000];
export const EXPORT_SCALING_RUNS = 3;

runPrinted(import.meta.url, (argv) => {
  requireChromium();
  return measureExportScaling(numbersOf(argv, 'sizes') ?? EXPORT_SCALING_SIZES, Number(optionOf(argv, 'runs') ?? EXPORT_SCALING_RUNS), logLine);
});
