/**
 * What the Kakao reviews reader (utils/providers/kakao/reviews.ts) is given, in-process: the hook's
 * copies of the place page's reviews answers as they arrive, and the browser's record of the
 * requests the page made (resource timing). The reader's tests post into it the way the page, the
 * hook and a hostile page script do.
 */
import { createKakaoReviews } from '../../utils/providers/kakao/reviews';
import { KAKAO_REVIEWS_HOOK_SOURCE, type KakaoReviewsHookMessage } from '../../utils/providers/kakao/reviews-hook';

export const KAKAO_PLACE = '27388604';
export const KAKAO_REVIEWS_API = `https://place-api.map.kakao.com/places/tab/reviews/kakaomap/${KAKAO_PLACE}`;

export interface TestReview {
  id: number;
  text: string;
}

/** An answer in the notes' snake_case, four stars, a dotted date. */
export function reviewsBody(reviews: readonly TestReview[], hasNext: unknown): string {
  return JSON.stringify({
    reviews: reviews.map((r) => ({ review_id: r.id, star_rating: 4, contents: r.text, registered_at: '2025.03.05.' })),
    has_next: hasNext,
  });
}

export function kakaoExchanges() {
  const messages: KakaoReviewsHookMessage[] = [];
  const requested = new Map<string, number>();
  const x = {
    /** The reader's clock (ms): a press of 최신순 counts as loading for a while. */
    clock: 0,
    reader: () => createKakaoReviews({ messages: () => messages, requestCount: (u) => requested.get(u) ?? 0 }, () => x.clock),
    /** The hook saw a request go out. */
    start(url: string): void {
      messages.push({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'start', url, status: null, body: null });
    },
    /** A copy of an answer: the hook's, or any page script's (it posts the same message). */
    end(url: string, body: string | null, status: number | null = 200): void {
      messages.push({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'end', url, status, body });
    },
    /** The page's own exchange: its request (in resource timing unless `made: false`) and the hook's copy of the answer. */
    answer(url: string, body: string, opts: { status?: number; made?: boolean } = {}): void {
      x.start(url);
      x.end(url, body, opts.status ?? 200);
      if (opts.made ?? true) requested.set(url, (requested.get(url) ?? 0) + 1);
    },
  };
  return x;
}
