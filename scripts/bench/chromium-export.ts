/**
 * The popup's Export CSV of a 100k-place sweep: seconds from the click until the downloaded
 * file is complete, and the browser's memory meanwhile (the whole process tree's resident set,
 * sampled from /proc every 100 ms, against the idle level just before the click).
 */
import { readFileSync } from 'node:fs';
import { newProfileDir, openPopup } from '../../tests/browser/harness';
import { areaAround, CENTRE, dispose, extensionBrowser, median, round, spread, UNPACED_SETTINGS, type BenchContext } from './chromium-context';
import { callBench, installBench, sampleMemory, treeMemory, type TreeMemory } from './chromium-session';

export interface ExportRun {
  seconds: number;
  /** The process tree's summed RSS: its peak during the export, and the idle level before the click. */
  peak_mb: number;
  baseline_mb: number;
  peak_over_baseline_mb: number;
  /** The same as Pss (shared pages counted once), sampled every 500 ms. */
  peak_pss_mb: number;
  baseline_pss_mb: number;
  rows: number;
  file_mb: number;
  samples: number;
}

export interface ExportDetails {
  fill_s: number;
  runs: ExportRun[];
  peak_over_baseline_mb: number;
  peak_pss_mb: number;
  peak_pss_over_baseline_mb: number;
}

export async function measureExport(
  ctx: BenchContext,
  places: number,
  runs: number,
): Promise<{ figures: { seconds: number; peak_mb: number }; details: ExportDetails }> {
  const b = await extensionBrowser(ctx, newProfileDir());
  try {
    const setup = await openPopup(b.context);
    await installBench(setup, ctx.log);
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
    ctx.log(`  export: ${seeded.listings} places filled in ${(seeded.fillMs / 1000).toFixed(1)} s`);

    // A fresh popup, as a person opens it to export.
    const popup = await openPopup(b.context);
    const button = popup.getByRole('button', { name: 'Export CSV' });
    await button.waitFor({ timeout: 30_000 });
    const pid = b.process.pid!;
    const done: ExportRun[] = [];
    for (let i = 0; i < runs; i++) {
      await popup.waitForTimeout(1500);
      const idle: TreeMemory[] = [];
      for (let k = 0; k < 5; k++) {
        idle.push(treeMemory(pid));
        await popup.waitForTimeout(100);
      }
      const baseline = median(idle.map((m) => m.rssMb));
      const baselinePss = median(idle.map((m) => m.pssMb));
      const sampler = sampleMemory(pid, 100);
      const start = Date.now();
      const [download] = await Promise.all([popup.waitForEvent('download', { timeout: 120_000 }), button.click()]);
      const file = await download.path();
      const seconds = (Date.now() - start) / 1000;
      const memory = sampler.stop();
      const text = readFileSync(file, 'utf8');
      const rows = text.split('\n').filter((line) => line.trim() !== '').length - 1;
      if (rows < places) throw new Error(`export: ${rows} rows in the CSV, ${places} places stored`);
      done.push({
        seconds: round(seconds),
        peak_mb: Math.round(memory.peakRssMb),
        baseline_mb: Math.round(baseline),
        peak_over_baseline_mb: Math.round(memory.peakRssMb - baseline),
        peak_pss_mb: Math.round(memory.peakPssMb),
        baseline_pss_mb: Math.round(baselinePss),
        rows,
        file_mb: round(Buffer.byteLength(text) / 2 ** 20, 1),
        samples: memory.samples,
      });
      await download.delete();
    }
    ctx.log(
      `  export of ${places} places: ${spread(done.map((r) => r.seconds), 's')}; peak RSS ${spread(done.map((r) => r.peak_mb), 'MB', 0)}, ` +
        `over idle ${spread(done.map((r) => r.peak_over_baseline_mb), 'MB', 0)}; peak Pss ${spread(done.map((r) => r.peak_pss_mb), 'MB', 0)} ` +
        `(idle ${spread(done.map((r) => r.baseline_pss_mb), 'MB', 0)}); ${done[0]!.file_mb} MB file`,
    );
    return {
      figures: { seconds: round(median(done.map((r) => r.seconds))), peak_mb: Math.max(...done.map((r) => r.peak_mb)) },
      details: {
        fill_s: round(seeded.fillMs / 1000, 1),
        runs: done,
        peak_over_baseline_mb: Math.max(...done.map((r) => r.peak_over_baseline_mb)),
        peak_pss_mb: Math.max(...done.map((r) => r.peak_pss_mb)),
        peak_pss_over_baseline_mb: Math.max(...done.map((r) => r.peak_pss_mb - r.baseline_pss_mb)),
      },
    };
  } finally {
    await dispose(b);
  }
}
