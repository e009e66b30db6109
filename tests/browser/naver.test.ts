/**
 * Naver Map end to end in real Chromium: the production build, the Naver replica answering as
 * map.naver.com and pcmap.place.naver.com, the popup driven by accessible names, a CSV at the
 * end: collect while browsing, a place page, a district with every request paced, a SIGKILL.
 * One browser serves the sweeps that need no crash; each area is about 1 km². The page
 * behaviours the notes leave open, and the block page, are naver-variants.test.ts.
 *
 * Budget: 180 s (alone on 2 cores; measured 150 s).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseAreaText } from '../../utils/geo';
import { openPopup, waitFor } from './harness';
import { causedRequests, gapsOf, KEYWORD, NETWORK_JITTER_MS, SETTINGS } from './provider-suite';
import { DISTRICT, expectCsvWithBomIsTruth, naverSuite, pageLoadsOf, SMALL } from './naver-suite';

const suite = naverSuite();
const { resetSwitches, sweepToEnd } = suite;
const pageLoads = () => pageLoadsOf(suite);
const expectCsvIsTruth = (popup: Page, sweepId: string, areaText: string) => expectCsvWithBomIsTruth(suite, popup, sweepId, areaText);

describe('a Naver sweep in real Chromium', () => {
  it('collects while browsing: the cards scrolled past in the list frame are stored, nothing is navigated or clicked', async () => {
    resetSwitches();
    const tab = await suite.openTab(suite.shared, '약국');
    const list = tab.frames().find((f) => f.url().startsWith('https://pcmap.place.naver.com/'))!;
    await list.waitForSelector('#_pcmap_list_scroll_container li');
    const pageLoadsBefore = pageLoads();
    // Scroll the list by hand, as a person does: the wheel over the list, twice.
    await list.locator('#_pcmap_list_scroll_container').hover();
    for (let i = 0; i < 2; i++) {
      await tab.mouse.wheel(0, 4000);
      await tab.waitForTimeout(600);
    }
    const rendered = await list.evaluate(() =>
      [...document.querySelectorAll('#_pcmap_list_scroll_container li')]
        .filter((li) => !li.classList.contains('cZnHG'))
        .map((li) => /\/[a-z]+\/(\d+)/.exec(li.querySelector('a[href]')?.getAttribute('href') ?? '')?.[1])
        .filter((id): id is string => !!id),
    );
    // The replica's list grows only when it overflows its frame; what the person sees is the point.
    expect(rendered.length).toBeGreaterThanOrEqual(10);
    const popup = await openPopup(suite.shared.context);
    // Wait for these very places: the suite's first tab (another keyword) has stored browsing
    // listings of its own, so a count alone can be reached before this tab's are written.
    await waitFor(
      async () => {
        const keys = new Set((await suite.browsingListings(popup)).map((l) => l.key));
        return rendered.every((id) => keys.has(`naver:${id}`));
      },
      'the browsing listings of this tab',
      60_000,
      250,
    );
    const stored = new Set((await suite.browsingListings(popup)).map((l) => l.key));
    expect(rendered.filter((id) => !stored.has(`naver:${id}`))).toEqual([]);
    // The outer page and its list frame were loaded once each by the person; the extension loaded nothing.
    expect(pageLoads()).toBe(pageLoadsBefore);
    await popup.close();
  });

  it('collects a place page the person opened in a tab of its own (no map around it)', async () => {
    resetSwitches();
    const area = parseAreaText(SMALL);
    if (!area.ok) throw new Error(area.error.message);
    const [place] = suite.replica.groundTruth(KEYWORD, area.area.bbox);
    const tab = await suite.shared.context.newPage();
    await tab.goto(`https://pcmap.place.naver.com/place/${place!.id}/home`);
    const popup = await openPopup(suite.shared.context);
    await waitFor(async () => (await suite.browsingListings(popup)).some((l) => l.key === `naver:${place!.id}`), 'the place stored', 20_000, 250);
    await popup.close();
    await tab.close();
  });

  it('collects a district exactly: CSV ids = ground truth outside saturated cells, no duplicates, Korean addresses', async () => {
    resetSwitches();
    const started = Date.now();
    const loads = pageLoads();
    const since = suite.replica.requests.length;
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: DISTRICT }, 'the Naver district sweep');
    expect(sweep.status).toBe('finished');
    expect(sweep.provider).toBe('naver');
    // Every list page it caused (a cell's load, a page turn: each a navigation) waited its turn in the lane.
    const gaps = gapsOf(causedRequests(suite.replica.requests.slice(since), { load: 'page' }));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SETTINGS.delayMs - NETWORK_JITTER_MS);
    const { rows, truth, hoursMissing } = await expectCsvIsTruth(popup, sweep.id, DISTRICT);
    // The list gives every place's week in words: none comes out without it.
    expect(hoursMissing).toBe(0);
    expect(truth).toBeGreaterThan(250);
    expect(sweep.counters.cellsSplit).toBeGreaterThan(0);
    // Road addresses as Naver writes them (시/구 … 로/길 number), place links on map.naver.com.
    const odd = rows.filter((r) => !/^서울/.test(r.road_address ?? '') || !/^https:\/\/map\.naver\.com\/p\/entry\/place\/\d+$/.test(r.url ?? ''));
    expect(odd.slice(0, 3).map((r) => [r.road_address, r.url])).toEqual([]);
    console.log(
      `naver district: ${rows.length} exported of ${truth} in the truth, ${pageLoads() - loads} page loads (smallest gap ${Math.min(...gaps)} ms), ` +
        `cells ${JSON.stringify(sweep.counters)}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    await popup.close();
  });

  it('survives a SIGKILL of the browser: Resume continues from the last committed cell and the CSV is the truth', async () => {
    resetSwitches();
    await suite.killAndResume({ keywords: KEYWORD, area: SMALL }, { count: pageLoads, atLeast: 4, what: 'four page loads' }, async (popup, done) => {
      const { rows, truth } = await expectCsvIsTruth(popup, done.id, SMALL);
      console.log(`naver kill-and-resume: ${rows.length} of ${truth}, cells ${JSON.stringify(done.counters)}`);
    });
  });
});
