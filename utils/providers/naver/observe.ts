/**
 * One visit to a list page, summed up: what the page showed, what was read, and whether the
 * search is complete, capped or still has pages. Combines list-dom (what is shown), the Apollo
 * state (the fields behind each card) and block detection. Pure: the content script gathers the
 * parts (the document, its URL, whether scrolling stopped growing the list) and calls this.
 */
import { CAP_MARGIN } from '../../grid/decide';
import type { BBox } from '../../geo/types';
import type { ProviderPlace } from '../place';
import { type ApolloState, apolloStateFromDocument, placesFromListState } from './apollo';
import { type NaverBlock, blockFromDocument } from './block';
import { type PagerState, readListDom } from './list-dom';
import { parseListUrl } from './urls';

/** Items per list page once fully scrolled (A3: "총 50개까지 한 페이지 안에"). */
export const PAGE_SIZE = 50;
/** Items rendered before any scrolling (A3). */
export const FIRST_RENDER = 10;
/** Pages a search offers at most (A4: rankfree max_pages 6, NAVER_PAGE_MAX = 6). */
export const PAGE_MAX = 6;
/** About 300 results per search (A4) [V from several sources, but "about"]. */
export const SEARCH_CAP = PAGE_SIZE * PAGE_MAX;
/**
 * A search that listed this many organic places may have been cut by the cap rather than by the
 * area running out, so its cell is crowded (the same margin the Google cap uses, grid/decide.ts).
 */
export const CROWDED_AT = SEARCH_CAP - CAP_MARGIN;

export type PageStatus =
  /** A block page, a 429 or a captcha: pause, do not retry. */
  | 'blocked'
  /** The page said it found nothing. */
  | 'no-results'
  /** Cards shown but none read, or a page with neither cards nor a no-results text: the page changed. */
  | 'unreadable'
  /** Fewer than a full page and the list may still grow (scrolling had not settled). */
  | 'loading'
  /** This page is done and the pager offers the next one. */
  | 'more-pages'
  /** The list ended before the cap: every match of the searched box was listed. */
  | 'complete'
  /** The last page the search offers is full: more places may match than were listed. */
  | 'capped';

export interface ListPageParts {
  doc: Document;
  /** The list page's URL (its query and bounds say what was searched). */
  url: string;
  /** HTTP status of the page load, when the caller knows it. */
  status?: number | null;
  /** Scrolling the container stopped adding cards (the caller's scroll loop decides). */
  scrollSettled: boolean;
  /** The Apollo state, when the caller already has it; else it is read from the document's scripts. */
  state?: ApolloState | null;
}

export interface NaverPageSummary {
  url: string;
  query: string | null;
  bounds: BBox | null;
  /** 1-based page of the search. */
  page: number;
  block: NaverBlock | null;
  cardsShown: number;
  organicShown: number;
  adsShown: number;
  /** Organic places read from this page, in the order shown: card id + name from the DOM, fields from the state. */
  places: ProviderPlace[];
  /** Ads shown (flagged sponsored), never counted as results. */
  ads: ProviderPlace[];
  /** Organic cards shown that could not be read. */
  unreadCards: number;
  /** Organic items in the state that no card shows (the lazy list has not rendered them yet). */
  stateOnly: number;
  pager: PagerState;
  /** Organic results listed by the search up to and including this page (earlier pages assumed full). */
  listedSoFar: number;
  status: PageStatus;
  warnings: string[];
}

export function observeListPage(parts: ListPageParts): NaverPageSummary {
  const urlParts = parseListUrl(parts.url);
  const dom = readListDom(parts.doc);
  const block = blockFromDocument(parts.doc, parts.status ?? null);
  const state = parts.state === undefined ? apolloStateFromDocument(parts.doc) : parts.state;
  const fromState = state ? placesFromListState(state) : null;
  const byKey = new Map<string, ProviderPlace>();
  for (const p of [...(fromState?.places ?? []), ...(fromState?.ads ?? [])]) byKey.set(`${p.key}|${p.sponsored}`, p);

  const warnings = [...dom.warnings, ...(fromState?.warnings ?? [])];
  const places: ProviderPlace[] = [];
  const ads: ProviderPlace[] = [];
  const seen = new Set<string>();
  let unreadCards = 0;
  for (const card of dom.cards) {
    if (typeof card.place === 'string') {
      if (!card.sponsored) unreadCards++;
      continue;
    }
    // The state's item is the fuller record; the card's own name wins only when the state has none for it.
    const full = byKey.get(`${card.place.key}|${card.sponsored}`) ?? card.place;
    const place = { ...full, sponsored: card.sponsored };
    const k = `${place.key}|${place.sponsored}`;
    if (seen.has(k)) continue;
    seen.add(k);
    (place.sponsored ? ads : places).push(place);
  }
  const shownOrganic = new Set(places.map((p) => p.key));
  const stateOnly = (fromState?.places ?? []).filter((p) => !shownOrganic.has(p.key)).length;
  if (state && fromState && fromState.places.length === 0 && dom.organicShown > 0) warnings.push('The Apollo state holds no list items for the cards shown.');

  const page = dom.pager.current ?? urlParts?.page ?? 1;
  const listedSoFar = (page - 1) * PAGE_SIZE + dom.organicShown;
  const summary: NaverPageSummary = {
    url: parts.url,
    query: urlParts?.query ?? null,
    bounds: urlParts?.bounds ?? null,
    page,
    block,
    cardsShown: dom.cardsShown,
    organicShown: dom.organicShown,
    adsShown: dom.adsShown,
    places,
    ads,
    unreadCards,
    stateOnly,
    pager: dom.pager,
    listedSoFar,
    status: 'loading',
    warnings,
  };
  summary.status = pageStatus(summary, dom.noResults, parts.scrollSettled);
  return summary;
}

function pageStatus(s: NaverPageSummary, noResults: boolean, settled: boolean): PageStatus {
  if (s.block) return 'blocked';
  if (noResults) return 'no-results';
  if (s.cardsShown === 0 || (s.organicShown > 0 && s.places.length === 0)) return 'unreadable';
  const full = s.organicShown >= PAGE_SIZE;
  if (!full && !settled) return 'loading';
  // The live cap shows as an ordinary end (the next button disabled) [~]: a full last-allowed page is capped whatever the pager says.
  if (s.page >= PAGE_MAX && full) return 'capped';
  if (s.listedSoFar >= CROWDED_AT && s.page >= PAGE_MAX) return 'capped';
  if (s.pager.nextEnabled === true) return 'more-pages';
  return 'complete';
}

export interface SearchSummary {
  /** Organic places over all pages, one per key, first page first. */
  places: ProviderPlace[];
  ads: ProviderPlace[];
  pages: number;
  /** complete: the list ended below the cap; capped: crowded, split the cell; incomplete: a page is missing or unfinished. */
  status: 'complete' | 'capped' | 'incomplete' | 'blocked' | 'unreadable' | 'no-results';
  /** Places listed on more than one page (Naver paging should never repeat one; a repeat means the order shifted). */
  repeats: number;
}

/** The pages of one search, in visiting order, as one result for the cell. */
export function combinePages(pages: readonly NaverPageSummary[]): SearchSummary {
  const places = new Map<string, ProviderPlace>();
  const ads = new Map<string, ProviderPlace>();
  let repeats = 0;
  for (const p of pages) {
    for (const place of p.places) {
      if (places.has(place.key)) repeats++;
      else places.set(place.key, place);
    }
    for (const ad of p.ads) if (!ads.has(ad.key)) ads.set(ad.key, ad);
  }
  const last = pages[pages.length - 1];
  let status: SearchSummary['status'] = 'incomplete';
  if (!last) status = 'incomplete';
  else if (pages.some((p) => p.status === 'blocked')) status = 'blocked';
  else if (pages.some((p) => p.status === 'unreadable')) status = 'unreadable';
  else if (last.status === 'no-results' && pages.length === 1) status = 'no-results';
  else if (last.status === 'capped' || places.size >= CROWDED_AT) status = 'capped';
  else if (last.status === 'complete' && pages.every((p, i) => p.page === i + 1)) status = 'complete';
  return { places: [...places.values()], ads: [...ads.values()], pages: pages.length, status, repeats };
}
