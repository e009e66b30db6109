/**
 * The replica's reviews: what each place's Reviews tab holds, as ground truth. A place has exactly
 * `reviewCount` reviews (none when null), seeded from its place id, spread over the six years before
 * the replica's clock, newest first, with ratings whose mean is the place's rating.
 *
 * A place with thousands of reviews is only drawn in full when a test asks for the whole list: its
 * skeleton (ratings and ages, a few bytes a review, cached for a few places) is enough to sort and
 * count, and each review is drawn on its own from its own seed when a page or a batch shows it.
 */
import { createRng, deriveSeed, type Rng } from './prng';
import { drawAuthor, drawReplyText, drawText } from './review-texts';
import type { ReplicaPlace } from './world';

export interface OwnerReply {
  text: string;
  repliedAt: number;
}

export interface ReplicaReview {
  /** Google's review id form: base64 of a small protobuf (`ChlDSUhN…EAE`); unique. */
  id: string;
  rating: 1 | 2 | 3 | 4 | 5;
  /** ms since the epoch. */
  writtenAt: number;
  author: string;
  /** '' for a rating-only review. */
  text: string;
  /** The English Google shows for a foreign text; null for English (and for no text). */
  translation: string | null;
  ownerReply: OwnerReply | null;
  photos: number;
}

/** The orders a reader can choose; `relevant` is a seeded shuffle, the same for a place on every run. */
export const REVIEW_SORTS = ['relevant', 'newest', 'highest', 'lowest'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const SPAN_MS = 6 * 365 * DAY_MS;
const REVIEWS_SEED = 0x7e71e35;
/** A place without a rating still gets ratings, around this mean. */
const UNRATED_MEAN = 4;
const PHOTO_SHARE = 0.12;
const SKELETON_CACHE = 16;
/** Inner id prefix of real review ids (`CIHM0ogKEICAgI…`), then 6 characters of place and 5 of index. */
const ID_PREFIX = 'CIHM0ogKEICAgI';
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** What sorting and counting need of a place's reviews; index 0 is the newest. */
interface Skeleton {
  seed: number;
  ratings: Uint8Array;
  /** ms before the clock the reviews were drawn against, ascending. */
  ages: Float64Array;
  /** Per place: how often its owner replies. */
  replyRate: number;
  orders: Map<ReviewSort, Uint32Array>;
}

const skeletons = new Map<string, Skeleton>();

function skeletonOf(place: ReplicaPlace): Skeleton {
  // Two worlds may give one place id different counts or ratings (worldFromSpecs).
  const key = `${place.placeId} ${place.reviewCount} ${place.rating}`;
  const cached = skeletons.get(key);
  if (cached) {
    // Re-insert: the map's order is the eviction order.
    skeletons.delete(key);
    skeletons.set(key, cached);
    return cached;
  }
  const skeleton = drawSkeleton(place);
  if (skeletons.size >= SKELETON_CACHE) skeletons.delete(skeletons.keys().next().value!);
  skeletons.set(key, skeleton);
  return skeleton;
}

function drawSkeleton(place: ReplicaPlace): Skeleton {
  const n = place.reviewCount ?? 0;
  const seed = deriveSeed(REVIEWS_SEED, place.placeId);
  const rng = createRng(deriveSeed(seed, 'skeleton'));
  // Squared uniform: most reviews are recent, as on a place that keeps getting them; a busy place's newest are minutes old.
  const ages = Float64Array.from({ length: n }, () => Math.round(SPAN_MS * rng.next() ** 2)).sort();
  const ratings = drawRatings(rng, n, place.rating ?? UNRATED_MEAN);
  return { seed, ratings, ages, replyRate: rng.pick([0, 0.15, 0.5, 0.9]), orders: new Map() };
}

/** n ratings leaning on `mean`, then nudged one star at a time until their sum is round(mean × n). */
function drawRatings(rng: Rng, n: number, mean: number): Uint8Array {
  const target = Math.min(5, Math.max(1, mean));
  // A bell a little above the mean (ratings pile up at the top), plus a floor of angry one-star reviews.
  const weights = [1, 2, 3, 4, 5].map((k) => Math.exp(-((k - target - 0.35) ** 2) / 2) + (k === 1 ? 0.03 : 0));
  const ratings = Uint8Array.from({ length: n }, () => 1 + rng.weighted(weights));
  let diff = Math.round(target * n) - ratings.reduce((a, b) => a + b, 0);
  while (diff !== 0) {
    const i = rng.int(0, n - 1);
    if (diff > 0 && ratings[i]! < 5) {
      ratings[i]! += 1;
      diff -= 1;
    } else if (diff < 0 && ratings[i]! > 1) {
      ratings[i]! -= 1;
      diff += 1;
    }
  }
  return ratings;
}

/** How many reviews the place has (its `reviewCount`, 0 when null). */
export function reviewTotal(place: ReplicaPlace): number {
  return place.reviewCount ?? 0;
}

/**
 * The review at `index` of the newest-first list, drawn from its own seed: the same whichever
 * others were drawn. `writtenBefore` is the clock the reviews were written up to.
 */
export function reviewAt(place: ReplicaPlace, index: number, writtenBefore: number): ReplicaReview {
  const skeleton = skeletonOf(place);
  if (!(index >= 0 && index < skeleton.ratings.length)) throw new RangeError(`review ${index} of ${skeleton.ratings.length}`);
  const rng = createRng(deriveSeed(skeleton.seed, `review ${index}`));
  const rating = skeleton.ratings[index] as ReplicaReview['rating'];
  const age = skeleton.ages[index]!;
  const writtenAt = writtenBefore - age;
  const author = drawAuthor(rng);
  const { text, translation } = drawText(rng, rating);
  const photos = rng.chance(PHOTO_SHARE) ? rng.int(1, 6) : 0;
  // A reply comes after the review, and before the clock.
  const ownerReply = rng.chance(skeleton.replyRate)
    ? { text: drawReplyText(rng, rating), repliedAt: writtenAt + Math.round(rng.next() * Math.min(age, 60 * DAY_MS)) }
    : null;
  return { id: reviewId(skeleton.seed, index), rating, writtenAt, author, text, translation, ownerReply, photos };
}

/** Every review of the place, newest first (drawn in full: for ground truth, not for pages). */
export function reviewsOf(place: ReplicaPlace, writtenBefore: number): ReplicaReview[] {
  return Array.from({ length: reviewTotal(place) }, (_, i) => reviewAt(place, i, writtenBefore));
}

/** Newest-first indices in the order `sort` lists them; equal ratings keep newest first. */
export function reviewOrder(place: ReplicaPlace, sort: ReviewSort): Uint32Array {
  const skeleton = skeletonOf(place);
  let order = skeleton.orders.get(sort);
  if (!order) {
    order = drawOrder(skeleton, sort);
    skeleton.orders.set(sort, order);
  }
  return order;
}

function drawOrder(skeleton: Skeleton, sort: ReviewSort): Uint32Array {
  const { ratings } = skeleton;
  const newest = Uint32Array.from({ length: ratings.length }, (_, i) => i);
  // Typed-array sort is stable, so equal ratings stay newest first.
  if (sort === 'highest') return newest.sort((a, b) => ratings[b]! - ratings[a]!);
  if (sort === 'lowest') return newest.sort((a, b) => ratings[a]! - ratings[b]!);
  if (sort === 'relevant') {
    const rng = createRng(deriveSeed(skeleton.seed, 'relevant'));
    for (let i = newest.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [newest[i], newest[j]] = [newest[j]!, newest[i]!];
    }
  }
  return newest;
}

/** How many reviews give 1, 2, 3, 4 and 5 stars (index 0 = 1 star). */
export function ratingHistogram(place: ReplicaPlace): [number, number, number, number, number] {
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const r of skeletonOf(place).ratings) counts[r - 1]! += 1;
  return counts;
}

/**
 * `ChlDSUhN…EAE`: a protobuf `{1: "CIHM0ogKEICAgI…"} {2: 1}` in base64, its inner string unique per
 * place and index. The index is scrambled (× an odd number + the seed, mod 2^30: one-to-one), so
 * neighbours' ids do not share all but their last characters.
 */
function reviewId(placeSeed: number, index: number): string {
  const scrambled = (Math.imul(index, 0x2545f491) + placeSeed) & 0x3fffffff;
  const inner = ID_PREFIX + digits(placeSeed, 6) + digits(scrambled, 5);
  return Buffer.from([0x0a, inner.length, ...Buffer.from(inner, 'ascii'), 0x10, 0x01]).toString('base64url');
}

function digits(value: number, count: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < count; i++) {
    out = ID_ALPHABET[v % 64] + out;
    v = Math.floor(v / 64);
  }
  return out;
}

/**
 * A date as Google prints it relative to `now`: "a minute ago", "5 hours ago", "a day ago",
 * "3 weeks ago", "11 months ago", "2 years ago". Whole units, rounded down; days under 7, weeks
 * under 30 days, months under 365 days (at most 11), then years. Under two minutes is "a minute ago".
 */
export function googleRelativeDate(at: number, now: number): string {
  const age = Math.max(0, now - at);
  if (age < HOUR_MS) return ago(Math.floor(age / MINUTE_MS), 'minute');
  if (age < DAY_MS) return ago(Math.floor(age / HOUR_MS), 'hour');
  const days = Math.floor(age / DAY_MS);
  if (days < 7) return ago(days, 'day');
  if (days < 30) return ago(Math.floor(days / 7), 'week');
  if (days < 365) return ago(Math.min(11, Math.floor(days / 30)), 'month');
  return ago(Math.floor(days / 365), 'year');
}

function ago(count: number, unit: string): string {
  if (count <= 1) return `${unit === 'hour' ? 'an' : 'a'} ${unit} ago`;
  return `${count} ${unit}s ago`;
}
