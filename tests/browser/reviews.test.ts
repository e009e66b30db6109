/**
 * The reviews pass end to end in real Chromium (issue 38): a Google sweep of a small area with
 * the pass on, at a limit per place, on the replica's Reviews tab. What is stored equals the
 * replica's truth for the pass's limits: each place's newest reviews, each once, texts whole, no
 * place done short. Then the same places again under the replica's other answers to what the
 * public record leaves unsure (the sort control's kind or none, the first order, the expander's
 * markup or none, where the review id lives or that there is none, an end sentence, the batch
 * size), with no setting changed; and signed out, the pass pauses and says so, then resumes.
 *
 * Budget: 90 s (alone on 2 cores; one sweep, four readings of its places; measured 63 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseAreaText } from '../../utils/geo';
import type { Review } from '../../utils/domain/review';
import type { ReviewJob } from '../../utils/reviews/records';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import type { Switches } from '../replica/switches';
import { createWorld } from '../replica/world';
import { googleRelativeDate, ratingHistogram } from '../replica/reviews';
import { exportCsvFromPopup, readReviewsAgain, settledReviewJobs, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import { launchBrowser, newProfileDir, readAll, removeProfileDir, waitFor, type RunningBrowser } from './harness';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 23, places: 20_000, centre: CENTRE, radiusKm: 5 });
const d = 0.0015;
const AREA = `${CENTRE.lat - d},${CENTRE.lng - d * 1.26},${CENTRE.lat + d},${CENTRE.lng + d * 1.26}`;
const PER_PLACE = 15;

let replica: Replica;
let b: RunningBrowser;
let popup: Page;
let sweepId: string;
let places: ReturnType<Replica['groundTruth']>;

beforeAll(async () => {
  replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
  b = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: chromiumArgs(replica.port) });
});

afterAll(async () => {
  await b?.close();
  if (b) removeProfileDir(b.profileDir);
  await replica?.close();
});

const jobsOf = async () => (await readAll<ReviewJob>(popup, 'reviewQueue')).filter((j) => j.key !== '#queued');
const settled = () => settledReviewJobs(popup);
const readAgain = () => readReviewsAgain(popup, sweepId);

/** Every place's stored reviews against the truth's newest PER_PLACE; `byId`: the page carries the site's ids. */
async function expectTheTruth(jobs: ReviewJob[], opts: { byId: boolean; sortedNewest: boolean }): Promise<Review[]> {
  expect(jobs.filter((j) => j.status === 'failed').map((j) => `${j.key}: ${j.lastError}`)).toEqual([]);
  const reviews = await readAll<Review>(popup, 'reviews');
  expect(new Set(reviews.map((r) => r.key)).size).toBe(reviews.length);
  // As a page shows a text: HTML turns every CR LF into LF, and nothing else is changed.
  const shown = (text: string | null | undefined) => (text == null ? null : text.replace(/\r\n?/g, '\n').trim());
  let compared = 0;
  for (const job of jobs) {
    const place = places.find((p) => `google:${p.cid}` === job.key);
    if (!place) continue;
    const truth = replica.reviewsTruth(place.cid).slice(0, PER_PLACE);
    const mine = reviews.filter((r) => r.placeKey === job.key);
    expect(mine.length, job.key).toBe(truth.length);
    const used = new Set<Review>();
    for (const t of truth) {
      // The date as the page worded it when it showed the card: from a minute before the place's reading began to a few minutes after.
      const worded = (r: Review) => new Set(Array.from({ length: 25 }, (_, i) => googleRelativeDate(t.writtenAt, r.readAt - 60_000 + i * 15_000)));
      // Without the site's ids, each truth review pairs with one stored review of the same text, stars and date (texts repeat).
      const r = opts.byId
        ? mine.find((m) => m.reviewId === t.id)
        : mine.find(
            (m) =>
              !used.has(m) &&
              m.text === shown(t.text) &&
              m.rating === t.rating &&
              m.translation === shown(t.translation) &&
              (m.ownerReply?.text ?? null) === shown(t.ownerReply?.text) &&
              worded(m).has(m.date?.said ?? ''),
          );
      expect(r, `${job.key} ${t.id}`).toBeDefined();
      used.add(r!);
      expect(r!.idFromSite).toBe(opts.byId);
      expect(r!.rating, t.id).toBe(t.rating);
      // The original text whole (its "More" opened; a translation kept beside it).
      expect(r!.text, t.id).toBe(shown(t.text));
      expect(r!.translation, t.id).toBe(shown(t.translation));
      expect(r!.ownerReply?.text ?? null, t.id).toBe(shown(t.ownerReply?.text));
      expect([...worded(r!)], t.id).toContain(r!.date?.said);
      expect(r!.author).toBeNull();
    }
    expect(job.result).toMatchObject({ sortedNewest: opts.sortedNewest, end: truth.length === replica.reviewsCount(place.cid) ? 'ended' : 'limit' });
    compared++;
  }
  expect(compared).toBeGreaterThan(2);
  return reviews;
}

describe('reviews', () => {
  it('stores each place\u2019s newest reviews to the limit, each once, texts whole, equal to the truth', async () => {
    const area = parseAreaText(AREA);
    if (!area.ok) throw new Error(area.error.message);
    places = replica.groundTruth('pharmacy', area.area);
    expect(places.length).toBeGreaterThan(2);
    const maps = await b.context.newPage();
    await maps.goto(`https://www.google.com/maps/search/pharmacy/@${CENTRE.lat},${CENTRE.lng},16z`);
    popup = await startSweepFromPopup(b.context, { keywords: 'pharmacy', area: AREA }, { ...TEST_SETTINGS, reviews: true, reviewsPerPlace: PER_PLACE });
    sweepId = (await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep', 120_000)).id;
    const jobs = await waitFor(settled, 'every place\u2019s reviews read', 180_000, 1000);
    const reviews = await expectTheTruth(jobs, { byId: true, sortedNewest: true });

    // The popup says how far the pass got, and its export has every review once, formula cells neutralised.
    await expect
      .poll(() => popup.getByTestId('reviews-progress').textContent(), { timeout: 10_000 })
      .toMatch(new RegExp(`Reviews: ${jobs.length} places of ${jobs.length}, ${reviews.length.toLocaleString('en-US')} reviews`));
    const csv = await exportCsvFromPopup(popup, 'Reviews (CSV)');
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    expect(csv.rows.map((r) => `${r.place_key}|${r.review_id}`).sort()).toEqual(reviews.map((r) => r.key).sort());
    for (const r of csv.rows)
      if (/^[=+\-@]/.test(reviews.find((m) => m.reviewId === r.review_id)!.text)) expect(r.text!.startsWith("'"), r.review_id).toBe(true);
    expect(csv.rows.every((r) => r.author === '')).toBe(true);
    // The places export carries each place's rating histogram as the Reviews tab showed it.
    const placesCsv = await exportCsvFromPopup(popup, 'Export CSV');
    let histograms = 0;
    for (const job of jobs) {
      const place = places.find((p) => `google:${p.cid}` === job.key)!;
      const row = placesCsv.rows.find((r) => r.cid === String(place.cid));
      expect(row, job.key).toBeDefined();
      const shown = [1, 2, 3, 4, 5].map((k) => row![`rating_${k}`]);
      if (shown.every((v) => v === '')) continue;
      expect(shown.map(Number), job.key).toEqual(ratingHistogram(place));
      histograms++;
    }
    expect(histograms).toBeGreaterThan(2);
    console.log(`reviews: ${reviews.length} reviews of ${jobs.length} places, ${histograms} histograms`);
  });

  const variants: { name: string; switches: Partial<Switches>; byId: boolean; sortedNewest: boolean }[] = [
    {
      name: 'sort chips, newest first already, a "See more" link, no review id anywhere, an end sentence, batches of 20',
      switches: {
        reviewsSort: 'chips',
        reviewsDefaultSort: 'newest',
        reviewsExpander: 'see-more-link',
        reviewsIdLocation: 'none',
        reviewsEnd: 'sentence',
        reviewsBatchSize: 20,
      },
      byId: false,
      sortedNewest: true,
    },
    {
      name: 'no sort control (the page\u2019s own order, said so), whole texts, the id inside the card',
      switches: {
        reviewsSort: 'absent',
        reviewsDefaultSort: 'newest',
        reviewsExpander: 'none',
        reviewsIdLocation: 'child',
        reviewsEnd: 'nothing',
        reviewsBatchSize: 10,
      },
      byId: true,
      sortedNewest: false,
    },
  ];
  for (const v of variants) {
    it(`under the replica's other answers: ${v.name}`, async () => {
      replica.setSwitches(v.switches);
      await readAgain();
      const jobs = await waitFor(settled, 'every place\u2019s reviews read again', 180_000, 1000);
      await expectTheTruth(jobs, v);
    });
  }

  it('signed out, Google shows at most 5 reviews: the pass pauses and says so, nothing is done short; signed in again, Resume reviews finishes it', async () => {
    replica.setSwitches({
      signedIn: false,
      reviewsSort: 'menu',
      reviewsDefaultSort: 'relevant',
      reviewsExpander: 'more',
      reviewsIdLocation: 'card',
      reviewsEnd: 'nothing',
    });
    await readAgain();
    await expect.poll(() => popup.getByRole('alert').filter({ hasText: 'Google shows only 5 reviews when signed out' }).count(), { timeout: 60_000 }).toBe(1);
    const waiting = await jobsOf();
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.filter((j) => j.status === 'done')).toEqual([]);
    expect(await readAll<Review>(popup, 'reviews')).toEqual([]);
    replica.setSwitches({ signedIn: true });
    await popup.getByRole('button', { name: 'Resume reviews' }).click();
    const jobs = await waitFor(settled, 'every place\u2019s reviews read after signing in', 180_000, 1000);
    await expectTheTruth(jobs, { byId: true, sortedNewest: true });
  });
});
