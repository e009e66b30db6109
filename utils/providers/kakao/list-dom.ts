/**
 * The search page's own list (map.kakao.com, no iframe; spec §3.2, naver-kakao-notes B2–B3):
 * `#info\.search\.place\.list > li.PlaceItem`, "장소 더보기", pages `no1`…`no5`, prev/next, and
 * `#info\.noPlace`. The stable hooks are the dotted ids and the `data-id` attributes; class names
 * are read only where the notes give no `data-id`. "현 지도 내 장소검색", whose markup no source
 * gives, is found by its words (findBoundsControl). The DOM has no coordinates and no homepage:
 * map.daum (mapdaum.ts) carries those, observe.ts joins the two by confirmid.
 */
import type { ProviderPlace } from '../../domain/place';
import { confirmIdFromPlaceUrl } from './ids';
import { clean, kakaoPlaceShown } from './shown';

export const KAKAO_SELECTORS = Object.freeze({
  list: '#info\\.search\\.place\\.list',
  items: '#info\\.search\\.place\\.list > li.PlaceItem',
  name: '.head_item .tit_name a.link_name, [data-id="screenOutName"]',
  subcategory: '[data-id="subcategory"], .subcategory',
  score: '[data-id="scoreNum"], .rating .score .num',
  scoreCount: '[data-id="numberofscore"], .rating .score a.numberofscore',
  address: '[data-id="address"], .info_item .addr > p',
  /** The lot-number line under the road address; its marker is from one source only [~]. */
  jibun: '[data-id="otherAddr"], .info_item .addr > p.lot_number',
  phone: '[data-id="phone"], .contact span.phone',
  /** The week's hours line ("매일 10:30 ~ 21:00"), B2. */
  hours: '[data-id="periodTxt"], .openhour > p > a',
  moreview: 'a.moreview[data-id="moreview"], a.moreview',
  more: '#info\\.search\\.place\\.more',
  pager: '#info\\.search\\.page',
  prev: '#info\\.search\\.page\\.prev',
  next: '#info\\.search\\.page\\.next',
  noPlace: '#info\\.noPlace',
});

/**
 * "현 지도 내 장소검색" (search within the current map). Its markup is in no source (B4b), so the
 * control is found by what it says, as a person finds it: a checkbox whose label says it, a
 * switch or a button whose name says it (its text, `aria-label`, `aria-labelledby`, `title`).
 */
export const BOUNDS_SEARCH_LABEL = '현 지도 내 장소검색';

/** What the page shows of "현 지도 내 장소검색". */
export type KakaoBoundsControl =
  /** No visible control says it: the page offers no way to restrict its search to the map. */
  | { kind: 'absent' }
  /** A checkbox, switch or toggle button (`aria-pressed`), and whether it is on. */
  | { kind: 'toggle'; on: boolean }
  /** A button that says it and shows no state: each press searches the map shown [?]. */
  | { kind: 'action' };

export function pageLinkSelector(slot: number): string {
  return `#info\\.search\\.page\\.no${slot}`;
}

export interface KakaoPagerState {
  /** The page the list shows (the ACTIVE page link), or 1 when no pager is shown. */
  current: number;
  /** Whether "장소 더보기" is on screen (before it is pressed, only the first results show). */
  moreVisible: boolean;
  /** The page numbers of the visible links `no1`…`no5`, in slot order. */
  pages: { slot: number; page: number; active: boolean }[];
  pagerVisible: boolean;
  prevEnabled: boolean;
  nextEnabled: boolean;
}

export interface KakaoListExtraction {
  /** `li.PlaceItem` on screen, ads included. */
  cardsShown: number;
  /** Cards with no name link: ads and promotions (B2). */
  adCards: number;
  /** Organic cards whose confirmid and name were read. */
  places: ProviderPlace[];
  /** Organic cards present but unreadable (no confirmid or no name). */
  unreadable: number;
  /** `#info\.noPlace` is shown. */
  noPlace: boolean;
  /** The list container exists (false: not a search page, or the page changed). */
  hasList: boolean;
  pager: KakaoPagerState;
  /** "현 지도 내 장소검색" as the page shows it (findBoundsControl). */
  bounds: KakaoBoundsControl;
}

/** Read the list as the page shows it. Never clicks, never scrolls. */
export function extractKakaoList(root: ParentNode): KakaoListExtraction {
  const items = Array.from(root.querySelectorAll<HTMLElement>(KAKAO_SELECTORS.items));
  const places: ProviderPlace[] = [];
  const seen = new Set<string>();
  let adCards = 0;
  let unreadable = 0;
  for (const li of items) {
    if (!li.querySelector('.head_item .tit_name .link_name')) {
      adCards++;
      continue;
    }
    const place = readCard(li);
    if (!place) unreadable++;
    else if (!seen.has(place.key)) {
      seen.add(place.key);
      places.push(place);
    }
  }
  return {
    cardsShown: items.length,
    adCards,
    places,
    unreadable,
    noPlace: shown(root.querySelector(KAKAO_SELECTORS.noPlace)),
    hasList: root.querySelector(KAKAO_SELECTORS.list) !== null,
    pager: readPager(root),
    bounds: findBoundsControl(root).control,
  };
}

const CONTROLS = 'input[type="checkbox"], [role="checkbox"], [role="switch"], button, [role="button"], input[type="button"], a[href]';

/**
 * The first visible, enabled control that says "현 지도 내 장소검색" (BOUNDS_SEARCH_LABEL, spaces
 * aside), and the element a press goes to. Only controls are looked at, so the words in a
 * script, a tooltip or a heading are not a control.
 */
export function findBoundsControl(root: ParentNode): { control: KakaoBoundsControl; element: HTMLElement | null } {
  for (const el of Array.from(root.querySelectorAll<HTMLElement>(CONTROLS))) {
    if (!visible(el) || el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true') continue;
    if (!says(accessibleName(el, root))) continue;
    const role = el.getAttribute('role');
    if (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'checkbox')
      return { control: { kind: 'toggle', on: (el as HTMLInputElement).checked }, element: el };
    if (role === 'checkbox' || role === 'switch') return { control: { kind: 'toggle', on: el.getAttribute('aria-checked') === 'true' }, element: el };
    const pressed = el.getAttribute('aria-pressed') ?? el.getAttribute('aria-checked');
    if (pressed === 'true' || pressed === 'false') return { control: { kind: 'toggle', on: pressed === 'true' }, element: el };
    return { control: { kind: 'action' }, element: el };
  }
  return { control: { kind: 'absent' }, element: null };
}

function says(name: string): boolean {
  return name.replace(/\s+/g, '').includes(BOUNDS_SEARCH_LABEL.replace(/\s+/g, ''));
}

/**
 * What a control is called, as assistive technology reads it: `aria-labelledby`, `aria-label`,
 * a checkbox's `<label>` (for= or around it) or, for a checkbox in no label, the text beside it
 * in its own container; otherwise its text, value or title.
 */
function accessibleName(el: HTMLElement, root: ParentNode): string {
  const byIds = el.getAttribute('aria-labelledby');
  if (byIds) {
    const doc = el.ownerDocument;
    const text = byIds
      .split(/\s+/)
      .map((id) => doc.getElementById(id)?.textContent ?? '')
      .join(' ');
    if (text.trim()) return text;
  }
  const aria = el.getAttribute('aria-label');
  if (aria?.trim()) return aria;
  const isCheckbox = el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'checkbox';
  if (isCheckbox || el.tagName === 'INPUT') {
    const labels: string[] = [];
    if (el.id) for (const l of Array.from(root.querySelectorAll('label'))) if (l.getAttribute('for') === el.id) labels.push(l.textContent ?? '');
    const around = el.closest('label');
    if (around) labels.push(around.textContent ?? '');
    if (labels.join('').trim()) return labels.join(' ');
    // A bare checkbox beside its words: the words of its container, if it is the only checkbox there.
    const box = el.parentElement;
    if (isCheckbox && box && box.querySelectorAll('input[type="checkbox"]').length === 1) return box.textContent ?? '';
    return (el as HTMLInputElement).value || el.getAttribute('title') || '';
  }
  return el.textContent?.trim() ? el.textContent : (el.getAttribute('title') ?? '');
}

/** Shown: neither it nor a container hidden the way the page hides things (shown()) or from assistive technology. */
function visible(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement) if (!shown(e) || e.getAttribute('aria-hidden') === 'true') return false;
  return true;
}

/** One organic card; null when its confirmid or name cannot be read. */
export function readCard(li: Element): ProviderPlace | null {
  const id = confirmIdFromPlaceUrl(li.querySelector(KAKAO_SELECTORS.moreview)?.getAttribute('href'));
  const link = li.querySelector(KAKAO_SELECTORS.name);
  const name = clean(link?.getAttribute('title')) ?? clean(link?.textContent);
  if (!id || !name) return null;
  const subcategory = clean(li.querySelector(KAKAO_SELECTORS.subcategory)?.textContent);
  const addressEl = li.querySelector(KAKAO_SELECTORS.address);
  const road = clean(addressEl?.getAttribute('title')) ?? clean(addressEl?.textContent);
  const jibun = clean(li.querySelector(KAKAO_SELECTORS.jibun)?.textContent?.replace(/^\s*\(지번\)\s*/, ''));
  const ratingText = clean(li.querySelector(KAKAO_SELECTORS.score)?.textContent);
  const rating = ratingText && /^\d(\.\d+)?$/.test(ratingText) && Number(ratingText) <= 5 ? Number(ratingText) : null;
  const countText = clean(li.querySelector(KAKAO_SELECTORS.scoreCount)?.textContent);
  const countMatch = countText ? /^([\d,]+)\s*건?$/.exec(countText) : null;
  const reviews = countMatch ? Number(countMatch[1]!.replace(/,/g, '')) : null;
  return kakaoPlaceShown(id, {
    name,
    category: subcategory,
    road,
    jibun,
    phone: clean(li.querySelector(KAKAO_SELECTORS.phone)?.textContent),
    website: null,
    rating,
    reviews,
    hours: clean(li.querySelector(KAKAO_SELECTORS.hours)?.textContent),
  });
}

export function readPager(root: ParentNode): KakaoPagerState {
  const pagerEl = root.querySelector(KAKAO_SELECTORS.pager);
  const pages: KakaoPagerState['pages'] = [];
  for (let slot = 1; slot <= 5; slot++) {
    const a = root.querySelector(pageLinkSelector(slot));
    if (!a || !shown(a)) continue;
    const n = Number(clean(a.textContent));
    if (!Number.isInteger(n) || n < 1) continue;
    pages.push({ slot, page: n, active: a.classList.contains('ACTIVE') || a.getAttribute('aria-current') === 'page' });
  }
  const active = pages.find((p) => p.active);
  const pagerVisible = shown(pagerEl) && pages.length > 0;
  return {
    current: pagerVisible && active ? active.page : 1,
    moreVisible: shown(root.querySelector(KAKAO_SELECTORS.more)),
    pages,
    pagerVisible,
    prevEnabled: enabled(root.querySelector(KAKAO_SELECTORS.prev)),
    nextEnabled: enabled(root.querySelector(KAKAO_SELECTORS.next)),
  };
}

export type KakaoPagerAction = { kind: 'more'; selector: string } | { kind: 'page'; page: number; selector: string } | { kind: 'next'; selector: string };

/**
 * Whether the list shows its current page in full. Before "장소 더보기" is pressed the first
 * page may be only a preview [?], so it counts as read only once the pager is up, or when there
 * is no more button at all (a one-page list).
 */
export function pageFullyShown(p: KakaoPagerState): boolean {
  return p.pagerVisible || !p.moreVisible;
}

/**
 * What a sweep visit clicks to see the next 15 (B3): "장소 더보기" first, then the lowest page
 * link of the block not yet read in full, then "next" to the next block. Scrapers click `no1`
 * right after "더보기" for a reason: if it opens page 2 [?], page 1 was only ever a preview.
 * null: nothing left on screen to read. (Collect-while-browsing never calls this: it never clicks.)
 */
export function nextPagerAction(p: KakaoPagerState, pagesRead: ReadonlySet<number> = new Set()): KakaoPagerAction | null {
  if (p.moreVisible) return { kind: 'more', selector: KAKAO_SELECTORS.more };
  if (!p.pagerVisible) return null;
  const unread = p.pages.filter((x) => !x.active && !pagesRead.has(x.page)).sort((a, b) => a.page - b.page)[0];
  if (unread) return { kind: 'page', page: unread.page, selector: pageLinkSelector(unread.slot) };
  if (p.nextEnabled) return { kind: 'next', selector: KAKAO_SELECTORS.next };
  return null;
}

/** Hidden the way the page hides things: class HIDDEN, the hidden attribute, or display:none inline. */
function shown(el: Element | null): boolean {
  if (!el) return false;
  if (el.classList.contains('HIDDEN') || el.hasAttribute('hidden')) return false;
  const style = el.getAttribute('style') ?? '';
  return !/display\s*:\s*none/i.test(style);
}

function enabled(el: Element | null): boolean {
  return shown(el) && !/disabled/i.test(el!.className) && el!.getAttribute('aria-disabled') !== 'true';
}
