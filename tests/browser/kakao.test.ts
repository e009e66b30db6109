/**
 * Kakao Map end to end in real Chromium: the production build, the Kakao replica answering as
 * map.kakao.com, search.map.kakao.com and place.map.kakao.com, the popup driven by accessible
 * names, a CSV at the end. One browser serves the sweeps that need no crash; areas are small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { areaContains, parseAreaText } from '../../utils/geo';
import { bboxToWcongRect } from '../../utils/geo/wcongnamul';
import { kakaoChromiumArgs, startKakaoReplica, type KakaoReplica } from '../replica/kakao/server';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches } from '../replica/kakao/switches';
import { kakaoGroundTruth } from '../replica/kakao/search';
import { createWorld } from '../replica/world';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import type { SweepRow } from './harness';
import { launchBrowser, newProfileDir, openPopup, readCells, readListings, readSweeps, removeProfileDir, waitFor, type RunningBrowser } from './harness';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 19, places: 30_000, centre: CENTRE, radiusKm: 5 });
const KEYWORD = '카페';

function areaAround(d: number, lat = CENTRE.lat, lng = CENTRE.lng): string {
  return `${(lat - d).toFixed(5)},${(lng - d * 1.26).toFixed(5)},${(lat + d).toFixed(5)},${(lng + d * 1.26).toFixed(5)}`;
}
/** About 1.1 × 1.1 km: a few hundred cafes. */
const DISTRICT = areaAround(0.005);
const SMALL = areaAround(0.0025, 37.572, 126.985);

let replica: KakaoReplica;
let shared: RunningBrowser;
const SETTINGS = { ...TEST_SETTINGS, delayMs: 120, jitterMs: 80, scrollPauseMs: 80 };

function truthOf(areaText: string, query = KEYWORD): Map<string, { lat: number; lng: number }> {
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error(area.error.message);
  const b = area.area.bbox;
  const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
  return new Map(kakaoGroundTruth(replica.kakao, query, wider).filter((k) => areaContains(area.area, k)).map((k) => [k.confirmId, { lat: k.lat, lng: k.lng }]));
}

async function openKakaoTab(b: RunningBrowser, query = KEYWORD): Promise<Page> {
  const page = await b.context.newPage();
  await page.goto(`https://map.kakao.com/?q=${encodeURIComponent(query)}`);
  return page;
}

async function expectCsvIsTruth(popup: Page, sweepId: string, areaText: string): Promise<{ rows: Record<string, string>[]; truth: number }> {
  const truth = truthOf(areaText);
  const csv = await exportCsvFromPopup(popup);
  const ids = csv.rows.map((r) => r.provider_id!);
  expect(new Set(ids).size).toBe(ids.length);
  expect(csv.rows.every((r) => r.provider === 'kakao')).toBe(true);
  expect(ids.filter((id) => !truth.has(id))).toEqual([]);
  const saturated = (await readCells(popup)).filter((c) => c.id.startsWith(`${sweepId}/`) && c.status === 'saturated');
  const inSaturated = (p: { lat: number; lng: number }) => saturated.some(({ bbox: c }) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east);
  const got = new Set(ids);
  expect([...truth].filter(([id, p]) => !got.has(id) && !inSaturated(p)).map(([id]) => id)).toEqual([]);
  return { rows: csv.rows, truth: truth.size };
}

async function sweepToEnd(input: { keywords: string; area: string }, what: string, until: (s: SweepRow) => boolean = (s) => s.status !== 'running') {
  const probe = await openPopup(shared.context);
  const before = new Set((await readSweeps(probe)).map((s) => s.id));
  await probe.close();
  const popup = await startSweepFromPopup(shared.context, input, SETTINGS);
  const sweep = await waitForSweep(popup, (s) => !before.has(s.id) && until(s), what, 600_000);
  return { popup, sweep };
}

function resetSwitches(partial: Partial<KakaoSwitches> = {}): void {
  replica.setSwitches({ ...DEFAULT_KAKAO_SWITCHES, ...partial });
}

beforeAll(async () => {
  replica = await startKakaoReplica({ world });
  shared = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: kakaoChromiumArgs(replica.port) });
  await openKakaoTab(shared);
});

afterAll(async () => {
  await shared?.close();
  if (shared) removeProfileDir(shared.profileDir);
  await replica?.close();
});

describe('a Kakao sweep in real Chromium', () => {
  it('collects while browsing: the places the list shows are stored with coordinates, nothing is clicked', async () => {
    resetSwitches();
    const tab = await openKakaoTab(shared, '약국');
    await tab.waitForSelector('li.PlaceItem a.moreview');
    await tab.waitForTimeout(1500);
    const requestsBefore = replica.mapDaumRequests();
    const shown = await tab.evaluate(() =>
      [...document.querySelectorAll('li.PlaceItem:not(.AdItem) a.moreview')].map((a) => /\/(\d+)$/.exec(a.getAttribute('href') ?? '')?.[1]).filter((id): id is string => !!id),
    );
    expect(shown.length).toBeGreaterThan(5);
    const popup = await openPopup(shared.context);
    const browsing = async () => (await readListings(popup)).filter((l) => l.collections.includes('browsing') && l.key.startsWith('kakao:'));
    await waitFor(async () => (await browsing()).length >= shown.length, 'the browsing listings', 20_000, 250);
    const stored = new Map((await browsing()).map((l) => [l.key, l]));
    expect(shown.filter((id) => !stored.has(`kakao:${id}`))).toEqual([]);
    // Coordinates come from the page's own map.daum answers (the list shows none).
    expect(shown.filter((id) => !(Number(stored.get(`kakao:${id}`)!.lat) > 37))).toEqual([]);
    // Pressing nothing: no search request beyond the page's own.
    expect(replica.mapDaumRequests()).toBe(requestsBefore);
    await popup.close();
  });

  it('collects a district exactly: CSV ids = ground truth outside saturated cells, no duplicates, coordinates and Korean addresses', async () => {
    resetSwitches();
    const started = Date.now();
    const loads = replica.mapDaumRequests();
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: DISTRICT }, 'the Kakao district sweep');
    expect(sweep.status).toBe('finished');
    expect(sweep.provider).toBe('kakao');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, DISTRICT);
    expect(truth).toBeGreaterThan(200);
    const odd = rows.filter((r) => !/^서울/.test(r.road_address ?? '') || !/^https:\/\/place\.map\.kakao\.com\/\d+$/.test(r.url ?? '') || !(Number(r.lat) > 37));
    expect(odd.slice(0, 3).map((r) => [r.road_address, r.url, r.lat])).toEqual([]);
    console.log(
      `kakao district: ${rows.length} exported of ${truth} in the truth, ${replica.mapDaumRequests() - loads} map.daum requests, ` +
        `cells ${JSON.stringify(sweep.counters)}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    await popup.close();
  });

  it('passes unchanged with the rect searched 5% less a side, XHR instead of JSONP, a wide panel, drifted field names and the control ticked already', async () => {
    resetSwitches({ rectMode: 'inset', transport: 'xhr', panelWidth: 460, fieldDrift: true, boundsSearchDefault: true, moreLandsOn: 1 });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep under other switches');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`kakao small, inset/xhr/460px/drift: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it('pauses at the block page with a visible message, then finishes after Resume', async () => {
    resetSwitches({ blockAfter: 8 });
    const { popup, sweep: paused } = await sweepToEnd({ keywords: '약국', area: DISTRICT }, 'the block pause');
    expect(paused.status).toBe('paused');
    expect(paused.pauseReason).toBe('captcha');
    await popup.getByText(/prove you are not a robot, or is limiting access/).first().waitFor({ timeout: 10_000 });
    replica.unblock();
    resetSwitches();
    await popup.getByRole('button', { name: 'Resume' }).click();
    const done = await waitForSweep(popup, (s) => s.id === paused.id && s.status === 'finished', 'the sweep to finish after Resume', 300_000);
    expect(done.counters.listingsNew).toBeGreaterThan(0);
    await popup.close();
  });

  it('survives a SIGKILL of the browser: Resume continues and the CSV is the truth', async () => {
    resetSwitches();
    const profileDir = newProfileDir();
    let b = await launchBrowser({ profileDir, resolverArgs: kakaoChromiumArgs(replica.port) });
    try {
      await openKakaoTab(b);
      await startSweepFromPopup(b.context, { keywords: KEYWORD, area: SMALL }, SETTINGS);
      const before = replica.mapDaumRequests();
      await waitFor(async () => replica.mapDaumRequests() >= before + 5, 'five map.daum requests', 120_000, 50);
      await b.kill();
      b = await launchBrowser({ profileDir, resolverArgs: kakaoChromiumArgs(replica.port) });
      await openKakaoTab(b);
      const popup = await openPopup(b.context);
      const paused = await waitForSweep(popup, (s) => s.status === 'paused', 'the sweep to show as paused', 30_000);
      expect(paused.pauseReason).toBe('restart');
      await popup.getByRole('button', { name: 'Resume' }).click();
      const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the resumed sweep', 600_000);
      const { rows, truth } = await expectCsvIsTruth(popup, done.id, SMALL);
      console.log(`kakao kill-and-resume: ${rows.length} of ${truth}, cells ${JSON.stringify(done.counters)}`);
    } finally {
      await b.close();
      removeProfileDir(profileDir);
    }
  });
});
