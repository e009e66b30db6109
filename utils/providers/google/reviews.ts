/**
 * Google's reviews as the place page shows them (../shared/map-pages-spec.md §5; docs/REVIEWS.md):
 * a Reviews tab, a sort control, review cards loaded in lazy batches as the list is scrolled, a
 * "More" expander on long texts, a "See original" toggle on translated ones. The signed-out
 * limited view has no Reviews tab and at most 5 reviews.
 *
 * Found by what the page says to people (roles, labels, the words on its controls), never by
 * class names, which rotate: a card is the smallest element around one star rating
 * ("4 stars") among its siblings; the page's own review id is read where it carries one
 * (`data-review-id`, on the card or inside it); the rating histogram by its rows' labels ("5
 * stars, 1,234 reviews"). Page text is hostile: every reader returns what is shown, bounded, and
 * never a guess.
 */
import type { RatingDistribution } from '../../domain/review';
import type { ReviewCard, ReviewsAction, ReviewsView } from '../../messaging/reviews-protocol';
import type { ReviewsReader } from '../../content/reviews';
import { cleanText } from './labels';

/** What the content script remembers of one document between steps. */
export interface GoogleReviewsState {
  /**
   * The list's first cards when Newest was pressed: the order is newest first once the list shows
   * other cards than these (it re-rendered after the press), never on the press alone.
   */
  newestPressedOver: string | null;
  /** The translation a card showed before its original was asked for. */
  translations: WeakMap<Element, string>;
}

export const newGoogleReviewsState = (): GoogleReviewsState => ({ newestPressedOver: null, translations: new WeakMap() });

const TAB_NAME = /^(reviews?|리뷰|avis|reseñas|rezensionen|recensioni|クチコミ)\b/i;
const SORT_NAME = /^(sort|정렬|trier|ordenar|sortieren|ordina|並べ替え)/i;
const NEWEST = /^(newest|최신순|plus récents|más recientes|neueste|più recenti|新しい順)$/i;
const MORE = /^(more|see more|read more|자세히|더보기|plus|más|mehr|altro|もっと見る)$/i;
const SEE_ORIGINAL = /^(see original|원문 보기|voir l'original|ver original|original anzeigen|visualizza originale|原文を表示)/i;
/** The owner's reply's heading, as a short text of its own (a review may begin with the same words). */
const OWNER =
  /^(response from the owner|소유자 답변|réponse du propriétaire|respuesta del propietario|antwort vom inhaber|risposta del proprietario|オーナーからの返信)$/i;
/** The list's end sentence, as a text of its own outside every card (a review may quote it). */
const END = /^(you['’]ve reached the end of the reviews\.?|리뷰의 끝에 도달했습니다\.?)$/i;
/** A card's stars: "4 stars", "1 star", "별표 4개", "4 étoiles"; not the summary's "5 stars, 812 reviews". */
const STARS = /^\s*(\d)(?:[.,]0)?\s*(?:stars?|étoiles?|estrellas?|sterne?|stelle|つ星)\s*$|^\s*별표\s*(\d)\s*개\s*$/i;
/** The count the page says ("1,234 reviews", "리뷰 1,234개"). */
const TOTAL = /^\s*([\d,.\s]+)\s*(?:reviews?|avis|reseñas|rezensionen|recensioni|件のクチコミ)\s*$|^\s*리뷰\s*([\d,.]+)\s*개\s*$/i;
/**
 * One row of the rating histogram, as its label words it: "5 stars, 1,234 reviews", "1 star, 0
 * reviews", "별표 5개, 리뷰 1,234개": a star count and a review count joined by a comma. A card's
 * stars ("5 stars") and the summary's count ("1,234 reviews") are each only one of the two.
 */
const HISTOGRAM_ROW =
  /^\s*(?:(\d)\s*(?:stars?|étoiles?|estrellas?|sterne?|stelle|つ星)|별표\s*(\d)\s*개)\s*[,，、]\s*(?:(\d[\d,.\s]*?)\s*(?:reviews?|avis|reseñas|rezensionen|recensioni|件のクチコミ)|리뷰\s*(\d[\d,.]*)\s*개)\s*$/i;
/** A photo of the review ("Photo 1 on Mina's review"); not the reviewer's own picture ("Photo of Mina"). */
const PHOTO = /^(photo \d+ on\b|사진 \d+|foto \d+)/i;
const MAX_TEXT = 20_000;

function nameOf(el: Element): string {
  return cleanText(el.getAttribute('aria-label') || el.textContent);
}

function visible(el: Element): boolean {
  const h = el as HTMLElement;
  return !h.hidden && h.getAttribute('aria-hidden') !== 'true' && (h.style?.display ?? '') !== 'none';
}

function controls(root: ParentNode): Element[] {
  return Array.from(root.querySelectorAll('button, [role="button"], [role="tab"], [role="menuitemradio"], [role="radio"], a[role="link"]')).filter(visible);
}

function reviewsTab(doc: Document): Element | null {
  return Array.from(doc.querySelectorAll('[role="tab"]')).find((t) => visible(t) && TAB_NAME.test(nameOf(t))) ?? null;
}

function starsOf(el: Element): number | null {
  const m = STARS.exec(el.getAttribute('aria-label') ?? '');
  const n = m ? Number(m[1] ?? m[2]) : Number.NaN;
  return n >= 1 && n <= 5 ? n : null;
}

/**
 * Every card: the smallest element around one card star rating whose parent holds another (or is
 * the list). Never the place's summary: its average reads as a card's stars when it is whole
 * ("4.0 stars"), and the element around it holds the histogram's rows, which no card does.
 */
export function reviewCards(doc: Document): Element[] {
  const stars = Array.from(doc.querySelectorAll('[role="img"][aria-label]')).filter((s) => starsOf(s) !== null);
  const cards: Element[] = [];
  for (const star of stars) {
    let card: Element = star;
    while (card.parentElement && countStars(card.parentElement) === 1 && card.parentElement !== doc.body) card = card.parentElement;
    if (!cards.includes(card) && !holdsHistogramRow(card)) cards.push(card);
  }
  return cards;
}

function holdsHistogramRow(el: Element): boolean {
  return Array.from(el.querySelectorAll('[role="img"][aria-label]')).some((row) => {
    const label = row.getAttribute('aria-label') ?? '';
    return label.length <= 80 && HISTOGRAM_ROW.test(label);
  });
}

/** The first cards' identities: a list re-rendered in another order shows others. */
function cardsSignature(cards: readonly Element[]): string {
  return cards
    .slice(0, 3)
    .map(
      (c) =>
        (c.getAttribute('data-review-id') ?? c.querySelector('[data-review-id]')?.getAttribute('data-review-id') ?? '') + cleanText(c.textContent).slice(0, 80),
    )
    .join('\n');
}

function countStars(el: Element): number {
  return Array.from(el.querySelectorAll('[role="img"][aria-label]')).filter((s) => starsOf(s) !== null).length;
}

/**
 * The owner's reply: the block around its heading (a short text that is exactly the heading),
 * with the reply's date and text; never the card itself.
 */
function ownerBlock(card: Element): Element | null {
  const heading = Array.from(card.querySelectorAll('span, div, h3, h4, p')).find((el) => el.children.length === 0 && OWNER.test(cleanText(el.textContent)));
  if (!heading) return null;
  const headingText = cleanText(heading.textContent);
  for (let el = heading.parentElement; el && el !== card; el = el.parentElement) {
    if (el.contains(card.querySelector('[role="img"][aria-label]'))) return null;
    // The smallest block with more than the heading and its date: the reply's text is in it.
    const rest = textLeaves(el, isControl).filter((l) => l.text !== headingText && !DATE_WORDS.test(l.text));
    if (rest.length > 0) return el;
  }
  return null;
}

/** Leaf-most text elements of `root` outside `skip`, with their text. */
function textLeaves(root: Element, skip: (el: Element) => boolean): { el: Element; text: string }[] {
  const out: { el: Element; text: string }[] = [];
  const walk = (el: Element) => {
    if (skip(el)) return;
    const own = Array.from(el.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent ?? '')
      .join('');
    if (cleanText(own)) out.push({ el, text: cleanText(el.textContent) });
    else for (const c of Array.from(el.children)) walk(c);
  };
  walk(root);
  return out;
}

function isControl(el: Element): boolean {
  return el.matches('button, [role="button"], [role="img"], a, [role="link"]');
}

const DATE_WORDS =
  /(\bago$|전$|^(yesterday|today|어제|오늘)$|^\d{2,4}[.\-/]\s?\d{1,2}[.\-/]\s?\d{1,2}\.?$|^[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}$|^(edited|수정됨?)\s)/i;

export function readCard(card: Element, state: GoogleReviewsState): ReviewCard {
  const owner = ownerBlock(card);
  const inOwner = (el: Element) => !!owner && owner.contains(el);
  const leaves = textLeaves(card, (el) => isControl(el) || (!!owner && el === owner));
  const author = cleanText(card.getAttribute('aria-label')) || (leaves[0]?.text ?? '');
  const dateLeaf = leaves.find((l) => DATE_WORDS.test(l.text));
  // The review's own text: its longest text that is neither the author, the date, nor a line
  // around a control ("Translated by Google · See original" holds its toggle).
  const body = leaves
    .filter((l) => l !== dateLeaf && l.text !== author && !inOwner(l.el) && !l.el.querySelector('button, [role="button"]'))
    .sort((a, b) => b.text.length - a.text.length)[0];
  const idEl = card.hasAttribute('data-review-id') ? card : card.querySelector('[data-review-id]');
  const id = idEl?.getAttribute('data-review-id')?.trim() || null;
  const star = Array.from(card.querySelectorAll('[role="img"][aria-label]')).find((s) => starsOf(s) !== null);
  const buttons = controls(card).filter((b) => !inOwner(b));
  // Still to open: a "More", or a translation whose original was not asked for yet.
  const collapsed = buttons.some(
    (b) => (MORE.test(nameOf(b)) && b.getAttribute('aria-expanded') !== 'true') || (SEE_ORIGINAL.test(nameOf(b)) && !state.translations.has(card)),
  );
  let ownerReply: ReviewCard['ownerReply'] = null;
  if (owner) {
    const parts = textLeaves(owner, isControl).filter((l) => !OWNER.test(l.text));
    const date = parts.find((l) => DATE_WORDS.test(l.text));
    const text = parts
      .filter((l) => l !== date)
      .map((l) => shownText(l.el))
      .join('\n');
    ownerReply = { text: text.slice(0, MAX_TEXT), dateSaid: date?.text ?? null };
  }
  const translation = state.translations.get(card) ?? null;
  const text = shownText(body?.el);
  return {
    id: id && id.length <= 200 ? id : null,
    author: author.slice(0, 200),
    rating: star ? starsOf(star) : null,
    dateSaid: dateLeaf?.text ?? null,
    text: text.slice(0, MAX_TEXT),
    collapsed,
    translation: translation && translation !== text ? translation.slice(0, MAX_TEXT) : null,
    ownerReply,
    photos: buttons.filter((b) => PHOTO.test(b.getAttribute('aria-label') ?? '')).length,
    lang: body?.el.closest('[lang]')?.getAttribute('lang') ?? null,
  };
}

/**
 * A review's text as written: its line breaks and spacing kept (the page shows them), only the
 * icon font's glyphs removed and the ends trimmed. Never collapsed: a review is kept intact.
 */
function shownText(el: Element | undefined): string {
  return (el?.textContent ?? '').replace(/[\uE000-\uF8FF]/g, '').trim();
}

function totalShown(doc: Document): number | null {
  for (const el of Array.from(doc.querySelectorAll('[aria-label]'))) {
    const m = TOTAL.exec(el.getAttribute('aria-label') ?? '');
    if (!m) continue;
    const n = Number((m[1] ?? m[2] ?? '').replace(/[^\d]/g, ''));
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return null;
}

/**
 * The place's rating histogram, counts of 1 to 5 stars, read from its rows' labels (`role="img"`,
 * one row per star); null unless all five rows show, each with one count: a partial histogram, or
 * two that disagree (a panel left from another render), is no histogram rather than a guess.
 */
export function ratingHistogram(doc: Document): RatingDistribution | null {
  const counts: (number | null)[] = [null, null, null, null, null];
  for (const row of Array.from(doc.querySelectorAll('[role="img"][aria-label]'))) {
    const label = row.getAttribute('aria-label') ?? '';
    // A row's label is a few dozen characters; a longer one is no row, and is not given to the
    // pattern (its runs of digits and spaces would cost time in proportion to the square).
    const m = label.length <= 80 ? HISTOGRAM_ROW.exec(label) : null;
    if (!m) continue;
    const stars = Number(m[1] ?? m[2]);
    // Grouping marks differ by language ("1,234", "1.234", "1 234"): the digits are the count.
    const n = Number((m[3] ?? m[4] ?? '').replace(/\D/g, ''));
    if (stars < 1 || stars > 5 || !Number.isSafeInteger(n)) return null;
    const seen = counts[stars - 1];
    if (seen !== null && seen !== n) return null;
    counts[stars - 1] = n;
  }
  return counts.every((n) => n !== null) ? (counts as RatingDistribution) : null;
}

function sortControl(doc: Document): Element | null {
  return (
    controls(doc).find((c) => SORT_NAME.test(nameOf(c)) && !c.matches('[role="menuitemradio"], [role="radio"]')) ??
    doc.querySelector('[role="radiogroup"][aria-label]')
  );
}

function newestOption(doc: Document): Element | null {
  return Array.from(doc.querySelectorAll('[role="menuitemradio"], [role="radio"]')).find((o) => visible(o) && NEWEST.test(nameOf(o))) ?? null;
}

/** What the page shows now. */
export function readGoogleReviews(doc: Document, state: GoogleReviewsState): ReviewsView {
  const cards = reviewCards(doc);
  const tab = reviewsTab(doc);
  const selected = tab?.getAttribute('aria-selected') === 'true';
  const total = totalShown(doc);
  const option = newestOption(doc);
  const optionChecked = option ? option.getAttribute('aria-checked') === 'true' : false;
  const hasSort = !!sortControl(doc) || !!option;
  // Newest first: the page shows it checked and was never pressed here, or it re-rendered after our press.
  const pressed = state.newestPressedOver;
  const newest = pressed === null ? optionChecked : cards.length > 0 && cardsSignature(cards) !== pressed;
  let page: ReviewsView['page'] = 'unknown';
  if (tab && selected) page = 'reviews';
  else if (tab) page = 'place';
  // No Reviews tab, yet reviews on the overview: the signed-out limited view (S8).
  else if (cards.length > 0) page = 'limited';
  return {
    page,
    order: !hasSort ? 'none' : newest ? 'newest' : 'other',
    sortChoiceShown: !!option,
    cards: cards.map((c) => readCard(c, state)),
    total,
    loading: Array.from(doc.querySelectorAll('[role="progressbar"]')).some(visible),
    endShown: Array.from(doc.querySelectorAll('div, span, p')).some(
      (el) => el.children.length === 0 && END.test(cleanText(el.textContent)) && !cards.some((c) => c.contains(el)),
    ),
    distribution: ratingHistogram(doc),
  };
}

function press(el: Element): void {
  (el as HTMLElement).click();
}

/** The list's scrollable container: the nearest ancestor of the cards that scrolls. */
function scroller(doc: Document): HTMLElement | null {
  const first = reviewCards(doc)[0];
  for (let el = first?.parentElement ?? null; el; el = el.parentElement) {
    if (el.scrollHeight > el.clientHeight + 1) {
      const overflow = el.ownerDocument.defaultView?.getComputedStyle(el).overflowY ?? '';
      if (overflow === 'auto' || overflow === 'scroll') return el;
    }
  }
  return null;
}

/**
 * Does `action` on the page, once: presses the control it needs, or scrolls. Returns whether
 * there was anything to do. Never navigates (every control here is the page's own, in place).
 */
export function actOnGoogleReviews(doc: Document, action: ReviewsAction, state: GoogleReviewsState): boolean {
  switch (action) {
    case 'look':
      return false;
    case 'open': {
      const tab = reviewsTab(doc);
      if (!tab) return false;
      press(tab);
      return true;
    }
    case 'sort-newest': {
      const option = newestOption(doc);
      if (option) {
        state.newestPressedOver = cardsSignature(reviewCards(doc));
        press(option);
        return true;
      }
      const control = sortControl(doc);
      if (!control) return false;
      // A menu button: its options show once it is pressed; the next step chooses Newest.
      press(control);
      return true;
    }
    case 'expand': {
      let pressed = false;
      for (const card of reviewCards(doc)) {
        const buttons = controls(card);
        // One thing per card and step: its "More" first, so the translation kept is whole;
        // then its original (which may bring a "More" of its own, opened at the next step).
        const more = buttons.find((b) => MORE.test(nameOf(b)) && b.getAttribute('aria-expanded') !== 'true');
        const original = buttons.find((b) => SEE_ORIGINAL.test(nameOf(b)));
        if (more) press(more);
        else if (original && !state.translations.has(card)) {
          state.translations.set(card, readCard(card, state).text);
          press(original);
        } else continue;
        pressed = true;
      }
      return pressed;
    }
    case 'more': {
      const list = scroller(doc);
      if (!list) return false;
      list.scrollTop = list.scrollHeight;
      list.dispatchEvent(new Event('scroll'));
      return true;
    }
  }
}

/** Google's reader for the content script's reviews step (utils/content/reviews.ts). */
export const GOOGLE_REVIEWS: ReviewsReader<GoogleReviewsState> = {
  newState: newGoogleReviewsState,
  read: readGoogleReviews,
  act: actOnGoogleReviews,
};
