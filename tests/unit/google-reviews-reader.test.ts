// @vitest-environment happy-dom
/**
 * Google's reviews reader (utils/providers/google/reviews.ts) on the replica's own card markup and
 * on hand-made pages, where a skeptical review made it fail: a review quoting the end sentence, a
 * press of Newest the page ignored or answered late, the reviewer's picture taken for a photo, a
 * review that begins with the owner's heading, an id-less review whose date words aged.
 */
import { describe, expect, it } from 'vitest';
import { actOnGoogleReviews, newGoogleReviewsState, readCard, readGoogleReviews } from '../../utils/providers/google/reviews';
import { newHistory, nextStep } from '../../utils/reviews/judge';
import { reviewIdOf } from '../../utils/reviews/review-of';
import { reviewsStep } from '../../utils/content/reviews';
import { GOOGLE_REVIEWS } from '../../utils/providers/google/reviews';
import { placeClient } from '../replica/place-client';
import { REVIEW_CLASSES } from '../replica/dom-variants';

const card = (id: string, text: string, date = '3 days ago') =>
  `<div aria-label="Author ${id}" data-review-id="${id}"><button aria-label="Photo of Author ${id}"></button><div>Author ${id}</div>` +
  `<div><span role="img" aria-label="5 stars"></span><span>${date}</span></div><div><span>${text}</span></div></div>`;

function page(cards: string[], sort = '') {
  document.body.innerHTML =
    `<div role="tablist"><button role="tab" aria-selected="false">Overview</button><button role="tab" aria-selected="true">Reviews</button></div>` +
    `<div aria-label="120 reviews">120 reviews</div>${sort}<div id="list">${cards.join('')}</div>`;
}

const limits = { perPlace: 50, since: null };

describe('the Google reviews reader', () => {
  it('a review whose text mentions the end sentence does not prove the list ended', () => {
    page([card('r1', 'Great! I scrolled until I reached the end of the reviews and nobody mentions the parking.'), card('r2', 'ok')]);
    const view = readGoogleReviews(document, newGoogleReviewsState());
    expect(view.cards.length).toBe(2);
    expect(view.endShown).toBe(false);
    const next = nextStep({ ...view, order: 'newest' }, limits, newHistory(), () => null);
    expect(next.kind).not.toBe('done');
  });

  it('pressing Newest that did not take does not make the order newest', () => {
    const chips =
      `<div role="radiogroup" aria-label="Sort reviews"><button role="radio" aria-checked="true">Most relevant</button>` +
      `<button role="radio" aria-checked="false">Newest</button></div>`;
    page([card('r1', 'a'), card('r2', 'b')], chips);
    const state = newGoogleReviewsState();
    expect(readGoogleReviews(document, state).order).toBe('other');
    expect(actOnGoogleReviews(document, 'sort-newest', state)).toBe(true);
    // The page ignored the press: Most relevant is still the checked chip.
    expect(readGoogleReviews(document, state).order).not.toBe('newest');
  });

  it('the sort step waits for the re-sorted list: it does not come back with the old order\u2019s cards called newest', async () => {
    const chips =
      `<div role="radiogroup" aria-label="Sort reviews"><button role="radio" aria-checked="true">Most relevant</button>` +
      `<button role="radio" aria-checked="false">Newest</button></div>`;
    page([card('old-relevant-1', 'relevant a'), card('old-relevant-2', 'relevant b')], chips);
    const state = newGoogleReviewsState();
    let t = 0;
    // The page re-renders 2 s after the press (a slow answer).
    const view = await reviewsStep(
      {
        doc: document,
        now: () => t,
        sleep: async (ms) => {
          t += ms;
        },
      },
      { key: 'k', provider: 'google', action: 'sort-newest', settleMs: 6000 },
      GOOGLE_REVIEWS,
      state,
    );
    // The list still shows the relevance order's cards: the step must not call them newest first.
    const stillOld = view.cards.map((c) => c.id).join() === 'old-relevant-1,old-relevant-2';
    expect({ order: view.order, stillOld, waitedMs: t }).not.toMatchObject({ order: 'newest', stillOld: true });
  });

  it('photos: the reviewer\u2019s avatar ("Photo of …") is not a photo of the review', () => {
    const html = placeClient().renderReviewCard(
      { id: 'r1', rating: 4, date: '2 weeks ago', author: 'Mina', text: 'Nice', translation: null, ownerReply: null, photos: 0 },
      { classes: REVIEW_CLASSES, expander: 'more', idLocation: 'card', translated: false } as never,
    );
    document.body.innerHTML = html;
    const c = readCard(document.body.firstElementChild!, newGoogleReviewsState());
    expect(c.text).toBe('Nice');
    expect(c.photos).toBe(0);
  });

  it('a review that begins with the words "Response from the owner" is kept as the review, not as the reply', () => {
    const text = 'Response from the owner was quick and kind, they refunded the cake.';
    const html = placeClient().renderReviewCard(
      { id: 'r1', rating: 4, date: '2 weeks ago', author: 'Mina', text, translation: null, ownerReply: { text: 'Thank you!', date: '1 week ago' }, photos: 0 },
      { classes: REVIEW_CLASSES, expander: 'none', idLocation: 'card', translated: false } as never,
    );
    document.body.innerHTML = html;
    const c = readCard(document.body.firstElementChild!, newGoogleReviewsState());
    expect(c.ownerReply?.text).toBe('Thank you!');
    expect(c.text).toBe(text);
  });

  it('an id-less review read again a week later is the same review (the hash leaves the date words out)', () => {
    const sixDays = { id: null, author: 'Mina', dateSaid: '6 days ago', text: 'Nice' };
    const aWeek = { ...sixDays, dateSaid: 'a week ago' };
    const a = reviewIdOf(sixDays, 'google:1');
    const b = reviewIdOf(aWeek, 'google:1');
    expect(b.id).toBe(a.id);
  });
});
