/**
 * The Kakao replica's place reviews as ground truth: what `place-api…/places/tab/reviews/kakaomap/{id}`
 * lists for a place (naver-kakao-notes B5). A place has exactly its rating count of reviews (none
 * when the world gives it no rating), seeded from its confirmid, written over the five years before
 * the replica's clock. Review ids grow with time, as a database's do, so newest first is highest id
 * first. Texts are Korean mostly, with the hostile ones every replica's reviewers write now and then.
 */
import { drawNaverText, drawNickname } from '../naver/reviews-texts';
import { createRng, deriveSeed } from '../prng';
import { drawText } from '../review-texts';
import type { KakaoReplicaPlace } from './places';

export interface KakaoReview {
  /** Kakao's numeric review id (unique in the replica; higher is newer). */
  id: number;
  /** 1–5. */
  stars: number;
  /** '' for a rating alone. */
  text: string;
  /** ms since the epoch. */
  writtenAt: number;
  photos: number;
  nickname: string;
}

/** 추천순 (a seeded shuffle, the same on every run) and 최신순, as the request's `order` says them. */
export const KAKAO_REVIEW_ORDERS = ['RECOMMENDED', 'LATEST'] as const;
export type KakaoReviewOrder = (typeof KAKAO_REVIEW_ORDERS)[number];

const DAY_MS = 86_400_000;
const SPAN_MS = 5 * 365 * DAY_MS;
const SEED = 0x4b616b52;
const CACHE = 16;
const RATING_WEIGHTS = [0.05, 0.05, 0.12, 0.28, 0.5];
const PHOTO_SHARE = 0.35;
const ENGLISH_SHARE = 0.15;

export function kakaoReviewTotal(k: KakaoReplicaPlace): number {
  return k.ratingCount ?? 0;
}

const cache = new Map<string, KakaoReview[]>();

/** The place's reviews, newest first (index 0 is the newest), written before `writtenBefore`. */
export function kakaoReviewsOf(k: KakaoReplicaPlace, writtenBefore: number): KakaoReview[] {
  const key = `${k.confirmId}@${writtenBefore}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const total = kakaoReviewTotal(k);
  const rng = createRng(deriveSeed(SEED, k.confirmId));
  const ages = Array.from({ length: total }, () => rng.next() * SPAN_MS).sort((a, b) => a - b);
  // Ids from the confirmid, so no two places share one; the newest gets the highest.
  const base = (Number(k.confirmId) % 9_000_000) * 100_000 + 1;
  const reviews = ages.map((age, i): KakaoReview => {
    const r = createRng(deriveSeed(SEED, `${k.confirmId}#${total - i}`));
    const stars = r.weighted(RATING_WEIGHTS) + 1;
    const text = r.chance(ENGLISH_SHARE) ? drawText(r, stars).text : drawNaverText(r, k.place.category, stars >= 4);
    return {
      id: base + (total - 1 - i),
      stars,
      text,
      writtenAt: Math.floor(writtenBefore - age),
      photos: r.chance(PHOTO_SHARE) ? r.int(1, 6) : 0,
      nickname: drawNickname(r),
    };
  });
  if (cache.size >= CACHE) cache.delete(cache.keys().next().value!);
  cache.set(key, reviews);
  return reviews;
}

/** The reviews in `order`. */
export function kakaoReviewsInOrder(k: KakaoReplicaPlace, order: KakaoReviewOrder, writtenBefore: number): KakaoReview[] {
  const newest = kakaoReviewsOf(k, writtenBefore);
  if (order === 'LATEST') return newest;
  const rng = createRng(deriveSeed(SEED, `${k.confirmId}:recommended`));
  const shuffled = [...newest];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled;
}

/** The day a review was written, as Kakao (in Korea, UTC+9) prints it: YYYY-MM-DD. */
export function kakaoReviewDay(at: number): string {
  return new Date(at + 9 * 3_600_000).toISOString().slice(0, 10);
}
