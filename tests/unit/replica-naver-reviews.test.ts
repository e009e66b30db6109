// @vitest-environment happy-dom
/**
 * The Naver replica's visitor reviews page: its ground truth (naver/reviews.ts), the list request's
 * pages and cursor (naver/reviews-view.ts), the page's HTML under each switch (naver/reviews-page.ts),
 * the page's own script (naver/client/reviews-page.js) run in happy-dom with its requests answered
 * in-process by the endpoint's function, the server's routes and truth API, and the switches' validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaRequest } from '../helpers/replica-request';
import { HOSTILE_NAMES } from '../replica/review-texts';
import { naverIdOf, naverPlaceById, type NaverReplicaPlace } from '../replica/naver/data';
import { NAVER_REVIEW_SORTS, type NaverReviewSort, naverKeywordTallies, naverReviewOrder, naverReviewsOf } from '../replica/naver/reviews';
import { visitorReviewsHtml, type NaverReviewsPageConfig } from '../replica/naver/reviews-page';
import { naverReviewsClient } from '../replica/naver/reviews-client';
import type { NAVER_REVIEW_CHOICES } from '../replica/naver/reviews-switches';
import {
  answerNaverReviewsList,
  type NaverReviewClock,
  type NaverReviewsListAnswer,
  naverFullDate,
  naverReviewsTruth,
  naverShortDate,
  type ServedNaverReview,
} from '../replica/naver/reviews-view';
import { type NaverReplica, startNaverReplica } from '../replica/naver/server';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverSwitches } from '../replica/naver/switches';
import { worldFromSpecs } from '../replica/world';

const NOW = Date.UTC(2026, 6, 1, 3); // 2026-07-01 12:00 KST
const CLOCK: NaverReviewClock = { writtenBefore: NOW, now: NOW };
const DAY = 86_400_000;
const at = (i: number) => ({ lat: 37.5665, lng: 126.978 + i * 0.001 });
const world = worldFromSpecs([
  { name: '하루국수', category: 'restaurant', ...at(0), prominence: 0.9, rating: 4.4, reviewCount: 2000 },
  { name: '드림커피', category: 'cafe', ...at(1), prominence: 0.5, rating: 4.6, reviewCount: 23 },
  { name: '마루의원', category: 'clinic', ...at(2), prominence: 0.3, rating: 4.1, reviewCount: 7 },
  { name: '봄약국', category: 'pharmacy', ...at(3), prominence: 0.1 },
  { name: '달빵집', category: 'bakery', ...at(4), prominence: 0.4, rating: 4, reviewCount: 20 },
]);
const place = (i: number): NaverReplicaPlace => naverPlaceById(world, naverIdOf(i))!;
const [big, small, clinic, none, twenty] = [0, 1, 2, 3, 4].map(place) as [
  NaverReplicaPlace,
  NaverReplicaPlace,
  NaverReplicaPlace,
  NaverReplicaPlace,
  NaverReplicaPlace,
];
const switchesWith = (partial: Partial<NaverSwitches> = {}): NaverSwitches => mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, partial);
const SHORT = /^\d{2}\.\d{1,2}\.\d{1,2}\.[일월화수목금토]$/;
const THIS_YEAR = /^\d{1,2}\.\d{1,2}\.[일월화수목금토]$/;

function listPage(p: NaverReplicaPlace, params: Record<string, string>, s: NaverSwitches = DEFAULT_NAVER_SWITCHES): NaverReviewsListAnswer {
  const answer = answerNaverReviewsList(world, p.id, new URLSearchParams(params), s, CLOCK);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as NaverReviewsListAnswer;
}

/** Every page of a sort from the top until the cursor runs out. */
function walk(p: NaverReplicaPlace, sort: NaverReviewSort, size = 10, s = DEFAULT_NAVER_SWITCHES): { items: ServedNaverReview[]; pages: number } {
  const items: ServedNaverReview[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = listPage(p, { sort, size: String(size), ...(cursor ? { cursor } : {}) }, s);
    items.push(...page.items);
    cursor = page.cursor;
    pages++;
  } while (cursor !== null && pages < 1000);
  return { items, pages };
}

function html(p: NaverReplicaPlace, partial: Partial<NaverSwitches> = {}, sort: NaverReviewSort = 'recommend', type = 'restaurant'): string {
  return visitorReviewsHtml({ place: p, type, sort, switches: switchesWith(partial), clock: CLOCK });
}

function parse(text: string): Document {
  return new DOMParser().parseFromString(text, 'text/html');
}

const itemsOf = (doc: Document) => [...doc.querySelectorAll('ul#_review_list > li')];
const configOf = (doc: Document) => JSON.parse(doc.getElementById('replica-reviews-config')!.textContent!) as NaverReviewsPageConfig;

describe('naver replica reviews: ground truth', () => {
  it('gives exactly the visitor review count, deterministically, with unique ids, newest first', () => {
    const reviews = naverReviewsOf(big, NOW);
    expect(reviews).toHaveLength(2000);
    expect(JSON.stringify(naverReviewsOf(big, NOW))).toBe(JSON.stringify(reviews));
    expect(naverReviewsOf(small, NOW)).toHaveLength(23);
    expect(naverReviewsOf(none, NOW)).toEqual([]);
    expect(new Set(reviews.map((r) => r.id)).size).toBe(2000);
    for (const r of reviews) expect(r.id).toMatch(/^[0-9a-f]{24}$/);
    expect(naverReviewsOf(small, NOW).some((r) => reviews.some((b) => b.id === r.id))).toBe(false);
    for (let i = 1; i < reviews.length; i++) expect(reviews[i]!.writtenAt).toBeLessThanOrEqual(reviews[i - 1]!.writtenAt);
    expect(reviews.at(-1)!.writtenAt).toBeGreaterThan(NOW - 5 * 366 * DAY);
    for (const r of reviews) {
      expect(r.visitedAt).toBeLessThanOrEqual(r.writtenAt);
      expect(r.writtenAt - r.visitedAt).toBeLessThan(31 * DAY);
      expect(r.visitCount).toBeGreaterThanOrEqual(1);
      expect(r.keywords.length).toBeLessThanOrEqual(4);
      expect(new Set(r.keywords).size).toBe(r.keywords.length);
      expect(r.rating >= 1 && r.rating <= 5).toBe(true);
      if (r.ownerReply) expect(r.ownerReply.repliedAt >= r.writtenAt && r.ownerReply.repliedAt <= NOW).toBe(true);
    }
    // Another clock moves every date by the same amount; the ids stay.
    const later = naverReviewsOf(big, NOW + 30 * DAY);
    expect(later.map((r) => r.id)).toEqual(reviews.map((r) => r.id));
    expect(later[5]!.writtenAt - reviews[5]!.writtenAt).toBe(30 * DAY);
  });

  it('writes Korean mostly, with keywords, photos, replies, repeat visits, and empty texts rare', () => {
    const reviews = naverReviewsOf(big, NOW);
    const share = (f: (r: (typeof reviews)[number]) => boolean) => reviews.filter(f).length / reviews.length;
    expect(share((r) => /[가-힣]/.test(r.text))).toBeGreaterThan(0.8);
    expect(share((r) => r.text === '')).toBeLessThan(0.05);
    expect(share((r) => r.text === '')).toBeGreaterThan(0);
    expect(share((r) => r.keywords.length > 0)).toBeGreaterThan(0.7);
    expect(share((r) => r.photos > 0)).toBeGreaterThan(0.3);
    expect(share((r) => r.visitCount > 1)).toBeGreaterThan(0.1);
    expect(reviews.some((r) => r.keywords.includes('음식이 맛있어요'))).toBe(true);
    // A clinic offers its own keywords.
    expect(
      naverReviewsOf(clinic, NOW)
        .flatMap((r) => r.keywords)
        .every((k) => !k.includes('음식')),
    ).toBe(true);
    // The tallies are the truth's own counts, most first.
    const tallies = naverKeywordTallies(big);
    for (const t of tallies) expect(t.count).toBe(reviews.filter((r) => r.keywords.includes(t.displayName)).length);
    expect(tallies.map((t) => t.count)).toEqual([...tallies.map((t) => t.count)].sort((a, b) => b - a));
  });

  it('carries the hostile texts and names through untouched', () => {
    const reviews = naverReviewsOf(big, NOW);
    const texts = reviews.map((r) => r.text);
    expect(texts.some((t) => t.includes('<script>alert(2)</script>'))).toBe(true);
    expect(texts.some((t) => t.includes('\u202e'))).toBe(true);
    expect(texts.some((t) => t.length === 10_000)).toBe(true);
    expect(texts.some((t) => t.includes('👨‍👩‍👧‍👦'))).toBe(true);
    expect(texts.some((t) => t.includes('\r\n'))).toBe(true);
    expect(texts.some((t) => /^[=+\-@]/.test(t))).toBe(true);
    expect(reviews.some((r) => HOSTILE_NAMES.includes(r.author))).toBe(true);
  });

  it('prints dates as the page does, in Korea time: yy.M.D.요일, or M.D.요일 within the year', () => {
    const tuesday = Date.UTC(2024, 2, 4, 15, 30); // 2024-03-05 00:30 KST
    expect(naverShortDate(tuesday, NOW, 'short')).toBe('24.3.5.화');
    expect(naverShortDate(tuesday, NOW, 'year-when-old')).toBe('24.3.5.화');
    expect(naverShortDate(tuesday, Date.UTC(2024, 11, 1), 'year-when-old')).toBe('3.5.화');
    expect(naverFullDate(tuesday)).toBe('2024년 3월 5일 화요일');
    const short = naverReviewsTruth(big, switchesWith(), CLOCK);
    expect(short.every((r) => SHORT.test(r.writtenText) && SHORT.test(r.visitedText))).toBe(true);
    const relative = naverReviewsTruth(big, switchesWith({ naverReviewsDates: 'year-when-old' }), CLOCK);
    expect(relative[0]!.writtenText).toMatch(THIS_YEAR);
    expect(relative.at(-1)!.writtenText).toMatch(SHORT);
    for (const r of relative) {
      const thisYear = new Date(r.writtenAt + 9 * 3_600_000).getUTCFullYear() === 2026;
      expect(r.writtenText).toMatch(thisYear ? THIS_YEAR : SHORT);
      if (r.ownerReply) expect(r.ownerReply.repliedText).toMatch(/^(\d{2}\.)?\d{1,2}\.\d{1,2}\.[일월화수목금토]$/);
    }
  });
});

describe('naver replica reviews: the list request', () => {
  it('pages both sorts by cursor to the last review, then gives no cursor', () => {
    const truth = naverReviewsOf(small, NOW).map((r) => r.id);
    for (const sort of NAVER_REVIEW_SORTS) {
      const { items, pages } = walk(small, sort);
      expect(pages).toBe(3);
      expect(items).toHaveLength(23);
      expect(new Set(items.map((r) => r.id))).toEqual(new Set(truth));
    }
    expect(walk(small, 'recent').items.map((r) => r.id)).toEqual(truth);
    const recommended = walk(small, 'recommend').items.map((r) => r.id);
    expect(recommended).not.toEqual(truth);
    expect(walk(small, 'recommend').items.map((r) => r.id)).toEqual(recommended);
    expect([...naverReviewOrder(small, 'recommend')].map((i) => truth[i])).toEqual(recommended);
    const first = listPage(small, { sort: 'recent', size: '10' });
    expect(first).toMatchObject({ total: 23, sort: 'recent' });
    expect(first.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // Size 20: twenty reviews fit in one page.
    expect(walk(twenty, 'recent', 20).pages).toBe(1);
    expect(walk(twenty, 'recent', 10).pages).toBe(2);
    expect(walk(big, 'recommend', 20).items).toHaveLength(2000);
    const empty = listPage(none, { sort: 'recent' });
    expect(empty).toEqual({ total: 0, sort: 'recent', items: [], cursor: null });
  });

  it('serves the texts as they are, the dates as the truth prints them, and the stars only when shown', () => {
    const truth = naverReviewsTruth(big, DEFAULT_NAVER_SWITCHES, CLOCK);
    const page = listPage(big, { sort: 'recent', size: '20' });
    expect(page.items.map((r) => [r.id, r.text, r.written, r.visited, r.visitCount, r.keywords, r.reply?.date ?? null])).toEqual(
      truth.slice(0, 20).map((r) => [r.id, r.text, r.writtenText, r.visitedText, r.visitCount, r.keywords, r.ownerReply?.repliedText ?? null]),
    );
    expect(page.items.every((r) => r.rating === null)).toBe(true);
    const stars = listPage(big, { sort: 'recent' }, switchesWith({ naverReviewStars: 'shown' }));
    expect(stars.items.map((r) => r.rating)).toEqual(truth.slice(0, 10).map((r) => r.rating));
  });

  it('refuses a bad sort, size or cursor, a cursor of the other order, and an unknown place', () => {
    const status = (params: Record<string, string>, id = small.id) =>
      answerNaverReviewsList(world, id, new URLSearchParams(params), DEFAULT_NAVER_SWITCHES, CLOCK).status;
    const cursor = listPage(small, { sort: 'recent' }).cursor!;
    expect(status({ sort: 'recent', cursor })).toBe(200);
    expect(status({ sort: 'recommend', cursor })).toBe(400);
    expect(status({ sort: 'oldest' })).toBe(400);
    expect(status({ sort: 'recent', size: '0' })).toBe(400);
    expect(status({ sort: 'recent', size: '51' })).toBe(400);
    expect(status({ sort: 'recent', size: '1.5' })).toBe(400);
    expect(status({ sort: 'recent', cursor: 'garbage' })).toBe(400);
    expect(status({ sort: 'recent' }, '99')).toBe(404);
  });
});

describe('naver replica reviews: the page under each switch', () => {
  it('by default: counts, keyword tallies, 추천순 tabs, ten items with their facts, the more control, no stars', () => {
    const doc = parse(html(small));
    const counts = [...doc.querySelectorAll('.dAsGb a')].map((a) => a.textContent);
    expect(counts[0]).toBe('방문자 리뷰 23');
    expect(counts[1]).toMatch(/^블로그 리뷰 \d+$/);
    expect(parse(html(big)).querySelector('.dAsGb a')!.textContent).toBe('방문자 리뷰 2,000');
    const keywords = doc.querySelector('#_keyword_section')!;
    expect(keywords.querySelector('h2')!.textContent).toBe('이런 점이 좋았어요');
    expect([...keywords.querySelectorAll('li')].map((li) => li.textContent)).toEqual(
      naverKeywordTallies(small).map((t) => `"${t.displayName}"이 키워드를 선택한 인원${t.count}`),
    );
    const tabs = [...doc.querySelectorAll('[role="tablist"] [role="tab"]')];
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['추천순', 'true'],
      ['최신순', 'false'],
    ]);
    const items = itemsOf(doc);
    expect(items).toHaveLength(10);
    const order = [...naverReviewOrder(small, 'recommend')];
    const truth = naverReviewsTruth(small, DEFAULT_NAVER_SWITCHES, CLOCK);
    expect(items.map((li) => li.getAttribute('data-review-id'))).toEqual(order.slice(0, 10).map((i) => truth[i]!.id));
    const first = truth[order[0]!]!;
    const li = items[0]!;
    expect(li.querySelector('.pui__NMi-Dp')!.textContent).toBe(first.author);
    const facts = li.querySelector('.pui__QKE5Pr')!;
    expect(facts.textContent).toContain(`방문일${first.visitedText}${naverFullDate(first.visitedAt)}`);
    expect(facts.textContent).toContain(`${first.visitCount}번째 방문`);
    expect([...facts.querySelectorAll('time')].map((t) => t.textContent)).toEqual([first.visitedText, first.writtenText]);
    expect([...li.querySelectorAll('.pui__jhpEyP')].map((k) => k.textContent)).toEqual(first.keywords);
    expect(li.querySelectorAll('.pui__-0Ter1 img')).toHaveLength(first.photos);
    const replied = items.find((_, k) => truth[order[k]!]!.ownerReply);
    if (replied) expect(replied.querySelector('.pui__XE54q7')!.textContent).toBe('사장님 댓글');
    const more = doc.querySelector('.NSTUp a.fvwqf[role="button"]')!;
    expect(more.textContent).toBe('펼쳐서 더보기');
    expect(more.hasAttribute('aria-disabled')).toBe(false);
    expect(doc.querySelector('[aria-label^="별점"]')).toBeNull();
    // The Apollo state's stats: the count, the tallies, no stars.
    const state = JSON.parse(/window\.__APOLLO_STATE__ = (.*?);<\/script>/.exec(html(small))![1]!);
    expect(state[`VisitorReviewStatsResult:${small.id}`].review).toMatchObject({ totalCount: 23, avgRating: 0 });
  });

  it('naverReviewStars: none has no star element; shown puts aria-label="별점 N점" on each item', () => {
    const doc = parse(html(small, { naverReviewStars: 'shown' }));
    const truth = naverReviewsTruth(small, DEFAULT_NAVER_SWITCHES, CLOCK);
    const order = [...naverReviewOrder(small, 'recommend')];
    expect(itemsOf(doc).map((li) => li.querySelector('[role="img"]')!.getAttribute('aria-label'))).toEqual(
      order.slice(0, 10).map((i) => `별점 ${truth[i]!.rating}점`),
    );
  });

  it('naverReviewsMore / naverReviewsEnd: the control while more is left; then gone, or kept disabled; none under scroll', () => {
    expect(parse(html(small, { naverReviewsMore: 'scroll' })).querySelector('a.fvwqf')).toBeNull();
    // Twenty reviews in a page of twenty: nothing is left from the start.
    expect(parse(html(twenty, { naverReviewsPage: 20 })).querySelector('a.fvwqf')).toBeNull();
    const disabled = parse(html(twenty, { naverReviewsPage: 20, naverReviewsEnd: 'disabled' })).querySelector('a.fvwqf')!;
    expect(disabled.getAttribute('aria-disabled')).toBe('true');
    expect(
      parse(html(twenty, { naverReviewsEnd: 'disabled' }))
        .querySelector('a.fvwqf')!
        .hasAttribute('aria-disabled'),
    ).toBe(false);
  });

  it('naverReviewsPage: 10 or 20 items first', () => {
    expect(itemsOf(parse(html(big)))).toHaveLength(10);
    expect(itemsOf(parse(html(big, { naverReviewsPage: 20 })))).toHaveLength(20);
    expect(itemsOf(parse(html(clinic, {}, 'recommend', 'hospital')))).toHaveLength(7);
  });

  it('naverReviewsSort: tabs, or no control; the URL order (reviewSort=recent) opens newest first', () => {
    const absent = parse(html(small, { naverReviewsSort: 'absent' }));
    expect(absent.querySelector('[role="tab"]')).toBeNull();
    const truth = naverReviewsOf(small, NOW);
    expect(itemsOf(absent).map((li) => li.getAttribute('data-review-id'))).toEqual(
      [...naverReviewOrder(small, 'recommend')].slice(0, 10).map((i) => truth[i]!.id),
    );
    const recent = parse(html(small, {}, 'recent'));
    expect(itemsOf(recent).map((li) => li.getAttribute('data-review-id'))).toEqual(truth.slice(0, 10).map((r) => r.id));
    expect(recent.querySelector('[role="tab"][aria-selected="true"]')!.textContent).toBe('최신순');
  });

  it('naverReviewsExpander: a[role=button] 더보기, <button> 더보기, or whole texts', () => {
    const s = { naverReviewsPage: 20 as const };
    const linkDoc = parse(html(big, s));
    const config = configOf(linkDoc);
    const k = config.items.findIndex((r) => Array.from(r.text).length > 150);
    expect(k).toBeGreaterThanOrEqual(0);
    const long = config.items[k]!;
    const area = itemsOf(linkDoc)[k]!.querySelector('.pui__vn15t2')!;
    expect(area.querySelector('.pui__xtsQN-')!.textContent).toBe(`${Array.from(long.text).slice(0, 150).join('')}…`);
    expect(area.querySelector('a[role="button"]')!.textContent).toBe('더보기');
    const buttonArea = itemsOf(parse(html(big, { ...s, naverReviewsExpander: 'button' })))[k]!.querySelector('.pui__vn15t2')!;
    expect(buttonArea.querySelector('button[type="button"]')!.textContent).toBe('더보기');
    expect(buttonArea.querySelector('a[role="button"]')).toBeNull();
    const whole = itemsOf(parse(html(big, { ...s, naverReviewsExpander: 'none' })))[k]!.querySelector('.pui__vn15t2')!;
    expect(whole.textContent).toBe(long.text);
    // A short text has no expander under any form.
    const j = config.items.findIndex((r) => r.text !== '' && Array.from(r.text).length <= 150);
    expect(itemsOf(linkDoc)[j]!.querySelector('.pui__vn15t2 [data-pui-click-code="rvshowmore"]')).toBeNull();
  });

  it('naverReviewsDates: every printed date short, or without the year within this year', () => {
    const times = (doc: Document) => [...doc.querySelectorAll('ul#_review_list time')].map((t) => t.textContent!);
    expect(times(parse(html(big))).every((t) => SHORT.test(t))).toBe(true);
    const relative = times(parse(html(big, { naverReviewsDates: 'year-when-old' }, 'recent')));
    expect(relative.some((t) => THIS_YEAR.test(t))).toBe(true);
    expect(relative.every((t) => THIS_YEAR.test(t) || SHORT.test(t))).toBe(true);
  });

  it('naverReviewsId: data-review-id on the li, only a share link ?reviewId=, or nowhere', () => {
    const truth = naverReviewsOf(small, NOW);
    const ids = [...naverReviewOrder(small, 'recommend')].slice(0, 10).map((i) => truth[i]!.id);
    const link = parse(html(small, { naverReviewsId: 'link' }, 'recommend', 'place'));
    expect(link.querySelector('[data-review-id]')).toBeNull();
    expect(itemsOf(link).map((li) => li.querySelector('a[href*="reviewId="]')!.getAttribute('href'))).toEqual(
      ids.map((id) => `/place/${small.id}/review/visitor?reviewId=${id}`),
    );
    const bare = parse(html(small, { naverReviewsId: 'none' }));
    expect(bare.querySelector('[data-review-id], a[href*="reviewId="]')).toBeNull();
    expect(bare.body.innerHTML.includes(ids[0]!)).toBe(false);
  });

  it('naverReviewsReplyHead and naverReviewsFullDate: "사장님 댓글" or the place name; hidden full dates or none', () => {
    const replied = (doc: Document) => itemsOf(doc).filter((li) => li.querySelector('.pui__GbW8H7'));
    const heads = (partial: Partial<NaverSwitches>) =>
      replied(parse(html(big, { naverReviewsPage: 20, ...partial }))).map((li) => li.querySelector('.pui__XE54q7')!.textContent);
    expect(heads({}).length).toBeGreaterThan(0);
    expect(new Set(heads({}))).toEqual(new Set(['사장님 댓글']));
    expect(new Set(heads({ naverReviewsReplyHead: 'name' }))).toEqual(new Set(['하루국수']));
    const blind = (doc: Document) =>
      [...doc.querySelectorAll('ul#_review_list .pui__QKE5Pr .pui__blind')].filter((b) => /년 \d+월 \d+일 .요일$/.test(b.textContent!));
    expect(blind(parse(html(small))).length).toBe(20);
    expect(blind(parse(html(small, { naverReviewsFullDate: 'none' })))).toHaveLength(0);
  });

  it('a place without reviews: the zero count, a notice, no tabs, no keywords, no control', () => {
    const doc = parse(html(none, { naverReviewsEnd: 'disabled' }));
    expect(doc.querySelector('.dAsGb a')!.textContent).toBe('방문자 리뷰 0');
    expect(itemsOf(doc)).toHaveLength(0);
    expect(doc.querySelector('#_keyword_section, [role="tab"]')).toBeNull();
    expect(doc.querySelector('.place_section_no_data')!.textContent).toBe('아직 등록된 리뷰가 없습니다.');
  });
});

interface PageRun {
  doc: Document;
  requests: string[];
  /** Answer every pending request. */
  settle(): void;
  scroll(): void;
  click(el: Element | null | undefined): void;
  ids(): (string | null)[];
  /** Answer the next requests with this status instead. */
  failWith(status: number | null): void;
}

/** The page in its own happy-dom document with its script running, its requests answered in-process. */
function openPage(p: NaverReplicaPlace, partial: Partial<NaverSwitches> = {}, sort: NaverReviewSort = 'recommend'): PageRun {
  const switches = switchesWith(partial);
  const doc = parse(html(p, partial, sort));
  const tasks: (() => void)[] = [];
  const requests: string[] = [];
  let failure: number | null = null;
  let onScroll: (() => void) | null = null;
  class FakeXhr {
    url = '';
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open(_method: string, url: string): void {
      this.url = url;
    }
    send(): void {
      requests.push(this.url);
      tasks.push(() => {
        const id = /^\/[a-z]+\/(\d+)\/review\/visitor\/list\?/.exec(this.url)![1]!;
        const answer = answerNaverReviewsList(world, id, new URLSearchParams(this.url.split('?')[1]), switches, CLOCK);
        this.status = failure ?? answer.status;
        this.responseText = failure ? '{"error":{"code":"NCAPTCHA"}}' : answer.body;
        this.onload?.();
      });
    }
  }
  const win = {
    document: doc,
    XMLHttpRequest: FakeXhr,
    addEventListener: (type: string, fn: () => void) => {
      if (type === 'scroll') onScroll = fn;
    },
  };
  naverReviewsClient().replicaNaverReviewsPage(configOf(doc), win);
  return {
    doc,
    requests,
    settle() {
      for (let guard = 0; tasks.length && guard < 1000; guard++) tasks.shift()!();
    },
    scroll() {
      expect(onScroll).not.toBeNull();
      onScroll!();
    },
    click(el) {
      expect(el).toBeTruthy();
      (el as HTMLElement).click();
    },
    ids: () => itemsOf(doc).map((li) => li.getAttribute('data-review-id')),
    failWith(status) {
      failure = status;
    },
  };
}

describe('naver replica reviews: the page script', () => {
  it('loads a page per click on "펼쳐서 더보기" to the end, then the control is gone', () => {
    const run = openPage(small);
    const truth = naverReviewsOf(small, NOW);
    const order = [...naverReviewOrder(small, 'recommend')].map((i) => truth[i]!.id);
    expect(run.ids()).toEqual(order.slice(0, 10));
    run.click(run.doc.querySelector('a.fvwqf'));
    expect(run.requests).toEqual([`/restaurant/${small.id}/review/visitor/list?sort=recommend&size=10&cursor=${configOf(run.doc).cursor}`]);
    run.settle();
    expect(run.ids()).toEqual(order.slice(0, 20));
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    expect(run.ids()).toEqual(order);
    expect(run.requests).toHaveLength(2);
    expect(run.doc.querySelector('a.fvwqf')).toBeNull();
  });

  it('keeps the control disabled at the end under naverReviewsEnd disabled; a failed request changes nothing', () => {
    const run = openPage(small, { naverReviewsEnd: 'disabled', naverReviewsPage: 20 });
    run.failWith(429);
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    expect(run.ids()).toHaveLength(20);
    expect(run.doc.querySelector('a.fvwqf')!.hasAttribute('aria-disabled')).toBe(false);
    run.failWith(null);
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    expect(run.ids()).toHaveLength(23);
    expect(run.doc.querySelector('a.fvwqf')!.getAttribute('aria-disabled')).toBe('true');
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    expect(run.requests).toHaveLength(2);
  });

  it('loads on scrolling under naverReviewsMore scroll, and stops at the end', () => {
    const run = openPage(small, { naverReviewsMore: 'scroll' });
    for (let k = 0; k < 5; k++) {
      run.scroll();
      run.settle();
    }
    expect(run.ids()).toHaveLength(23);
    expect(run.requests).toHaveLength(2);
    expect(run.doc.querySelector('a.fvwqf')).toBeNull();
  });

  it('reloads from the top in the other order when 최신순 is chosen', () => {
    const run = openPage(small);
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    run.click([...run.doc.querySelectorAll('[role="tab"]')].find((t) => t.textContent === '최신순'));
    expect(run.ids()).toEqual([]);
    run.settle();
    const truth = naverReviewsOf(small, NOW).map((r) => r.id);
    expect(run.ids()).toEqual(truth.slice(0, 10));
    expect(run.requests.at(-1)).toBe(`/restaurant/${small.id}/review/visitor/list?sort=recent&size=10`);
    expect(run.doc.querySelector('[role="tab"][aria-selected="true"]')!.textContent).toBe('최신순');
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    run.click(run.doc.querySelector('a.fvwqf'));
    run.settle();
    expect(run.ids()).toEqual(truth);
  });

  it('shows the whole text when its 더보기 is clicked, under either expander form', () => {
    for (const expander of ['more-link', 'button'] as const) {
      const run = openPage(big, { naverReviewsPage: 20, naverReviewsExpander: expander });
      const config = configOf(run.doc);
      const k = config.items.findIndex((r) => Array.from(r.text).length > 150);
      const li = itemsOf(run.doc)[k]!;
      run.click(li.querySelector('[data-pui-click-code="rvshowmore"]'));
      expect(li.querySelector('.pui__vn15t2')!.textContent).toBe(config.items[k]!.text);
      expect(li.querySelector('[data-pui-click-code="rvshowmore"]')).toBeNull();
      expect(run.requests).toEqual([]);
    }
  });
});

describe('naver replica reviews: server and switches', () => {
  let replica: NaverReplica;
  let clock = NOW;
  beforeAll(async () => {
    replica = await startNaverReplica({ world, now: () => clock });
  });
  afterAll(async () => {
    await replica.close();
  });
  const get = (path: string) => replicaRequest(replica.port, 'pcmap.place.naver.com', path);

  it('serves the page for each place type and its list as API requests, with the truth by the clock', async () => {
    for (const type of ['restaurant', 'place', 'hospital']) {
      const page = await get(`/${type}/${small.id}/review/visitor`);
      expect(page.status).toBe(200);
      expect(replica.requests.at(-1)).toMatchObject({ kind: 'page', status: 200 });
      expect(configOf(parse(page.body)).listPath).toBe(`/${type}/${small.id}/review/visitor/list`);
    }
    expect((await get(`/restaurant/${small.id}/review/visitor?reviewSort=recent`)).body).toContain(
      'aria-selected="true" class="place_tab_btn" data-sort="recent"',
    );
    expect((await get('/restaurant/99/review/visitor')).status).toBe(404);
    const url = naverReviewsClient().naverReviewsRequestUrl(`/place/${small.id}/review/visitor/list`, 'recent', 10, null);
    const first = await get(url);
    expect(first.status).toBe(200);
    expect(replica.requests.at(-1)).toMatchObject({ path: url, kind: 'api' });
    const served = (JSON.parse(first.body) as NaverReviewsListAnswer).items;
    const truth = replica.naverReviewsTruth(small.id);
    expect(truth).toHaveLength(23);
    expect(served.map((r) => [r.id, r.written])).toEqual(truth.slice(0, 10).map((r) => [r.id, r.writtenText]));
    expect(replica.naverReviewsCount(small.id)).toBe(23);
    expect(replica.naverReviewsCount(none.id)).toBe(0);
    expect(() => replica.naverReviewsCount('99')).toThrow();
    // The switches change how the truth prints its dates.
    replica.setSwitches({ naverReviewsDates: 'year-when-old' });
    expect(replica.naverReviewsTruth(big.id)[0]!.writtenText).toMatch(THIS_YEAR);
    replica.setSwitches({ naverReviewsDates: 'short' });
    // The clock moves on: the same reviews, their dates as they were.
    clock += 400 * DAY;
    expect(replica.naverReviewsTruth(small.id).map((r) => [r.id, r.writtenText])).toEqual(truth.map((r) => [r.id, r.writtenText]));
  });

  it('answers the block page to the page and 429 to the list once blocked', async () => {
    replica.setSwitches({ blockAfter: 0 });
    const page = await get(`/restaurant/${small.id}/review/visitor`);
    expect(page.status).toBe(429);
    expect(page.body).toContain('과도한 접근 요청');
    const list = await get(`/restaurant/${small.id}/review/visitor/list?sort=recent`);
    expect(list.status).toBe(429);
    expect(replica.requests.at(-1)).toMatchObject({ kind: 'api', status: 429 });
    replica.setSwitches({ blockAfter: null });
    expect((await get(`/restaurant/${small.id}/review/visitor/list?sort=recent`)).status).toBe(200);
  });

  it('refuses bad values of every reviews switch', () => {
    const bad: Record<keyof typeof NAVER_REVIEW_CHOICES, unknown> = {
      naverReviewStars: 'half',
      naverReviewsMore: 'pager',
      naverReviewsEnd: 'hidden',
      naverReviewsPage: 15,
      naverReviewsSort: 'menu',
      naverReviewsExpander: 'expand',
      naverReviewsDates: 'relative',
      naverReviewsId: 'attribute',
      naverReviewsReplyHead: 'owner',
      naverReviewsFullDate: 'shown',
    };
    for (const [key, value] of Object.entries(bad)) {
      expect(() => mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, { [key]: value } as Partial<NaverSwitches>)).toThrow(key);
    }
    expect(() => replica.setSwitches({ naverReviewsPage: '10' as unknown as 10 })).toThrow('naverReviewsPage must be one of 10, 20');
    const good = switchesWith({
      naverReviewStars: 'shown',
      naverReviewsMore: 'scroll',
      naverReviewsEnd: 'disabled',
      naverReviewsPage: 20,
      naverReviewsSort: 'absent',
      naverReviewsExpander: 'button',
      naverReviewsDates: 'year-when-old',
      naverReviewsId: 'link',
      naverReviewsReplyHead: 'name',
      naverReviewsFullDate: 'none',
    });
    expect(good).toMatchObject({ naverReviewsPage: 20, naverReviewsMore: 'scroll', naverReviewsId: 'link' });
    expect(DEFAULT_NAVER_SWITCHES).toMatchObject({
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
  });
});
