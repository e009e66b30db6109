/**
 * One visit to a list page, summed up: what the page showed, what was read, and whether the
 * search is complete, capped or still has pages. Combines list-dom (what is shown), the Apollo
 * state (the fields behind each card) and block detection. Pure: the content script gathers the
 * parts (the document, its URL, whether scrolling stopped growing the list) and calls this.
 *
 * "Complete" is a claim the page makes itself and its own counts agree with (contract: a
 * recognised pager whose next control is disabled or absent, every item of the page's state shown
 * as a card, as many cards as its `total` says). A list that only stopped growing proves nothing:
 * a lazy batch whose request failed, or a background tab the browser throttles, looks exactly so.
 */
import { CAP_MARGIN } from '../../grid/decide';
import type { BBox } from '../../geo/types';
import type { ProviderPlace } from '../../domain/place';
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
  | 'capped'
  /**
   * Cards shown, but the page does not prove this page whole or where its list ends (`proof` says
   * why): neither complete nor capped, so the visit proves nothing and is tried again.
   */
  | 'unproven';

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
  /** Organic items in the state that no card read shows (the lazy list has not rendered them yet); 0 when the state is another page's. */
  stateOnly: number;
  pager: PagerState;
  /** Organic items a page of this search holds: PAGE_SIZE, or less when the list query's `display` says so. */
  pageHolds: number;
  /** The list query's `total` from the state, or null. Page content: it may only find a list short, never end one. */
  total: number | null;
  /** Organic results listed by the search up to and including this page (earlier pages assumed full). */
  listedSoFar: number;
  status: PageStatus;
  /** Why the status is 'unproven' (or 'loading'): a warning that starts with a stable tag; null otherwise. */
  proof: string | null;
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
  // The embedded state describes the page as loaded: after a turn that re-renders in place it is
  // another page's (none of its items shown), and says nothing of this one.
  const stateItems = fromState?.places ?? [];
  const stateOfThisPage = stateItems.some((p) => shownOrganic.has(p.key));
  const stateOnly = stateOfThisPage ? stateItems.filter((p) => !shownOrganic.has(p.key)).length : 0;
  if (state && fromState && fromState.places.length === 0 && dom.organicShown > 0) warnings.push('The Apollo state holds no list items for the cards shown.');

  const page = dom.pager.current ?? urlParts?.page ?? 1;
  const pageHolds = pageHoldsOf(fromState?.display ?? null);
  const listedSoFar = (page - 1) * pageHolds + dom.organicShown;
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
    pageHolds,
    total: fromState?.total ?? null,
    listedSoFar,
    status: 'loading',
    proof: null,
    warnings,
  };
  const { status, proof } = pageStatus(summary, dom.noResults, parts.scrollSettled);
  summary.status = status;
  summary.proof = proof;
  return summary;
}

/**
 * The fewest organic items a page of the web list is taken to hold on its own `display`'s word:
 * the smallest page any source gives (allSearch's 20, ../shared/map-pages-spec.md §2.3). A smaller `display` is a lazy
 * batch's size (m.place's list query asks for 10 and scrolls on, ../shared/real-pages), not a
 * page's: believed, it would let a page whose later batches never came read as whole.
 */
export const MIN_PAGE_HOLDS = 20;

/**
 * Organic items a page holds: PAGE_SIZE, or the list query's `display` when smaller and at least
 * MIN_PAGE_HOLDS (pages of 40 are as plausible as 50 [~]). A larger one is not believed: page
 * content may only ask for more proof.
 */
export function pageHoldsOf(display: number | null): number {
  return display !== null && display >= MIN_PAGE_HOLDS ? Math.min(PAGE_SIZE, display) : PAGE_SIZE;
}

type Status = { status: PageStatus; proof: string | null };
const is = (status: PageStatus): Status => ({ status, proof: null });
const unproven = (proof: string): Status => ({ status: 'unproven', proof });

/**
 * What the page proves. Order matters: a block, a notice, unreadable cards first; then the cap
 * (visible: a full last-allowed page); then the page must be whole (its state's items all shown,
 * as many cards as a page holds when the pager offers more) and its end shown by a pager the
 * reader understands, agreeing with the list's own `total`.
 */
function pageStatus(s: NaverPageSummary, noResults: boolean, settled: boolean): Status {
  if (s.block) return is('blocked');
  if (noResults) return is('no-results');
  if (s.cardsShown === 0 || (s.organicShown > 0 && s.places.length === 0)) return is('unreadable');
  // Sponsored cards alone are no evidence of what the box holds, and "none" is believed only from the notice.
  if (s.organicShown === 0) return unproven(`naver-ads-only: the list shows ${s.adsShown} sponsored card(s) and no other place, and no "no results" notice`);
  // A page short of PAGE_SIZE is whole on its query's `display` only once the list stopped growing:
  // a lazy batch still to come is no end of a page.
  const full = s.organicShown >= PAGE_SIZE || (settled && s.organicShown >= s.pageHolds);
  if (!full && !settled) return { status: 'loading', proof: `naver-list-growing: ${s.organicShown} cards on page ${s.page} and the list was still growing` };
  // The live cap shows as an ordinary end (the next button disabled) [~]: a full last-allowed page is capped whatever the pager says.
  if (s.page >= PAGE_MAX && s.organicShown >= PAGE_SIZE) return is('capped');
  if (s.listedSoFar >= CROWDED_AT && s.page >= PAGE_MAX) return is('capped');
  // Items of the page's own state that no card shows (an unreadable card may be one of them: the judge counts those).
  const unshown = s.stateOnly - s.unreadCards;
  if (unshown > 0)
    return unproven(
      `naver-state-unshown: ${unshown} item(s) of the page's own state have no card on page ${s.page}, which shows ${s.organicShown} (a lazy batch that never came)`,
    );
  const pager = s.pager;
  if (!pager.present)
    return unproven(
      `naver-pager-unrecognised: page ${s.page} shows ${s.organicShown} places and no pager the reader recognises (page numbers beside a previous/next control)`,
    );
  if (pager.next === 'enabled') {
    // A page that has a next one is whole only with every card a page holds.
    return full
      ? is('more-pages')
      : unproven(`naver-page-short: ${s.organicShown} of ${s.pageHolds} places on page ${s.page}, and the pager offers another page`);
  }
  const lastShown = Math.max(...pager.pages);
  const endShown = pager.next === 'disabled' || (pager.next === 'absent' && pager.unknownControls === 0 && s.page === lastShown);
  if (!endShown) {
    const why =
      pager.next === 'absent'
        ? pager.unknownControls > 0
          ? `${pager.unknownControls} pager control(s) the reader does not know`
          : `page ${s.page} is not the last page number shown (${lastShown})`
        : 'no end shown';
    return unproven(`naver-end-unproven: the pager shows no next control and ${why}`);
  }
  // The list's own count. A count above what any search lists, on a list that ended before the
  // last page a search offers, says the list was cut short of its matches (however the page
  // ended it): never whole. (Were the count the whole query's, ignoring the box, no list could
  // be proven by it, and the sweep stops with that reason rather than trust an end the count denies.)
  if (s.total !== null && s.total > SEARCH_CAP && s.page < PAGE_MAX)
    return unproven(
      `naver-list-cut: the list ends on page ${s.page} with ${s.listedSoFar} places, and its own total counts ${s.total}, more than one search lists (${SEARCH_CAP})`,
    );
  // On the last page a search offers, a count above the list is the cap cutting it: more work (a
  // split), never less. Below that, a total a list can hold is a claim about this list, and a
  // list short of it is not whole.
  if (s.total !== null && s.listedSoFar < s.total) {
    if (s.page >= PAGE_MAX) return is('capped');
    if (s.total <= SEARCH_CAP)
      return unproven(`naver-list-short: ${s.listedSoFar} of ${s.total} places the list's own total counts, at its last page (${s.page})`);
  }
  return is('complete');
}
