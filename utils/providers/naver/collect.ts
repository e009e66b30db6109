import { listingFromPlace } from '../../listing/from-provider-place';
import type { Listing } from '../../domain/listing';
import type { CollectOptions } from '../../messaging/protocol';
import { apolloStateFromDocument, placesFromListState } from './apollo';
import { blockFromDocument } from './block';
import { readListDom } from './list-dom';
import { observeListPage, pageHoldsOf, type NaverPageSummary } from './observe';
import { joinNaverPageData, listingWithPageData, pageDataWarnings, type NaverPageData, type PageDataJoin } from './page-data';
import { parseListUrl } from './urls';
import type { PageDataCounts } from '../../domain/page-audit';
import type { ProviderPlace } from '../../domain/place';
import type { Observation, PageKind, SearchedBox } from '../../domain/sweep';
import { markedPage, withPage, type PageMark } from './page-turns';
import { scrollList } from './scroll';

/**
 * One sweep visit to a Naver list page (pcmap.place.naver.com/{vertical}/list?…&bounds=…), read-only
 * on the page except for what a person does to see the page: scrolling the list's own container
 * (the lazy list adds ~10 cards per scroll, up to 50 a page). Paging is a separate request
 * (`pressNextPage`), so the sweep driver decides whether to go on.
 */
export interface NaverCollectEnv {
  doc: Document;
  /** The page URL now. */
  url(): string;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** HTTP status of this document's navigation, when the browser tells it. */
  httpStatus(): number | null;
  hidden(): boolean;
  /**
   * The page this same document showed when it was last collected (the live pager re-renders
   * the list in place): a collection that expects another page also waits until the first card
   * differs from that page's, so a pager marked before the list re-rendered is not believed alone.
   */
  previous?: PageMark | null;
  /**
   * The page's own GraphQL answers, copied by the MAIN-world hook (page-data.ts): they fill the
   * fields of cards the embedded state does not describe (the lazily added ones). Page content:
   * never counted, never judged.
   */
  pageData?: NaverPageData | null;
}

/**
 * How often the page is looked at until it shows what it is (after a load, and after every page
 * turn): a look is a few DOM queries, and every poll's remainder is time the page sat shown and unread.
 */
const SETTLE_POLL_MS = 50;

/** What the document shows right now, for the settle wait. */
interface Look {
  blocked: boolean;
  cards: number;
  noResults: boolean;
  /** The page number the document shows (pager first, then the URL's page=, else 1). */
  page: number;
  /** The document shows the expected page (always true without `expectPage`). */
  pageOk: boolean;
  firstKey: string | null;
  /** `page` was inferred from the list having changed, not read from the pager or the URL. */
  inferred: boolean;
}

function look(env: NaverCollectEnv, expectPage: number | undefined): Look {
  const url = env.url();
  const dom = readListDom(env.doc);
  const blocked = blockFromDocument(env.doc, env.httpStatus()) !== null;
  const firstKey = firstOrganicKey(dom.cards);
  const prev = env.previous ?? null;
  // Same document, another page asked: a list whose first card is still the previous page's has not re-rendered yet.
  const stale = expectPage !== undefined && prev !== null && prev.page !== expectPage && prev.firstKey !== null && firstKey === prev.firstKey;
  const marked = markedPage(dom.pager, url);
  let page = marked ?? 1;
  let pageOk: boolean;
  if (expectPage === undefined) pageOk = true;
  else if (marked !== null) pageOk = marked === expectPage && !stale;
  else if (expectPage === 1) pageOk = !stale;
  else {
    // Nothing on the page names its number (a pager whose current-page class was renamed, re-rendered
    // in place): the list having changed since the previous page is the only sign, and it must be there.
    pageOk = prev !== null && prev.page === expectPage - 1 && prev.firstKey !== null && firstKey !== null && !stale;
    if (pageOk) page = expectPage;
  }
  return { blocked, cards: dom.cardsShown, noResults: dom.noResults, page, pageOk, firstKey, inferred: marked === null && page !== 1 };
}

function firstOrganicKey(cards: ReturnType<typeof readListDom>['cards']): string | null {
  for (const c of cards) if (!c.sponsored && typeof c.place !== 'string') return c.place.key;
  return null;
}

export async function collectNaverPage(env: NaverCollectEnv, options: CollectOptions): Promise<Observation & PageDataCounts> {
  const start = env.now();
  const warnings: string[] = [];
  const expectPage = options.expectPage;

  // 1. Wait until the document shows what it is: cards, a no-results text or a block page, on the page asked for.
  let seen = look(env, expectPage);
  while (!(seen.blocked || ((seen.cards > 0 || seen.noResults) && seen.pageOk)) && env.now() - start < options.settleMs) {
    await env.sleep(SETTLE_POLL_MS);
    seen = look(env, expectPage);
  }
  // The page asked for did not show (a turn that skipped a page, went back, or did not re-render):
  // what shows is another page of the list, so this visit reads nothing as that page.
  const wrongPage =
    expectPage !== undefined && !seen.blocked && !seen.pageOk
      ? `naver-wrong-page: expected page ${expectPage}, the page shows page ${seen.page} after ${options.settleMs} ms`
      : null;

  // 2. Scroll the list's own container until the cards stop coming (or a full page is shown).
  // A look takes the list as it shows: its readers are what is checked, not how far it was scrolled.
  let settled = options.look === true;
  let stopReason: Observation['stopReason'] = 'not-a-feed';
  // A look (Check this page) reads what the page shows, and scrolls nothing.
  if (!options.look && !seen.blocked && !seen.noResults && seen.cards > 0) {
    if (env.hidden()) warnings.push('page-hidden: the tab is in the background and the browser may slow it down');
    const scrolled = await scrollList(env, options, start, expectedOnPage(env.doc, seen.page));
    settled = scrolled.settled;
    stopReason = scrolled.stopReason;
    if (!settled) warnings.push(`the list was still growing when the collection's ${options.maxMs} ms ran out`);
  }

  // 3. Read and sum up.
  const state = apolloStateFromDocument(env.doc);
  const fromState = stateKeys(state);
  // The hook's copy of the answer a batch was rendered from reaches this world a task later.
  if (env.pageData) await pageDataQuiet(env, env.pageData, fromState);
  const url = env.url();
  const status = env.httpStatus();
  // A page number inferred above is given to the summary as the URL would give it (its cap rule counts pages).
  const final = look(env, expectPage);
  const summaryUrl = final.inferred ? withPage(url, final.page) : url;
  const summary = observeListPage({ doc: env.doc, url: summaryUrl, status, scrollSettled: settled, state });
  const read = readPlaces([...summary.places, ...summary.ads], fromState, env.pageData ?? null);
  const listings = read.listings;
  // What proves nothing comes first among the warnings: the judge quotes the first ones.
  const unproven = wrongPage ?? (summary.status === 'unproven' || summary.status === 'loading' ? summary.proof : null);
  const pageKind = unproven && summary.status !== 'blocked' ? 'unknown' : kindOf(summary);
  if (summary.status === 'capped') stopReason = 'cap';
  if (summary.unreadCards > 0) warnings.push(`${summary.unreadCards} of ${summary.organicShown} organic cards shown could not be read`);
  if (summary.block) warnings.push(`naver block (${summary.block.kind}): ${summary.block.evidence}`);

  if (env.pageData) {
    const shown = new Set(summary.places.map((p) => p.key));
    warnings.push(...pageDataWarnings(read.join, env.pageData.take(), shown));
    const organic = listings.filter((l) => !l.sponsored);
    const unlocated = organic.filter((l) => l.lat === null || l.lng === null).length;
    if (unlocated > 0)
      warnings.push(`naver-unlocated: ${unlocated} of ${organic.length} places without coordinates (neither the page's state nor its answers described them)`);
  }

  const observation: Observation & PageDataCounts = {
    url,
    pageKind,
    cardsVisible: summary.cardsShown,
    organicShown: summary.organicShown,
    listings,
    networkItems: null,
    networkKeys: [],
    endOfList: pageKind === 'results' && summary.status === 'complete',
    capHit: pageKind === 'results' && summary.status === 'capped',
    finalView: null,
    elapsedMs: env.now() - start,
    httpStatus: status,
    stopReason,
    warnings: [...(unproven ? [unproven] : []), ...summary.warnings, ...warnings],
    ...(pageKind === 'unknown' && unproven ? { unproven } : {}),
    searched: searchedOf(url),
    siteTotal: state ? placesFromListState(state).total : null,
    ...(read.join ? { pageDataDropped: read.join.dropped } : {}),
  };
  if (pageKind === 'results') observation.pager = { page: summary.page, more: summary.status === 'more-pages' };
  return observation;
}

/** `key|sponsored` of the list items the embedded state describes: their fields came from the page data. */
export function stateKeys(state: ReturnType<typeof apolloStateFromDocument>): Set<string> {
  const keys = new Set<string>();
  if (!state) return keys;
  const s = placesFromListState(state);
  for (const p of [...s.places, ...s.ads]) keys.add(`${p.key}|${p.sponsored}`);
  return keys;
}

/**
 * The listings of the places a list page showed: fields from the state where it describes the
 * card ('page-data'), else from the card ('card') filled from the hook's copies of the page's own
 * answers where they agree with the card ('page-data' for what they filled). Shared by the sweep's
 * collection and the browsing reader.
 */
export function readPlaces(
  places: readonly ProviderPlace[],
  fromState: ReadonlySet<string>,
  pageData: NaverPageData | null,
): { listings: Listing[]; join: PageDataJoin | null } {
  const inState = (p: ProviderPlace) => fromState.has(`${p.key}|${p.sponsored}`);
  const join = pageData ? joinNaverPageData(places, (p) => !inState(p), pageData) : null;
  const listings = places.map((p, i) => {
    if (inState(p)) return listingFromPlace(p, 'page-data');
    const filled = join?.places[i];
    return filled && join.filled.has(p.key) ? listingWithPageData(p, filled, listingFromPlace) : listingFromPlace(p, 'card');
  });
  return { listings, join };
}

/** No new answer copy for this long counts as quiet … */
const PAGE_DATA_QUIET_MS = 300;

/** … and the wait never exceeds this. */
const PAGE_DATA_QUIET_MAX_MS = 1500;

/**
 * Wait, bounded, until every organic card the state does not describe has the page's answer for
 * its id, or no answer copy came for a while. Only waits when such cards are shown: with a state
 * that holds the whole page (or no hook at all after the quiet time) it returns at once or soon.
 */
async function pageDataQuiet(env: NaverCollectEnv, data: NaverPageData, fromState: ReadonlySet<string>): Promise<void> {
  const missing = () =>
    readListDom(env.doc).cards.some(
      (c) => !c.sponsored && typeof c.place !== 'string' && !fromState.has(`${c.place.key}|false`) && data.get(c.place.key) === undefined,
    );
  if (!missing()) return;
  const until = env.now() + PAGE_DATA_QUIET_MAX_MS;
  let seen = data.received();
  let quietSince = env.now();
  while (env.now() < until && env.now() - quietSince < PAGE_DATA_QUIET_MS && missing()) {
    await env.sleep(50);
    const now = data.received();
    if (now !== seen) {
      seen = now;
      quietSince = env.now();
    }
  }
}

function kindOf(summary: NaverPageSummary): PageKind {
  switch (summary.status) {
    case 'blocked':
      return 'captcha';
    case 'no-results':
      return 'no-results';
    case 'unreadable':
    case 'unproven':
    case 'loading':
      return 'unknown';
    default:
      return 'results';
  }
}

/**
 * Organic cards this page should show by the page's own data: `min(page holds, total − offset)` when the
 * Apollo state gives the search's `total`, else null (unknown: wait out the whole stall).
 */
function expectedOnPage(doc: Document, page: number): number | null {
  const state = apolloStateFromDocument(doc);
  const read = state ? placesFromListState(state) : null;
  if (read?.total == null) return null;
  const holds = pageHoldsOf(read.display);
  return Math.max(0, Math.min(holds, read.total - (page - 1) * holds));
}

/**
 * The box the list searched is the `bounds` of the URL the list page ended on (the page's own
 * address, not what the sweep asked for); a list URL without a readable one proves nothing.
 */
function searchedOf(url: string): SearchedBox {
  const bounds = parseListUrl(url)?.bounds;
  return bounds
    ? { kind: 'measured', box: bounds, source: "the list page URL's bounds" }
    : { kind: 'unknown', why: "the list page's URL carries no readable bounds" };
}
