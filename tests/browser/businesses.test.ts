/**
 * The same business on Google, Naver and Kakao, end to end (issue 24): one Chromium with the
 * production build and all three replica sites, whose views of each business differ the way
 * the real sites do (tests/replica/site-views.ts: names spelt otherwise, pins 5–80 m apart,
 * stale phones, 0507 numbers, places missing on one site, look-alike neighbours). One small
 * district is swept on each site from the popup, as a person would; the sweeps' ends link the
 * places; the popup's Businesses CSV must be the truth: every world place one row, holding
 * exactly the listings each site's own search gave for it.
 *
 * Budget: 140 s (alone on 2 cores; measured 118 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import { createWorld } from '../replica/world';
import { waitFor } from './harness';
import { areaAround, CENTRE, SETTINGS } from './provider-suite';
import {
  exportBusinessesFromPopup,
  linkScore,
  openPopup,
  readAll,
  startThreeSites,
  sweepEachSite,
  truthByPlace,
  truthOfKeys,
  type ThreeSites,
} from './three-sites';

const world = createWorld({ seed: 2424, places: 20_000, centre: CENTRE, radiusKm: 3, siteViews: true });
/** About 440 × 440 m of the dense centre. */
const DISTRICT = areaAround(0.002, 37.5655, 126.9765);

let sites: ThreeSites;
beforeAll(async () => {
  sites = await startThreeSites(world);
}, 120_000);
afterAll(async () => sites?.close());

describe('the same business on the three sites', () => {
  it('sweeps one district on Google, Naver and Kakao, links it, and exports Businesses equal to the truth', async () => {
    const sweeps = await sweepEachSite(sites, DISTRICT, CENTRE, SETTINGS);
    expect(sweeps.map((s) => s.status)).toEqual(['finished', 'finished', 'finished']);
    const popup = await openPopup(sites.browser.context);
    // Each finished sweep starts a linking run; the last one sees every place.
    const listings = await readAll<{ key: string }>(popup, 'listings');
    await waitFor(
      async () => (await readAll<{ places: number }>(popup, 'linkRuns')).find((r) => r.places === listings.length),
      'the linking run over every place',
      60_000,
    );

    const exported = await exportBusinessesFromPopup(popup);
    expect(exported.text.startsWith('\uFEFF')).toBe(true);
    const area = parseAreaText(DISTRICT);
    if (!area.ok) throw new Error(area.error.message);
    // Every place each site's search has in the district was swept (the sweeps' own proof is tested elsewhere).
    const stored = new Set(listings.map((l) => l.key));
    const district = [...truthByPlace(sites, area.area).values()];
    expect(district.flat().filter((k) => !stored.has(k))).toEqual([]);
    // The truth of what is stored: the district, and what the map tabs showed while browsing.
    const truth = truthOfKeys(sites, [...stored]);
    const asText = (groups: string[][]) => groups.map((g) => g.join(' ')).sort();
    const onAll = district.filter((g) => g.length === 3).length;
    const score = linkScore(exported.groups, truth);
    console.log(
      `businesses: ${exported.rows.length} exported, ${truth.length} in truth (${district.length} in the district, ${onAll} of them on all three sites); ${listings.length} listings; links precision ${score.precision.toFixed(3)} recall ${score.recall.toFixed(3)}`,
    );
    const want = new Set(asText(truth));
    const got = new Set(asText(exported.groups));
    console.log('exported, not true:', [...got].filter((g) => !want.has(g)).slice(0, 20));
    console.log('true, not exported:', [...want].filter((g) => !got.has(g)).slice(0, 20));
    expect(district.length).toBeGreaterThan(20);
    expect(onAll).toBeGreaterThan(10);
    expect(asText(exported.groups)).toEqual(asText(truth));
    // Each place exactly once over the rows.
    const keys = exported.groups.flat();
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(listings.length);
  }, 1_500_000);
});
