/**
 * The visitor reviews page's unconfirmed forms (map-pages-spec §5, S26 [~]; naver-kakao-notes A):
 * each is a switch with every plausible form, the first the default. Kept apart from switches.ts so
 * the reviews modules and the switch table share one list of the allowed values.
 */

export const NAVER_REVIEW_CHOICES = {
  /** Naver removed the stars from visitor reviews; 'shown' puts an `aria-label="별점 4점"` element on each item, in case they are back. */
  naverReviewStars: ['none', 'shown'],
  /** How the next page comes: a "펼쳐서 더보기" control at the bottom, or scrolling near the bottom. */
  naverReviewsMore: ['button', 'scroll'],
  /** The more control once nothing is left: removed, or kept with `aria-disabled="true"`. */
  naverReviewsEnd: ['gone', 'disabled'],
  /** Items per page (the first render and each list request). */
  naverReviewsPage: [10, 20],
  /** "추천순" / "최신순" tabs (추천순 first), or no sort control (the list stays 추천순). */
  naverReviewsSort: ['tabs', 'absent'],
  /** How a long text is cut: an `a[role=button]` "더보기", a `<button>` "더보기", or not at all. */
  naverReviewsExpander: ['more-link', 'button', 'none'],
  /** Dates as "24.3.5.화" always, or "3.5.화" within the current year (both seen in the wild [~]). */
  naverReviewsDates: ['short', 'year-when-old'],
  /** Where a review's id is: `data-review-id` on the `<li>`, only in a share link's `?reviewId=`, or nowhere. */
  naverReviewsId: ['data', 'link', 'none'],
  /** The owner's reply heading [?]: the words "사장님 댓글", or the place's name (as a 2026 test fixture prints it). */
  naverReviewsReplyHead: ['label', 'name'],
  /** After each printed date a hidden full date ("2024년 3월 5일 화요일", as 2026 scrapers read it [~]), or none. */
  naverReviewsFullDate: ['blind', 'none'],
} as const;

type Choice<K extends keyof typeof NAVER_REVIEW_CHOICES> = (typeof NAVER_REVIEW_CHOICES)[K][number];

export type NaverReviewsSwitches = { -readonly [K in keyof typeof NAVER_REVIEW_CHOICES]: Choice<K> };

export const DEFAULT_NAVER_REVIEWS_SWITCHES: Readonly<NaverReviewsSwitches> = Object.freeze({
  naverReviewStars: 'none',
  naverReviewsMore: 'button',
  naverReviewsEnd: 'gone',
  naverReviewsPage: 10,
  naverReviewsSort: 'tabs',
  naverReviewsExpander: 'more-link',
  naverReviewsDates: 'short',
  naverReviewsId: 'data',
  naverReviewsReplyHead: 'label',
  naverReviewsFullDate: 'blind',
});

/** A problem with `value` for a reviews switch, or null when it is one of the choices (or `key` is not one). */
export function naverReviewsSwitchProblem(key: string, value: unknown): string | null {
  if (!(key in NAVER_REVIEW_CHOICES)) return null;
  const allowed: readonly unknown[] = NAVER_REVIEW_CHOICES[key as keyof typeof NAVER_REVIEW_CHOICES];
  return allowed.includes(value) ? null : `${key} must be one of ${allowed.join(', ')}`;
}

export function isNaverReviewsSwitch(key: string): key is keyof NaverReviewsSwitches {
  return key in NAVER_REVIEW_CHOICES;
}
