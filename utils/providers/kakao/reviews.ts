/**
 * Kakao's place reviews as the place page shows them (`place.map.kakao.com/{confirmid}`, its 후기
 * tab; naver-kakao-notes B5; docs/REVIEWS.md). The page's markup is in no source [?]; what is
 * known is the answer it fetches for the tab and for each "더보기" (kakao/reviews-answer.ts):
 * the reviews with their ids, stars, dates and whole texts, and `has_next`.
 *
 * So the reviews are read from the page's own answers (copied by kakao/reviews-hook.ts), each taken
 * only for a request the browser's resource timing shows the page made, no more copies of a URL
 * than the page made requests for it (a page script replaying one makes all of them doubtful),
 * and each review only once the page shows its text, in the list's order: a copy the page never
 * rendered is not what the page showed. A list is the answers asked for one order (an answer for
 * another starts a new one). It ends only where its last answer said no more follow, every
 * answer of it was read whole, every review in it is on the page, and the page offers no list
 * "더보기" after them. Controls are found by what they say (후기,
 * 최신순, 더보기), never by class names.
 */
import { paramNames } from '../../net/url-params';
import type { ReviewsReader } from '../../content/reviews';
import type { ReviewCard, ReviewsAction, ReviewsView } from '../../messaging/reviews-protocol';
import { visibleText } from '../visible-text';
import { confirmIdFromPlaceUrl } from './ids';
import { type KakaoReviewsAnswer, readKakaoReviewsAnswer } from './reviews-answer';
import { kakaoReviewsRequestPlace, type KakaoReviewsHookMessage } from './reviews-hook';

/** What the content script gives the reader: the hook's copies, and the page's own requests. */
export interface KakaoReviewsSource {
  /** Every copy taken from this window, in arrival order. */
  messages(): readonly KakaoReviewsHookMessage[];
  /** How many requests for exactly `url` the browser's resource timing shows the page made. */
  requestCount(url: string): number;
}

export interface KakaoReviewsState {
  /** The first answer (index into the place's answers) of the list the page shows now. */
  listStart: number;
  /** How many answers there were when 최신순 was pressed: the next answer starts the new list. */
  pressedAt: number | null;
  /** When it was pressed (ms): a press the page has not answered yet is the list loading, for a while. */
  pressedTime: number;
}

const TAB = /^(후기|리뷰)(\s*[\d,]+)?$/;
const NEWEST = /^최신순$/;
const SORTS = /^(최신순|추천순|평점\s*높은순|평점\s*낮은순|별점\s*높은순|별점\s*낮은순)$/;
const LOAD_MORE = /^(후기 더보기|리뷰 더보기|더보기)$/;
/** The list's own control says whose list it is; a bare "더보기" may be anything's. */
const LIST_MORE = /^(후기 더보기|리뷰 더보기)$/;
/**
 * The request parameters that say which list an answer belongs to (its order, its filter), as
 * far as the known requests show them; the others (the paging key, unknown [~]) only say where.
 */
const LIST_PARAMS = ['order', 'sort', 'sort_type', 'sortType', 'only_photo_review', 'onlyPhotoReview'];
/** How long a press of 최신순 counts as the list loading while the page has not answered it. */
const PRESS_ANSWER_MS = 5_000;
/** Characters of a text looked for on the page: enough to tell reviews apart, short enough to be shown uncut. */
const PREFIX = 30;
/** A place's reviews page is long; its shown text is read up to this. */
const MAX_PAGE_TEXT = 5_000_000;

const clean = (t: string | null | undefined) => (t ?? '').replace(/[\s\u00a0\u200b]+/g, ' ').trim();
/** Text compared without any white space: a page may break a text into lines and elements anywhere. */
const squeezed = (t: string) => t.replace(/[\s\u00a0\u200b]+/g, '');

function visible(el: Element): boolean {
  const h = el as HTMLElement;
  return !h.hidden && h.getAttribute('aria-hidden') !== 'true' && (h.style?.display ?? '') !== 'none' && !h.closest('[hidden], [aria-hidden="true"]');
}

function controls(doc: Document, words: RegExp): Element[] {
  return Array.from(doc.querySelectorAll('button, a, [role="button"], [role="tab"], [role="radio"], [role="option"]')).filter(
    (el) => visible(el) && (words.test(clean(el.textContent)) || words.test(clean(el.getAttribute('aria-label')))),
  );
}

const selected = (el: Element) =>
  ['aria-selected', 'aria-checked', 'aria-pressed', 'aria-current'].some(
    (a) => el.getAttribute(a) === 'true' || (a === 'aria-current' && el.getAttribute(a) === 'page'),
  );

const disabled = (el: Element) => el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true';

/** One answer of the place's list: its request's URL, and what it said (null: it could not be read, or its copy is doubtful). */
interface Exchange {
  url: string;
  answer: KakaoReviewsAnswer | null;
}

/** Which list a request is for: its list parameters as it sent them. */
function listOf(url: string): string {
  try {
    const q = new URL(url).searchParams;
    return LIST_PARAMS.map((k) => `${k}=${q.get(k) ?? ''}`).join('&');
  } catch {
    return '';
  }
}

/** A request that says which list and nothing of where in it (no parameter but the list's own). */
function isFirstPage(url: string): boolean {
  try {
    return paramNames(new URL(url).searchParams).every((k) => LIST_PARAMS.includes(k));
  } catch {
    return false;
  }
}

/** The answers the page received for this place's reviews, and its requests still unanswered. */
function exchanges(source: KakaoReviewsSource, placeId: string): { answers: Exchange[]; pending: number } {
  const open = new Map<string, number>();
  const ends = new Map<string, number>();
  const mine = source.messages().filter((m) => kakaoReviewsRequestPlace(m.url) === placeId);
  // A failed request (no status) is no answer: the page shows nothing of it and asks again.
  for (const m of mine) if (m.phase === 'end' && m.status !== null) ends.set(m.url, (ends.get(m.url) ?? 0) + 1);
  const answers: Exchange[] = [];
  for (const m of mine) {
    if (m.phase === 'start') {
      open.set(m.url, (open.get(m.url) ?? 0) + 1);
      continue;
    }
    const n = open.get(m.url) ?? 0;
    if (n > 0) open.set(m.url, n - 1);
    if (m.status === null) continue;
    const made = source.requestCount(m.url);
    // A copy of a request the page never made is someone else's message.
    if (made === 0) continue;
    // More copies than requests: one of them is someone else's, and which cannot be told.
    const doubtful = (ends.get(m.url) ?? 0) > made;
    // An answer that could not be read stays in the list as a gap: it proves nothing, and blocks the proof.
    answers.push({ url: m.url, answer: doubtful ? null : readKakaoReviewsAnswer(m.url, m.status, m.body) });
  }
  let pending = 0;
  for (const n of open.values()) pending += n;
  return { answers, pending };
}

/**
 * The list's reviews in the page's order, each once, up to the first gap in its answers and the
 * first review the page does not show yet: each text is looked for after the one before it (a
 * short text repeated is found once per review). `all`: the reviews its answers hold in all.
 */
function shownCards(doc: Document, list: readonly Exchange[]): { cards: ReviewCard[]; all: number } {
  const seen = new Set<string>();
  const all: ReviewCard[] = [];
  for (const { answer } of list) {
    // A gap (an answer unread, doubtful or incomplete): nothing after it is where the list says it
    // is, so the list read stops there, whatever ending (limit, known, since) the judge would take.
    if (!answer?.complete) break;
    for (const c of answer.cards) if (c.id && !seen.has(c.id) && seen.add(c.id)) all.push(c);
  }
  let page: string | null = null;
  let from = 0;
  const cards: ReviewCard[] = [];
  for (const c of all) {
    const want = squeezed(c.text).slice(0, PREFIX);
    if (want) {
      page ??= squeezed(visibleText(doc.body, MAX_PAGE_TEXT));
      const at = page.indexOf(want, from);
      if (at < 0) break;
      from = at + want.length;
    }
    cards.push(c);
  }
  const every = new Set(list.flatMap(({ answer }) => (answer?.cards ?? []).map((c) => c.id)));
  return { cards, all: every.size };
}

/** The innermost element whose shown text holds the start of `text`. */
function elementShowing(doc: Document, text: string): Element | null {
  const want = squeezed(text).slice(0, PREFIX);
  let found: Element | null = null;
  const walk = (el: Element) => {
    for (const child of Array.from(el.children)) {
      if (squeezed(child.textContent ?? '').includes(want)) {
        found = child;
        walk(child);
        return;
      }
    }
  };
  if (doc.body && want) walk(doc.body);
  return found;
}

/**
 * The list's own load-more control: after the last review with a text, outside every list item
 * (a review's own "더보기" opens its text), "후기 더보기" before a bare "더보기". Null when there is none.
 */
function listMore(doc: Document, cards: readonly ReviewCard[]): Element | null {
  const lastText = [...cards].reverse().find((c) => c.text)?.text;
  const anchor = lastText ? elementShowing(doc, lastText) : null;
  const candidates = controls(doc, LOAD_MORE).filter(
    (el) => !disabled(el) && !el.closest('li, article') && (!anchor || (anchor.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0),
  );
  const own = candidates.find((el) => LIST_MORE.test(clean(el.textContent)) || LIST_MORE.test(clean(el.getAttribute('aria-label'))));
  // Without a review's text to stand after, a bare "더보기" could be anything's: only the list's own words count.
  return own ?? (anchor ? (candidates[0] ?? null) : null);
}

export function createKakaoReviews(source: KakaoReviewsSource, now: () => number = Date.now): ReviewsReader<KakaoReviewsState> {
  const read = (doc: Document, state: KakaoReviewsState): ReviewsView => {
    const placeId = confirmIdFromPlaceUrl(doc.location?.href);
    const none: ReviewsView = { page: 'unknown', order: 'none', sortChoiceShown: false, cards: [], total: null, loading: false, endShown: false };
    if (!placeId) return none;
    const { answers, pending } = exchanges(source, placeId);
    if (state.pressedAt !== null && answers.length > state.pressedAt) {
      state.listStart = state.pressedAt;
      state.pressedAt = null;
    }
    // An answer asked for another list than the one before it (its order changed) starts a list,
    // when it is a first page (it says no more than which list); a next page of another list is a gap.
    for (let i = Math.max(1, state.listStart + 1); i < answers.length; i++) {
      if (listOf(answers[i]!.url) === listOf(answers[i - 1]!.url)) continue;
      if (isFirstPage(answers[i]!.url)) state.listStart = i;
      else answers[i] = { url: answers[i]!.url, answer: null };
    }
    const list = answers.slice(state.listStart);
    const sorts = controls(doc, SORTS);
    const newestControl = sorts.find((s) => NEWEST.test(clean(s.textContent)) || NEWEST.test(clean(s.getAttribute('aria-label'))));
    if (list.length === 0) return { ...none, page: pending > 0 ? 'reviews' : 'place', loading: pending > 0, sortChoiceShown: !!newestControl };
    const { cards, all } = shownCards(doc, list);
    const orders = list.map((e) => e.answer?.order ?? null);
    // A press the page has not answered: the list shown is still the old one, whatever the control says now.
    const unanswered = state.pressedAt !== null;
    let order: ReviewsView['order'];
    if (unanswered) order = 'other';
    else if (orders.some((o) => o !== null)) order = orders.every((o) => o === 'LATEST') ? 'newest' : 'other';
    else order = newestControl && selected(newestControl) ? 'newest' : sorts.length > 0 ? 'other' : 'none';
    const last = list.at(-1)?.answer;
    const whole = list.every((e) => e.answer?.complete === true);
    return {
      page: 'reviews',
      order,
      sortChoiceShown: !!newestControl,
      cards,
      total: null,
      loading: pending > 0 || (unanswered && now() - state.pressedTime < PRESS_ANSWER_MS),
      // The page agrees: no list "더보기" is left after the reviews.
      endShown: !!last && last.hasNext === false && whole && cards.length === all && !listMore(doc, cards),
    };
  };

  const act = (doc: Document, action: ReviewsAction, state: KakaoReviewsState): boolean => {
    switch (action) {
      case 'look':
      case 'expand':
        // The answers carry whole texts: there is nothing to open.
        return false;
      case 'open': {
        const tab = controls(doc, TAB)[0] as HTMLElement | undefined;
        tab?.click();
        return !!tab;
      }
      case 'sort-newest': {
        const newest = controls(doc, NEWEST)[0] as HTMLElement | undefined;
        if (!newest) return false;
        const placeId = confirmIdFromPlaceUrl(doc.location?.href);
        state.pressedAt = placeId ? exchanges(source, placeId).answers.length : 0;
        state.pressedTime = now();
        newest.click();
        return true;
      }
      case 'more': {
        // Reading on: a press the page never answered is given up, the list shown is the one read on.
        state.pressedAt = null;
        const more = listMore(doc, read(doc, state).cards) as HTMLElement | null;
        if (more) {
          more.click();
          return true;
        }
        // No control: the list grows as the page is scrolled.
        doc.defaultView?.scrollTo(0, doc.documentElement.scrollHeight);
        doc.defaultView?.dispatchEvent(new Event('scroll'));
        return true;
      }
    }
  };

  return { newState: () => ({ listStart: 0, pressedAt: null, pressedTime: 0 }), read, act };
}
