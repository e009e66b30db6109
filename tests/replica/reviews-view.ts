/**
 * What the place page and its reviews endpoint show of the ground truth (reviews.ts), under the
 * replica's switches. The public record (map-pages-spec §5: S8, S24, S25) confirms lazy batches, a
 * sort control, a "More" expander and the signed-out cap of five; the batch size, the control's form,
 * the expander's form, where a review's id sits, how the list ends and the translation toggle are
 * not confirmed, so each is a switch with every plausible form.
 *
 * The endpoint is a pure function of the world, the switches and the query string (like
 * search-xhr.ts), so unit tests answer the page's requests in-process exactly as the server does.
 */
import type { ReviewClasses } from './dom-variants';
import {
  googleRelativeDate,
  type OwnerReply,
  type ReplicaReview,
  REVIEW_SORTS,
  type ReviewSort,
  ratingHistogram,
  reviewAt,
  reviewOrder,
  reviewsOf,
  reviewTotal,
} from './reviews';
import type { XhrAnswer } from './search-xhr';
import type { ReplicaPlace, World } from './world';

/** The page's batch request: `?place={feature id}&sort={REVIEW_SORTS}&offset={n}&n={batch}`. */
export const REVIEWS_PATH = '/maps/rpc/listugcposts';
/** Signed out, every route stops at five reviews (S8, S24). */
const LIMITED_VIEW_REVIEWS = 5;
const MAX_BATCH = 100;

/** The forms each unconfirmed part may take; the first is the default. */
export const REVIEW_CHOICES = {
  reviewsBatchSize: [10, 20],
  reviewsSort: ['menu', 'chips', 'absent'],
  reviewsDefaultSort: ['relevant', 'newest'],
  reviewsExpander: ['more', 'see-more-link', 'none'],
  reviewsIdLocation: ['card', 'child', 'none'],
  reviewsEnd: ['nothing', 'sentence'],
} as const;

type Choice<K extends keyof typeof REVIEW_CHOICES> = (typeof REVIEW_CHOICES)[K][number];

export interface ReviewsSwitches {
  /** Reviews per lazy batch [?] (Google Search's own review panel pages 10). */
  reviewsBatchSize: Choice<'reviewsBatchSize'>;
  /** A "Sort" button opening a menu, four radio chips, or no sort control. */
  reviewsSort: Choice<'reviewsSort'>;
  /** The order before any choice. */
  reviewsDefaultSort: Choice<'reviewsDefaultSort'>;
  /** How a text over 200 characters is cut: a "More" button, a "See more" span, or not at all. */
  reviewsExpander: Choice<'reviewsExpander'>;
  /** Where `data-review-id` sits: on the card, on a child of it, or nowhere. */
  reviewsIdLocation: Choice<'reviewsIdLocation'>;
  /** After the last card: nothing, or a sentence [?]. */
  reviewsEnd: Choice<'reviewsEnd'>;
  /** A translated review shows its translation with a "See original" toggle [?]; off: the original only. */
  reviewsTranslated: boolean;
  /** Up to this much more delay on each batch answer (seeded), for readers that assume timing. */
  reviewsJitterMs: number;
}

/** When the reviews were written up to (the replica's start) and the clock their dates are printed against. */
export interface ReviewClock {
  writtenBefore: number;
  now: number;
}

/** A review as the page gets it: its dates printed as Google prints them. */
export interface ServedReview {
  id: string;
  rating: number;
  date: string;
  author: string;
  text: string;
  translation: string | null;
  ownerReply: { text: string; date: string } | null;
  photos: number;
}

function servedReview(review: ReplicaReview, now: number): ServedReview {
  const { id, rating, author, text, translation, photos, ownerReply } = review;
  return {
    id,
    rating,
    date: googleRelativeDate(review.writtenAt, now),
    author,
    text,
    translation,
    ownerReply: ownerReply && { text: ownerReply.text, date: googleRelativeDate(ownerReply.repliedAt, now) },
    photos,
  };
}

/** How many of the place's reviews any route reaches: all signed in, five signed out. */
function reachable(place: ReplicaPlace, signedIn: boolean): number {
  return signedIn ? reviewTotal(place) : Math.min(LIMITED_VIEW_REVIEWS, reviewTotal(place));
}

/** Reviews `from`..`to` (exclusive) in `sort` order, as served. */
function servedRange(place: ReplicaPlace, sort: ReviewSort, from: number, to: number, clock: ReviewClock): ServedReview[] {
  const order = reviewOrder(place, sort);
  const out: ServedReview[] = [];
  for (let i = from; i < to; i++) out.push(servedReview(reviewAt(place, order[i]!, clock.writtenBefore), clock.now));
  return out;
}

/**
 * `GET /maps/rpc/listugcposts?place=…&sort=…&offset=…&n=…` → `)]}'\n{"reviews":[…],"next":offset|null}`.
 * `next` is null once the batch reaches the last review (the fifth, signed out).
 */
export function answerReviewsXhr(world: World, signedIn: boolean, params: URLSearchParams, clock: ReviewClock): XhrAnswer {
  const place = world.byFeatureId.get(params.get('place') ?? '');
  if (!place) return { status: 404, contentType: 'text/plain; charset=UTF-8', body: 'no such place' };
  const sort = params.get('sort') ?? 'relevant';
  const offset = Number(params.get('offset') ?? '0');
  const n = Number(params.get('n') ?? String(REVIEW_CHOICES.reviewsBatchSize[0]));
  if (!REVIEW_SORTS.includes(sort as ReviewSort) || !Number.isInteger(offset) || offset < 0 || !Number.isInteger(n) || n < 1 || n > MAX_BATCH) {
    return { status: 400, contentType: 'text/plain; charset=UTF-8', body: 'bad listugcposts request: sort, offset or n' };
  }
  const total = reachable(place, signedIn);
  const end = Math.min(total, offset + n);
  const reviews = offset < end ? servedRange(place, sort as ReviewSort, offset, end, clock) : [];
  const body = `)]}'\n${JSON.stringify({ reviews, next: end < total ? end : null })}`;
  return { status: 200, contentType: 'application/json; charset=UTF-8', body };
}

export interface ReviewsPageInput {
  switches: ReviewsSwitches & { batchDelayMs: number };
  clock: ReviewClock;
}

/** What the place page's script gets (pages.ts inlines it as JSON; client/place-page.js reads it). */
export interface ReviewsPageConfig {
  /** The variant's names (already renamed for variant 'b'). */
  classes: ReviewClasses;
  featureId: string;
  signedIn: boolean;
  summary: { average: string; count: number; histogram: number[] };
  /** Signed out: the reviews the overview shows (five at most); signed in: none. */
  overview: ServedReview[];
  batchSize: number;
  sortControl: ReviewsSwitches['reviewsSort'];
  defaultSort: ReviewsSwitches['reviewsDefaultSort'];
  expander: ReviewsSwitches['reviewsExpander'];
  idLocation: ReviewsSwitches['reviewsIdLocation'];
  end: ReviewsSwitches['reviewsEnd'];
  translated: boolean;
  batchDelayMs: number;
}

/** The page script's config; null when the place has no reviews (then the page has no tabs and no script). */
export function reviewsPageConfig(place: ReplicaPlace, signedIn: boolean, input: ReviewsPageInput, classes: ReviewClasses): ReviewsPageConfig | null {
  const count = reviewTotal(place);
  if (count === 0) return null;
  const s = input.switches;
  const histogram = ratingHistogram(place);
  const mean = histogram.reduce((sum, n, i) => sum + n * (i + 1), 0) / count;
  return {
    classes,
    featureId: place.featureId,
    signedIn,
    summary: { average: (place.rating ?? mean).toFixed(1), count, histogram },
    overview: signedIn ? [] : servedRange(place, s.reviewsDefaultSort, 0, reachable(place, false), input.clock),
    batchSize: s.reviewsBatchSize,
    sortControl: s.reviewsSort,
    defaultSort: s.reviewsDefaultSort,
    expander: s.reviewsExpander,
    idLocation: s.reviewsIdLocation,
    end: s.reviewsEnd,
    translated: s.reviewsTranslated,
    batchDelayMs: s.batchDelayMs,
  };
}

/** A review of the ground truth with its dates as the page prints them at `clock.now`. */
export interface ReviewTruth extends ReplicaReview {
  dateText: string;
  ownerReply: (OwnerReply & { dateText: string }) | null;
}

export function reviewsTruth(place: ReplicaPlace, clock: ReviewClock): ReviewTruth[] {
  return reviewsOf(place, clock.writtenBefore).map((review) => {
    const reply = review.ownerReply;
    return {
      ...review,
      dateText: googleRelativeDate(review.writtenAt, clock.now),
      ownerReply: reply && { ...reply, dateText: googleRelativeDate(reply.repliedAt, clock.now) },
    };
  });
}
