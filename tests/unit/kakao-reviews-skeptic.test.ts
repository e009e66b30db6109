// @vitest-environment happy-dom
/**
 * The Kakao reviews reader (utils/providers/kakao/reviews.ts) under the sequences a skeptical review
 * made the first version fail (each fails on it): a page script replaying an end or a review for a
 * URL the page really fetched, a 최신순 press the page ignored before 더보기, an old-order answer
 * landing after the press, a short text repeated, a review with no text before the list's 더보기.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { KAKAO_PLACE, KAKAO_REVIEWS_API, kakaoExchanges, reviewsBody, type TestReview } from '../helpers/kakao-reviews-exchanges';
import { nextStep, newHistory, afterStep } from '../../utils/reviews/judge';

let page: ReturnType<typeof kakaoExchanges>;
function show(reviews: TestReview[], more = true): void {
  const items = reviews.map((r) => `<li><p>${r.text}</p><span>2025.03.05.</span></li>`).join('');
  document.body.innerHTML = `<div role="tablist"><a role="tab">후기 9</a></div><div><button>추천순</button><button>최신순</button></div><ul>${items}</ul>${more ? '<button id="more">후기 더보기</button>' : ''}`;
}
const P1: TestReview[] = [
  { id: 9, text: '사장님이 친절하시고 음식이 정말 맛있어요 재방문 의사 있습니다' },
  { id: 8, text: '주차가 편하고 매장이 넓어서 좋았습니다 또 올게요' },
];
const P2: TestReview[] = [{ id: 7, text: '커피 맛이 진하고 디저트도 괜찮았어요 다음에 또' }];

beforeEach(() => {
  page = kakaoExchanges();
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`https://place.map.kakao.com/${KAKAO_PLACE}`);
});

describe('Kakao reviews, where a skeptical review made the first reader fail', () => {
  it('F1 a page script replays an end for a URL the page did request: the list ends after its first page', () => {
    const r = page.reader();
    const s = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(P1, true));
    show(P1);
    expect(r.read(document, s).endShown).toBe(false);
    page.end(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody([], false));
    const v = r.read(document, s);
    // Proven "ended" with 2 of 3+ reviews.
    expect(v.endShown).toBe(false);
  });

  it('F2 a forged review with no text needs no page at all', () => {
    const r = page.reader();
    const s = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(P1, false));
    show(P1);
    page.end(`${KAKAO_REVIEWS_API}?order=LATEST`, JSON.stringify({ reviews: [{ review_id: 123456, star_rating: 1, contents: '' }], has_next: false }));
    const v = r.read(document, s);
    expect(v.cards.map((c) => c.id)).not.toContain('123456');
  });

  it('F3 a 최신순 press the page never answers, then 더보기: the first page is dropped and the list "ends"', () => {
    const r = page.reader();
    const s = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=RECOMMENDED`, reviewsBody(P1, true));
    show(P1);
    let h = newHistory();
    const limits = { perPlace: 50, since: null };
    let v = r.read(document, s);
    // The judge presses 최신순 up to three times; the page ignores each press.
    for (let i = 0; i < 3; i++) {
      const n = nextStep(v, limits, h, () => null);
      expect(n).toEqual({ kind: 'act', action: 'sort-newest' });
      const before = v;
      r.act(document, 'sort-newest', s);
      page.clock += 10_000;
      v = r.read(document, s);
      h = afterStep(h, 'sort-newest', before, v);
    }
    expect(nextStep(v, limits, h, () => null)).toEqual({ kind: 'act', action: 'more' });
    // 더보기: pressed (a press the page never answered is given up), the page fetches its next page, in its own order, and draws it under the first.
    r.act(document, 'more', s);
    page.answer(`${KAKAO_REVIEWS_API}?order=RECOMMENDED&previous_last_review_id=8`, reviewsBody(P2, false));
    show([...P1, ...P2], false);
    v = r.read(document, s);
    const n = nextStep(v, limits, h, () => null);
    // All three reviews are on the page; the reading must hold all three if it says ended.
    if (n.kind === 'done') expect(v.cards.slice(0, n.take).map((c) => c.id)).toEqual(['9', '8', '7']);
  });

  it('F4 an old-order answer landing after the press joins the "newest" list: a limit of 1 keeps a review that is not the newest', () => {
    const r = page.reader();
    const s = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=RECOMMENDED`, reviewsBody(P1, true));
    show(P1);
    r.act(document, 'sort-newest', s);
    page.answer(`${KAKAO_REVIEWS_API}?order=RECOMMENDED&previous_last_review_id=8`, reviewsBody(P2, false));
    const latest: TestReview[] = [{ id: 10, text: '오늘 처음 가봤는데 분위기가 아주 좋네요 추천합니다' }, ...P1, ...P2];
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(latest, false));
    show(latest, false);
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 1, since: null }, newHistory(), () => null);
    expect(v.order).toBe('newest');
    expect(n).toMatchObject({ kind: 'done', end: 'limit', take: 1, sortedNewest: true });
    expect(v.cards[0]!.id).toBe('10');
  });

  it('F5 the shown check: a next page whose text repeats an earlier review counts as shown before it is drawn', () => {
    const r = page.reader();
    const s = r.newState();
    const a: TestReview[] = [{ id: 5, text: '맛있어요' }];
    const b: TestReview[] = [{ id: 4, text: '맛있어요' }];
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(a, true));
    show(a);
    r.read(document, s);
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST&previous_last_review_id=5`, reviewsBody(b, false));
    // The page has not drawn the second answer yet.
    const v = r.read(document, s);
    expect(v.endShown).toBe(false);
  });

  it('F6 more after a review with no text presses another review\u2019s own 더보기', () => {
    const r = page.reader();
    const s = r.newState();
    const a: TestReview[] = [
      { id: 5, text: '아주 긴 리뷰 본문이 여기에 이어지고 잘려서 더보기가 붙습니다' },
      { id: 4, text: '' },
    ];
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(a, true));
    document.body.innerHTML = `<div role="tablist"><a role="tab">후기 9</a></div><ul><li><p>아주 긴 리뷰 본문이 여기에 이어지고 잘려서<button id="own">더보기</button></p></li><li><span>★★★★</span></li></ul><button id="more">후기 더보기</button>`;
    const clicked: string[] = [];
    for (const b of Array.from(document.querySelectorAll('button'))) b.addEventListener('click', () => clicked.push(b.id));
    r.act(document, 'more', s);
    expect(clicked).toEqual(['more']);
  });

  it('F7 duplicate text anchors more on the earlier review', () => {
    const r = page.reader();
    const s = r.newState();
    const a: TestReview[] = [
      { id: 6, text: '맛있어요' },
      { id: 5, text: '아주 긴 리뷰 본문이 여기에 이어지고 잘려서 더보기가 붙습니다' },
      { id: 4, text: '맛있어요' },
    ];
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, reviewsBody(a, true));
    document.body.innerHTML = `<div role="tablist"><a role="tab">후기 9</a></div><ul><li><p>맛있어요</p></li><li><p>아주 긴 리뷰 본문이 여기에 이어지고 잘려서<button id="own">더보기</button></p></li><li><p>맛있어요</p></li></ul><button id="more">후기 더보기</button>`;
    const clicked: string[] = [];
    for (const b of Array.from(document.querySelectorAll('button'))) b.addEventListener('click', () => clicked.push(b.id));
    r.act(document, 'more', s);
    expect(clicked).toEqual(['more']);
  });
});
