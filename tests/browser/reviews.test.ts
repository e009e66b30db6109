/**
 * The reviews pass end to end in real Chromium (issue 38): a Google sweep of a small area with
 * the pass on, at a limit per place, on the replica's Reviews tab (lazy batches, a sort menu,
 * "More" on long texts, translations, ids on the cards). What is stored equals the replica's truth
 * for the pass's limits: each place's newest reviews, each once, texts whole, no place done short.
 *
 * Budget: 60 s (alone on 2 cores).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import type { Review } from '../../utils/domain/review';
import type { ReviewJob } from '../../utils/reviews/records';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { createWorld } from '../replica/world';
import { googleRelativeDate } from '../replica/reviews';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import { launchBrowser, newProfileDir, readAll, readListings, removeProfileDir, waitFor, type RunningBrowser } from './harness';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 23, places: 20_000, centre: CENTRE, radiusKm: 5 });
const d = 0.0015;
const AREA = `${CENTRE.lat - d},${CENTRE.lng - d * 1.26},${CENTRE.lat + d},${CENTRE.lng + d * 1.26}`;
const PER_PLACE = 25;

let replica: Replica;
let b: RunningBrowser;

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
  b = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: chromiumArgs(replica.port) });
});

afterAll(async () => {
  await b?.close();
  if (b) removeProfileDir(b.profileDir);
  await replica?.close();
});

describe('reviews', () => {
  it('stores each place\u2019s newest reviews to the limit, each once, texts whole, equal to the truth', async () => {
    const area = parseAreaText(AREA);
    if (!area.ok) throw new Error(area.error.message);
    const places = replica.groundTruth('pharmacy', area.area);
    expect(places.length).toBeGreaterThan(2);
    const maps = await b.context.newPage();
    await maps.goto(`https://www.google.com/maps/search/pharmacy/@${CENTRE.lat},${CENTRE.lng},16z`);
    const popup = await startSweepFromPopup(b.context, { keywords: 'pharmacy', area: AREA }, { ...TEST_SETTINGS, reviews: true, reviewsPerPlace: PER_PLACE });
    await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep', 120_000);
    const keys = new Set((await readListings(popup)).map((l) => l.key));
    const settled = async () => {
      const jobs = (await readAll<ReviewJob>(popup, 'reviewQueue')).filter((j) => j.key !== '#queued');
      return jobs.length > 0 && jobs.every((j) => j.status === 'done' || j.status === 'failed') ? jobs : null;
    };
    const jobs = await waitFor(settled, 'every place\u2019s reviews read', 180_000, 1000);
    expect(jobs.filter((j) => j.status === 'failed').map((j) => `${j.key}: ${j.lastError}`)).toEqual([]);
    const reviews = await readAll<Review>(popup, 'reviews');
    expect(new Set(reviews.map((r) => r.key)).size).toBe(reviews.length);
    let compared = 0;
    for (const job of jobs) {
      const place = places.find((p) => `google:${p.cid}` === job.key);
      if (!place || !keys.has(job.key)) continue;
      const truth = replica.reviewsTruth(place.cid).slice(0, PER_PLACE);
      const mine = reviews.filter((r) => r.placeKey === job.key);
      // Newest first, to the limit: the same reviews, by the site's own ids.
      expect(mine.map((r) => r.reviewId).sort(), job.key).toEqual(truth.map((t) => t.id).sort());
      for (const t of truth) {
        const r = mine.find((m) => m.reviewId === t.id)!;
        expect(r.rating, t.id).toBe(t.rating);
        // The original text whole (its "More" opened; a translation kept beside it), as a page shows
        // it: HTML turns every CR LF into LF, and nothing else is changed.
        const shown = (text: string | null | undefined) => (text == null ? null : text.replace(/\r\n?/g, '\n').trim());
        expect(r.text, t.id).toBe(shown(t.text));
        expect(r.translation, t.id).toBe(shown(t.translation));
        expect(r.ownerReply?.text ?? null, t.id).toBe(shown(t.ownerReply?.text));
        // The date as the page worded it when it showed the card: from a minute before the place's
        // reading began to a few minutes after (its later batches).
        const worded = new Set(Array.from({ length: 25 }, (_, i) => googleRelativeDate(t.writtenAt, r.readAt - 60_000 + i * 15_000)));
        expect([...worded], t.id).toContain(r.date?.said);
        expect(r.author).toBeNull();
      }
      expect(job.result).toMatchObject({ sortedNewest: true, end: truth.length === replica.reviewsCount(place.cid) ? 'ended' : 'limit' });
      compared++;
    }
    expect(compared).toBeGreaterThan(2);

    // The popup says how far the pass got, and its export has every review once, formula cells neutralised.
    await expect.poll(() => popup.getByTestId('reviews-progress').textContent(), { timeout: 10_000 }).toMatch(
      new RegExp(`Reviews: ${jobs.length} places of ${jobs.length}, ${reviews.length.toLocaleString('en-US')} reviews`),
    );
    const csv = await exportCsvFromPopup(popup, 'Reviews (CSV)');
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    expect(csv.rows.map((r) => `${r.place_key}|${r.review_id}`).sort()).toEqual(reviews.map((r) => r.key).sort());
    const formulas = csv.rows.filter((r) => /^[=+\-@]/.test(r.text!.replace(/^'/, '')) && r.text!.length > 0);
    for (const r of formulas) expect(r.text!.startsWith("'"), r.review_id).toBe(true);
    expect(csv.rows.every((r) => r.author === '')).toBe(true);
    console.log(`reviews: ${reviews.length} reviews of ${compared} places, ${jobs.length} jobs`);
  });
});
