/**
 * A review card as the page showed it (page content, hostile) shaped into the review kept
 * (utils/domain/review.ts): its id the site's own or, where the page shows none, a stable hash of
 * what identifies it; its dates as days from the page's words; every field bounded; the
 * reviewer's name only when the user chose to keep it.
 */
import type { ProviderId } from '../domain/place';
import { MAX_REVIEW_TEXT, type Review } from '../domain/review';
import { parseReviewDate } from '../domain/review-date';
import type { ReviewCard } from '../messaging/reviews-protocol';
import { reviewKey } from './records';

export interface ReviewContext {
  placeKey: string;
  provider: ProviderId;
  readAt: number;
  /** Keep the reviewer's name as displayed (off by default: personal data). */
  keepAuthor: boolean;
}

/**
 * The id a card is kept under: the site's, or `h:` and a hash of the place, the author as
 * displayed and the text. Not the date: its words age ("6 days ago", then "a week ago"), and the
 * same review read again must get the same id.
 */
export function reviewIdOf(card: Pick<ReviewCard, 'id' | 'author' | 'text'>, placeKey: string): ReviewId {
  if (card.id) return { id: card.id, fromSite: true };
  // Nothing that may read differently another day goes in: not the date's words, not Naver's
  // keyword chips (which of them read as chips depends on the page's keyword list of the moment).
  return { id: `h:${hash53([placeKey, card.author, card.text].join('\u0000'))}`, fromSite: false };
}

export interface ReviewId {
  id: string;
  fromSite: boolean;
}

/**
 * The ids a reading's cards are kept under, in the page's order. Cards without ids that hash
 * alike (one reviewer's same words on two visits) are as many reviews as the page shows: the
 * second of one hash is `#2`, and so on (which of two alike is which may swap between readings,
 * their facts with it; that there are two is kept). A singleton keeps the id it always had.
 */
export function reviewIdsOf(cards: readonly ReviewCard[], placeKey: string): ReviewId[] {
  const seen = new Map<string, number>();
  return cards.map((c) => {
    const one = reviewIdOf(c, placeKey);
    if (one.fromSite) return one;
    const n = (seen.get(one.id) ?? 0) + 1;
    seen.set(one.id, n);
    return n === 1 ? one : { id: `${one.id}#${n}`, fromSite: false };
  });
}

/** The review kept for `card`, under `given` (its place in the reading: reviewIdsOf) or its own id. */
export function reviewOf(card: ReviewCard, ctx: ReviewContext, given?: ReviewId): Review {
  const { id, fromSite } = given ?? reviewIdOf(card, ctx.placeKey);
  const text = bounded(card.text);
  return {
    key: reviewKey(ctx.placeKey, id),
    placeKey: ctx.placeKey,
    provider: ctx.provider,
    reviewId: id,
    idFromSite: fromSite,
    rating: Number.isInteger(card.rating) && card.rating! >= 1 && card.rating! <= 5 ? card.rating : null,
    // The date the review was written: the card's own, or (Naver) its written date apart from the visit's.
    date: (card.writtenSaid ?? card.dateSaid) ? parseReviewDate((card.writtenSaid ?? card.dateSaid)!, ctx.readAt) : null,
    text,
    translation: card.translation ? bounded(card.translation) : null,
    lang: card.lang && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(card.lang) ? card.lang : null,
    ownerReply: card.ownerReply
      ? { text: bounded(card.ownerReply.text), date: card.ownerReply.dateSaid ? parseReviewDate(card.ownerReply.dateSaid, ctx.readAt) : null }
      : null,
    photos: Number.isInteger(card.photos) && card.photos >= 0 ? Math.min(card.photos, 1000) : 0,
    visit: card.visit
      ? {
          date: card.visit.dateSaid ? parseReviewDate(card.visit.dateSaid, ctx.readAt) : null,
          count: Number.isInteger(card.visit.count) && card.visit.count! > 0 ? card.visit.count : null,
          tags: card.visit.tags.filter((t) => typeof t === 'string' && t.length > 0 && t.length <= 40).slice(0, 20),
        }
      : null,
    author: ctx.keepAuthor && card.author ? card.author.slice(0, 200) : null,
    readAt: ctx.readAt,
    newestFirst: false,
  };
}

function bounded(text: string): string {
  return typeof text === 'string' ? text.slice(0, MAX_REVIEW_TEXT) : '';
}

/** cyrb53: a fast, well-spread 53-bit string hash (public domain), as 14 hex digits. */
function hash53(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
