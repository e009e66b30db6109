// @vitest-environment happy-dom
/**
 * Kakao's reviews reader (utils/providers/kakao/reviews.ts): the page's own answers, each taken only
 * for a request the page made, each review only once the page shows it, the end only from the
 * last answer's `has_next: false` with every answer of the list read whole.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { KAKAO_PLACE, KAKAO_REVIEWS_API, kakaoExchanges, type TestReview } from '../helpers/kakao-reviews-exchanges';
import type { KakaoReviewsState } from '../../utils/providers/kakao/reviews';
import { readKakaoReviewsAnswer } from '../../utils/providers/kakao/reviews-answer';
import { KAKAO_REVIEWS_HOOK_SOURCE, readKakaoReviewsHookMessage } from '../../utils/providers/kakao/reviews-hook';

const answerBody = (reviews: TestReview[], hasNext: unknown, camel = false) =>
  JSON.stringify(
    camel
      ? {
          scoreSet: { reviewCount: 9 },
          reviews: reviews.map((r) => ({ reviewId: r.id, starRating: 4, contents: r.text, photoCount: 1, registeredAt: '2025-03-05 10:00:00' })),
          hasNext,
        }
      : {
          score_set: { review_count: 9 },
          reviews: reviews.map((r) => ({
            review_id: r.id,
            star_rating: 4,
            contents: r.text,
            photo_count: 1,
            registered_at: '2025.03.05.',
            meta: { owner: { nickname: '닉' } },
          })),
          has_next: hasNext,
        },
  );

let page: ReturnType<typeof kakaoExchanges>;

function show(reviews: TestReview[], more: 'button' | null = 'button'): void {
  const items = reviews.map((r) => `<li><p>${r.text.slice(0, 40)}<button>더보기</button></p><span>2025.03.05.</span></li>`).join('');
  document.body.innerHTML = `<div role="tablist"><a role="tab">후기 9</a></div><div><button>추천순</button><button>최신순</button></div><ul>${items}</ul>${more ? '<button id="more">후기 더보기</button>' : ''}`;
}

const A: TestReview[] = [
  { id: 9, text: '사장님이 친절하시고 음식이 정말 맛있어요! 재방문 의사 100%입니다 그리고 아주 긴 문장이 이어집니다' },
  { id: 8, text: '=HYPERLINK("http://x") 주차가 편해요' },
];
const B: TestReview[] = [{ id: 7, text: 'Pros:\n- fast\n- cheap' }];

beforeEach(() => {
  page = kakaoExchanges();
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`https://place.map.kakao.com/${KAKAO_PLACE}`);
  document.body.innerHTML = '<div role="tablist"><a role="tab">후기 9</a></div>';
});

describe('Kakao reviews as the place page shows them', () => {
  it('a place page with no answer yet asks for its 후기 tab, and the tab is pressed by its words', () => {
    const r = page.reader();
    const state = r.newState();
    expect(r.read(document, state).page).toBe('place');
    let pressed = false;
    document.querySelector('[role=tab]')!.addEventListener('click', () => (pressed = true));
    expect(r.act(document, 'open', state)).toBe(true);
    expect(pressed).toBe(true);
  });

  it('reads the reviews the page shows from its answers, ends only on has_next false with every review shown', () => {
    const r = page.reader();
    const state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST&only_photo_review=false`, answerBody(A, true));
    show(A);
    let view = r.read(document, state);
    expect(view).toMatchObject({ page: 'reviews', order: 'newest', endShown: false, loading: false });
    expect(view.cards.map((c) => c.id)).toEqual(['9', '8']);
    expect(view.cards[1]!.text).toBe('=HYPERLINK("http://x") 주차가 편해요');
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST&only_photo_review=false&previous_last_review_id=8`, answerBody(B, false));
    // The answer came, the page has not drawn it yet: not shown, not the end.
    view = r.read(document, state);
    expect(view.cards.map((c) => c.id)).toEqual(['9', '8']);
    expect(view.endShown).toBe(false);
    show([...A, ...B], null);
    view = r.read(document, state);
    expect(view.cards.map((c) => c.id)).toEqual(['9', '8', '7']);
    expect(view.cards[2]!.text).toBe('Pros:\n- fast\n- cheap');
    expect(view.endShown).toBe(true);
  });

  it('a copy of a request the page never made is someone else\u2019s: ignored', () => {
    const r = page.reader();
    const state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, answerBody(A, false), { made: false });
    show(A);
    expect(r.read(document, state)).toMatchObject({ page: 'place', cards: [], endShown: false });
  });

  it('an answer that could not be read, or a review without an id, leaves the list unproven', () => {
    let r = page.reader();
    let state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, answerBody(A, true));
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST&previous_last_review_id=8`, 'upstream error', { status: 500 });
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST&previous_last_review_id=8&x=1`, answerBody(B, false));
    show([...A, ...B]);
    expect(r.read(document, state).endShown).toBe(false);

    page = kakaoExchanges();
    r = page.reader();
    state = r.newState();
    const noId = JSON.stringify({ reviews: [{ review_id: 9, contents: A[0]!.text }, { contents: 'no id here at all' }], has_next: false });
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, noId);
    expect(r.read(document, state).endShown).toBe(false);
    // has_next missing or not a boolean says nothing either.
    page = kakaoExchanges();
    r = page.reader();
    state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, JSON.stringify({ reviews: [], has_next: 'false' }));
    expect(r.read(document, state).endShown).toBe(false);
  });

  it('camelCase answers read the same; an empty list with has_next false is a place with no reviews', () => {
    const r = page.reader();
    const state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, answerBody([], false, true));
    expect(r.read(document, state)).toMatchObject({ page: 'reviews', cards: [], endShown: true });
    const parsed = readKakaoReviewsAnswer(`${KAKAO_REVIEWS_API}?order=LATEST`, 200, answerBody(B, false, true))!;
    expect(parsed.cards[0]).toMatchObject({ id: '7', rating: 4, dateSaid: '2025-03-05 10:00:00', photos: 1 });
  });

  it('after 최신순 is pressed the old list is not the new one: other order and loading until the page answers, then the new list alone', () => {
    const r = page.reader();
    const state: KakaoReviewsState = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=RECOMMENDED`, answerBody(B, true));
    show(B);
    expect(r.read(document, state).order).toBe('other');
    expect(r.act(document, 'sort-newest', state)).toBe(true);
    // The control may already say 최신순 is on: the list is still the old one.
    document.querySelectorAll('button')[1]!.setAttribute('aria-pressed', 'true');
    expect(r.read(document, state)).toMatchObject({ order: 'other', loading: true });
    page.clock = 10_000;
    expect(r.read(document, state)).toMatchObject({ order: 'other', loading: false });
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, answerBody(A, false));
    // The page still offers its list's 더보기: it does not agree the list ended.
    show(A);
    expect(r.read(document, state)).toMatchObject({ order: 'newest', endShown: false });
    show(A, null);
    const view = r.read(document, state);
    expect(view).toMatchObject({ order: 'newest', endShown: true });
    expect(view.cards.map((c) => c.id)).toEqual(['9', '8']);
  });

  it('where the request names no order, the control\u2019s own state says it', () => {
    const r = page.reader();
    const state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?sort_type=latest`, answerBody(A, false));
    show(A);
    expect(r.read(document, state).order).toBe('other');
    document.querySelectorAll('button')[1]!.setAttribute('aria-pressed', 'true');
    expect(r.read(document, state).order).toBe('newest');
    document.querySelector('div:nth-of-type(2)')!.remove();
    expect(r.read(document, state).order).toBe('none');
  });

  it('more presses the list\u2019s own control after the last review, never a review\u2019s 더보기', () => {
    const r = page.reader();
    const state = r.newState();
    page.answer(`${KAKAO_REVIEWS_API}?order=LATEST`, answerBody(A, true));
    show(A);
    const clicked: string[] = [];
    for (const b of Array.from(document.querySelectorAll('button'))) b.addEventListener('click', () => clicked.push(b.id || b.textContent!));
    expect(r.act(document, 'more', state)).toBe(true);
    expect(clicked).toEqual(['more']);
    // A short "더보기" as the list's control, after the items' own.
    document.getElementById('more')!.outerHTML = '<a href="#" role="button" id="short">더보기</a>';
    clicked.length = 0;
    document.getElementById('short')!.addEventListener('click', (e) => {
      e.preventDefault();
      clicked.push('short');
    });
    for (const b of Array.from(document.querySelectorAll('li button'))) b.addEventListener('click', () => clicked.push('item'));
    r.act(document, 'more', state);
    expect(clicked).toEqual(['short']);
  });

  it('the hook\u2019s messages are read only in their exact shape and for a reviews URL', () => {
    const ok = { source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'end', url: `${KAKAO_REVIEWS_API}?order=LATEST`, status: 200, body: '{}' };
    expect(readKakaoReviewsHookMessage(ok)).toMatchObject({ phase: 'end', status: 200 });
    expect(readKakaoReviewsHookMessage({ ...ok, url: 'https://evil.example/places/tab/reviews/kakaomap/1' })).toBeNull();
    expect(readKakaoReviewsHookMessage({ ...ok, url: 'http://place-api.map.kakao.com/places/tab/reviews/kakaomap/1' })).toBeNull();
    expect(readKakaoReviewsHookMessage({ ...ok, phase: 'other' })).toBeNull();
    expect(readKakaoReviewsHookMessage({ ...ok, body: 5 })).toBeNull();
    expect(readKakaoReviewsHookMessage({ ...ok, status: 'x' })).toMatchObject({ status: null });
  });
});
