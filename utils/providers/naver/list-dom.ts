/**
 * The list inside `iframe#searchIframe` (pcmap.place.naver.com/…/list; map-pages-spec §2.2,
 * naver-kakao-notes A3). Cards are found and identified by stable hooks first: the scroll
 * container's id, `ul > li`, and hrefs carrying place ids. Class names (li.UEzoS / li.VLTHu,
 * span.TYaxT / span.YwYLL, span.KCMnt / span.YzBgS, the pager's mBN2s / qxokY / eUTV2) are
 * fallbacks, each listed as a variant, because Naver renames them (the 2026 m.map capture uses
 * CSS-module names throughout).
 */
import type { ProviderPlace } from '../place';
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
  /** A pager is on the page. */
  present: boolean;
  /** The current page (a.mBN2s.qxokY or aria-current), when marked. */
  current: number | null;
  /** Page numbers shown (the live pager shows 1–5, then 6 after 5 is clicked [~]). */
  pages: number[];
  /** The next button is there and not `aria-disabled="true"`; null when there is no next button. */
  nextEnabled: boolean | null;
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
 * The pager (A3): `div.zRM9F` holding `a.mBN2s` page numbers (current `.qxokY`) and `a.eUTV2`
 * prev/next, the last with `aria-disabled="true"` at the end. Found by class, or by its shape:
 * a group of links whose texts are page numbers.
 */
export function readPager(root: ParentNode): PagerState {
  const box = findPagerBox(root);
  if (!box) return { present: false, current: null, pages: [], nextEnabled: null };
  const pages: number[] = [];
  let current: number | null = null;
  for (const a of box.querySelectorAll('a, button')) {
    const n = /^\s*(\d{1,2})\s*$/.exec(a.textContent ?? '')?.[1];
    if (!n) continue;
    const page = Number(n);
    pages.push(page);
    if (a.classList.contains('qxokY') || a.getAttribute('aria-current') === 'page' || a.getAttribute('aria-current') === 'true' || a.getAttribute('aria-selected') === 'true') current = page;
  }
  const next = nextIn(box);
  return {
    present: true,
    current,
    pages,
    nextEnabled: next ? next.getAttribute('aria-disabled') !== 'true' : null,
  };
}

/**
 * The pager's "next page" control, enabled or not (`aria-disabled="true"` at the end), or null
 * when the page shows none (no pager, or the live variant that drops the arrow on the last page).
 */
export function findNextControl(root: ParentNode): Element | null {
  const box = findPagerBox(root);
  return box ? nextIn(box) : null;
}

function findPagerBox(root: ParentNode): Element | null {
  return root.querySelector('div.zRM9F') ?? pagerByShape(root);
}

function nextIn(box: Element): Element | null {
  const arrows = [...box.querySelectorAll('a.eUTV2, button.eUTV2')];
  // The arrows' hidden labels ("이전페이지" / "다음페이지") are text, so they survive a class rename.
  const byText = [...box.querySelectorAll('a, button')].find((a) => /다음/.test(a.textContent ?? '')) ?? null;
  return arrows.length >= 2 ? arrows[arrows.length - 1]! : byText;
}

function pagerByShape(root: ParentNode): Element | null {
  for (const el of root.querySelectorAll('div')) {
    const links = [...el.children].filter((c) => c.tagName === 'A' && /^\s*\d{1,2}\s*$/.test(c.textContent ?? ''));
    if (links.length >= 2) return el;
  }
  return null;
}
