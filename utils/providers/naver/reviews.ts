/**
 * Naver's visitor reviews as their page shows them (`pcmap.place.naver.com/{type}/{id}/review/visitor`;
 * ../shared/map-pages-spec.md §5, S26; docs/REVIEWS.md): a count ("방문자 리뷰 1,234"), the
 * "이런 점이 좋았어요" tallies, then review items, each with the nickname, the text (long ones cut
 * with a "더보기" inside), keyword chips, the visit ("방문일", "N번째 방문") and its dates; more
 * items come from a "더보기" control below the list, or as the page is scrolled. Visitor reviews
 * carry no stars (a star is read only where a card labels one).
 *
 * Found by what the page says (its Korean words, roles), never by class names. A card is the
 * smallest list item that says "N번째 방문" or "방문일"; the page's own review id is read where an
 * item carries one (a `data-*` attribute naming a review, or a link's `reviewId`). Page text is
 * hostile: what is shown, bounded, never a guess.
 */
import type { ReviewsReader } from '../../content/reviews';
import type { ReviewCard, ReviewsAction, ReviewsView } from '../../messaging/reviews-protocol';

export interface NaverReviewsState {
  /** The first cards when 최신순 was pressed: newest first once the list shows others, never on the press alone. */
  newestPressedOver: string | null;
}

const VISIT_COUNT = /(\d{1,4})번째 방문/;
const VISIT_WORDS = /^방문일$/;
const EXPANDER = /^(더보기|펼쳐보기)$/;
const LOAD_MORE = /^(더보기|펼쳐서 더보기|리뷰 더보기)$/;
const NEWEST = /^최신순$/;
const SORTS = /^(최신순|추천순)$/;
const OWNER = /^(사장님 댓글|사장님 답글|업주 답글|사장님 답변)$/;
const TOTAL = /방문자\s*리뷰\s*([\d,]+)/;
const STAR = /^별점\s*(\d)(?:\.0)?\s*점$/;
/** A date as Naver prints it: "24.3.5.화", "3.5.화", "2024.3.5." (the parser reads it: utils/domain/review-date.ts). */
const DATE = /^(\d{2,4}\.)?\d{1,2}\.\d{1,2}\.?(\s?[월화수목금토일])?$/;
const MAX_TEXT = 20_000;

const clean = (t: string | null | undefined) => (t ?? '').replace(/[\s\u00a0\u200b]+/g, ' ').trim();

function visible(el: Element): boolean {
  const h = el as HTMLElement;
  return !h.hidden && h.getAttribute('aria-hidden') !== 'true' && (h.style?.display ?? '') !== 'none';
}

/** Leaf-most text elements of `root`, outside controls. */
function leaves(root: Element): { el: Element; text: string }[] {
  const out: { el: Element; text: string }[] = [];
  const walk = (el: Element) => {
    if (el.matches('button, [role="button"], script, style')) return;
    const own = Array.from(el.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent ?? '')
      .join('');
    if (clean(own)) out.push({ el, text: clean(el.textContent) });
    else for (const c of Array.from(el.children)) walk(c);
  };
  walk(root);
  return out;
}

/** How many visits an element tells of: its "N번째 방문"s, or else its "방문일"s. */
function visitMarkers(el: Element): number {
  const text = clean(el.textContent);
  const counts = text.match(new RegExp(VISIT_COUNT.source, 'g'))?.length ?? 0;
  return counts > 0 ? counts : (text.match(/방문일/g)?.length ?? 0);
}

/**
 * Every review item: the outermost `li` that tells of exactly one visit (an item's own facts may
 * be a list of their own; the list of reviews tells of many).
 */
export function naverReviewCards(doc: Document): Element[] {
  return Array.from(doc.querySelectorAll('li')).filter((li) => {
    if (visitMarkers(li) !== 1) return false;
    for (let up = li.parentElement?.closest('li'); up; up = up.parentElement?.closest('li')) if (visitMarkers(up) === 1) return false;
    return true;
  });
}

/** The review's own id: an attribute named for it exactly (never a reviewer's, a place's or a user's), or a link's `reviewId`. */
function reviewIdOfItem(card: Element): string | null {
  for (const el of [card, ...Array.from(card.querySelectorAll('*'))]) {
    for (const attr of Array.from(el.attributes)) {
      if (/^data-review-?id$/i.test(attr.name) && attr.value.trim()) return attr.value.trim().slice(0, 200);
    }
  }
  for (const a of Array.from(card.querySelectorAll('a[href]'))) {
    const m = /[?&]reviewId=([^&#]+)/.exec(a.getAttribute('href') ?? '');
    if (m) return decodeURIComponent(m[1]!).slice(0, 200);
  }
  return null;
}

/** The text shown, line breaks kept: only the ends trimmed (a review is kept intact). */
function shown(el: Element | undefined): string {
  return (el?.textContent ?? '').trim();
}

/** The words of a card's own links and controls (share, report, follow…), never the review's text. */
const CONTROL_WORDS = /^(공유|공유하기|신고|신고하기|팔로우|팔로잉|더보기|접기|번역|번역 보기|원문 보기)$/;

/** The reviewer's own counts beside the nickname ("리뷰 12", "사진 3", "팔로워 5"). */
const AUTHOR_STATS = /^(리뷰|사진|팔로워|팔로잉)\s*[\d,]+$/;

/** A full date in words ("2024년 3월 5일 화요일"), which the page may print beside a short one. */
const FULL_DATE = /^\d{4}년 \d{1,2}월 \d{1,2}일/;

/**
 * The owner's reply: the block around its heading (a short text that is exactly the heading),
 * with its date and text; never the card itself.
 */
function ownerBlockOf(card: Element): Element | null {
  const heading = Array.from(card.querySelectorAll('*')).find((el) => el.children.length === 0 && OWNER.test(clean(el.textContent))) ?? headingAfterFacts(card);
  if (!heading) return null;
  for (let el = heading.parentElement; el && el !== card; el = el.parentElement) {
    if (VISIT_COUNT.test(clean(el.textContent))) return null;
    const rest = leaves(el).filter((l) => l.el !== heading && !DATE.test(l.text) && !FULL_DATE.test(l.text));
    if (rest.length > 0) return el;
  }
  return null;
}

/** The smallest element of the card around its one visit marker. */
function factsOf(card: Element): Element | null {
  const marker = leaves(card).find((l) => VISIT_COUNT.test(l.text)) ?? leaves(card).find((l) => VISIT_WORDS.test(l.text));
  let el: Element | null = marker?.el ?? null;
  // Up to the block that holds the visit's dates too (the marker may sit in a row of its own).
  while (el && el !== card && !Array.from(el.querySelectorAll('*')).some((d) => d.children.length === 0 && DATE.test(clean(d.textContent))))
    el = el.parentElement;
  return el && el !== card ? el : null;
}

/**
 * Where the reply is headed by the place's name rather than "사장님 댓글" (a 2026 fixture): the first
 * text after the visit's facts that is followed, in its own row, by a date. The review's own text
 * and chips come before the facts, so nothing after them is the review's.
 */
function headingAfterFacts(card: Element): Element | null {
  const all = leaves(card);
  const factsAt = all.findIndex((l) => VISIT_COUNT.test(l.text));
  if (factsAt < 0) return null;
  let facts: Element | null = all[factsAt]!.el;
  while (facts && facts !== card && !clean(facts.textContent).includes('방문일')) facts = facts.parentElement;
  const after = all.filter(
    (l) => facts && facts !== card && !facts.contains(l.el) && (facts.compareDocumentPosition(l.el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
  );
  const first = after[0];
  if (!first || DATE.test(first.text) || FULL_DATE.test(first.text)) return null;
  const row = first.el.parentElement;
  return row && leaves(row).some((l) => DATE.test(l.text)) ? first.el : null;
}

/**
 * The keywords the page lists in its "이런 점이 좋았어요" tallies: each item's first text. Empty
 * when the page shows none (then no chip is told from a short review text).
 */
export function naverKeywords(doc: Document): Set<string> {
  const heading = Array.from(doc.querySelectorAll('h2, h3, strong, span, div')).find(
    (el) => el.children.length === 0 && clean(el.textContent) === '이런 점이 좋았어요',
  );
  let section: Element | null = heading?.parentElement ?? null;
  while (section && section.querySelectorAll('li').length === 0) section = section.parentElement;
  const out = new Set<string>();
  for (const li of Array.from(section?.querySelectorAll('li') ?? [])) {
    // Printed in quotes ("음식이 맛있어요"), as the cards' chips are not.
    const first = leaves(li)[0]?.text.replace(/^["“”'‘’]+|["“”'‘’]+$/g, '');
    if (first && first.length <= 40) out.add(first);
  }
  return out;
}

export function readNaverCard(card: Element, keywords: ReadonlySet<string> = new Set()): ReviewCard {
  const ownerBlock = ownerBlockOf(card);
  const inOwner = (el: Element) => !!ownerBlock && ownerBlock.contains(el);
  const all = leaves(card);
  const own = all.filter((l) => !inOwner(l.el));
  const author = own[0]?.text ?? '';
  // The visit's facts ("방문일", "N번째 방문", how it was verified, "작성일"): one block, the smallest
  // around the one "N번째 방문" (or "방문일") the item tells of. Its dates are read there only: the
  // review's own text, before it, may look like a date or begin with "방문일".
  const facts = factsOf(card);
  const inFacts = (el: Element) => !!facts && facts.contains(el);
  const factLeaves = own.filter((l) => inFacts(l.el));
  const labelAt = factLeaves.findIndex((l) => VISIT_WORDS.test(l.text) || /^방문일\s/.test(l.text));
  const labelled = labelAt < 0 ? null : factLeaves[labelAt]!;
  const visitLeaf = !labelled ? null : /^방문일\s/.test(labelled.text) ? labelled : (factLeaves.slice(labelAt + 1).find((l) => DATE.test(l.text)) ?? null);
  const visitSaid = visitLeaf ? visitLeaf.text.replace(/^방문일\s*/, '') : null;
  const written = factLeaves.find((l) => DATE.test(l.text) && l !== visitLeaf) ?? null;
  const count = facts ? VISIT_COUNT.exec(clean(facts.textContent)) : null;
  // Chips: the page's own keywords ("음식이 맛있어요", listed in its "이런 점이 좋았어요" tallies), or
  // short phrases standing together (a group of two or more); never the review's text.
  const grouped = (l: { el: Element }) => {
    const siblings = own.filter((o) => o.el.parentElement === l.el.parentElement);
    return siblings.length >= 2 && siblings.every((o) => /요$/.test(o.text) && o.text.length <= 20);
  };
  const chips = own.filter((l) => l !== own[0] && !inFacts(l.el) && (keywords.has(l.text) || grouped(l)));
  const body = own
    .filter(
      (l) =>
        l !== visitLeaf &&
        l !== written &&
        l !== own[0] &&
        !inFacts(l.el) &&
        !AUTHOR_STATS.test(l.text) &&
        // A link's words (share, report) are not the text; the same words as text are.
        !(CONTROL_WORDS.test(l.text) && l.el.closest('a') !== null) &&
        !VISIT_COUNT.test(l.text) &&
        !VISIT_WORDS.test(l.text) &&
        !FULL_DATE.test(l.text) &&
        !chips.includes(l),
    )
    .sort((a, b) => b.text.length - a.text.length)[0];
  const expander = Array.from(card.querySelectorAll('button, [role="button"], a'))
    .filter(visible)
    .find((b) => !inOwner(b) && EXPANDER.test(clean(b.textContent)) && b.getAttribute('aria-expanded') !== 'true');
  let ownerReply: ReviewCard['ownerReply'] = null;
  if (ownerBlock) {
    // The heading (its words, or the place's name) is not the reply.
    const inBlock = leaves(ownerBlock);
    const head = inBlock[0]?.el;
    const parts = inBlock.filter((l) => l.el !== head && !FULL_DATE.test(l.text));
    const date = parts.find((l) => DATE.test(l.text));
    ownerReply = {
      text: parts
        .filter((l) => l !== date)
        .map((l) => shown(l.el))
        .join('\n')
        .slice(0, MAX_TEXT),
      dateSaid: date?.text ?? null,
    };
  }
  const starEl = Array.from(card.querySelectorAll('[aria-label]')).find((el) => STAR.test(el.getAttribute('aria-label') ?? ''));
  const star = starEl ? Number(STAR.exec(starEl.getAttribute('aria-label') ?? '')![1]) : null;
  return {
    id: reviewIdOfItem(card),
    author: author.slice(0, 200),
    rating: star && star >= 1 && star <= 5 ? star : null,
    dateSaid: written?.text ?? visitSaid,
    text: shown(body?.el).slice(0, MAX_TEXT),
    collapsed: !!expander,
    translation: null,
    ownerReply,
    photos: card.querySelectorAll('img').length,
    lang: null,
    visit: { dateSaid: visitSaid, count: count ? Number(count[1]) : null, tags: chips.map((c) => c.text) },
    writtenSaid: written?.text ?? null,
  };
}

function signature(cards: readonly Element[]): string {
  return cards
    .slice(0, 3)
    .map((c) => clean(c.textContent).slice(0, 80))
    .join('\n');
}

function sortControls(doc: Document): Element[] {
  return Array.from(doc.querySelectorAll('button, [role="button"], [role="tab"], [role="radio"], a')).filter(
    (el) => visible(el) && SORTS.test(clean(el.textContent)),
  );
}

/** The load-more control below the list: after its last card (never a card's own expander, nor another section's 더보기). */
function loadMore(doc: Document, cards: readonly Element[]): Element | null {
  const last = cards.at(-1);
  if (!last) return null;
  const after = Array.from(doc.querySelectorAll('button, [role="button"], a')).filter(
    (el) =>
      visible(el) &&
      LOAD_MORE.test(clean(el.textContent)) &&
      !cards.some((c) => c.contains(el)) &&
      (last.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
  );
  return after[0] ?? null;
}

const selected = (el: Element) =>
  el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-current') === 'true';

export function readNaverReviews(doc: Document, state: NaverReviewsState): ReviewsView {
  const cards = naverReviewCards(doc);
  const keywords = naverKeywords(doc);
  const total = TOTAL.exec(clean(doc.body?.textContent));
  const sorts = sortControls(doc);
  const newestControl = sorts.find((s) => NEWEST.test(clean(s.textContent)));
  const pressed = state.newestPressedOver;
  const newest = pressed === null ? !!newestControl && selected(newestControl) : cards.length > 0 && signature(cards) !== pressed;
  const more = loadMore(doc, cards);
  const disabled = !!more && (more.hasAttribute('disabled') || more.getAttribute('aria-disabled') === 'true');
  return {
    page: cards.length > 0 || total ? 'reviews' : 'unknown',
    order: sorts.length === 0 ? 'none' : newest ? 'newest' : 'other',
    sortChoiceShown: !!newestControl,
    cards: cards.map((c) => readNaverCard(c, keywords)),
    total: total ? Number(total[1]!.replace(/,/g, '')) : null,
    loading: Array.from(doc.querySelectorAll('[role="progressbar"], [aria-busy="true"]')).some(visible),
    // A load-more control the page disabled says the list ended; one merely absent says nothing.
    endShown: disabled,
  };
}

export function actOnNaverReviews(doc: Document, action: ReviewsAction, state: NaverReviewsState): boolean {
  const cards = naverReviewCards(doc);
  switch (action) {
    case 'look':
    case 'open':
      return false;
    case 'sort-newest': {
      const newest = sortControls(doc).find((s) => NEWEST.test(clean(s.textContent)));
      if (!newest) return false;
      state.newestPressedOver = signature(cards);
      (newest as HTMLElement).click();
      return true;
    }
    case 'expand': {
      let pressed = false;
      for (const card of cards) {
        const b = Array.from(card.querySelectorAll('button, [role="button"], a')).find(
          (e) => visible(e) && EXPANDER.test(clean(e.textContent)) && e.getAttribute('aria-expanded') !== 'true',
        );
        if (b) {
          (b as HTMLElement).click();
          pressed = true;
        }
      }
      return pressed;
    }
    case 'more': {
      const more = loadMore(doc, cards);
      if (more && !more.hasAttribute('disabled') && more.getAttribute('aria-disabled') !== 'true') {
        (more as HTMLElement).click();
        return true;
      }
      // No control: the list grows as the page is scrolled.
      const last = cards.at(-1) as HTMLElement | undefined;
      if (!last) return false;
      last.scrollIntoView({ block: 'end' });
      doc.defaultView?.scrollTo(0, doc.documentElement.scrollHeight);
      doc.defaultView?.dispatchEvent(new Event('scroll'));
      return true;
    }
  }
}

export const NAVER_REVIEWS: ReviewsReader<NaverReviewsState> = {
  newState: () => ({ newestPressedOver: null }),
  read: readNaverReviews,
  act: actOnNaverReviews,
};
