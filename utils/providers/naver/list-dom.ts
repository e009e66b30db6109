/**
 * The list inside `iframe#searchIframe` (pcmap.place.naver.com/…/list; map-pages-spec §2.2,
 * naver-kakao-notes A3). Cards are found and identified by stable hooks first: the scroll
 * container's id, `ul > li`, and hrefs carrying place ids. Class names (li.UEzoS / li.VLTHu,
 * span.TYaxT / span.YwYLL, span.KCMnt / span.YzBgS) are fallbacks, each listed as a variant,
 * because Naver renames them (the 2026 m.map capture uses CSS-module names throughout). The pager
 * is read by what it says to people (readPager), never by its classes: a pager the reader does
 * not recognise must prove nothing, and one it recognises by a guessed class proves too much.
 */
import type { ProviderPlace } from '../../domain/place';
import { buildPlace, readableText } from './fields';
import { naverIdFromUrl } from './ids';
import { visibleText } from '../visible-text';

/** pcmap's scroll container; m.place's is `#_list_scroll_container` (A1, A3). */
export const SCROLL_CONTAINERS = ['#_pcmap_list_scroll_container', '#_list_scroll_container'] as const;
const NAME_VARIANTS = ['span.TYaxT', 'span.YwYLL', '.place_bluelink > span:first-child', 'span.tzwk0', 'strong'];
const CATEGORY_VARIANTS = ['span.KCMnt', 'span.YzBgS', 'em'];
/** `svg.dPXjn` [~], li class `cZnHG`, m.place's `data-laim-exp-id="undefined*e"`. */
const AD_MARKERS = 'svg.dPXjn';
/** Texts shown when a search finds nothing (A3, m.place `div.FYvSc` [~]; pcmap's wording is not recorded [?]). */
const NO_RESULTS = /조건에 맞는 업체가 없습니다|검색결과가 없습니다|검색 결과가 없습니다/;

export interface CardRead {
  element: Element;
  sponsored: boolean;
  /** The card as read, or why it could not be. */
  place: ProviderPlace | 'no-id' | 'no-name';
}

export interface PagerState {
  /**
   * A pager the reader recognises, by what it says to people: controls (links or buttons) named
   * by page numbers, beside a control named "previous" or "next" (이전 / 다음, by aria-label or text).
   */
  present: boolean;
  /** The current page (aria-current, aria-selected, or the documented `.qxokY`), when marked. */
  current: number | null;
  /** Page numbers shown (the live pager shows 1–5, then 6 after 5 is clicked [~]). */
  pages: number[];
  /**
   * The "next page" control of a recognised pager: 'enabled'; 'disabled' (`aria-disabled="true"` or
   * `disabled`); 'absent' (the live variant that drops the arrow on the last page). null: no pager.
   */
  next: 'enabled' | 'disabled' | 'absent' | null;
  /**
   * Controls inside the pager that are neither a page number nor previous/next. A pager with such
   * a control is not understood whole: its next control may be one of them, so its absence proves nothing.
   */
  unknownControls: number;
}

export interface ListDomRead {
  container: Element | null;
  /** Cards shown, organic and ads, readable or not. */
  cardsShown: number;
  adsShown: number;
  organicShown: number;
  cards: CardRead[];
  pager: PagerState;
  /** The page says it found nothing. */
  noResults: boolean;
  warnings: string[];
}

/** Reads the list under `root` (the iframe's document). */
export function readListDom(root: ParentNode): ListDomRead {
  const container = findContainer(root);
  const scope: ParentNode = container ?? root;
  const items = findCards(scope);
  const cards = items.map((element) => {
    const sponsored = looksSponsored(element);
    return { element, sponsored, place: readCard(element, sponsored) };
  });
  const adsShown = cards.filter((c) => c.sponsored).length;
  const noId = cards.filter((c) => c.place === 'no-id').length;
  const noName = cards.filter((c) => c.place === 'no-name').length;
  const warnings: string[] = [];
  if (noId) warnings.push(`${noId} of ${cards.length} list cards had no readable place id.`);
  if (noName) warnings.push(`${noName} of ${cards.length} list cards had no readable name.`);
  // The notice people see, never a script's copy of the wording (utils/providers/visible-text.ts).
  const text = visibleText(container ?? (root as Document).body ?? null);
  return {
    container,
    cardsShown: cards.length,
    adsShown,
    organicShown: cards.length - adsShown,
    cards,
    pager: readPager(root),
    // Ads may stand beside the notice: only organic cards contradict it.
    noResults: cards.length === adsShown && NO_RESULTS.test(text),
    warnings,
  };
}

export function findContainer(root: ParentNode): Element | null {
  for (const sel of SCROLL_CONTAINERS) {
    const el = root.querySelector(sel);
    if (el) return el;
  }
  return null;
}

/**
 * Every card once: each `ul > li` that holds a place link or a name, plus any place link outside
 * such an `li` (its nearest `li`, or the link itself), so a card whose href broke still counts.
 */
export function findCards(scope: ParentNode): Element[] {
  const cards = new Set<Element>();
  for (const li of scope.querySelectorAll('ul > li')) {
    if (li.querySelector('a[href]') && (li.querySelector('.place_bluelink, span.TYaxT, span.YwYLL') || hasPlaceLink(li))) cards.add(li);
  }
  for (const a of scope.querySelectorAll('a[href]')) {
    if (naverIdFromUrl(a.getAttribute('href') ?? '') === null) continue;
    const li = a.closest('li');
    if (li && cards.has(li)) continue;
    cards.add(li ?? a);
  }
  return [...cards];
}

function hasPlaceLink(el: Element): boolean {
  for (const a of el.querySelectorAll('a[href]')) if (naverIdFromUrl(a.getAttribute('href') ?? '') !== null) return true;
  return false;
}

function looksSponsored(card: Element): boolean {
  if (card.classList.contains('cZnHG')) return true;
  if ((card.getAttribute('data-laim-exp-id') ?? '').endsWith('*e')) return true;
  if (card.querySelector(AD_MARKERS)) return true;
  // The hidden "광고" (ad) label next to the ad icon: text, so it survives a class rename.
  for (const blind of card.querySelectorAll('.place_blind, [class*="blind"]')) if ((blind.textContent ?? '').trim() === '광고') return true;
  return false;
}

function readCard(card: Element, sponsored: boolean): ProviderPlace | 'no-id' | 'no-name' {
  let id: string | null = null;
  const links = card.matches('a[href]') ? [card] : [...card.querySelectorAll('a[href]')];
  for (const a of links) {
    id = naverIdFromUrl(a.getAttribute('href') ?? '');
    if (id) break;
  }
  return buildPlace({
    id,
    name: firstText(card, NAME_VARIANTS),
    categoryPath: [firstText(card, CATEGORY_VARIANTS)],
    rating: ratingOf(card),
    sponsored,
  });
}

function firstText(card: Element, selectors: readonly string[]): string | null {
  for (const sel of selectors) {
    const text = readableText(card.querySelector(sel)?.textContent);
    if (text) return text;
  }
  return null;
}

/** The score next to the hidden "별점" (rating) label: `<span><svg/><span class="place_blind">별점</span>4.49</span>`. */
function ratingOf(card: Element): string | null {
  for (const blind of card.querySelectorAll('.place_blind, [class*="blind"]')) {
    if ((blind.textContent ?? '').trim() !== '별점') continue;
    const whole = blind.parentElement?.textContent ?? '';
    const m = /별점\s*(\d(?:\.\d{1,2})?)\s*$/.exec(whole.trim());
    if (m) return m[1]!;
  }
  return null;
}

/**
 * The pager (A3), recognised by what it says to people, in any markup (`div > a` as documented,
 * `<button>`s, renamed classes): controls whose name (aria-label, else visible text) is a page
 * number, grouped under their common parent, with the controls named "previous" / "next" (the
 * arrows' hidden labels "이전페이지" / "다음페이지" are text a screen reader reads) in that group or
 * just above it. No id or class decides it. Controls inside list cards are never the pager's.
 */
export function readPager(root: ParentNode): PagerState {
  const pager = findPager(root);
  if (!pager) return { present: false, current: null, pages: [], next: null, unknownControls: 0 };
  const pages: number[] = [];
  let current: number | null = null;
  for (const { el, page } of pager.numbers) {
    pages.push(page);
    if (markedCurrent(el)) current = page;
  }
  return {
    present: true,
    current,
    pages,
    next: pager.next ? (isDisabled(pager.next) ? 'disabled' : 'enabled') : 'absent',
    unknownControls: pager.others,
  };
}

/**
 * The pager's "next page" control, enabled or not, or null when the page shows none (no pager
 * recognised, or the live variant that drops the arrow on the last page).
 */
export function findNextControl(root: ParentNode): Element | null {
  return findPager(root)?.next ?? null;
}

/** Disabled as a person and the browser see it: `aria-disabled="true"` or the `disabled` attribute. */
export function isDisabled(control: Element): boolean {
  return control.getAttribute('aria-disabled') === 'true' || control.hasAttribute('disabled');
}

const CONTROLS = 'a, button, [role="button"], [role="link"]';
/** A page number as a control names it: "3", or an aria-label such as "3페이지" / "페이지 3" / "page 3". */
const PAGE_NUMBER = /^(?:(?:페이지|page)\s*)?(\d{1,3})(?:\s*(?:페이지|page))?$/i;
const PREVIOUS = /^(?:이전(?:\s*페이지)?|previous(?:\s*page)?|prev)$/i;
const NEXT = /^(?:다음(?:\s*페이지)?|next(?:\s*page)?)$/i;
/** How far above the page numbers' parent the arrows may sit (a wrapper around the numbers). */
const ARROW_LEVELS = 2;

interface FoundPager {
  box: Element;
  numbers: { el: Element; page: number }[];
  previous: Element | null;
  next: Element | null;
  /** Controls in the box that are neither numbers nor arrows. */
  others: number;
}

/** The name a person is told for a control: its aria-label, else its visible text (hidden labels included, aria-hidden icons not). */
function controlName(el: Element): string {
  const label = el.getAttribute('aria-label');
  const name = label !== null && label.trim() !== '' ? label : visibleText(el);
  return name.replace(/\s+/g, ' ').trim();
}

function markedCurrent(el: Element): boolean {
  const current = el.getAttribute('aria-current');
  return el.classList.contains('qxokY') || current === 'page' || current === 'true' || el.getAttribute('aria-selected') === 'true';
}

function findPager(root: ParentNode): FoundPager | null {
  const cards = findCards(root);
  const inCard = (el: Element) => cards.some((c) => c === el || c.contains(el));
  const controls = [...root.querySelectorAll(CONTROLS)].filter((el) => !inCard(el) && !el.parentElement?.closest(CONTROLS));
  // The page numbers, grouped by parent: the group with most numbers is the pager's.
  const groups = new Map<Element, { el: Element; page: number }[]>();
  for (const el of controls) {
    const m = PAGE_NUMBER.exec(controlName(el));
    if (!m || !el.parentElement) continue;
    const group = groups.get(el.parentElement) ?? [];
    group.push({ el, page: Number(m[1]) });
    groups.set(el.parentElement, group);
  }
  let best: [Element, { el: Element; page: number }[]] | null = null;
  for (const entry of groups) if (!best || entry[1].length > best[1].length) best = entry;
  if (!best) return null;
  const [numbersParent, numbers] = best;
  // The arrows: in the numbers' parent, or a level or two above it (never around the list itself).
  let box: Element = numbersParent;
  for (let level = 0; ; level++) {
    const inBox = controls.filter((el) => box.contains(el));
    const previous = inBox.find((el) => PREVIOUS.test(controlName(el))) ?? null;
    const next = inBox.find((el) => NEXT.test(controlName(el))) ?? null;
    if (previous || next) {
      const numbered = new Set(numbers.map((n) => n.el));
      const others = inBox.filter((el) => el !== previous && el !== next && !numbered.has(el)).length;
      return { box, numbers, previous, next, others };
    }
    const up = box.parentElement;
    if (level >= ARROW_LEVELS || !up || up.tagName === 'BODY' || cards.some((c) => up.contains(c))) return null;
    box = up;
  }
}
