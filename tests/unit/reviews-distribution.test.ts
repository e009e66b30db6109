// @vitest-environment happy-dom
/**
 * The rating distribution (issue 38): read from Google's histogram by its rows' labels
 * (utils/providers/google/reviews.ts ratingHistogram) on the replica's own summary markup, checked
 * in the background (utils/reviews/distribution.ts: five non-negative integers adding up to the
 * count the page shows, else unknown), and kept on the place's job when its reviews are committed
 * (utils/reviews/runner.ts, queue.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ReviewsStepRequest, ReviewsView } from '../../utils/messaging/reviews-protocol';
import { newGoogleReviewsState, ratingHistogram, readGoogleReviews } from '../../utils/providers/google/reviews';
import { createPacer } from '../../utils/queue/pacing';
import { checkedDistribution } from '../../utils/reviews/distribution';
import { commitReviews, enqueueReviews, leaseReviews } from '../../utils/reviews/queue';
import { reviewJobId } from '../../utils/reviews/records';
import { runReviews, type ReviewsPageDriver, type ReviewsSettings } from '../../utils/reviews/runner';
import { openStore, type Store } from '../../utils/store';
import { REVIEW_CLASSES } from '../replica/dom-variants';
import { placeClient, placePageScript } from '../replica/place-client';
import { modelledTab } from '../helpers/reviews-tab';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

/** The replica page script's own summary renderer (client/place-page.js), as the Reviews tab shows it. */
const replica = new Function(`${placePageScript()}\nreturn { renderReviewsSummary };`)() as {
  renderReviewsSummary(summary: { average: string; count: number; histogram: number[] }, classes: typeof REVIEW_CLASSES): string;
};

const summary = (histogram: number[], average = '4.3') =>
  replica.renderReviewsSummary({ average, count: histogram.reduce((a, b) => a + b, 0), histogram }, REVIEW_CLASSES);

const card = (id: string, rating: number) =>
  placeClient().renderReviewCard(
    { id, rating, date: '2 weeks ago', author: `Author ${id}`, text: `Text ${id}`, translation: null, ownerReply: null, photos: 0 },
    { classes: REVIEW_CLASSES, expander: 'more', idLocation: 'card', translated: false } as never,
  );

const reviewsTab =
  '<div role="tablist"><button role="tab" aria-selected="false">Overview</button><button role="tab" aria-selected="true">Reviews</button></div>';

describe("Google's rating histogram, read by its rows' labels", () => {
  it('reads the replica Reviews tab\u2019s five rows (1 star first), counts over a thousand included, and leaves the cards as they were', () => {
    const histogram = [12, 0, 31, 207, 1234];
    document.body.innerHTML = `${reviewsTab}<div role="main">${summary(histogram)}<div>${card('r1', 5)}${card('r2', 1)}</div></div>`;
    const view = readGoogleReviews(document, newGoogleReviewsState());
    expect(view.distribution).toEqual(histogram);
    // The rows ("5 stars, 1,234 reviews") are neither cards nor the count the page shows.
    expect(view.cards.map((c) => [c.id, c.rating])).toEqual([
      ['r1', 5],
      ['r2', 1],
    ]);
    expect(view.total).toBe(1484);
    expect(checkedDistribution(view.distribution, view.total)).toEqual(histogram);
  });

  it('a whole average ("4.0 stars") is the summary, never a review card: the list\u2019s cards and its end stay the page\u2019s', () => {
    document.body.innerHTML = `${reviewsTab}<div role="main">${summary([0, 0, 0, 2, 0], '4.0')}<div>${card('r1', 4)}</div></div>`;
    const view = readGoogleReviews(document, newGoogleReviewsState());
    // Before: a third "card" with no id, 4 stars and the text "2 reviews", and 2 cards for a count of 2: the end one review early.
    expect(view.cards.map((c) => c.id)).toEqual(['r1']);
    expect(view.total).toBe(2);
  });

  it('reads the Korean page\u2019s rows ("별표 5개, 리뷰 1,234개")', () => {
    const rows = [5, 4, 3, 2, 1].map((k) => `<tr role="img" aria-label="별표 ${k}개, 리뷰 ${(k * 1000 + 1).toLocaleString('en-US')}개"><td>${k}</td></tr>`);
    document.body.innerHTML = `<div aria-label="리뷰 15,005개">리뷰 15,005개</div><table><tbody>${rows.join('')}</tbody></table>`;
    const view = readGoogleReviews(document, newGoogleReviewsState());
    expect(view.distribution).toEqual([1001, 2001, 3001, 4001, 5001]);
    expect(view.total).toBe(15_005);
  });

  it('is unknown when the page shows no histogram, only part of one, or two that disagree: never a guess', () => {
    document.body.innerHTML = `${reviewsTab}<div>${card('r1', 5)}</div>`;
    expect(ratingHistogram(document)).toBeNull();

    document.body.innerHTML = summary([1, 2, 3, 4, 5]);
    document.querySelector('[aria-label^="3 stars,"]')!.remove();
    expect(ratingHistogram(document)).toBeNull();

    document.body.innerHTML = summary([1, 2, 3, 4, 5]) + summary([1, 2, 3, 4, 6]);
    expect(ratingHistogram(document)).toBeNull();
    // The same histogram twice (a panel and its copy) is still that histogram.
    document.body.innerHTML = summary([1, 2, 3, 4, 5]) + summary([1, 2, 3, 4, 5]);
    expect(ratingHistogram(document)).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes only role="img" rows: the same words in a plain text are not a histogram', () => {
    document.body.innerHTML = [5, 4, 3, 2, 1].map((k) => `<div aria-label="${k} stars, 3 reviews">${k} stars, 3 reviews</div>`).join('');
    expect(ratingHistogram(document)).toBeNull();
  });
});

describe('the distribution, checked in the background', () => {
  it.each<[string, unknown, unknown, number[] | null]>([
    ['adds up to the count shown', [1, 2, 3, 4, 5], 15, [1, 2, 3, 4, 5]],
    ['no count shown: nothing says the rows were read whole', [0, 0, 0, 0, 9], null, null],
    ['sum differs from the count shown', [1, 2, 3, 4, 5], 16, null],
    ['a count shown that is no number', [1, 2, 3, 4, 5], '15', null],
    ['four rows', [1, 2, 3, 4], null, null],
    ['six rows', [1, 2, 3, 4, 5, 6], null, null],
    ['a negative row', [1, -2, 3, 4, 5], null, null],
    ['a fraction', [1, 2.5, 3, 4, 5], null, null],
    ['a text', [1, '2', 3, 4, 5], null, null],
    ['not a list', { 1: 1 }, null, null],
    ['nothing', undefined, 15, null],
  ])('%s', (_name, shown, total, expected) => {
    expect(checkedDistribution(shown, total)).toEqual(expected);
  });
});

const SETTINGS: ReviewsSettings = { limits: { perPlace: 25, since: null }, keepAuthor: false, maxAttempts: 3, loadTimeoutMs: 10_000 };

async function setUp(places: number): Promise<{ store: Store; clock: { t: number } }> {
  const clock = { t: Date.UTC(2026, 11, 1) };
  const store = await openStore({ factory: freshFactory(), name: 'reviews-distribution', now: () => clock.t });
  const sweep = makeSweep('s', { status: 'finished' });
  await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews: true } as typeof sweep.settings }, [makeCell('s', 'r0c0')]);
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (let i = 0; i < places; i++) {
      const l = makeListing(String(100 + i), { reviews: null });
      await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] });
    }
  });
  await enqueueReviews(store, 's', clock.t, { provider: 'google' });
  return { store, clock };
}

/** A modelled Reviews tab of `total` reviews whose views also carry `distribution` once the tab is open. */
function tabWithHistogram(clock: { t: number }, histogramOf: (key: string, view: ReviewsView) => ReviewsView['distribution'], total = 7): ReviewsPageDriver {
  const tabs = new Map<string, ReturnType<typeof modelledTab>>();
  let url = '';
  return {
    exists: async () => true,
    async load(_tab, to) {
      url = to;
      tabs.delete(url);
      return { url };
    },
    async step(_tab, req: ReviewsStepRequest) {
      let t = tabs.get(url);
      if (!t) {
        t = modelledTab(total, () => 0.5);
        tabs.set(url, t);
      }
      const view = t(req.action);
      clock.t += 1;
      return view.page === 'reviews' ? { ...view, distribution: histogramOf(req.key, view) } : view;
    },
  };
}

function deps(store: Store, clock: { t: number }, page: ReviewsPageDriver) {
  const sleep = async (ms: number) => {
    clock.t += Math.max(0, ms);
  };
  const pacer = createPacer({ now: () => clock.t, sleep, random: () => 0, timing: () => ({ delayMs: 1000, jitterMs: 0 }) });
  return { store, page, pacer, now: () => clock.t, sleep, random: () => 0.5 };
}

describe('the distribution kept with the place\u2019s reviews', () => {
  it('is stored on the job at commit when it adds up to the count shown, and left out when it does not', async () => {
    const { store, clock } = await setUp(2);
    // The modelled tab shows a count of 7: google:100's rows add up to it, google:101's do not.
    const page = tabWithHistogram(clock, (key) => (key === 'google:100' ? [1, 0, 2, 1, 3] : [1, 0, 2, 1, 4]));
    expect(await runReviews(deps(store, clock, page), 's', 1, SETTINGS, { holder: 'A' })).toBe('finished');
    const job = (key: string) => store.transact(['reviewQueue'], 'readonly', (tx) => tx.objectStore('reviewQueue').get(reviewJobId('s', key)));
    expect((await job('google:100'))?.result).toMatchObject({ end: 'ended', read: 7, distribution: [1, 0, 2, 1, 3] });
    const other = await job('google:101');
    expect(other?.status).toBe('done');
    expect(other?.result && 'distribution' in other.result).toBe(false);
  });

  it('seen on one step and not on the later ones (the list scrolled on), it is still kept', async () => {
    const { store, clock } = await setUp(1);
    // 25 reviews in batches of 10: the histogram shows only while the first batch does.
    const page = tabWithHistogram(clock, (_key, view) => (view.cards.length === 10 ? [5, 5, 5, 5, 5] : null), 25);
    expect(await runReviews(deps(store, clock, page), 's', 1, SETTINGS, { holder: 'A' })).toBe('finished');
    const job = await store.transact(['reviewQueue'], 'readonly', (tx) => tx.objectStore('reviewQueue').get(reviewJobId('s', 'google:100')));
    expect(job?.result).toMatchObject({ read: 25, distribution: [5, 5, 5, 5, 5] });
  });

  it('a commit without a distribution (Naver, or none read) writes the job as before', async () => {
    const { store, clock } = await setUp(1);
    const job = (await leaseReviews(store, { sweepId: 's', holder: 'A', now: clock.t, leaseMs: 60_000 }))!;
    await commitReviews(store, { jobId: job.id, holder: 'A', now: clock.t, reviews: [], end: 'ended', sortedNewest: true, distribution: null });
    const stored = await store.transact(['reviewQueue'], 'readonly', (tx) => tx.objectStore('reviewQueue').get(job.id));
    expect(stored?.result).toEqual({ end: 'ended', read: 0, added: 0, sortedNewest: true });
  });
});
