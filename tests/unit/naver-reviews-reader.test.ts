// @vitest-environment happy-dom
/**
 * Naver's visitor reviews reader (utils/providers/naver/reviews.ts) on the replica's own item
 * markup and hand-made pages, where a skeptical review made it fail: a text that looks like a date
 * or begins with "방문일", a text of a link's words, a reviewer's id taken for the review's, facts in
 * a list of their own, another section's 더보기 taken for the list's end, a press the page ignored.
 */
import { describe, expect, it } from 'vitest';
import { naverReviewsClient } from '../replica/naver/reviews-client';
import type { ServedNaverReview } from '../replica/naver/reviews-view';
import { readNaverReviews, actOnNaverReviews, naverReviewCards } from '../../utils/providers/naver/reviews';
import { reviewIdsOf } from '../../utils/reviews/review-of';

const OPTS = {
  expander: 'link',
  idMode: 'data',
  replyHead: 'label',
  fullDate: 'none',
  placeName: '하루국수',
  pagePath: '/restaurant/1/review/visitor',
} as never;
function item(p: Partial<ServedNaverReview>): ServedNaverReview {
  return {
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
    keywords: ['음식이 맛있어요', '친절해요'],
    photos: 0,
    verifiedBy: '영수증',
    rating: null,
    reply: null,
    ...p,
  };
}
const KW =
  '<div><h2>이런 점이 좋았어요</h2><ul><li><span>"음식이 맛있어요"</span><span>12</span></li><li><span>"친절해요"</span><span>3</span></li></ul></div>';
function page(items: ServedNaverReview[], extra = '', opts = OPTS, kw = KW): Document {
  const c = naverReviewsClient();
  const html = `<body><div>방문자 리뷰 ${items.length}</div>${kw}<ul id="_review_list">${items.map((i) => c.renderNaverReview(i, opts)).join('')}</ul>${extra}</body>`;
  return new DOMParser().parseFromString(html, 'text/html');
}
const one = (p: Partial<ServedNaverReview>, opts = OPTS) => readNaverReviews(page([item(p)], '', opts), { newestPressedOver: null }).cards[0]!;

describe('the Naver reviews reader', () => {
  it('baseline', () => {
    const c = one({});
    expect(c.text).toBe('정말 맛있었어요 다시 올게요');
    expect(c.visit!.tags).toEqual(['음식이 맛있어요', '친절해요']);
    expect(c.writtenSaid).toBe('24.3.6.수');
  });
  it('a date-like text "4.5" stays the text, written date stays written', () => {
    const c = one({ text: '4.5' });
    expect({ text: c.text, written: c.writtenSaid }).toEqual({ text: '4.5', written: '24.3.6.수' });
  });
  it('a text starting with 방문일 is the text, not the visit', () => {
    const c = one({ text: '방문일 기준 정말 좋았어요' });
    expect({ text: c.text, visit: c.visit!.dateSaid }).toEqual({ text: '방문일 기준 정말 좋았어요', visit: '24.3.5.화' });
  });
  it('a text "공유" is kept', () => {
    expect(one({ text: '공유' }).text).toBe('공유');
  });
  it('a text "사장님 댓글" is not a reply', () => {
    const c = one({ text: '사장님 댓글' });
    expect({ text: c.text, reply: c.ownerReply }).toEqual({ text: '사장님 댓글', reply: null });
  });
  it('reply headed by name: reply not the text', () => {
    const c = one({ text: '', reply: { text: '감사합니다', date: '24.3.7.목', dateFull: '' } }, { ...(OPTS as object), replyHead: 'name' } as never);
    expect({ text: c.text, reply: c.ownerReply?.text }).toEqual({ text: '', reply: '감사합니다' });
  });
  it('empty-text review gets no text from elsewhere', () => {
    const c = one({ text: '', keywords: ['음식이 맛있어요'] });
    expect(c.text).toBe('');
  });
  it('data-reviewer-id is not the review id', () => {
    const doc = page([item({ id: 'r1' })], '', { ...(OPTS as object), idMode: 'none' } as never);
    doc.querySelector('li a')!.setAttribute('data-reviewer-id', 'user77');
    expect(readNaverReviews(doc, { newestPressedOver: null }).cards[0]!.id).toBeNull();
  });
  it('facts in a nested list do not split the card', () => {
    const doc = new DOMParser().parseFromString(
      '<ul><li><span>닉</span><span>좋은 가게였어요 또 갈게요</span><ul><li>방문일 3.5.화</li><li>2번째 방문</li></ul></li></ul>',
      'text/html',
    );
    const cards = naverReviewCards(doc);
    expect(cards.length).toBe(1);
  });
  it('a keyword section 더보기 is not the list load-more', () => {
    const kw = KW.replace('</ul></div>', '</ul><a href="#" role="button" aria-disabled="true">더보기</a></div>');
    const doc = page([item({})], '<a href="#" role="button">펼쳐서 더보기</a>', OPTS, kw);
    expect(readNaverReviews(doc, { newestPressedOver: null }).endShown).toBe(false);
  });
  it('keyword section without li does not turn cards into keywords', () => {
    const kw = '<div><h2>이런 점이 좋았어요</h2><div><span>"친절해요"</span></div></div>';
    const c = readNaverReviews(
      page([item({ author: '맛집탐방', text: '좋아요' }), item({ id: 'r2', author: '좋아요', text: '별로였어요 다음엔 안가요', keywords: [] })], '', OPTS, kw),
      { newestPressedOver: null },
    ).cards;
    expect(c[1]!.visit!.tags).toEqual([]);
  });
  it('order: press ignored by page, then expand changes text -> not newest', () => {
    const long = `${'가'.repeat(10)} ${'나'.repeat(200)}`;
    const doc = page(
      [item({ text: long })],
      '<div role="tablist"><a role="tab" aria-selected="true">추천순</a><a role="tab" aria-selected="false">최신순</a></div>',
    );
    const state = { newestPressedOver: null as string | null };
    actOnNaverReviews(doc, 'sort-newest', state);
    doc.querySelector('.pui__xtsQN-')!.textContent = long; // expander shows the full text
    doc.querySelector('.pui__wFzIYl')!.remove();
    expect(readNaverReviews(doc, state).order).not.toBe('newest');
  });
});

describe('a Naver review without the site\u2019s id keeps one id', () => {
  it('read when its chip is in the page\u2019s top keywords and when it is not (which words read as chips depends on that list)', () => {
    const noId = { ...(OPTS as object), idMode: 'none' } as never;
    const tallies = (kw: string[]) => `<div><h2>이런 점이 좋았어요</h2><ul>${kw.map((k) => `<li><span>"${k}"</span><span>12</span></li>`).join('')}</ul></div>`;
    const read = (kw: string[]) => readNaverReviews(page([item({ keywords: ['주차하기 편해요'] })], '', noId, tallies(kw)), { newestPressedOver: null }).cards;
    const a = read(['음식이 맛있어요', '친절해요']);
    const b = read(['음식이 맛있어요', '주차하기 편해요']);
    expect(a[0]!.visit!.tags).not.toEqual(b[0]!.visit!.tags);
    expect(reviewIdsOf(a, 'naver:1')[0]!.id).toBe(reviewIdsOf(b, 'naver:1')[0]!.id);
  });
});
