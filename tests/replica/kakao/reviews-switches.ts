/**
 * The Kakao place page's reviews, where no source says how they look (naver-kakao-notes B5 [~]: the
 * answer's shape from one crawler; the markup, the controls and the paging key from none): each
 * plausible form is a switch, the first the default. Kept apart from switches.ts so the reviews
 * modules and the switch table share one list of the allowed values.
 */

export const KAKAO_REVIEW_CHOICES = {
  /** How the reviews are reached: a `role=tab` "후기 N", a plain link "후기" to `#review`, or shown on load with no tab. */
  kakaoReviewsTab: ['tab', 'link', 'open'],
  /**
   * The order control and what the request says: 추천순/최신순 buttons and `order=RECOMMENDED|LATEST`
   * (추천순 first); the same with `aria-pressed` on the buttons; the buttons with `aria-pressed` and the
   * order under another parameter name (`sort_type`); `order=LATEST` from the start; no control at all
   * (the newest first, nothing in the request).
   */
  kakaoReviewsSort: ['param', 'param-aria', 'renamed-aria', 'latest-default', 'none'],
  /** How more come: a "후기 더보기" button after the list, a "더보기" link (role=button), or scrolling to the bottom. */
  kakaoReviewsMore: ['button', 'short', 'scroll'],
  /** The next page's key (unknown [~]): `previous_last_review_id`, `page`, or an opaque `cursor` the answer gives. */
  kakaoReviewsPageKey: ['previous_last_review_id', 'page', 'cursor'],
  /** The answer's field names: `snake_case` (as the notes write them) or `camelCase` (as the crawler's records). */
  kakaoReviewsCase: ['snake', 'camel'],
  /** `registered_at` as "2024.05.03.", "2024-05-03 13:45:12" or "2024-05-03T13:45:12+09:00". */
  kakaoReviewsDates: ['dotted', 'stamp', 'iso'],
  /** Reviews per answer. */
  kakaoReviewsBatch: [5, 10],
  /** Long texts cut on the page at 80 characters with a "더보기" inside the item, or shown whole. */
  kakaoReviewsCut: ['more', 'none'],
} as const;

type Choice<K extends keyof typeof KAKAO_REVIEW_CHOICES> = (typeof KAKAO_REVIEW_CHOICES)[K][number];

export type KakaoReviewsSwitches = { -readonly [K in keyof typeof KAKAO_REVIEW_CHOICES]: Choice<K> };

export const DEFAULT_KAKAO_REVIEWS_SWITCHES: Readonly<KakaoReviewsSwitches> = Object.freeze({
  kakaoReviewsTab: 'tab',
  kakaoReviewsSort: 'param',
  kakaoReviewsMore: 'button',
  kakaoReviewsPageKey: 'previous_last_review_id',
  kakaoReviewsCase: 'snake',
  kakaoReviewsDates: 'dotted',
  kakaoReviewsBatch: 5,
  kakaoReviewsCut: 'more',
});

export function isKakaoReviewsSwitch(key: string): key is keyof KakaoReviewsSwitches {
  return key in KAKAO_REVIEW_CHOICES;
}
