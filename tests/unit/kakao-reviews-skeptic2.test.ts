// @vitest-environment happy-dom
/**
 * The Kakao reviews reader under the sequences a second skeptical review made it fail (each fails
 * on 5005b5c): a doubtful first page read past by a limit or a known ending, an aborted request
 * asked again, a next page carrying a list parameter its first page lacked, a bare 더보기 elsewhere
 * on the page of a place whose reviews have no text.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createKakaoReviews } from '../../utils/providers/kakao/reviews';
import { KAKAO_REVIEWS_HOOK_SOURCE, type KakaoReviewsHookMessage } from '../../utils/providers/kakao/reviews-hook';
import { nextStep, newHistory } from '../../utils/reviews/judge';

const PLACE = '27388604';
const API = `https://place-api.map.kakao.com/places/tab/reviews/kakaomap/${PLACE}`;
interface R {
  id: number;
  text: string;
}
const body = (reviews: R[], hasNext: unknown) =>
  JSON.stringify({ reviews: reviews.map((r) => ({ review_id: r.id, star_rating: 4, contents: r.text, registered_at: '2025.03.05.' })), has_next: hasNext });
let messages: KakaoReviewsHookMessage[];
let requested: Map<string, number>;
const reader = () => createKakaoReviews({ messages: () => messages, requestCount: (u) => requested.get(u) ?? 0 }, () => 0);
const start = (url: string) => messages.push({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'start', url, status: null, body: null });
const end = (url: string, b: string | null, status: number | null = 200) =>
  messages.push({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'end', url, status, body: b });
function answer(url: string, b: string) {
  start(url);
  end(url, b);
  requested.set(url, (requested.get(url) ?? 0) + 1);
}
function show(reviews: R[], more: boolean, extra = '') {
  const items = reviews.map((r) => `<li><p>${r.text}</p><span>2025.03.05.</span></li>`).join('');
  document.body.innerHTML = `${extra}<div role="tablist"><a role="tab">후기 9</a></div><div><button aria-pressed="false">추천순</button><button aria-pressed="true">최신순</button></div><ul>${items}</ul>${more ? '<button id="more">후기 더보기</button>' : ''}`;
}
const P1: R[] = [
  { id: 10, text: '오늘 처음 가봤는데 분위기가 아주 좋네요 추천합니다' },
  { id: 9, text: '사장님이 친절하시고 음식이 정말 맛있어요 재방문 의사 있습니다' },
];
const P2: R[] = [
  { id: 8, text: '주차가 편하고 매장이 넓어서 좋았습니다 또 올게요' },
  { id: 7, text: '커피 맛이 진하고 디저트도 괜찮았어요 다음에 또' },
];
beforeEach(() => {
  messages = [];
  requested = new Map();
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`https://place.map.kakao.com/${PLACE}`);
});

describe('Kakao reviews, where a second skeptical review made the reader fail', () => {
  it('a doubtful (replayed) first page is a gap: no limit ending reads past it', () => {
    const r = reader();
    const s = r.newState();
    const U1 = `${API}?sort_type=latest`; // order under sort_type (the replica's renamed-aria): order from the control
    answer(U1, body(P1, true));
    answer(`${U1}&previous_last_review_id=9`, body(P2, true));
    show([...P1, ...P2], true);
    end(U1, body([], false)); // a page script replays the first URL: both copies of it doubtful
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 2, since: null }, newHistory(), () => null);
    // The list read stops at the gap: nothing is done with the newest missing.
    expect(v.cards).toEqual([]);
    expect(n.kind).not.toBe('done');
  });

  it('the same gap on a re-run: no known ending reads past it', () => {
    const r = reader();
    const s = r.newState();
    const U1 = `${API}?sort_type=latest`;
    answer(U1, body(P1, true));
    answer(`${U1}&previous_last_review_id=9`, body(P2, true));
    show([...P1, ...P2], true);
    end(U1, body([], false));
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 50, since: null }, newHistory(), (c) => (c.id === '8' || c.id === '7' ? 'known' : null), { newestFirst: 50 });
    expect(n.kind).not.toBe('done');
  });

  it('the page aborts a request and asks the same URL again (one timing entry): the retry\u2019s answer is read', () => {
    const r = reader();
    const s = r.newState();
    const U1 = `${API}?order=LATEST`;
    start(U1);
    end(U1, null, null); // aborted: the hook's failed() posts an end; no resource-timing entry
    answer(U1, body(P1, false)); // the retry: one entry
    show(P1, false);
    const v = r.read(document, s);
    // The failed copy is no answer; the retry's is the page's.
    expect(v.cards.map((c) => c.id)).toEqual(['10', '9']);
    expect(v.endShown).toBe(true);
  });

  it('a next page carrying a list parameter its first page lacked: never an end without page 1', () => {
    const r = reader();
    const s = r.newState();
    answer(`${API}?order=LATEST`, body(P1, true));
    answer(`${API}?order=LATEST&only_photo_review=false&previous_last_review_id=9`, body(P2, false));
    show([...P1, ...P2], false);
    const v = r.read(document, s);
    const n = nextStep(v, { perPlace: 50, since: null }, newHistory(), () => null);
    // Never an end without page 1: the next page of another list is a gap.
    expect(n.kind).not.toBe('done');
    expect(v.endShown).toBe(false);
  });

  it('reviews with no text only: a bare 더보기 elsewhere on the page is not the list\u2019s', () => {
    const r = reader();
    const s = r.newState();
    const U1 = `${API}?order=LATEST`;
    const stars: R[] = [
      { id: 3, text: '' },
      { id: 2, text: '' },
    ];
    answer(U1, body(stars, false));
    show(stars, false, '<div class="place_info"><p>가게 소개 …</p><a href="#" role="button">더보기</a></div>');
    const v = r.read(document, s);
    expect(v.cards.length).toBe(2);
    // The bare 더보기 is the place's introduction's, not the list's: the list ended.
    expect(v.endShown).toBe(true);
  });
});
