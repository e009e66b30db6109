/**
 * The product's main job in real Chromium: the production build, the replica as
 * www.google.com, the popup driven by accessible names, a CSV at the end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { createWorld } from '../replica/world';
import { launchBrowser, newProfileDir, readSweeps, removeProfileDir, type RunningBrowser } from './harness';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep } from './extension';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });

function areaAround(d: number, lat = CENTRE.lat, lng = CENTRE.lng): string {
  return `${(lat - d).toFixed(5)},${(lng - d * 1.26).toFixed(5)},${(lat + d).toFixed(5)},${(lng + d * 1.26).toFixed(5)}`;
}

/** A district with >3,000 cafes: crowded cells must split. */
const DISTRICT = areaAround(0.015);
/** A small area for the crash and fault runs. */
const SMALL = areaAround(0.006, 37.53, 127.02);

let replica: Replica;
const browsers: RunningBrowser[] = [];

async function browser(profileDir = newProfileDir()): Promise<RunningBrowser> {
  const b = await launchBrowser({ profileDir, resolverArgs: chromiumArgs(replica.port) });
  browsers.push(b);
  return b;
}

/** A Google Maps tab, as the user has open when pressing Start. */
async function openMapTab(b: RunningBrowser): Promise<void> {
  const page = await b.context.newPage();
  await page.goto(`https://www.google.com/maps/search/cafe/@${CENTRE.lat},${CENTRE.lng},14z`);
}

function truthKeys(query: string, areaText: string): Set<string> {
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error(area.error.message);
  return new Set(replica.groundTruth(query, area.area).map((p) => p.cid));
}

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
});

afterEach(async () => {
  while (browsers.length) {
    const b = browsers.pop()!;
    await b.close();
    removeProfileDir(b.profileDir);
  }
  replica.setSwitches({ captchaAfter: null, error500Rate: 0, slowMs: 0, hangPaths: [], consent: false });
});

afterAll(async () => {
  await replica?.close();
});

describe('a sweep in real Chromium', () => {
  it('collects a 3,000-place district exactly: CSV ids = ground truth (saturated cells reported), no duplicates', async () => {
    const truth = truthKeys('cafe', DISTRICT);
    expect(truth.size).toBeGreaterThan(3000);
    const b = await browser();
    await openMapTab(b);
    const started = Date.now();
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: DISTRICT });
    const sweep = await waitForSweep(popup, (s) => s.status === 'finished', 'the district sweep to finish', 600_000);
    const seconds = (Date.now() - started) / 1000;

    const csv = await exportCsvFromPopup(popup);
    expect(csv.text.charCodeAt(0)).toBe(0xfeff);
    expect(csv.fileName).toMatch(/^mapsweep_cafe_\d{4}-\d{2}-\d{2}\.csv$/);
    const cids = csv.rows.map((r) => r.cid!);
    expect(new Set(cids).size).toBe(cids.length);
    const got = new Set(cids);
    const extra = [...got].filter((c) => !truth.has(c));
    expect(extra).toEqual([]);

    // Places in saturated cells may be missing by design; everything else must be there.
    const saturated = await popup.evaluate(() => new Promise<{ bbox: { south: number; west: number; north: number; east: number } }[]>((resolve) => {
      const req = indexedDB.open('mapsweep');
      req.onsuccess = () => {
        const all = req.result.transaction('cells').objectStore('cells').getAll();
        all.onsuccess = () => resolve(all.result.filter((c: { status: string }) => c.status === 'saturated'));
      };
    }));
    const inSaturated = (p: { lat: number; lng: number }) =>
      saturated.some(({ bbox: c }) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east);
    const missing = [...truth].filter((c) => !got.has(c));
    const unexplained = missing.filter((c) => !inSaturated(world.byCid.get(c)!));
    expect(unexplained).toEqual([]);
    if (sweep.counters.cellsSaturated! > 0) {
      expect(await popup.getByText(/cells are still crowded at the closest zoom/).count()).toBe(1);
    }
    console.log(
      `district: ${got.size} exported of ${truth.size} (${missing.length} missing, all in ${sweep.counters.cellsSaturated} saturated cells), ` +
        `${replica.pageLoads()} page loads, cells ${JSON.stringify(sweep.counters)}, ${seconds.toFixed(0)} s`,
    );
  });
});
