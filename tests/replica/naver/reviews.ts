/**
 * The Naver replica's visitor reviews as ground truth: what `pcmap…/{type}/{id}/review/visitor` lists
 * for a place. A place has exactly its `visitorReviewCount` reviews (none when null: the world gives
 * no count to a place nobody reviewed, and the list card and the detail state show none), seeded
 * from its Naver id, written over the five years before the replica's clock, newest first.
 *
 * As in the Google replica (../reviews.ts), a place with thousands of reviews is only drawn in full
 * when a test asks for the whole list: its skeleton (ages, keywords, photos, stars: a few bytes a
 * review, cached for a few places) is enough to sort, count and tally the keywords, and each review is
 * drawn on its own from its own seed when a page shows it.
 */
import { createRng, deriveSeed, type Rng } from '../prng';
import type { NaverReplicaPlace } from './data';
import { drawNaverText, drawNickname, drawReplyText, keywordsFor, type NaverKeyword } from './reviews-texts';

export interface NaverOwnerReply {
  text: string;
  repliedAt: number;
}

export interface NaverReview {
  /** 24 hex digits, like Naver's review ids (a MongoDB ObjectId: its first 8 are seconds). Unique. */
  id: string;
  /** The nickname. */
  author: string;
  /** The author's own totals, as the profile line prints them ("리뷰 12", "사진 3"). */
  authorReviews: number;
  authorPhotos: number;
  /** '' for none (rare on Naver). */
  text: string;
  /** ms since the epoch; the page prints its day. */
  visitedAt: number;
  writtenAt: number;
  /** "N번째 방문". */
  visitCount: number;
  /** "이런 점이 좋았어요" keywords the visitor picked (display names), 0–4. */
  keywords: string[];
  photos: number;
  /** "인증 수단": how the visit was proven. */
  verifiedBy: '영수증' | '결제내역';
  /** 1–5, printed only under `naverReviewStars: 'shown'` (Naver removed the stars). */
  rating: number;
  ownerReply: NaverOwnerReply | null;
}

/** 추천순 (a seeded shuffle, the same for a place on every run) and 최신순; the query values the list request takes. */
export const NAVER_REVIEW_SORTS = ['recommend', 'recent'] as const;
export type NaverReviewSort = (typeof NAVER_REVIEW_SORTS)[number];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const SPAN_MS = 5 * 365 * DAY_MS;
const REVIEWS_SEED = 0x4e617672;
/** Review ids take their seconds from this fixed clock, not the replica's, so an id never changes between runs. */
const ID_EPOCH_S = 1_767_225_600;
const SKELETON_CACHE = 16;
const MAX_KEYWORDS = 4;
/** How many keywords a visitor picks (0–4). */
const KEYWORD_COUNT_WEIGHTS = [0.15, 0.25, 0.25, 0.2, 0.15];
/** Stars lean high, as Naver's did before they were removed. */
const RATING_WEIGHTS = [0.02, 0.03, 0.08, 0.27, 0.6];
const PHOTO_SHARE = 0.55;
/** "N번째 방문": mostly a first visit. */
const VISIT_WEIGHTS = [0.78, 0.13, 0.05, 0.02, 0.01, 0.01];
/** Days between the visit and the review: most write the same day or the next. */
const LAG_WEIGHTS = [0.4, 0.25, 0.1, 0.08, 0.07, 0.05, 0.05];

interface Skeleton {
  seed: number;
  /** ms before the clock, ascending: index 0 is the newest. */
  ages: Float64Array;
  /** Bit k: the place's keyword k was picked. */
  keywords: Uint16Array;
  photos: Uint8Array;
  ratings: Uint8Array;
  /** The place's keyword list (by its kind of place). */
  offered: readonly NaverKeyword[];
  /** How often this owner replies. */
  replyRate: number;
  orders: Map<NaverReviewSort, Uint32Array>;
}

const skeletons = new Map<string, Skeleton>();

/** How many visitor reviews the place has: its `visitorReviewCount`, 0 when it has none. */
export function naverReviewTotal(p: NaverReplicaPlace): number {
  return p.visitorReviewCount ?? 0;
}

function skeletonOf(p: NaverReplicaPlace): Skeleton {
  // Two worlds may give one id different counts (worldFromSpecs): the count is part of the key.
  const key = `${p.id} ${naverReviewTotal(p)} ${p.place.category}`;
  const cached = skeletons.get(key);
  if (cached) {
    // Re-insert: the map's order is the eviction order.
    skeletons.delete(key);
    skeletons.set(key, cached);
    return cached;
  }
  const skeleton = drawSkeleton(p);
  if (skeletons.size >= SKELETON_CACHE) skeletons.delete(skeletons.keys().next().value!);
  skeletons.set(key, skeleton);
  return skeleton;
}

function drawSkeleton(p: NaverReplicaPlace): Skeleton {
  const n = naverReviewTotal(p);
  const seed = deriveSeed(REVIEWS_SEED, p.id);
  const rng = createRng(deriveSeed(seed, 'skeleton'));
  const offered = keywordsFor(p.place.category);
  // Each place has its own favourite keywords, so tallies differ from place to place.
  const weights = offered.map(() => 0.2 + rng.next() ** 2);
  // Squared uniform: most reviews are recent, as on a place that keeps getting them.
  const ages = Float64Array.from({ length: n }, () => Math.round(SPAN_MS * rng.next() ** 2)).sort();
  const keywords = Uint16Array.from({ length: n }, () => drawKeywordMask(rng, weights));
  const photos = Uint8Array.from({ length: n }, () => (rng.chance(PHOTO_SHARE) ? rng.int(1, 5) : 0));
  const ratings = Uint8Array.from({ length: n }, () => 1 + rng.weighted(RATING_WEIGHTS));
  return { seed, ages, keywords, photos, ratings, offered, replyRate: rng.pick([0, 0.2, 0.6, 0.95]), orders: new Map() };
}

/** 0–4 distinct keywords, drawn by the place's weights without replacement. */
function drawKeywordMask(rng: Rng, weights: readonly number[]): number {
  const count = Math.min(rng.weighted(KEYWORD_COUNT_WEIGHTS), MAX_KEYWORDS, weights.length);
  const left = [...weights];
  let mask = 0;
  for (let i = 0; i < count; i++) {
    const k = rng.weighted(left);
    mask |= 1 << k;
    left[k] = 0;
  }
  return mask;
}

/**
 * The review at `index` of the newest-first list, drawn from its own seed (the same whichever others
 * were drawn). `writtenBefore` is the clock the reviews were written up to.
 */
export function naverReviewAt(p: NaverReplicaPlace, index: number, writtenBefore: number): NaverReview {
  const s = skeletonOf(p);
  if (!(index >= 0 && index < s.ages.length)) throw new RangeError(`visitor review ${index} of ${s.ages.length}`);
  const rng = createRng(deriveSeed(s.seed, `review ${index}`));
  const age = s.ages[index]!;
  const writtenAt = writtenBefore - age;
  const rating = s.ratings[index]!;
  const happy = rating >= 4;
  const author = drawNickname(rng);
  const authorReviews = Math.max(1, Math.round(Math.exp(rng.next() * 6)));
  // "사진 N" counts the author's photos, this review's among them.
  const authorPhotos = s.photos[index]! + rng.int(0, authorReviews);
  const text = drawNaverText(rng, p.place.category, happy);
  // The visit came first: the same day or up to a few weeks before, some hours earlier.
  const lag = rng.weighted(LAG_WEIGHTS);
  const visitedAt = writtenAt - (lag < 6 ? lag : rng.int(6, 30)) * DAY_MS - rng.int(0, 10) * HOUR_MS;
  const visit = rng.weighted(VISIT_WEIGHTS);
  const visitCount = visit < VISIT_WEIGHTS.length - 1 ? visit + 1 : rng.int(VISIT_WEIGHTS.length, 12);
  const verifiedBy = rng.chance(0.7) ? '영수증' : '결제내역';
  // A reply comes after the review, and before the clock.
  const ownerReply = rng.chance(s.replyRate)
    ? { text: drawReplyText(rng, author, p.name, happy), repliedAt: writtenAt + Math.round(rng.next() * Math.min(age, 30 * DAY_MS)) }
    : null;
  return {
    id: reviewId(s.seed, index, age),
    author,
    authorReviews,
    authorPhotos,
    text,
    visitedAt,
    writtenAt,
    visitCount,
    keywords: s.offered.filter((_, k) => s.keywords[index]! & (1 << k)).map((k) => k.displayName),
    photos: s.photos[index]!,
    verifiedBy,
    rating,
    ownerReply,
  };
}

/** Every visitor review of the place, newest first (drawn in full: for ground truth, not for pages). */
export function naverReviewsOf(p: NaverReplicaPlace, writtenBefore: number): NaverReview[] {
  return Array.from({ length: naverReviewTotal(p) }, (_, i) => naverReviewAt(p, i, writtenBefore));
}

/** Newest-first indices in the order `sort` lists them. */
export function naverReviewOrder(p: NaverReplicaPlace, sort: NaverReviewSort): Uint32Array {
  const s = skeletonOf(p);
  let order = s.orders.get(sort);
  if (!order) {
    order = Uint32Array.from({ length: s.ages.length }, (_, i) => i);
    if (sort === 'recommend') shuffle(order, createRng(deriveSeed(s.seed, 'recommend')));
    s.orders.set(sort, order);
  }
  return order;
}

function shuffle(order: Uint32Array, rng: Rng): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
}

export interface KeywordTally extends NaverKeyword {
  count: number;
}

/** "이런 점이 좋았어요": how many reviews picked each keyword, most first (ties in the place's list order); unpicked ones left out. */
export function naverKeywordTallies(p: NaverReplicaPlace): KeywordTally[] {
  const s = skeletonOf(p);
  const counts = s.offered.map(() => 0);
  for (const mask of s.keywords) for (let k = 0; k < counts.length; k++) if (mask & (1 << k)) counts[k]! += 1;
  return s.offered
    .map((k, i) => ({ ...k, count: counts[i]! }))
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count);
}

/** Reviews with at least one photo (the stats' `imageReviewCount`). */
export function naverImageReviewCount(p: NaverReplicaPlace): number {
  return skeletonOf(p).photos.reduce((n, k) => n + (k > 0 ? 1 : 0), 0);
}

/** Reviews that picked at least one keyword (the stats' `votedKeyword.reviewCount`). */
export function naverVotedReviewCount(p: NaverReplicaPlace): number {
  return skeletonOf(p).keywords.reduce((n, m) => n + (m ? 1 : 0), 0);
}

/** The mean of the (hidden) stars, two decimals; 0 without reviews. */
export function naverStarMean(p: NaverReplicaPlace): number {
  const { ratings } = skeletonOf(p);
  return ratings.length ? Math.round((100 * ratings.reduce((a, b) => a + b, 0)) / ratings.length) / 100 : 0;
}

/** "블로그 리뷰 N": blog and cafe posts about the place, seeded (a share of its visitor reviews); the page only counts them. */
export function naverBlogReviewCount(p: NaverReplicaPlace): number {
  const rng = createRng(deriveSeed(deriveSeed(REVIEWS_SEED, p.id), 'blog'));
  return Math.round(naverReviewTotal(p) * (0.05 + 0.55 * rng.next()));
}

/**
 * An ObjectId-like id: 8 hex digits of seconds (the review's age before a fixed clock), then 16 of the
 * place's seed and the index scrambled (× an odd number: one-to-one), so ids are unique within a place
 * and neighbours' ids do not share all but their last digits.
 */
function reviewId(placeSeed: number, index: number, age: number): string {
  const seconds = Math.max(0, ID_EPOCH_S - Math.floor(age / 1000));
  const scrambled = (Math.imul(index, 0x2545f491) + placeSeed) >>> 0;
  return hex(seconds) + hex(placeSeed ^ 0x5bd1e995) + hex(scrambled);
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
