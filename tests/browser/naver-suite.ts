/**
 * The Naver browser suite as naver.test.ts and naver-proof.test.ts both run it: one world, the
 * replica's lazy batches at 60 ms, a Naver Map tab to start from, the ground truth from the
 * replica (never from the extension).
 */
import { expect } from 'vitest';
import { exportCsvFromPopup } from './extension';
import { readCells } from './harness';
import type { Page } from 'playwright-core';
import { parseAreaText } from '../../utils/geo';
import { naverChromiumArgs, startNaverReplica, type NaverReplica } from '../replica/naver/server';
import { DEFAULT_NAVER_SWITCHES, type NaverSwitches } from '../replica/naver/switches';
import { createWorld } from '../replica/world';
import { areaAround, CENTRE, KEYWORD, providerSuite, type ProviderSuite } from './provider-suite';

const world = createWorld({ seed: 17, places: 30_000, centre: CENTRE, radiusKm: 5 });

/** About 1.1 × 1.1 km: a few hundred cafes, so crowded cells split. */
export const DISTRICT = areaAround(0.0042);
/** About 0.8 × 0.8 km off the centre: some 200 cafés, a few cells, lists of one to three pages. */
export const SMALL = areaAround(0.0035, 37.572, 126.985);

type NaverSuite = ProviderSuite<NaverReplica, NaverSwitches>;

/** The pages the replica served (the map and list pages a sweep loads). */
export function pageLoadsOf(suite: NaverSuite): number {
  return suite.replica.requests.filter((r) => r.kind === 'page').length;
}

/** The suite's CSV check, and the file starts with a byte-order mark. */
export async function expectCsvWithBomIsTruth(
  suite: NaverSuite,
  popup: Page,
  sweepId: string,
  areaText: string,
): Promise<{ rows: Record<string, string>[]; truth: number; hoursMissing: number }> {
  const csv = await suite.expectCsvIsTruth(popup, sweepId, areaText);
  expect(csv.text.charCodeAt(0)).toBe(0xfeff);
  return csv;
}

export function naverSuite(): NaverSuite {
  return providerSuite<NaverReplica, NaverSwitches>({
    provider: 'naver',
    start: () => startNaverReplica({ world, switches: { lazyDelayMs: 60 } }),
    defaultSwitches: () => ({ ...DEFAULT_NAVER_SWITCHES, lazyDelayMs: 60 }),
    chromiumArgs: naverChromiumArgs,
    tabUrl: (query) => `https://map.naver.com/p/search/${encodeURIComponent(query)}`,
    truthOf(replica, areaText) {
      const area = parseAreaText(areaText);
      if (!area.ok) throw new Error(area.error.message);
      return new Map(replica.groundTruth(KEYWORD, area.area.bbox).map((p) => [p.id, { lat: p.place.lat, lng: p.place.lng, hours: p.place.hours }]));
    },
  });
}

type Box = { south: number; west: number; north: number; east: number };
export type CellRow = { id: string; status: string; bbox: Box; result?: { organic?: number } | null };
const inside = (p: { lat: number; lng: number }, c: Box) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east;

/**
 * What the sweep ended with: every truth place it did not export lies in a cell it did not call
 * done (saturated, quarantined, left open by a stop): reported, never silently missing. Nothing
 * outside the truth, nothing twice.
 */
export async function expectNothingSilentlyDone(
  suite: NaverSuite,
  popup: Page,
  sweepId: string,
  areaText: string,
  keyword = KEYWORD,
): Promise<{ exported: number; truth: number; missing: number; cells: Record<string, number> }> {
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error(area.error.message);
  const truth = new Map(suite.replica.groundTruth(keyword, area.area.bbox).map((p) => [p.id, { lat: p.place.lat, lng: p.place.lng }]));
  const csv = await exportCsvFromPopup(popup);
  const ids = csv.rows.map((r) => r.provider_id!);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.filter((id) => !truth.has(id))).toEqual([]);
  const cells = ((await readCells(popup)) as CellRow[]).filter((c) => c.id.startsWith(`${sweepId}/`));
  const done = cells.filter((c) => c.status === 'done');
  const open = cells.filter((c) => c.status !== 'done' && c.status !== 'split');
  const got = new Set(ids);
  const missing = [...truth].filter(([id]) => !got.has(id));
  const silent = missing.filter(([, p]) => done.some((c) => inside(p, c.bbox)) && !open.some((c) => inside(p, c.bbox)));
  expect(silent.map(([id]) => id)).toEqual([]);
  const byStatus: Record<string, number> = {};
  for (const c of cells) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
  return { exported: ids.length, truth: truth.size, missing: missing.length, cells: byStatus };
}
