/**
 * The Kakao replica's reviews API (tests/replica/kakao/reviews-api.ts), as the browser test relies
 * on it: under every paging key, naming and order parameter, following the answers walks the
 * place's whole list in its order exactly once, and `has_next` is false only on the last answer.
 */
import { describe, expect, it } from 'vitest';
import { readKakaoReviewsAnswer } from '../../utils/providers/kakao/reviews-answer';
import { answerKakaoReviews } from '../replica/kakao/reviews-api';
import { kakaoReviewsInOrder } from '../replica/kakao/reviews';
import { kakaoWorld } from '../replica/kakao/places';
import { DEFAULT_KAKAO_REVIEWS_SWITCHES, KAKAO_REVIEW_CHOICES, type KakaoReviewsSwitches } from '../replica/kakao/reviews-switches';
import { createWorld } from '../replica/world';

const kw = kakaoWorld(createWorld({ seed: 7, places: 400, centre: { lat: 37.57, lng: 126.98 }, radiusKm: 1 }));
const place = kw.places.find((k) => (k.ratingCount ?? 0) > 23)!;
const BEFORE = Date.UTC(2026, 11, 1);
const API = `https://place-api.map.kakao.com/places/tab/reviews/kakaomap/${place.confirmId}`;

function walk(s: KakaoReviewsSwitches, order: 'LATEST' | 'RECOMMENDED'): string[] {
  const base = new URLSearchParams();
  if (s.kakaoReviewsSort === 'renamed-aria') base.set('sort_type', order === 'LATEST' ? 'latest' : 'recommend');
  else if (s.kakaoReviewsSort !== 'none') base.set('order', order);
  const ids: string[] = [];
  let next: URLSearchParams | null = base;
  for (let page = 2; next; page++) {
    const a = answerKakaoReviews(place, next, { pf: 'web' }, s, BEFORE);
    expect(a.status).toBe(200);
    const read = readKakaoReviewsAnswer(`${API}?${next}`, 200, a.body)!;
    expect(read.complete).toBe(true);
    ids.push(...read.cards.map((c) => c.id!));
    if (!read.hasNext) break;
    const json = JSON.parse(a.body) as Record<string, unknown>;
    next = new URLSearchParams(base);
    if (s.kakaoReviewsPageKey === 'previous_last_review_id') next.set('previous_last_review_id', ids.at(-1)!);
    else if (s.kakaoReviewsPageKey === 'page') next.set('page', String(page));
    else next.set('cursor', String(json.next_cursor ?? json.nextCursor));
  }
  return ids;
}

describe('the Kakao replica\u2019s reviews API', () => {
  it('answers 406 without the pf header, as the live API', () => {
    expect(answerKakaoReviews(place, new URLSearchParams(), {}, DEFAULT_KAKAO_REVIEWS_SWITCHES, BEFORE).status).toBe(406);
  });

  for (const pageKey of KAKAO_REVIEW_CHOICES.kakaoReviewsPageKey)
    for (const naming of KAKAO_REVIEW_CHOICES.kakaoReviewsCase)
      for (const sort of ['param', 'renamed-aria', 'none'] as const)
        it(`walks the whole list once: ${pageKey}, ${naming}, ${sort}`, () => {
          const s = { ...DEFAULT_KAKAO_REVIEWS_SWITCHES, kakaoReviewsPageKey: pageKey, kakaoReviewsCase: naming, kakaoReviewsSort: sort };
          const latest = kakaoReviewsInOrder(place, 'LATEST', BEFORE).map((r) => String(r.id));
          expect(walk(s, 'LATEST')).toEqual(latest);
          if (sort !== 'none') {
            const recommended = walk(s, 'RECOMMENDED');
            expect(recommended).not.toEqual(latest);
            expect([...recommended].sort()).toEqual([...latest].sort());
          }
        });
});
