/**
 * Kakao Map end to end in real Chromium: the production build, the Kakao replica answering as
 * map.kakao.com, search.map.kakao.com and place.map.kakao.com, the popup driven by accessible
 * names, a CSV at the end. One browser serves the sweeps that need no crash; areas are small.
 */
import { describe, expect, it } from 'vitest';
import { areaContains, parseAreaText } from '../../utils/geo';
import { bboxToWcongRect } from '../../utils/geo/wcongnamul';
import { kakaoChromiumArgs, startKakaoReplica, type KakaoReplica } from '../replica/kakao/server';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches } from '../replica/kakao/switches';
import { kakaoGroundTruth } from '../replica/kakao/search';
import { createWorld } from '../replica/world';
import { exportCsvFromPopup } from './extension';
import { openPopup, waitFor } from './harness';
import { areaAround, causedRequests, CENTRE, gapsOf, KEYWORD, NETWORK_JITTER_MS, providerSuite } from './provider-suite';

const world = createWorld({ seed: 19, places: 30_000, centre: CENTRE, radiusKm: 5 });

/** About 1.1 × 1.1 km: a few hundred cafes. */
const DISTRICT = areaAround(0.005);
const SMALL = areaAround(0.0025, 37.572, 126.985);
/** About 220 × 280 m: one cell, a few cafes. */
const TINY = areaAround(0.001, 37.572, 126.985);

/** Every place of the keyword inside the area, by confirmid. */
function truthOf(replica: KakaoReplica, areaText: string): Map<string, { lat: number; lng: number }> {
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error(area.error.message);
  const b = area.area.bbox;
  const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
  return new Map(kakaoGroundTruth(replica.kakao, KEYWORD, wider).filter((k) => areaContains(area.area, k)).map((k) => [k.confirmId, { lat: k.lat, lng: k.lng }]));
}

const suite = providerSuite<KakaoReplica, KakaoSwitches>({
  provider: 'kakao',
  start: () => startKakaoReplica({ world }),
  defaultSwitches: () => DEFAULT_KAKAO_SWITCHES,
  chromiumArgs: kakaoChromiumArgs,
  tabUrl: (query) => `https://map.kakao.com/?q=${encodeURIComponent(query)}`,
  truthOf,
});
const { resetSwitches, sweepToEnd, expectCsvIsTruth } = suite;

describe('a Kakao sweep in real Chromium', () => {
  it('collects while browsing: the places the list shows are stored with coordinates, nothing is clicked', async () => {
    resetSwitches();
    const tab = await suite.openTab(suite.shared, '약국');
    await tab.waitForSelector('li.PlaceItem a.moreview');
    await tab.waitForTimeout(1500);
    const requestsBefore = suite.replica.mapDaumRequests();
    const shown = await tab.evaluate(() =>
      [...document.querySelectorAll('li.PlaceItem:not(.AdItem) a.moreview')].map((a) => /\/(\d+)$/.exec(a.getAttribute('href') ?? '')?.[1]).filter((id): id is string => !!id),
    );
    expect(shown.length).toBeGreaterThan(5);
    const popup = await openPopup(suite.shared.context);
    // Wait for these very places: the suite's first tab (another keyword) has stored browsing
    // listings of its own, so a count alone can be reached before this tab's are written. A
    // minute, not 20 s: under the full suite's load (two browsers sweeping beside it) the last
    // rehearsal needed more than 20 s; alone it takes 3 s.
    await waitFor(async () => {
      const keys = new Set((await suite.browsingListings(popup)).map((l) => l.key));
      return shown.every((id) => keys.has(`kakao:${id}`));
    }, 'the browsing listings of this tab', 60_000, 250);
    const stored = new Map((await suite.browsingListings(popup)).map((l) => [l.key, l]));
    expect(shown.filter((id) => !stored.has(`kakao:${id}`))).toEqual([]);
    // Coordinates come from the page's own map.daum answers (the list shows none).
    expect(shown.filter((id) => !(Number(stored.get(`kakao:${id}`)!.lat) > 37))).toEqual([]);
    // Pressing nothing: no search request beyond the page's own.
    expect(suite.replica.mapDaumRequests()).toBe(requestsBefore);
    await popup.close();
  });

  it('collects a district exactly: CSV ids = ground truth outside saturated cells, no duplicates, coordinates and Korean addresses', async () => {
    resetSwitches();
    const started = Date.now();
    const loads = suite.replica.mapDaumRequests();
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: DISTRICT }, 'the Kakao district sweep');
    expect(sweep.status).toBe('finished');
    expect(sweep.provider).toBe('kakao');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, DISTRICT);
    expect(truth).toBeGreaterThan(200);
    const odd = rows.filter((r) => !/^서울/.test(r.road_address ?? '') || !/^https:\/\/place\.map\.kakao\.com\/\d+$/.test(r.url ?? '') || !(Number(r.lat) > 37));
    expect(odd.slice(0, 3).map((r) => [r.road_address, r.url, r.lat])).toEqual([]);
    console.log(
      `kakao district: ${rows.length} exported of ${truth} in the truth, ${suite.replica.mapDaumRequests() - loads} map.daum requests, ` +
        `cells ${JSON.stringify(sweep.counters)}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    await popup.close();
  });

  it('waits its turn in the lane for every request it causes: page loads, each control pressed before page 1, page turns', async () => {
    resetSwitches();
    // Longer than the page takes to settle between presses (300 ms of quiet): an unpaced press would show.
    const delayMs = 1500;
    const since = suite.replica.requests.length;
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: TINY }, 'the paced Kakao sweep', undefined, { delayMs, jitterMs: 0 });
    expect(sweep.status).toBe('finished');
    const caused = causedRequests(suite.replica.requests.slice(since), { load: 'page', search: 'mapdaum' });
    const gaps = gapsOf(caused);
    console.log(`kakao paced: ${caused.filter((r) => r.kind === 'page').length} page loads, ${caused.filter((r) => r.kind === 'mapdaum').length} searches they did not make themselves, smallest gap ${Math.min(...gaps)} ms (delay ${delayMs})`);
    // The tick of "현 지도 내 장소검색" at least, on every visit.
    expect(caused.filter((r) => r.kind === 'mapdaum').length).toBeGreaterThanOrEqual(caused.filter((r) => r.kind === 'page').length);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delayMs - NETWORK_JITTER_MS);
    await popup.close();
  });

  it('passes unchanged with the rect searched 5% less a side, fetch instead of XHR, a wide panel, drifted field names and the control, a toggle button, ticked already', async () => {
    resetSwitches({ rectMode: 'inset', transport: 'fetch', panelWidth: 460, fieldDrift: true, boundsSearchDefault: true, boundsMarkup: 'toggle-button', moreLandsOn: 1 });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep under other switches');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`kakao small, inset/fetch/460px/drift/toggle-button: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it('passes unchanged on the older map.daum by JSONP, "현 지도 내 장소검색" a checkbox of another id', async () => {
    resetSwitches({ endpoint: 'map.daum', transport: 'jsonp', boundsMarkup: 'checkbox' });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep on map.daum');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`kakao small, map.daum/jsonp/checkbox: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it('a script forging the answers\' coordinates drops no place and stops nothing: every place of the truth exported, no coordinate moved', async () => {
    resetSwitches({ forged: 'coords' });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep under forged coordinates');
    expect(sweep.status).toBe('finished');
    const truth = truthOf(suite.replica, SMALL);
    const { rows } = await exportCsvFromPopup(popup);
    const got = new Set(rows.map((r) => r.provider_id));
    expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
    // Coordinates the copies disputed are left out, never taken: a place without them cannot be cut
    // to the area, so places of the searched box beyond it are kept too (more, never fewer).
    const at = (id: string) => suite.replica.kakao.byConfirmId.get(id);
    const moved = rows.filter((r) => r.lat && (!at(r.provider_id!) || Math.abs(Number(r.lat) - at(r.provider_id!)!.lat) > 1e-5 || Math.abs(Number(r.lng) - at(r.provider_id!)!.lng) > 1e-5));
    expect(moved.map((r) => [r.provider_id, r.lat, r.lng])).toEqual([]);
    console.log(`kakao small, forged coords: ${[...truth.keys()].filter((id) => got.has(id)).length} of ${truth.size}, ${rows.length} rows, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it('pauses at the block page with a visible message, then finishes after Resume', async () => {
    resetSwitches({ blockAfter: 8 });
    const { popup, sweep: paused } = await sweepToEnd({ keywords: '약국', area: DISTRICT }, 'the block pause');
    expect(paused.status).toBe('paused');
    expect(paused.pauseReason).toBe('captcha');
    await popup.getByText(/prove you are not a robot, or is limiting access/).first().waitFor({ timeout: 10_000 });
    await suite.resumeAfterBlock(popup, paused.id);
    await popup.close();
  });

  it('survives a SIGKILL of the browser: Resume continues and the CSV is the truth', async () => {
    resetSwitches();
    await suite.killAndResume(
      { keywords: KEYWORD, area: SMALL },
      { count: () => suite.replica.mapDaumRequests(), atLeast: 5, what: 'five map.daum requests' },
      async (popup, done) => {
        const { rows, truth } = await expectCsvIsTruth(popup, done.id, SMALL);
        console.log(`kakao kill-and-resume: ${rows.length} of ${truth}, cells ${JSON.stringify(done.counters)}`);
      },
    );
  });
});
