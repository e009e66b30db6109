/**
 * Reviews without the site's ids (utils/reviews/review-of.ts): a page that shows two reviews alike
 * has two reviews. The hash of what identifies one (place, author, text)
 * cannot tell them apart; their order in the reading can: the second is kept as `#2`, and a
 * reviewer's same short words on another visit are another review.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewCard, ReviewsView } from '../../utils/messaging/reviews-protocol';
import { createPacer } from '../../utils/queue/pacing';
import { countReviews, enqueueReviews } from '../../utils/reviews/queue';
import { reviewIdOf, reviewIdsOf } from '../../utils/reviews/review-of';
import { runReviews, type ReviewsPageDriver } from '../../utils/reviews/runner';
import { openStore } from '../../utils/store';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const card = (p: Partial<ReviewCard>): ReviewCard => ({
  id: null,
  author: '빵순이',
  rating: null,
  dateSaid: '24.3.5.화',
  text: '매장이 깔끔하고 분위기가 좋아요.',
  collapsed: false,
  translation: null,
  ownerReply: null,
  photos: 0,
  lang: null,
  visit: { dateSaid: '24.3.5.화', count: 1, tags: ['친절해요'] },
  ...p,
});

describe('reviews without ids', () => {
  it('cards alike are as many reviews as the page shows; a singleton keeps the id it had; site ids untouched', () => {
    const twin = card({});
    const second = card({ visit: { dateSaid: '24.4.1.월', count: 2, tags: ['친절해요'] } });
    const ids = reviewIdsOf([twin, card({}), second, card({ id: 'abc' }), card({})], 'naver:1').map((i) => i.id);
    expect(new Set(ids).size).toBe(5);
    expect(ids[1]).toBe(`${ids[0]}#2`);
    // The same words on a second visit: another review, the third alike.
    expect(ids[2]).toBe(`${ids[0]}#3`);
    expect(ids[4]).toBe(`${ids[0]}#4`);
    expect(ids[3]).toBe('abc');
    // Neither the visit's date nor the chips are part of it (Naver words the date shorter within
    // the year; which chips read as chips depends on the page's keyword list of the moment).
    expect(reviewIdOf(card({ visit: { dateSaid: '3.5.화', count: 1, tags: [] } }) as ReviewCard, 'naver:1').id).toBe(ids[0]);
    // A singleton keeps the id the first version gave it: nothing stored before is stored again.
    expect(ids[0]).toBe('h:13eb857018b351'); // reviewIdOf at 4642d49, for this card
  });

  it('the loop keeps both of two reviews the page shows alike', async () => {
    const clock = { t: Date.UTC(2026, 11, 1) };
    const store = await openStore({ factory: freshFactory(), name: 'reviews-alike', now: () => clock.t });
    const sweep = makeSweep('s', { status: 'finished', provider: 'naver' } as never);
    await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews: true } as typeof sweep.settings }, [makeCell('s', 'r0c0')]);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      const l = makeListing('1000176302', { reviews: null, provider: 'naver', key: 'naver:1000176302' } as never);
      await tx.objectStore('listings').put({ ...l, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] });
    });
    await enqueueReviews(store, 's', clock.t, { provider: 'naver' });
    const view: ReviewsView = {
      page: 'reviews',
      order: 'none',
      sortChoiceShown: false,
      cards: [card({}), card({ author: '맛집헌터' }), card({})],
      total: 3,
      loading: false,
      endShown: true,
    };
    const page: ReviewsPageDriver = { exists: async () => true, load: async (_t, url) => ({ url }), step: async () => view };
    const sleep = async (ms: number) => {
      clock.t += ms;
    };
    const pacer = createPacer({ now: () => clock.t, sleep, random: () => 0, timing: () => ({ delayMs: 10, jitterMs: 0 }) });
    const settings = { limits: { perPlace: 50, since: null }, keepAuthor: false, maxAttempts: 3, loadTimeoutMs: 10_000 };
    expect(await runReviews({ store, page, pacer, now: () => clock.t, sleep, random: () => 0.5 }, 's', 1, settings, { holder: 'A' })).toBe('finished');
    expect(await countReviews(store, 's')).toMatchObject({ done: 1, reviews: 3 });
  });
});
