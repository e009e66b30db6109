/**
 * The reviews pass on Kakao in real Chromium (issue 38): a small Kakao sweep finished with the pass off,
 * its reviews asked for from the popup (Read reviews), on the replica's place pages, whose reviews tab is built apart from the reader (tests/replica/kakao/
 * reviews*.ts, client/place-reviews.js). What is stored equals the replica's truth for the pass's
 * limit: each place's newest reviews, each once, texts whole, stars and days read, no place done
 * short; then again under the replica's other answers (a link for the tab, the order under another
 * name, a short 더보기, a cursor, camelCase, stamped dates, pages of 10) and with no order control at
 * all (opened on load, more by scrolling, numbered pages: read in the page's order, said so). The
 * browser is killed mid-pass once: after the restart the pass goes on by itself, nothing lost.
 *
 * Budget: 80 s (alone on 2 cores; one sweep, three readings of its places, one restart).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Review } from '../../utils/domain/review';
import { kakaoReviewDay } from '../replica/kakao/reviews';
import { readAll, waitFor } from './harness';
import { readReviewsAgain, settledReviewJobs } from './extension';
import { KEYWORD } from './provider-suite';
import { kakaoSuite, TINY } from './kakao-suite';

const suite = kakaoSuite();
const PER_PLACE = 12;

let popup: Page;
let sweepId: string;

describe('reviews on Kakao', () => {
  it('a sweep finished with the pass off: Read reviews in the popup stores each place\u2019s newest reviews to the limit, each once, equal to the truth', async () => {
    const done = await suite.sweepToEnd({ keywords: KEYWORD, area: TINY }, 'the Kakao sweep', (s) => s.status === 'finished', {
      reviews: false,
      reviewsPerPlace: PER_PLACE,
    } as never);
    popup = done.popup;
    sweepId = done.sweep.id;
    expect(await readAll(popup, 'reviewQueue')).toEqual([]);
    await popup.getByRole('button', { name: 'Read reviews' }).click();
    await expectTheTruth(true);
  });

  it('under the replica\u2019s other answers (a link for the tab, the order under another name, a short 더보기, a cursor, camelCase, stamped dates, pages of 10), the browser killed mid-pass: after the restart the pass goes on by itself and loses nothing', async () => {
    suite.replica.setSwitches({
      kakaoReviewsTab: 'link',
      kakaoReviewsSort: 'renamed-aria',
      kakaoReviewsMore: 'short',
      kakaoReviewsPageKey: 'cursor',
      kakaoReviewsCase: 'camel',
      kakaoReviewsDates: 'stamp',
      kakaoReviewsBatch: 10,
      kakaoReviewsCut: 'none',
    });
    await readReviewsAgain(popup, sweepId);
    const jobs = () => readAll<{ key: string; status: string }>(popup, 'reviewQueue');
    await waitFor(async () => (await jobs()).filter((j) => j.status === 'done').length >= 2, 'two places read', 60_000, 100);
    expect((await jobs()).filter((j) => j.key !== '#queued' && j.status !== 'done').length).toBeGreaterThan(0);
    popup = await suite.killShared();
    await expectTheTruth(true);
  });

  it('with no order control: opened on load, more by scrolling, numbered pages, read in the page\u2019s order and said so', async () => {
    suite.replica.setSwitches({
      kakaoReviewsTab: 'open',
      kakaoReviewsSort: 'none',
      kakaoReviewsMore: 'scroll',
      kakaoReviewsPageKey: 'page',
      kakaoReviewsDates: 'iso',
      kakaoReviewsBatch: 5,
    });
    await readReviewsAgain(popup, sweepId);
    await expectTheTruth(false);
  });
});

/** `sortedNewest`: whether the page offered newest first (with no control the page's own order is read, and said so). */
async function expectTheTruth(sortedNewest: boolean): Promise<void> {
  const jobs = await waitFor(() => settledReviewJobs(popup), 'every place\u2019s reviews read', 180_000, 1000);
  expect(jobs.filter((j) => j.status === 'failed').map((j) => `${j.key}: ${j.lastError}`)).toEqual([]);
  const reviews = await readAll<Review>(popup, 'reviews');
  expect(new Set(reviews.map((r) => r.key)).size).toBe(reviews.length);
  let compared = 0;
  let withReviews = 0;
  for (const job of jobs) {
    const id = job.key.replace(/^kakao:/, '');
    // The replica's list without an order control is the newest first: the same reviews either way.
    const truth = suite.replica.kakaoReviewsTruth(id).slice(0, PER_PLACE);
    const mine = reviews.filter((r) => r.placeKey === job.key);
    expect(mine.map((r) => r.reviewId).sort(), job.key).toEqual(truth.map((t) => String(t.id)).sort());
    for (const t of truth) {
      const r = mine.find((m) => m.reviewId === String(t.id))!;
      expect(r.text, String(t.id)).toBe(t.text.trim());
      expect(r.rating, String(t.id)).toBe(t.stars);
      expect(r.date?.iso, String(t.id)).toBe(kakaoReviewDay(t.writtenAt));
      expect(r.photos, String(t.id)).toBe(t.photos);
      expect(r.author).toBeNull();
    }
    expect(job.result, job.key).toMatchObject({ sortedNewest, end: truth.length < PER_PLACE ? 'ended' : 'limit' });
    if (truth.length > 0) withReviews++;
    compared++;
  }
  expect(withReviews).toBeGreaterThan(0);
  console.log(`kakao reviews: ${reviews.length} reviews of ${compared} places`);
}
