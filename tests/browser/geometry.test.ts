/**
 * Where the live site's searched rectangle sits relative to the URL is not known (spec §1.1),
 * nor the user's panel width, window size or browser zoom. The replica offers each plausible
 * geometry as a switch; the same production build, with no setting changed, must export exactly
 * the ground truth outside saturated cells under each of them. One small dense area per run.
 *
 * Budget: 150 s (alone on 2 cores; measured 123 s).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import type { SearchGeometry } from '../replica/geometry';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { createWorld } from '../replica/world';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep } from './extension';
import { launchBrowser, newProfileDir, readCells, removeProfileDir, serviceWorker, type RunningBrowser } from './harness';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });
/** About 0.9 × 1.3 km with a few hundred cafés: crowded enough that cells split. */
const AREA = '37.52600,127.01370,37.53400,127.02630';

interface Combination {
  geometry: SearchGeometry;
  panelWidth: number;
  window: { width: number; height: number };
  browserZoom: number;
}

/**
 * Every combination of the unknowns: the three geometries × two window sizes × browser zoom
 * 100% and 90%, with the panel width varied too (360 / 408 / 460 px by geometry).
 */
const PANELS: Record<SearchGeometry, number> = { canvas: 408, 'panel-centred': 360, 'right-of-panel': 460 };
const COMBINATIONS: Combination[] = (['canvas', 'panel-centred', 'right-of-panel'] as const).flatMap((geometry) =>
  [
    { width: 1280, height: 900 },
    { width: 1000, height: 700 },
  ].flatMap((window) => [1, 0.9].map((browserZoom) => ({ geometry, panelWidth: PANELS[geometry], window, browserZoom }))),
);

let replica: Replica;
let running: RunningBrowser | null = null;

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
});

afterEach(async () => {
  if (running) {
    await running.close();
    removeProfileDir(running.profileDir);
    running = null;
  }
});

afterAll(async () => {
  await replica?.close();
});

describe('the searched rectangle is measured and calibrated, not assumed', () => {
  it.each(COMBINATIONS)(
    'exports the ground truth outside saturated cells: $geometry, panel $panelWidth px, window $window.width×$window.height, zoom $browserZoom',
    async (c) => {
      replica.setSwitches({ geometry: c.geometry, panelWidth: c.panelWidth });
      const area = parseAreaText(AREA);
      if (!area.ok) throw new Error(area.error.message);
      const truth = new Set(replica.groundTruth('cafe', area.area).map((p) => p.cid));
      expect(truth.size).toBeGreaterThan(150);

      running = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: chromiumArgs(replica.port), windowSize: c.window });
      const page = await running.context.newPage();
      await page.goto(`https://www.google.com/maps/search/cafe/@${CENTRE.lat},${CENTRE.lng},14z`);
      if (c.browserZoom !== 1) {
        // The user's browser zoom for the site (per origin, so the sweep's loads keep it).
        const worker = await serviceWorker(running.context);
        await worker.evaluate(async (zoom) => {
          type Tabs = { query(q: object): Promise<{ id?: number }[]>; setZoom(id: number, zoom: number): Promise<void> };
          const api = (globalThis as unknown as { chrome: { tabs: Tabs } }).chrome;
          const [tab] = await api.tabs.query({ url: 'https://www.google.com/*' });
          await api.tabs.setZoom(tab!.id!, zoom);
        }, c.browserZoom);
      }
      const loadsBefore = replica.pageLoads();
      const popup = await startSweepFromPopup(running.context, { keywords: 'cafe', area: AREA });
      const sweep = await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep to finish', 400_000);
      const csv = await exportCsvFromPopup(popup);
      const cids = csv.rows.map((r) => r.cid!);
      expect(new Set(cids).size).toBe(cids.length);
      const got = new Set(cids);
      expect([...got].filter((cid) => !truth.has(cid))).toEqual([]);
      const saturated = (await readCells(popup)).filter((cell) => cell.status === 'saturated');
      const inSaturated = (p: { lat: number; lng: number }) =>
        saturated.some(({ bbox: b }) => p.lat >= b.south && p.lat <= b.north && p.lng >= b.west && p.lng <= b.east);
      const missing = [...truth].filter((cid) => !got.has(cid));
      expect(missing.filter((cid) => !inSaturated(world.byCid.get(cid)!))).toEqual([]);
      console.log(
        `geometry ${c.geometry}, panel ${c.panelWidth}, window ${c.window.width}x${c.window.height}, zoom ${c.browserZoom}: ` +
          `${got.size} of ${truth.size} exported, ${missing.length} missing (in ${saturated.length} saturated cells), ` +
          `${replica.pageLoads() - loadsBefore} page loads, counters ${JSON.stringify(sweep.counters)}`,
      );
    },
  );
});
