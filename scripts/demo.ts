/**
 * `npm run demo [-- --provider naver|kakao]`: the product's main job, start to finish, on this machine.
 * `npm run demo -- --businesses`: one district swept on all three sites, linked, and the
 * Businesses CSV compared with the truth (businessesDemo below).
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
import { launchBrowser, newProfileDir, readCells, removeProfileDir, waitFor } from '../tests/browser/harness';
import {
  exportBusinessesFromPopup,
  linkScore,
  openPopup,
  readAll,
  startThreeSites,
  sweepEachSite,
  truthByPlace,
  truthOfKeys,
} from '../tests/browser/three-sites';
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
      truth: (area) =>
        replica
          .groundTruth(keyword, area.bbox)
          .filter((p) => areaContains(area, p.place))
          .map((p) => ({ id: p.id, lat: p.place.lat, lng: p.place.lng })),
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
        return kakaoGroundTruth(replica.kakao, keyword, wider)
          .filter((k) => areaContains(area, k))
          .map((k) => ({ id: k.confirmId, lat: k.lat, lng: k.lng }));
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

/**
 * The same business on Google, Naver and Kakao: a district swept on each replica site (their
 * views of a business differ as the real sites' do: tests/replica/site-views.ts), linked at
 * each sweep's end, exported as Businesses from the popup; precision and recall of the links
 * against the truth, and a row on all three sites for the README.
 */
async function businessesDemo(): Promise<void> {
  const world = createWorld({ seed: 7, places: 20_000, centre: CENTRE, radiusKm: 3, siteViews: true });
  const areaText = '37.5635,126.9745,37.5695,126.9820';
  const sites = await startThreeSites(world);
  const started = Date.now();
  try {
    const sweeps = await sweepEachSite(sites, areaText, CENTRE, { ...TEST_SETTINGS, delayMs: 400, jitterMs: 300 }, (s) =>
      process.stdout.write(`Sweeping on ${s}…\n`),
    );
    const popup = await openPopup(sites.browser.context);
    const listings = await readAll<{ key: string }>(popup, 'listings');
    await waitFor(async () => (await readAll<{ places: number }>(popup, 'linkRuns')).find((r) => r.places === listings.length), 'the linking run', 120_000);
    const exported = await exportBusinessesFromPopup(popup);
    writeFileSync(path.join(OUT, exported.fileName), exported.text);
    copyFileSync(path.join(OUT, exported.fileName), path.join(OUT, 'businesses.csv'));
    const area = parseAreaText(areaText);
    if (!area.ok) throw new Error(area.error.message);
    const district = [...truthByPlace(sites, area.area).values()];
    const stored = new Set(listings.map((l) => l.key));
    // What is stored: the district, and what the map tabs showed while browsing; grouped by world place.
    const truth = truthOfKeys(sites, [...stored]);
    const score = linkScore(exported.groups, truth);
    const row = exported.rows.find((r) => r.google_id && r.naver_id && r.kakao_id && r.differs) ?? exported.rows[0];
    const summary = {
      sweeps: sweeps.map((s) => ({ provider: s.provider ?? 'google', status: s.status, places: s.counters.listingsNew })),
      listings: listings.length,
      businesses: exported.rows.length,
      businesses_in_truth: truth.length,
      district_places_not_swept: district.flat().filter((k) => !stored.has(k)).length,
      on_all_three_sites: exported.rows.filter((r) => r.google_id && r.naver_id && r.kakao_id).length,
      link_precision: Number(score.precision.toFixed(4)),
      link_recall: Number(score.recall.toFixed(4)),
      seconds: Math.round((Date.now() - started) / 1000),
      csv: path.join('demo-output', exported.fileName),
      sample_row: row,
    };
    writeFileSync(path.join(OUT, 'businesses-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(JSON.stringify(summary, null, 2));
    if (sweeps.some((s) => s.status !== 'finished') || summary.district_places_not_swept > 0) process.exitCode = 1;
  } finally {
    await sites.close();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--businesses')) {
    findChromium();
    mkdirSync(OUT, { recursive: true });
    return businessesDemo();
  }
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
    await popup
      .getByText(/^Finished/)
      .first()
      .waitFor({ timeout: 10_000 });
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
    const inSaturated = missing.filter((p) => saturated.some(({ bbox: b }) => p.lat >= b.south && p.lat <= b.north && p.lng >= b.west && p.lng <= b.east));
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
    writeFileSync(path.join(OUT, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
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
