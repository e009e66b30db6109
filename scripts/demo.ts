/**
 * `npm run demo`: the product's main job, start to finish, on this machine. Builds the
 * extension (npm script), starts the replica map site as www.google.com, launches Chromium
 * with the production build (headed when a display exists), sweeps a small district for one
 * keyword through the popup as a person would, and writes to demo-output/: the CSV, a
 * screenshot of the popup and summary.json.
 */
import { mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { parseAreaText } from '../utils/geo';
import { chromiumArgs, startReplica } from '../tests/replica/server';
import { createWorld } from '../tests/replica/world';
import { launchBrowser, newProfileDir, readCells, removeProfileDir } from '../tests/browser/harness';
import { ChromiumMissingError, findChromium } from './find-chromium';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from '../tests/browser/extension';

const OUT = path.resolve('demo-output');
const KEYWORD = 'cafe';
const CENTRE = { lat: 37.5665, lng: 126.978 };
/** About 1.9 × 1.9 km of a dense city centre. */
const AREA = '37.5580,126.9670,37.5750,126.9890';

async function main(): Promise<void> {
  // First, before the replica starts: found, installed (root on Debian), or one clear line.
  findChromium();
  mkdirSync(OUT, { recursive: true });
  const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });
  const replica = await startReplica({ world, switches: { batchDelayMs: 150, singleResultRedirectMs: 400 } });
  const profileDir = newProfileDir();
  const browser = await launchBrowser({ profileDir, resolverArgs: chromiumArgs(replica.port) });
  const started = Date.now();
  try {
    const maps = await browser.context.newPage();
    await maps.goto(`https://www.google.com/maps/search/${KEYWORD}/@${CENTRE.lat},${CENTRE.lng},15z`);
    const popup = await startSweepFromPopup(browser.context, { keywords: KEYWORD, area: AREA }, { ...TEST_SETTINGS, delayMs: 400, jitterMs: 300 });
    process.stdout.write('Sweeping');
    const sweep = await waitForSweep(
      popup,
      (s) => {
        process.stdout.write('.');
        return s.status === 'finished' || s.status === 'failed';
      },
      'the demo sweep',
      900_000,
    );
    process.stdout.write('\n');
    const seconds = Math.round((Date.now() - started) / 1000);
    await popup.getByText(/^Finished/).first().waitFor({ timeout: 10_000 });
    await popup.setViewportSize({ width: 400, height: 520 });
    await popup.screenshot({ path: path.join(OUT, 'popup.png') });
    const csv = await exportCsvFromPopup(popup);
    writeFileSync(path.join(OUT, csv.fileName), csv.text);
    copyFileSync(path.join(OUT, csv.fileName), path.join(OUT, 'listings.csv'));

    const area = parseAreaText(AREA);
    if (!area.ok) throw new Error(area.error.message);
    const truth = replica.groundTruth(KEYWORD, area.area);
    const cids = csv.rows.map((r) => r.cid ?? '');
    const exported = new Set(cids);
    const saturated = (await readCells(popup)).filter((c) => c.status === 'saturated');
    const missing = truth.filter((p) => !exported.has(p.cid));
    const inSaturated = missing.filter((p) =>
      saturated.some(({ bbox: b }) => p.lat >= b.south && p.lat <= b.north && p.lng >= b.west && p.lng <= b.east),
    );
    const summary = {
      exported: exported.size,
      duplicates: cids.length - exported.size,
      ground_truth: truth.length,
      missing: missing.length,
      in_saturated_cells: inSaturated.length,
      cells: {
        done: sweep.counters.cellsDone,
        split: sweep.counters.cellsSplit,
        saturated: sweep.counters.cellsSaturated,
        quarantined: sweep.counters.cellsQuarantined,
      },
      seconds,
      status: sweep.status,
      page_loads: replica.pageLoads(),
      csv: path.join('demo-output', csv.fileName),
    };
    writeFileSync(path.join(OUT, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    console.log(JSON.stringify(summary, null, 2));
    if (sweep.status !== 'finished' || summary.duplicates > 0 || summary.missing > summary.in_saturated_cells) process.exitCode = 1;
  } finally {
    await browser.close();
    removeProfileDir(profileDir);
    await replica.close();
  }
}

main().catch((e) => {
  // No Chromium: the one line that says what to run, not a stack trace.
  console.error(e instanceof ChromiumMissingError ? `MapSweep demo: ${e.message}` : e);
  process.exit(1);
});
