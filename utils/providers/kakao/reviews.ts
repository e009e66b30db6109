/**
 * Kakao's place reviews as the place page shows them (`place.map.kakao.com/{confirmid}`, its 후기
 * tab; naver-kakao-notes B5; docs/REVIEWS.md). The page's markup is in no source [?]; what is
 * known is the answer it fetches for the tab and for each "더보기" (kakao/reviews-answer.ts):
 * the reviews with their ids, stars, dates and whole texts, and `has_next`.
 *
 * So the reviews are read from the page's own answers (copied by kakao/reviews-hook.ts), each taken
 * only when the browser's resource timing shows the page made that request, and each review only
 * once the page shows its text: a copy the page never rendered is not what the page showed. The
 * list ends only where the page's last answer said no more follow, every answer of the list was
 * read whole and every review in it is on the page. Controls are found by what they say (후기,
 * 최신순, 더보기), never by class names.
 */
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
  /** Whether the browser's resource timing shows the page requested exactly `url`. */
  requested(url: string): boolean;
}

export interface KakaoReviewsState {
  /** The first answer (index into the place's answers) of the list the page shows now. */
  listStart: number;
  /** How many answers there were when 최신순 was pressed: the next answer starts the new list. */
  pressedAt: number | null;
  /** When it was pressed (ms): a press the page has not answered yet is the list loading, for a while. */
  pressedTime: number;
  /** Reviews already seen on the page (their text is not looked for again). */
  shown: Set<string>;
}

const TAB = /^(후기|리뷰)(\s*[\d,]+)?$/;
const NEWEST = /^최신순$/;
const SORTS = /^(최신순|추천순|평점\s*높은순|평점\s*낮은순|별점\s*높은순|별점\s*낮은순)$/;
const LOAD_MORE = /^(후기 더보기|리뷰 더보기|더보기)$/;
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

/** The answers the page received for this place's reviews, and its requests still unanswered. */
function exchanges(source: KakaoReviewsSource, placeId: string): { answers: (KakaoReviewsAnswer | null)[]; pending: number } {
  const open = new Map<string, number>();
  const answers: (KakaoReviewsAnswer | null)[] = [];
  for (const m of source.messages()) {
    if (kakaoReviewsRequestPlace(m.url) !== placeId) continue;
    if (m.phase === 'start') {
      open.set(m.url, (open.get(m.url) ?? 0) + 1);
      continue;
    }
    const n = open.get(m.url) ?? 0;
    if (n > 0) open.set(m.url, n - 1);
    // A copy of a request the page never made is someone else's message.
    if (!source.requested(m.url)) continue;
    // An answer that could not be read stays in the list as a gap: it proves nothing, and blocks the proof.
    answers.push(readKakaoReviewsAnswer(m.url, m.status, m.body));
  }
  let pending = 0;
  for (const n of open.values()) pending += n;
  return { answers, pending };
}

/** The list's reviews in the page's order, each once, up to the first the page does not show yet. */
function shownCards(doc: Document, list: readonly (KakaoReviewsAnswer | null)[], state: KakaoReviewsState): { cards: ReviewCard[]; all: number } {
  const seen = new Set<string>();
  const all: ReviewCard[] = [];
  for (const a of list) for (const c of a?.cards ?? []) if (c.id && !seen.has(c.id) && seen.add(c.id)) all.push(c);
  let page: string | null = null;
  const cards: ReviewCard[] = [];
  for (const c of all) {
    const want = squeezed(c.text).slice(0, PREFIX);
    if (want && !state.shown.has(c.id!)) {
      page ??= squeezed(visibleText(doc.body, MAX_PAGE_TEXT));
      if (!page.includes(want)) break;
    }
    state.shown.add(c.id!);
    cards.push(c);
  }
  return { cards, all: all.length };
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
    const list = answers.slice(state.listStart);
    const sorts = controls(doc, SORTS);
    const newestControl = sorts.find((s) => NEWEST.test(clean(s.textContent)) || NEWEST.test(clean(s.getAttribute('aria-label'))));
    if (list.length === 0) return { ...none, page: pending > 0 ? 'reviews' : 'place', loading: pending > 0, sortChoiceShown: !!newestControl };
    const { cards, all } = shownCards(doc, list, state);
    const last = list.at(-1);
    // The order the page asked its answers in; where its requests do not say, what its control shows.
    const asked = last?.order ?? null;
    // A press the page has not answered: the list shown is still the old one, whatever the control says now.
    const unanswered = state.pressedAt !== null;
    const order: ReviewsView['order'] = unanswered
      ? 'other'
      : asked !== null
        ? asked === 'LATEST'
          ? 'newest'
          : 'other'
        : newestControl && selected(newestControl)
          ? 'newest'
          : sorts.length > 0
            ? 'other'
            : 'none';
    return {
      page: 'reviews',
      order,
      sortChoiceShown: !!newestControl,
      cards,
      total: null,
      loading: pending > 0 || (unanswered && now() - state.pressedTime < PRESS_ANSWER_MS),
      endShown: !!last && last.hasNext === false && list.every((a) => a?.complete) && cards.length === all,
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
        const view = read(doc, state);
        const lastText = view.cards.at(-1)?.text ?? '';
        const anchor = lastText ? elementShowing(doc, lastText) : null;
        const item = anchor?.closest('li, article') ?? anchor;
        const more = controls(doc, LOAD_MORE).find(
          (el) => !disabled(el) && (!item || (!item.contains(el) && (item.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0)),
        ) as HTMLElement | undefined;
        if (more) {
          more.click();
          return true;
        }
        // No control: the list grows as the page is scrolled.
        (anchor as HTMLElement | null)?.scrollIntoView?.({ block: 'end' });
        doc.defaultView?.scrollTo(0, doc.documentElement.scrollHeight);
        doc.defaultView?.dispatchEvent(new Event('scroll'));
        return true;
      }
    }
  };

  return { newState: () => ({ listStart: 0, pressedAt: null, pressedTime: 0, shown: new Set() }), read, act };
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
