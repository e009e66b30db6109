/**
 * The reviews pass on Naver in real Chromium (issue 38): a small Naver sweep with the pass on, on
 * the replica's visitor reviews pages (built apart from the reader). What is stored equals the
 * replica's truth for the pass's limit: each place's newest visitor reviews, each once, texts
 * whole, visit facts read, no place done short.
 *
 * Budget: 75 s (alone on 2 cores; one sweep, three readings of its places).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Review } from '../../utils/domain/review';
import { readAll, waitFor } from './harness';
import { readReviewsAgain, settledReviewJobs } from './extension';
import { areaAround, KEYWORD } from './provider-suite';
import { naverSuite } from './naver-suite';

const suite = naverSuite();
const AREA = areaAround(0.0012, 37.572, 126.985);
const PER_PLACE = 15;

let popup: Page;

describe('reviews on Naver', () => {
  it('stores each place\u2019s newest visitor reviews to the limit, each once, equal to the truth', async () => {
    popup = (
      await suite.sweepToEnd({ keywords: KEYWORD, area: AREA }, 'the Naver sweep', (s) => s.status === 'finished', {
        reviews: true,
        reviewsPerPlace: PER_PLACE,
      } as never)
    ).popup;
    await expectTheTruth();
  });

  it('under the replica\u2019s other answers: scrolled for more, a button expander, the year only when old, the id in a link, the reply headed by the place\u2019s name, a disabled end, pages of 20', async () => {
    suite.replica.setSwitches({
      naverReviewsMore: 'scroll',
      naverReviewsExpander: 'button',
      naverReviewsDates: 'year-when-old',
      naverReviewsId: 'link',
      naverReviewsReplyHead: 'name',
      naverReviewsFullDate: 'none',
      naverReviewsEnd: 'disabled',
      naverReviewsPage: 20,
    });
    const sweepId = (await readAll<{ id: string; status: string }>(popup, 'sweeps')).find((s) => s.status === 'finished')!.id;
    await readReviewsAgain(popup, sweepId);
    await expectTheTruth();
  });

  it('with no review ids, stars shown and no sort tabs: kept under a hash of what identifies them, stars read, the page\u2019s order read and said so', async () => {
    suite.replica.setSwitches({ naverReviewsId: 'none', naverReviewStars: 'shown', naverReviewsSort: 'absent' });
    const sweepId = (await readAll<{ id: string; status: string }>(popup, 'sweeps')).find((s) => s.status === 'finished')!.id;
    await readReviewsAgain(popup, sweepId);
    await expectTheTruth({ byId: false, stars: true, sort: 'recommend' });
  });
});

/** `byId`: the page shows review ids; `stars`: it shows stars; `sort`: the order the page lists in (only 추천순 without tabs). */
async function expectTheTruth(
  opts: { byId: boolean; stars: boolean; sort: 'recent' | 'recommend' } = { byId: true, stars: false, sort: 'recent' },
): Promise<void> {
  {
    const jobs = await waitFor(() => settledReviewJobs(popup), 'every place\u2019s reviews read', 180_000, 1000);
    expect(jobs.filter((j) => j.status === 'failed').map((j) => `${j.key}: ${j.lastError}`)).toEqual([]);
    const reviews = await readAll<Review>(popup, 'reviews');
    expect(new Set(reviews.map((r) => r.key)).size).toBe(reviews.length);
    const shown = (t: string) => t.replace(/\r\n?/g, '\n').trim();
    let compared = 0;
    for (const job of jobs) {
      const id = job.key.replace(/^naver:/, '');
      const truth = suite.replica.naverReviewsTruth(id, opts.sort).slice(0, PER_PLACE);
      const mine = reviews.filter((r) => r.placeKey === job.key);
      if (opts.byId) expect(mine.map((r) => r.reviewId).sort(), job.key).toEqual(truth.map((t) => t.id).sort());
      else expect(mine.length, job.key).toBe(truth.length);
      const used = new Set<Review>();
      for (const t of truth) {
        // Without ids, each truth review pairs with one stored review of the same text, visit and reply (texts repeat).
        const r = opts.byId
          ? mine.find((m) => m.reviewId === t.id)!
          : mine.find(
              (m) =>
                !used.has(m) &&
                m.text === shown(t.text) &&
                m.visit?.count === t.visitCount &&
                JSON.stringify(m.visit?.tags) === JSON.stringify(t.keywords) &&
                (m.ownerReply?.text ?? null) === (t.ownerReply ? shown(t.ownerReply.text) : null),
            )!;
        expect(r, t.id).toBeDefined();
        used.add(r);
        expect(r.idFromSite, t.id).toBe(opts.byId);
        expect(r.text, t.id).toBe(shown(t.text));
        expect(r.visit?.count, t.id).toBe(t.visitCount);
        expect(r.visit?.tags, t.id).toEqual(t.keywords);
        expect(r.ownerReply?.text ?? null, t.id).toBe(t.ownerReply ? shown(t.ownerReply.text) : null);
        expect(r.rating, t.id).toBe(opts.stars ? t.rating : null);
      }
      // Newest first wherever there was a list to order (a place with none shows no sort tabs).
      expect(job.result, job.key).toMatchObject({
        sortedNewest: opts.sort === 'recent' && truth.length > 0,
        end: truth.length < PER_PLACE ? 'ended' : 'limit',
      });
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
    console.log(`naver reviews: ${reviews.length} reviews of ${jobs.length} places`);
  }
}
