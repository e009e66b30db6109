/**
 * `npm run demo [-- --provider naver|kakao]`: the product's main job, start to finish, on this machine.
 * Builds the extension (npm script), starts the replica map site (www.google.com, Naver's
 * map.naver.com and pcmap.place.naver.com, or Kakao's map.kakao.com and search.map.kakao.com), launches Chromium
 * with the production build (headed when a display exists), sweeps a small district for one
 * keyword through the popup as a person would, and writes to demo-output/: the CSV, a
 * screenshot of the popup and summary.json.
 */
import { mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { areaContains, parseAreaText } from '../utils/geo';
import type { Area } from '../utils/geo/types';
import { chromiumArgs, startReplica } from '../tests/replica/server';
import { naverChromiumArgs, startNaverReplica } from '../tests/replica/naver/server';
import { kakaoChromiumArgs, startKakaoReplica } from '../tests/replica/kakao/server';
import { kakaoGroundTruth } from '../tests/replica/kakao/search';
import { bboxToWcongRect } from '../utils/geo/wcongnamul';
import { createWorld, type World } from '../tests/replica/world';
import { launchBrowser, newProfileDir, readCells, removeProfileDir } from '../tests/browser/harness';
import { ChromiumMissingError, findChromium } from './find-chromium';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from '../tests/browser/extension';

const OUT = path.resolve('demo-output');
const CENTRE = { lat: 37.5665, lng: 126.978 };
/** About 1.9 × 1.9 km of a dense city centre. */
const AREA = '37.5580,126.9670,37.5750,126.9890';

/** What the demo needs of a map site: its replica, the tab a person has open, and the truth to compare with. */
interface DemoSite {
  keyword: string;
  resolverArgs: string[];
  mapUrl: string;
  /** The place ids a perfect sweep exports (the CSV's `provider_id`), with their coordinates. */
  truth(area: Area): Array<{ id: string; lat: number; lng: number }>;
  pageLoads(): number;
  close(): Promise<void>;
}

async function startSite(provider: string, world: World): Promise<DemoSite> {
  if (provider === 'naver') {
    const keyword = '카페';
    const replica = await startNaverReplica({ world, switches: { lazyDelayMs: 150 } });
    return {
      keyword,
      resolverArgs: naverChromiumArgs(replica.port),
      mapUrl: `https://map.naver.com/p/search/${encodeURIComponent(keyword)}`,
      truth: (area) => replica.groundTruth(keyword, area.bbox).filter((p) => areaContains(area, p.place)).map((p) => ({ id: p.id, lat: p.place.lat, lng: p.place.lng })),
      pageLoads: () => replica.requests.filter((r) => r.kind === 'page').length,
      close: replica.close,
    };
  }
  if (provider === 'kakao') {
    const keyword = '카페';
    const replica = await startKakaoReplica({ world });
    return {
      keyword,
      resolverArgs: kakaoChromiumArgs(replica.port),
      mapUrl: `https://map.kakao.com/?q=${encodeURIComponent(keyword)}`,
      // The area is a WGS84 box and Kakao's grid is turned against it: the truth comes from a wider rect, cut by each place's coordinates.
      truth: (area) => {
        const b = area.bbox;
        const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
        return kakaoGroundTruth(replica.kakao, keyword, wider).filter((k) => areaContains(area, k)).map((k) => ({ id: k.confirmId, lat: k.lat, lng: k.lng }));
      },
      pageLoads: () => replica.requests.filter((r) => r.kind === 'page' || r.kind === 'mapdaum').length,
      close: replica.close,
    };
  }
  if (provider !== 'google') throw new Error(`--provider must be google, naver or kakao, not ${JSON.stringify(provider)}`);
  const keyword = 'cafe';
  const replica = await startReplica({ world, switches: { batchDelayMs: 150, singleResultRedirectMs: 400 } });
  return {
    keyword,
    resolverArgs: chromiumArgs(replica.port),
    mapUrl: `https://www.google.com/maps/search/${keyword}/@${CENTRE.lat},${CENTRE.lng},15z`,
    truth: (area) => replica.groundTruth(keyword, area).map((p) => ({ id: p.cid, lat: p.lat, lng: p.lng })),
    pageLoads: () => replica.pageLoads(),
    close: replica.close,
  };
}

function providerArg(argv: readonly string[]): string {
  const i = argv.indexOf('--provider');
  const inline = argv.find((a) => a.startsWith('--provider='));
  return (inline ? inline.slice('--provider='.length) : i >= 0 ? argv[i + 1] : undefined) ?? 'google';
}

async function main(): Promise<void> {
  const provider = providerArg(process.argv.slice(2));
  // First, before the replica starts: found, installed (root on Debian), or one clear line.
  findChromium();
  mkdirSync(OUT, { recursive: true });
  const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });
  const site = await startSite(provider, world);
  const profileDir = newProfileDir();
  const browser = await launchBrowser({ profileDir, resolverArgs: site.resolverArgs });
  const started = Date.now();
  try {
    const maps = await browser.context.newPage();
    await maps.goto(site.mapUrl);
    const popup = await startSweepFromPopup(browser.context, { keywords: site.keyword, area: AREA }, { ...TEST_SETTINGS, delayMs: 400, jitterMs: 300 });
    process.stdout.write(`Sweeping on ${provider}`);
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
    // startSweepFromPopup left the map tab in front (a covered page draws no frame to capture).
    await popup.bringToFront();
    await popup.setViewportSize({ width: 400, height: 520 });
    await popup.screenshot({ path: path.join(OUT, 'popup.png') });
    const csv = await exportCsvFromPopup(popup);
    writeFileSync(path.join(OUT, csv.fileName), csv.text);
    copyFileSync(path.join(OUT, csv.fileName), path.join(OUT, 'listings.csv'));

    const area = parseAreaText(AREA);
    if (!area.ok) throw new Error(area.error.message);
    const truth = site.truth(area.area);
    const ids = csv.rows.map((r) => r.provider_id || r.cid || '');
    const exported = new Set(ids);
    const saturated = (await readCells(popup)).filter((c) => c.status === 'saturated');
    const missing = truth.filter((p) => !exported.has(p.id));
    const inSaturated = missing.filter((p) =>
      saturated.some(({ bbox: b }) => p.lat >= b.south && p.lat <= b.north && p.lng >= b.west && p.lng <= b.east),
    );
    const summary = {
      provider,
      keyword: site.keyword,
      exported: exported.size,
      duplicates: ids.length - exported.size,
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
      page_loads: site.pageLoads(),
      csv: path.join('demo-output', csv.fileName),
    };
    writeFileSync(path.join(OUT, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    console.log(JSON.stringify(summary, null, 2));
    if (sweep.status !== 'finished' || summary.duplicates > 0 || summary.missing > summary.in_saturated_cells) process.exitCode = 1;
  } finally {
    await browser.close();
    removeProfileDir(profileDir);
    await site.close();
  }
}

main().catch((e) => {
  // No Chromium: the one line that says what to run, not a stack trace.
  console.error(e instanceof ChromiumMissingError ? `MapSweep demo: ${e.message}` : e);
  process.exit(1);
});
