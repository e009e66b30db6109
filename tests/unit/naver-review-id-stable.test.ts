// @vitest-environment happy-dom
/**
 * A Naver review without the site's id keeps one id however the page's keyword list reads that
 * day (utils/reviews/review-of.ts): which of its words read as chips depends on that list, so the
 * chips are not part of the id (a skeptical review made the version that hashed them fail).
 */
import { expect, it } from 'vitest';
import { naverReviewsClient } from '../replica/naver/reviews-client';
import type { ServedNaverReview } from '../replica/naver/reviews-view';
import { readNaverReviews } from '../../utils/providers/naver/reviews';
import { reviewIdsOf } from '../../utils/reviews/review-of';

const OPTS = {
  expander: 'link',
  idMode: 'none',
  replyHead: 'label',
  fullDate: 'none',
  placeName: '하루국수',
  pagePath: '/restaurant/1/review/visitor',
} as never;
const review: ServedNaverReview = {
  id: 'r1',
  author: '닉네임',
  authorReviews: 3,
  authorPhotos: 0,
  text: '정말 맛있었어요 다시 올게요',
  visited: '24.3.5.화',
  visitedFull: '',
  written: '24.3.6.수',
  writtenFull: '',
  visitCount: 2,
  keywords: ['주차하기 편해요'],
  photos: 0,
  verifiedBy: '영수증',
  rating: null,
  reply: null,
};
function page(kw: string[]): Document {
  const c = naverReviewsClient();
  const tallies = `<div><h2>이런 점이 좋았어요</h2><ul>${kw.map((k) => `<li><span>"${k}"</span><span>12</span></li>`).join('')}</ul></div>`;
  return new DOMParser().parseFromString(
    `<body><div>방문자 리뷰 1</div>${tallies}<ul id="_review_list">${c.renderNaverReview(review, OPTS)}</ul></body>`,
    'text/html',
  );
}
it('the same id-less Naver review, read when its chip is in the page\u2019s top keywords and when it is not, keeps one id', () => {
  const a = readNaverReviews(page(['음식이 맛있어요', '친절해요']), { newestPressedOver: null }).cards;
  const b = readNaverReviews(page(['음식이 맛있어요', '주차하기 편해요']), { newestPressedOver: null }).cards;
  expect(reviewIdsOf(a, 'naver:1')[0]!.id).toBe(reviewIdsOf(b, 'naver:1')[0]!.id);
});
