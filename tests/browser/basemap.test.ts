/**
 * The coverage map over a base map: with no reachable tile server the canvas stays (the
 * dashboard test's pixels); with a tile URL set next to the map and a server that answers,
 * the Leaflet map replaces it, credits OpenStreetMap, and a click on a cell shows its verdict.
 *
 * Budget: 20 s (alone on 2 cores; measured 13 s).
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latToWorldY, lngToWorldX } from '../../utils/geo/mercator';
import type { CoverageCell } from '../../utils/dashboard/draw-coverage';
import { cellAtLatLng } from '../../utils/dashboard/tiles';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { replicaCertificate, startHttpsServer, type HttpsServer } from '../replica/https-server';
import { createWorld } from '../replica/world';
import { EXTENSION_ORIGIN, launchBrowser, newProfileDir, readCells, removeProfileDir, type RunningBrowser } from './harness';
import { startSweepFromPopup, TEST_SETTINGS, waitForSweep } from './extension';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 11, places: 6_000, centre: CENTRE, radiusKm: 5 });
const AREA = '37.5615,126.9717,37.5715,126.9843';

const TILE = (() => {
  const png = new PNG({ width: 256, height: 256 });
  png.data.fill(0xee);
  return PNG.sync.write(png);
})();

let replica: Replica;
let tiles: HttpsServer;
const tileRequests: string[] = [];
let b: RunningBrowser;

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 40 } });
  tiles = await startHttpsServer({
    certificate: await replicaCertificate('tiles', ['localhost']),
    async handle(req, res) {
      tileRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
      res.end(TILE);
    },
  });
  b = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: chromiumArgs(replica.port) });
});
afterAll(async () => {
  await b?.close();
  if (b) removeProfileDir(b.profileDir);
  await tiles?.close();
  await replica?.close();
});

describe('coverage map over a base map', () => {
  it('keeps the canvas without tiles, switches to the base map once tiles load, and shows a clicked cell’s verdict', async () => {
    const maps = await b.context.newPage();
    await maps.goto(`https://www.google.com/maps/@${CENTRE.lat},${CENTRE.lng},15z`);
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: AREA }, { ...TEST_SETTINGS, maxCells: 8 });
    const sweep = await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep', 240_000);
    // The stored cells carry their depth, which readCells's type leaves out.
    const cells = (await readCells(popup)).filter((c) => c.id.startsWith(sweep.id) && (c as { role?: string }).role !== 'audit') as unknown as (CoverageCell & {
      id: string;
    })[];

    const dashboard = await b.context.newPage();
    await dashboard.setViewportSize({ width: 1200, height: 1000 });
    await dashboard.goto(`${EXTENSION_ORIGIN}/dashboard.html`);
    await dashboard.getByLabel(/show places/i).uncheck();
    const canvas = dashboard.getByTestId('coverage-canvas');
    const base = dashboard.getByTestId('coverage-basemap');
    await canvas.waitFor();
    // OpenStreetMap is out of reach here: the canvas is what the user sees.
    await dashboard.waitForTimeout(1500);
    expect(await base.getAttribute('data-visible')).toBe('false');
    await expect.poll(() => canvas.isVisible()).toBe(true);

    // Point the map at a tile server of one's own, next to the map.
    await dashboard.getByText('Base map tiles').click();
    const url = `https://localhost:${tiles.port}/tiles/{z}/{x}/{y}.png`;
    await dashboard.getByLabel('Tile URL').fill('http://localhost/{z}/{x}/{y}.png');
    await dashboard.getByRole('button', { name: 'Save tile URL' }).click();
    await expect.poll(() => dashboard.getByRole('alert').first().textContent()).toMatch(/https/);
    await dashboard.getByLabel('Tile URL').fill(url);
    await dashboard.getByRole('button', { name: 'Save tile URL' }).click();

    await expect.poll(() => base.getAttribute('data-visible'), { timeout: 20_000 }).toBe('true');
    expect(tileRequests.length).toBeGreaterThan(0);
    await expect.poll(() => canvas.isVisible()).toBe(false);
    expect(await base.locator('.leaflet-control-attribution').textContent()).toContain('© OpenStreetMap contributors');
    await dashboard.screenshot({ path: 'test-results/dashboard-basemap.png', fullPage: true }).catch(() => {});

    // Where a cell lies on screen, from a loaded tile's place: tile (z, x, y) covers world pixels [256x, 256x + 256) at zoom z.
    const tile = await base
      .locator('img.leaflet-tile-loaded')
      .first()
      .evaluate((img: HTMLImageElement) => {
        const r = img.getBoundingClientRect();
        const m = /\/tiles\/(\d+)\/(\d+)\/(\d+)\.png/.exec(img.src)!;
        return { z: Number(m[1]), x: Number(m[2]), y: Number(m[3]), left: r.left, top: r.top, size: r.width };
      });
    const toScreen = (p: { lat: number; lng: number }) => ({
      x: tile.left + ((lngToWorldX(p.lng, tile.z) - tile.x * 256) * tile.size) / 256,
      y: tile.top + ((latToWorldY(p.lat, tile.z) - tile.y * 256) * tile.size) / 256,
    });
    const leaves = cells.filter((c) => c.status !== 'split');
    const target = leaves.reduce((a, c) => (c.bbox.north - c.bbox.south > a.bbox.north - a.bbox.south ? c : a));
    const centre = { lat: (target.bbox.south + target.bbox.north) / 2, lng: (target.bbox.west + target.bbox.east) / 2 };
    expect(cellAtLatLng(cells, centre)?.id).toBe(target.id);
    const at = toScreen(centre);
    await dashboard.mouse.click(at.x, at.y);
    const verdict = dashboard.getByTestId('cell-verdict');
    await expect.poll(() => verdict.getAttribute('data-cell')).toBe(target.id);
    expect(await verdict.getAttribute('class')).toContain('pinned');
    console.log(`base map: ${tileRequests.length} tile requests; clicked ${target.id} (${target.status}) at ${Math.round(at.x)},${Math.round(at.y)}`);
  });
});
