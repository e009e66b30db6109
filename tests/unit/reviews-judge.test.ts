/**
 * What the reviews pass does next (utils/reviews/judge.ts): done only on the page's proof, and
 * every way of not having it is unknown.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewCard, ReviewsView } from '../../utils/messaging/reviews-protocol';
import { afterStep, newHistory, nextStep, type StepHistory } from '../../utils/reviews/judge';

const card = (i: number, o: Partial<ReviewCard> = {}): ReviewCard => ({
  id: `r${i}`,
  author: `A${i}`,
  rating: 4,
  dateSaid: `${i + 1} days ago`,
  text: `text ${i}`,
  collapsed: false,
  translation: null,
  ownerReply: null,
  photos: 0,
  lang: null,
  ...o,
});
const cards = (n: number, o: Partial<ReviewCard> = {}) => Array.from({ length: n }, (_, i) => card(i, o));
const view = (o: Partial<ReviewsView> = {}): ReviewsView => ({
  page: 'reviews',
  order: 'newest',
  sortChoiceShown: false,
  cards: cards(10),
  total: 40,
  loading: false,
  endShown: false,
  ...o,
});
const limits = { perPlace: 50, since: null };
const none = () => null;
const h = (o: Partial<StepHistory> = {}) => ({ ...newHistory(), ...o });

describe('the next step on a place\u2019s reviews', () => {
  it('opens the Reviews tab, then chooses newest first, then reads batch by batch', () => {
    expect(nextStep(view({ page: 'place', cards: [] }), limits, h(), none)).toEqual({ kind: 'act', action: 'open' });
    expect(nextStep(view({ order: 'other' }), limits, h(), none)).toEqual({ kind: 'act', action: 'sort-newest' });
    expect(nextStep(view(), limits, h(), none)).toEqual({ kind: 'act', action: 'more' });
    expect(nextStep(view({ loading: true }), limits, h(), none)).toEqual({ kind: 'act', action: 'look' });
  });

  it('done when the list visibly ended: its end sentence, or as many cards as the count it shows', () => {
    expect(nextStep(view({ cards: cards(40) }), limits, h(), none)).toEqual({ kind: 'done', end: 'ended', take: 40, sortedNewest: true });
    expect(nextStep(view({ cards: cards(12), total: null, endShown: true }), limits, h(), none)).toMatchObject({ kind: 'done', end: 'ended', take: 12 });
    expect(nextStep(view({ cards: [], total: 0 }), limits, h(), none)).toMatchObject({ kind: 'done', end: 'ended', take: 0 });
  });

  it('done at the limit, newest first; at the first stored review; at the first older than the date', () => {
    expect(nextStep(view({ cards: cards(60), total: 900 }), limits, h(), none)).toEqual({ kind: 'done', end: 'limit', take: 50, sortedNewest: true });
    // A stored review ends the reading when the stored newest-first run below it reaches the limit (or the whole list)…
    const r3 = (c: ReviewCard) => (c.id === 'r3' ? 'known' : null);
    expect(nextStep(view(), limits, h(), r3, { newestFirst: 47 })).toMatchObject({ kind: 'done', end: 'known', take: 3 });
    expect(nextStep(view({ total: 40 }), limits, h(), r3, { newestFirst: 37 })).toMatchObject({ kind: 'done', end: 'known', take: 3 });
    // …never when it does not (a later sweep with a higher limit), nor when the stored ones were read in another order.
    expect(nextStep(view(), limits, h(), r3, { newestFirst: 10 })).toEqual({ kind: 'act', action: 'more' });
    expect(nextStep(view(), limits, h(), r3, { newestFirst: 0 })).toEqual({ kind: 'act', action: 'more' });
    expect(nextStep(view(), limits, h(), (c) => (c.id === 'r7' ? 'since' : null))).toMatchObject({ kind: 'done', end: 'since', take: 7 });
  });

  it('a stored review proves nothing when the order is not newest first: the page\u2019s order is read to its end or the limit', () => {
    const unsorted = view({ order: 'none', cards: cards(10), total: 40 });
    expect(nextStep(unsorted, limits, h(), () => 'known')).toEqual({ kind: 'act', action: 'more' });
    expect(nextStep({ ...unsorted, cards: cards(40) }, limits, h(), () => 'known')).toEqual({ kind: 'done', end: 'ended', take: 40, sortedNewest: false });
    // A sort control that never took: the page's order, said so.
    expect(nextStep(view({ order: 'other', cards: cards(40) }), limits, h({ sorts: 3 }), none)).toMatchObject({ kind: 'done', sortedNewest: false });
  });

  it('opens collapsed texts before it is done, and an expander that does not open is unknown', () => {
    const collapsed = view({ cards: [card(0, { collapsed: true }), ...cards(40).slice(1)] });
    expect(nextStep(collapsed, limits, h(), none)).toEqual({ kind: 'act', action: 'expand' });
    expect(nextStep(collapsed, limits, h({ expands: 2 }), none)).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/More/) });
    // A collapsed text past what is kept does not hold the place up.
    const past = view({ cards: [...cards(50), card(50, { collapsed: true })], total: 900 });
    expect(nextStep(past, limits, h(), none)).toMatchObject({ kind: 'done', take: 50 });
  });

  it('a list that only stopped growing, a tab that never opened, a page with no reviews: unknown, never done', () => {
    expect(nextStep(view(), limits, h({ stalls: 2 }), none)).toEqual({ kind: 'unknown', reason: 'the list stopped growing at 10 of 40 reviews' });
    expect(nextStep(view({ page: 'place' }), limits, h({ opens: 2 }), none)).toMatchObject({ kind: 'unknown' });
    expect(nextStep(view({ page: 'unknown' }), limits, h(), none)).toMatchObject({ kind: 'unknown' });
    // No count and no end sentence: however long the list, never "ended".
    expect(nextStep(view({ total: null, cards: cards(30) }), limits, h(), none)).toEqual({ kind: 'act', action: 'more' });
  });

  it('the signed-out limited view pauses the pass', () => {
    expect(nextStep(view({ page: 'limited', cards: cards(5), total: 1234 }), limits, h(), none)).toEqual({ kind: 'limited' });
  });

  it('the history counts stalls and failed expands in a row, and a growth resets them', () => {
    const a = view();
    let hist = afterStep(newHistory(), 'more', a, a);
    hist = afterStep(hist, 'more', a, a);
    expect(hist.stalls).toBe(2);
    expect(afterStep(hist, 'more', a, view({ cards: cards(20) })).stalls).toBe(0);
    // An expand that opened nothing counts; one that opened some (a translation's original may bring a "More") does not.
    const two = view({ cards: [card(0, { collapsed: true }), card(1, { collapsed: true })] });
    expect(afterStep(newHistory(), 'expand', two, two).expands).toBe(1);
    expect(afterStep({ ...newHistory(), expands: 1 }, 'expand', two, view({ cards: [card(0, { collapsed: true }), card(1)] })).expands).toBe(0);
  });
});

describe('the reviews settings as stored', () => {
  it('off by default, names not kept; a date limit only as a real calendar day', async () => {
    const { normaliseSettings } = await import('../../utils/config/settings');
    expect(normaliseSettings(undefined)).toMatchObject({ reviews: false, reviewsPerPlace: 50, reviewsSince: '', reviewsKeepAuthor: false });
    expect(normaliseSettings({ reviewsSince: '2025-03-05' }).reviewsSince).toBe('2025-03-05');
    for (const bad of ['2025-02-30', '2025-3-5', 20250305, '=1+1', null]) expect(normaliseSettings({ reviewsSince: bad }).reviewsSince).toBe('');
    expect(normaliseSettings({ reviewsPerPlace: 1e9 }).reviewsPerPlace).toBe(10_000);
  });
});
