// @vitest-environment happy-dom
/**
 * The Kakao reviews reader under the sequences a second skeptical review made it fail (each fails
 * on 5005b5c): a doubtful first page read past by a limit or a known ending, an aborted request
 * asked again, a next page carrying a list parameter its first page lacked, a bare 더보기 elsewhere
 * on the page of a place whose reviews have no text.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { KAKAO_PLACE, KAKAO_REVIEWS_API, kakaoExchanges, reviewsBody, type TestReview } from '../helpers/kakao-reviews-exchanges';
import { nextStep, newHistory } from '../../utils/reviews/judge';

let page: ReturnType<typeof kakaoExchanges>;
function show(reviews: TestReview[], more: boolean, extra = '') {
  const items = reviews.map((r) => `<li><p>${r.text}</p><span>2025.03.05.</span></li>`).join('');
  document.body.innerHTML = `${extra}<div role="tablist"><a role="tab">후기 9</a></div><div><button aria-pressed="false">추천순</button><button aria-pressed="true">최신순</button></div><ul>${items}</ul>${more ? '<button id="more">후기 더보기</button>' : ''}`;
}
const P1: TestReview[] = [
  { id: 10, text: '오늘 처음 가봤는데 분위기가 아주 좋네요 추천합니다' },
  { id: 9, text: '사장님이 친절하시고 음식이 정말 맛있어요 재방문 의사 있습니다' },
];
const P2: TestReview[] = [
  { id: 8, text: '주차가 편하고 매장이 넓어서 좋았습니다 또 올게요' },
  { id: 7, text: '커피 맛이 진하고 디저트도 괜찮았어요 다음에 또' },
];
beforeEach(() => {
  page = kakaoExchanges();
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`https://place.map.kakao.com/${KAKAO_PLACE}`);
});

describe('Kakao reviews, where a second skeptical review made the reader fail', () => {
  it('a doubtful (replayed) first page is a gap: no limit ending reads past it', () => {
    const r = page.reader();
    const s = r.newState();
    const U1 = `${KAKAO_REVIEWS_API}?sort_type=latest`; // order under sort_type (the replica's renamed-aria): order from the control
    page.answer(U1, reviewsBody(P1, true));
    page.answer(`${U1}&previous_last_review_id=9`, reviewsBody(P2, true));
    show([...P1, ...P2], true);
    page.end(U1, reviewsBody([], false)); // a page script replays the first URL: both copies of it doubtful
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 2, since: null }, newHistory(), () => null);
    // The list read stops at the gap: nothing is done with the newest missing.
    expect(v.cards).toEqual([]);
    expect(n.kind).not.toBe('done');
  });

  it('the same gap on a re-run: no known ending reads past it', () => {
    const r = page.reader();
    const s = r.newState();
    const U1 = `${KAKAO_REVIEWS_API}?sort_type=latest`;
    page.answer(U1, reviewsBody(P1, true));
    page.answer(`${U1}&previous_last_review_id=9`, reviewsBody(P2, true));
    show([...P1, ...P2], true);
    page.end(U1, reviewsBody([], false));
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 50, since: null }, newHistory(), (c) => (c.id === '8' || c.id === '7' ? 'known' : null), { newestFirst: 50 });
    expect(n.kind).not.toBe('done');
  });

  it('the page aborts a request and asks the same URL again (one timing entry): the retry\u2019s answer is read', () => {
    const r = page.reader();
    const s = r.newState();
    const U1 = `${KAKAO_REVIEWS_API}?order=LATEST`;
    page.start(U1);
    page.end(U1, null, null); // aborted: the hook's failed() posts an end; no resource-timing entry
    page.answer(U1, reviewsBody(P1, false)); // the retry: one entry
    show(P1, false);
    const v = r.read(document, s);
    // The failed copy is no answer; the retry's is the page's.
    expect(v.cards.map((c) => c.id)).toEqual(['10', '9']);
    expect(v.endShown).toBe(true);
  });

  it('a next page carrying a list parameter its first page lacked: never an end without page 1', () => {
    const r = page.reader();
    const s = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(P1, true));
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST&only_photo_review=false&previous_last_review_id=9`, reviewsBody(P2, false));
    show([...P1, ...P2], false);
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 50, since: null }, newHistory(), () => null);
    // Never an end without page 1: the next page of another list is a gap.
    expect(n.kind).not.toBe('done');
    expect(v.endShown).toBe(false);
  });

  it('reviews with no text only: a bare 더보기 elsewhere on the page is not the list\u2019s', () => {
    const r = page.reader();
    const s = r.newState();
    const U1 = `${KAKAO_REVIEWS_API}?order=LATEST`;
    const stars: TestReview[] = [
      { id: 3, text: '' },
      { id: 2, text: '' },
    ];
    page.answer(U1, reviewsBody(stars, false));
    show(stars, false, '<div class="place_info"><p>가게 소개 …</p><a href="#" role="button">더보기</a></div>');
    const v = r.read(document, s);
    expect(v.cards.length).toBe(2);
    // The bare 더보기 is the place's introduction's, not the list's: the list ended.
    expect(v.endShown).toBe(true);
  });
});
