/**
 * `place-api.map.kakao.com/places/tab/reviews/kakaomap/{confirmid}`: one page of a place's
 * reviews as JSON (naver-kakao-notes B5), in the shape one 2025 crawler's records give
 * (`score_set`, `strength_description`, `reviews[]` with `review_id`, `star_rating`, `contents`,
 * `photo_count`, `registered_at`, `meta.owner.nickname`; `has_next`, `has_my_review`), under the
 * switches' naming, paging key, order parameter and date form. Without `pf: web` it answers 406,
 * as the live API does (B6).
 */
import type { KakaoReplicaPlace } from './places';
import { type KakaoReview, type KakaoReviewOrder, kakaoReviewDay, kakaoReviewsInOrder } from './reviews';
import type { KakaoReviewsSwitches } from './reviews-switches';

export const KAKAO_REVIEWS_PATH = /^\/places\/tab\/reviews\/kakaomap\/(\d+)$/;

export interface KakaoReviewsAnswer {
  status: number;
  body: string;
}

/** The order a request asks for, under the switches' parameter. */
export function requestedOrder(query: URLSearchParams, sort: KakaoReviewsSwitches['kakaoReviewsSort']): KakaoReviewOrder {
  switch (sort) {
    case 'none':
      return 'LATEST';
    case 'renamed-aria':
      return query.get('sort_type') === 'latest' ? 'LATEST' : 'RECOMMENDED';
    case 'latest-default':
      return query.get('order') === 'RECOMMENDED' ? 'RECOMMENDED' : 'LATEST';
    default:
      return query.get('order') === 'LATEST' ? 'LATEST' : 'RECOMMENDED';
  }
}

/** "2024.05.03.", "2024-05-03 13:45:12" or "2024-05-03T13:45:12+09:00", in Korea's time. */
export function registeredAt(at: number, form: KakaoReviewsSwitches['kakaoReviewsDates']): string {
  const kst = new Date(at + 9 * 3_600_000).toISOString();
  const day = kakaoReviewDay(at);
  const time = kst.slice(11, 19);
  if (form === 'dotted') return `${day.replace(/-/g, '.')}.`;
  return form === 'stamp' ? `${day} ${time}` : `${day}T${time}+09:00`;
}

const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** `value` with every key in the switch's naming. */
function named(value: unknown, naming: KakaoReviewsSwitches['kakaoReviewsCase']): unknown {
  if (naming === 'snake' || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => named(v, naming));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), named(v, naming)]));
}

function item(r: KakaoReview, switches: KakaoReviewsSwitches): Record<string, unknown> {
  return {
    review_id: r.id,
    star_rating: r.stars,
    contents: r.text,
    photo_count: r.photos,
    photos: [],
    status: 'PUBLISHED',
    strength_ids: [],
    registered_at: registeredAt(r.writtenAt, switches.kakaoReviewsDates),
    updated_at: registeredAt(r.writtenAt, switches.kakaoReviewsDates),
    meta: { owner: { map_user_id: `u${(r.id * 7919) % 1_000_003}`, nickname: r.nickname, review_count: 1 + (r.id % 40) }, like_count: r.id % 5 },
  };
}

export function answerKakaoReviews(
  k: KakaoReplicaPlace,
  query: URLSearchParams,
  headers: { pf?: string | string[] },
  switches: KakaoReviewsSwitches,
  writtenBefore: number,
): KakaoReviewsAnswer {
  if (headers.pf !== 'web') return { status: 406, body: '{"error":"Not Acceptable"}' };
  const list = kakaoReviewsInOrder(k, requestedOrder(query, switches.kakaoReviewsSort), writtenBefore);
  let from = 0;
  if (switches.kakaoReviewsPageKey === 'previous_last_review_id') {
    const last = query.get('previous_last_review_id');
    if (last !== null) {
      const at = list.findIndex((r) => String(r.id) === last);
      if (at < 0) return { status: 400, body: '{"error":"unknown previous_last_review_id"}' };
      from = at + 1;
    }
  } else if (switches.kakaoReviewsPageKey === 'page') {
    const page = Number(query.get('page') ?? '1');
    if (!Number.isInteger(page) || page < 1) return { status: 400, body: '{"error":"bad page"}' };
    from = (page - 1) * switches.kakaoReviewsBatch;
  } else {
    const cursor = query.get('cursor');
    if (cursor !== null) {
      const m = /^o(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (!m) return { status: 400, body: '{"error":"bad cursor"}' };
      from = Number(m[1]);
    }
  }
  const page = list.slice(from, from + switches.kakaoReviewsBatch);
  const end = from + page.length;
  const hasNext = end < list.length;
  const sum = list.reduce((s, r) => s + r.stars, 0);
  const body: Record<string, unknown> = {
    score_set: { review_count: list.length, total_score: sum, average_score: list.length ? Math.round((sum / list.length) * 10) / 10 : 0, strength_counts: [] },
    strength_description: [],
    reviews: page.map((r) => item(r, switches)),
    has_next: hasNext,
    has_my_review: false,
  };
  if (switches.kakaoReviewsPageKey === 'cursor' && hasNext) body.next_cursor = Buffer.from(`o${end}`).toString('base64url');
  return { status: 200, body: JSON.stringify(named(body, switches.kakaoReviewsCase)) };
}
