/**
 * One sweep visit to a Kakao Map search page (naver-kakao-notes B2–B4), page by page.
 *
 * Getting the visit's first page ready takes up to three of the page's own controls, each of
 * which makes the site search again (B3): "현 지도 내 장소검색" ticked when the control is there and
 * not ticked, or pressed once when it is a button with no state and the search was not yet
 * within the map (the page then searches restricted to its map: its request carries `rect`;
 * the control is found by what it says, list-dom.ts findBoundsControl),
 * "장소 더보기" pressed when the list is in preview, and page 1 pressed when that opened page 2
 * (what page 1 showed before was only a preview [?]). So nothing here presses them on its own:
 * `kakaoFirstPageReady` waits until the page shows what its load or the newest press brought and
 * says whether a control is still needed, and `pressKakaoControl` presses that one control, in the
 * driver's turn of the host's pacing lane (utils/sweep/driver.ts). `collectKakaoPage` without
 * `expectPage` then reads page 1; with `expectPage: n` (after `pressNextPage`) it waits until the
 * list shows page n and its answer came, then reads it. Each observation is one page in full; the
 * driver combines them (utils/sweep/pages.ts). Clicking the page's own controls is part of a sweep
 * visit; nothing here navigates, and collect-while-browsing never calls it.
 *
 * The page's search request is either endpoint (the 2026 `map.kakao.com/api/v1/mapsearch/map`
 * or the older map.daum, B4b; urls.ts): whichever it sends is read, neither is ever sent here.
 * What the page searched is measured, not assumed: `searched` is the rect of the page's newest
 * finished search request, as the browser's resource timing lists it (`requests`), converted to
 * the largest WGS84 box inside it (searchedOf says when a request without rect is "unrestricted"
 * and when "unknown"; newestSearch, when the newest request may not be the list's search). The hook's copies of the answers (untrusted page content: any page script
 * can post them) fill what the list does not print (coordinates, homepage, category path) only
 * on cards they agree with by confirmid and name (observe.ts), give the total count and show a
 * block; they never add an organic place, never set the searched box, and their counts may only
 * make a list capped, never complete.
 */
import { wgs84ToWcongnamul, type WcongRect } from '../../geo/wcongnamul';
import { listingFromPlace } from '../../listing/from-provider-place';
import type { Listing } from '../../domain/listing';
import type { CollectOptions } from '../../messaging/protocol';
import { isKakaoBlockTab } from './block';
import {
  extractKakaoList,
  findBoundsControl,
  KAKAO_SELECTORS,
  nextPagerAction,
  pageLinkSelector,
  type KakaoBoundsControl,
  type KakaoListExtraction,
} from './list-dom';
import type { MapDaumPage } from './mapdaum';
import type { KakaoExchange, KakaoNetwork } from './network';
import { agreedRecords, observeKakaoPage, type KakaoPageSummary } from './observe';
import { KAKAO_PAGE_SIZE, parseMapDaumUrl, parseSearchPageUrl, type MapDaumRequest } from './urls';
import { innerBBoxOfRect, mapViewOf } from './view';
import { sameQuery } from '../same-query';
import type { MapView } from '../../geo/types';
import type { Observation, PageKind, SearchedBox } from '../../domain/sweep';

export interface KakaoCollectEnv {
  doc: Document;
  /** The page URL now. */
  url(): string;
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * The search requests (either endpoint) the page sent that the browser finished, oldest
   * first, measured in this world (resource timing: a page script cannot make the browser list
   * a request it did not send). The searched rect is read from the newest, and only while no
   * other listed request for the same page carries another (newestSearch).
   */
  requests(): readonly MeasuredRequest[];
  /** The hook's copies of the page's search answers (network-hook.ts). */
  network: Pick<KakaoNetwork, 'exchanges' | 'pending'>;
  /** HTTP status of this document's navigation, when the browser tells it. */
  httpStatus(): number | null;
  hidden(): boolean;
}

/** A search request the browser lists as finished (resource timing), never a copy's word. */
export interface MeasuredRequest {
  url: string;
  /** Its HTTP status (`responseStatus`, Chrome 109+); null for an opaque answer (a JSONP script of another origin) or where the browser does not tell. */
  status: number | null;
}

/** Poll interval while waiting for the page. */
const POLL_MS = 100;
/** No new answer and no change on screen for this long counts as settled … */
const QUIET_MS = 300;
/** A place this far (WCONGNAMUL units, 2.5 per metre) outside the rect was not listed from it. */
const OUTSIDE_TOLERANCE = 25;
/** With at least this many located places and every side of the rect this empty, the rect looks shrunk. */
const SHRINK_MIN_PLACES = 30;
const SHRINK_EMPTY_SHARE = 0.03;

export async function collectKakaoPage(env: KakaoCollectEnv, options: CollectOptions): Promise<Observation> {
  const start = env.now();
  const deadline = start + options.maxMs;
  const warnings: string[] = [];
  if (env.hidden()) warnings.push('page-hidden: the tab is in the background and the browser may slow it down');
  const firstExchange = 0;
  const v = visit(env, firstExchange);
  let stopReason: Observation['stopReason'] = 'not-a-feed';

  const settleBy = Math.min(deadline, start + options.settleMs);
  const expect = options.expectPage;
  if (expect === undefined) {
    // The page shows what it is (a list, "no results", a block); the driver pressed whatever
    // had to be pressed before (kakaoFirstPageReady): what is still off is said, not pressed.
    await v.waitFor(() => v.decisive(), settleBy);
    if (!v.stopped()) await v.quiet(settleBy);
    const shown = v.read();
    if (!v.stopped()) {
      if (shown.bounds.kind === 'toggle' && !shown.bounds.on) warnings.push('kakao-bounds-not-ticked: "현 지도 내 장소검색" did not stay ticked');
      else if (shown.bounds.kind === 'absent') warnings.push('kakao-no-bounds-control: the page shows no "현 지도 내 장소검색" control');
      if (shown.pager.pagerVisible && shown.pager.current !== 1)
        warnings.push(`kakao-page-1-unreachable: the list shows page ${shown.pager.current}, not page 1`);
    }
  } else {
    await v.waitFor(() => v.consistent(expect) || v.newestFailed(), settleBy);
    await v.quiet(deadline);
  }

  const list = v.read();
  const url = env.url();
  const blockedTab = isKakaoBlockTab(url);
  const exchanges = v.exchanges();
  const { request, doubt } = newestSearch(v.requestLog(), parseSearchPageUrl(url)?.query ?? null);
  const summary = observeKakaoPage({
    list,
    responses: exchanges,
    counted: v.counted(),
    search: request,
    blockedTab,
    pagesRead: pagesBefore(list.pager.current),
  });
  let pageKind = kindOf(summary, list);
  /** Why the list shown, read, is not the page asked for: retried, never taken for a page that changed. */
  let unproven: string | undefined;
  if (expect !== undefined && pageKind === 'results' && list.pager.current !== expect)
    unproven = `kakao-wrong-page: expected page ${expect}, the list shows page ${list.pager.current}`;
  else if (pageKind === 'results' && request && request.page !== list.pager.current)
    unproven = `kakao-answer-mismatch: the newest answer is for page ${request.page}, the list shows page ${list.pager.current}`;
  else if (pageKind === 'unknown' && summary.status === 'broken' && summary.placesRead > 0)
    unproven = 'kakao-answer-unreadable: the cards were read, but the answer copied for them could not be';
  if (unproven) {
    warnings.push(unproven);
    pageKind = 'unknown';
  }
  const failed = exchanges.slice(firstExchange).filter((e) => e.result.kind === 'http-error' || e.result.kind === 'malformed');
  for (const e of failed.slice(-3)) warnings.push(`kakao-mapdaum-${e.result.kind}: ${describe(e)}`);
  // The list's own answer failed with an HTTP status: the visit failed as that status (the driver
  // backs off and retries), not as a page that changed. The status is the browser's (a copy's
  // status is a page script's word, and a 429 pauses the sweep).
  const newestStatus = env.requests().at(-1)?.status ?? null;
  const answerStatus = newestStatus !== null && newestStatus >= 400 ? newestStatus : null;

  // The page's answer for the page shown: what fills the cards, counts the matches, names the ads.
  const answer = answerFor(exchanges, list.pager.current);
  const organic = summary.places.map((p) => listingFromPlace(p, 'card'));
  // A card with no name link is taken for an ad (B2) only as far as the page's answer has ads:
  // a site change that drops the name link from organic cards must show as cards not read.
  const adsShown = answer ? Math.min(list.adCards, answer.ads) : list.adCards;
  const ads = adListings(env.doc, answer, new Set(organic.map((l) => l.key)));
  const located = organic.filter((l) => l.lat !== null && l.lng !== null).length;
  if (organic.length > 0 && located < organic.length)
    warnings.push(`kakao-unlocated: ${organic.length - located} of ${organic.length} places without coordinates (no map.daum answer read for them)`);
  const copies = env.network.exchanges().length;
  if (exchanges.length < copies)
    warnings.push(
      `kakao-copies-untrusted: ${copies - exchanges.length} of ${copies} copies of the page's answers are not used (of requests the browser does not list, or more copies than it sent: another script posting the hook's message, or a copy that came before the browser listed its request)`,
    );
  if (summary.unreadable > 0) warnings.push(`kakao-unreadable: ${summary.unreadable} organic cards without a confirmid or name`);
  if (summary.unconfirmed > 0)
    warnings.push(
      `kakao-page-data-disagrees: ${summary.unconfirmed} cards not filled from the answers (a record of the same confirmid names another place, or two copies differ)`,
    );

  let endOfList = summary.status === 'complete';
  let capHit = summary.status === 'capped';
  // A full last page: the cap may have cut it (a cap of exactly this many pages), or, on page 1
  // with no pager shown, a pager the reader no longer recognises may be hiding more. Never claimed
  // complete, whatever an answer counts: the count is page content, and may only add work.
  const fullPage = summary.placesRead + summary.unreadable >= KAKAO_PAGE_SIZE;
  if (endOfList && fullPage && (list.pager.current > 1 || !list.pager.pagerVisible)) {
    warnings.push(
      `kakao-full-last-page: the list stopped on a full page ${list.pager.current}${list.pager.pagerVisible ? '' : ' with no pager shown'}, which a cap (or a pager not recognised) would show too; taken as capped`,
    );
    endOfList = false;
    capHit = true;
  }
  if (pageKind === 'results') stopReason = endOfList ? 'end' : capHit ? 'cap' : summary.status === 'more' ? 'end' : 'stalled';
  else if (pageKind === 'unknown') stopReason = 'stalled';

  // A newest request that may not be the search the list shows (newestSearch) proves no box.
  const rect = doubt ? null : (request?.rect ?? null);
  const searched: SearchedBox = doubt ? { kind: 'unknown', why: doubt } : searchedOf(request, list.bounds);
  if (!request && pageKind === 'results') warnings.push('kakao-no-request-measured: no search request of this page was measured; the searched box is unknown');
  else if (doubt) warnings.push(doubt);
  else if (request && !rect && pageKind !== 'captcha') {
    const unknown = request.unknownParams.length > 0 ? `; parameters no source names: ${request.unknownParams.join(', ')}` : '';
    warnings.push(
      `kakao-not-restricted: the page searched without a rect (${searched.kind === 'unrestricted' ? 'not restricted to its map' : 'the box it searched, if any, is not in the request'}${unknown})`,
    );
  }
  if (rect) warnings.push(...rectChecks(rect, visitPlaces(exchanges, rect, organic), endOfList));

  return {
    url,
    pageKind,
    cardsVisible: list.cardsShown,
    organicShown: list.cardsShown - adsShown,
    listings: [...organic, ...ads],
    networkItems: answer ? answer.organic : null,
    networkKeys: answer ? answer.places.filter((p) => !p.sponsored).map((p) => p.key) : [],
    endOfList: pageKind === 'results' && endOfList,
    capHit: pageKind === 'results' && capHit,
    finalView: mapViewOfPage(env.doc),
    elapsedMs: env.now() - start,
    httpStatus: worstStatus(env.httpStatus(), answerStatus),
    stopReason,
    warnings,
    pager: { page: list.pager.current, more: pageKind === 'results' && summary.status === 'more' },
    searched,
    siteTotal: summary.totalCount,
    ...(unproven ? { unproven } : {}),
  };
}

/** The page's own controls a visit may press before its first page can be read, in this order. */
type KakaoControl = 'bounds' | 'more' | 'page-1';

/**
 * What one document's sweep visit pressed to get its first page ready. Every cell's search is a
 * page load of its own URL, hence a new document: the content script keeps one per document.
 * Each control is pressed at most once a visit (a tick that does not stay ticked is reported by
 * the collection, not pressed again).
 */
export interface KakaoPreparation {
  pressed: Set<KakaoControl>;
  /** The newest press and the page just before it: its answer is what the next ready check waits for. */
  last: { control: KakaoControl; before: Mark } | null;
}

export function kakaoPreparation(): KakaoPreparation {
  return { pressed: new Set(), last: null };
}

/**
 * Waits (up to `settleMs`) until the page shows what its load or the visit's newest press
 * brought, then says whether a control must still be pressed before page 1 can be read. Never
 * presses anything itself, so it runs outside the pacing lane.
 */
export async function kakaoFirstPageReady(
  env: KakaoCollectEnv,
  options: Pick<CollectOptions, 'settleMs' | 'maxMs'>,
  prep: KakaoPreparation,
): Promise<{ ready: boolean }> {
  const v = visit(env, 0);
  const until = env.now() + Math.min(options.settleMs, options.maxMs);
  const last = prep.last;
  if (!last) await v.waitFor(() => v.decisive(), until);
  // The press's search answered (with a rect or without: a request that carries none is told by the collection).
  else if (last.control === 'bounds') await v.waitFor(() => v.failedSince(last.before) || (v.requestsSince(last.before) > 0 && v.consistent(1)), until);
  else await v.waitFor(() => v.changedSince(last.before, last.control === 'page-1' ? 1 : null), until);
  if (!v.stopped()) await v.quiet(until);
  return { ready: nextControl(v, prep) === null };
}

/**
 * Presses the one control the page needs next (kakaoFirstPageReady said it is not ready). The
 * site searches again: the driver calls this only in its turn of the host's lane, and the answer
 * resolves once that search is over (searchOver), so the turn ends after it, as a page load's does.
 */
export async function pressKakaoControl(env: KakaoCollectEnv, prep: KakaoPreparation): Promise<{ clicked: boolean }> {
  const v = visit(env, 0);
  const next = nextControl(v, prep);
  const el = next?.element ?? null;
  if (!next || !el) return { clicked: false };
  const before = v.mark();
  prep.last = { control: next.control, before };
  prep.pressed.add(next.control);
  el.click();
  await searchOver(env, v, before);
  return { clicked: true };
}

/** pressNextPage in a sweep visit: resolves once the search the turn made is over (searchOver). */
export async function pressKakaoNextPage(env: KakaoCollectEnv): Promise<{ clicked: boolean }> {
  const v = visit(env, 0);
  const before = v.mark();
  const pressed = pressNextPage(env.doc);
  if (pressed.clicked) await searchOver(env, v, before);
  return pressed;
}

/** The longest a press waits for the search it made; a page that re-renders without one is not held longer. */
const SEARCH_OVER_MS = 5000;

/**
 * Until the browser lists a search sent since `before` as finished (resource timing lists a
 * request when it ends), or an answer failed, or a block: the press's turn in the lane lasts
 * as long as its request, so the next request of the host starts a whole delay after it ended.
 */
async function searchOver(env: KakaoCollectEnv, v: ReturnType<typeof visit>, before: Mark): Promise<void> {
  await v.waitFor(() => v.requestsSince(before) > 0 || v.failedSince(before), env.now() + SEARCH_OVER_MS);
}

/**
 * The control still to press before page 1 can be read, or null (ready, or stopped by a block).
 * "현 지도 내 장소검색": a toggle that is off, or a button with no state while the newest search
 * carries no rect (pressing it is what searches the map shown); each at most once a visit.
 */
function nextControl(v: ReturnType<typeof visit>, prep: KakaoPreparation): { control: KakaoControl; element: HTMLElement | null } | null {
  if (v.stopped()) return null;
  const list = v.read();
  const bounds = list.bounds;
  const boundsNeeded = (bounds.kind === 'toggle' && !bounds.on) || (bounds.kind === 'action' && !v.newestRequest()?.rect);
  if (boundsNeeded && !prep.pressed.has('bounds')) return { control: 'bounds', element: findBoundsControl(v.doc).element };
  if (list.pager.moreVisible && !prep.pressed.has('more')) return { control: 'more', element: v.doc.querySelector<HTMLElement>(KAKAO_SELECTORS.more) };
  const one = list.pager.pagerVisible && list.pager.current !== 1 ? list.pager.pages.find((p) => p.page === 1) : undefined;
  if (one && !prep.pressed.has('page-1')) return { control: 'page-1', element: v.doc.querySelector<HTMLElement>(pageLinkSelector(one.slot)) };
  return null;
}

/**
 * Press the list's own control for the next page (nextPagerAction: the next page link of the
 * block, or "다음" to the next block; "장소 더보기" if the list is still in preview). What page it
 * opens is `current + 1`; the next `collect` with `expectPage` waits for it.
 */
export function pressNextPage(doc: Document): { clicked: boolean } {
  const list = extractKakaoList(doc);
  const action = nextPagerAction(list.pager, pagesBefore(list.pager.current + 1));
  if (!action) return { clicked: false };
  const el = doc.querySelector<HTMLElement>(action.selector);
  if (!el) return { clicked: false };
  el.click();
  return { clicked: true };
}

/** Pages 1 … n−1: a walk reads them in order, so those before the current one are read. */
function pagesBefore(n: number): Set<number> {
  const s = new Set<number>();
  for (let i = 1; i < n; i++) s.add(i);
  return s;
}

function kindOf(summary: KakaoPageSummary, list: KakaoListExtraction): PageKind {
  switch (summary.status) {
    case 'blocked':
      return 'captcha';
    case 'no-results':
      return 'no-results';
    case 'more':
    case 'complete':
    case 'capped':
      return 'results';
    case 'broken':
      // Cards and nothing read is a results page the judge stops as "the page changed"; cards read
      // beside an answer that could not be read is retried (collectKakaoPage's `unproven`): the
      // answer is a copy, page content, and may not stop a sweep.
      return list.hasList && list.cardsShown > 0 && summary.placesRead === 0 ? 'results' : 'unknown';
    default:
      return 'unknown';
  }
}

interface Mark {
  requests: number;
  exchanges: number;
  signature: string;
}

function visit(env: KakaoCollectEnv, firstExchange: number) {
  const read = () => extractKakaoList(env.doc);
  /** The requests the browser lists; never the hook's copies (a page script can post those). */
  const requestLog = (): readonly string[] => env.requests().map((r) => r.url);
  const exchanges = (): readonly KakaoExchange[] => trustedCopies(env.network.exchanges(), requestLog());
  /** Copies of requests the browser lists, surplus included: only their counts are read, and a count may only add work. */
  const counted = (): readonly KakaoExchange[] => {
    const listed = new Set(requestLog());
    return env.network.exchanges().filter((e) => listed.has(e.url));
  };
  const parsed = (url: string | undefined): MapDaumRequest | null => (url ? parseMapDaumUrl(url) : null);
  const newestRequest = () => parsed(requestLog().at(-1));
  const answered = (url: string): boolean => {
    const sent = requestLog().filter((u) => u === url).length;
    const got = env.network.exchanges().filter((e) => e.url === url).length;
    return got >= sent;
  };
  const signature = (l: KakaoListExtraction) =>
    JSON.stringify([
      l.pager.current,
      l.pager.moreVisible,
      l.pager.pagerVisible,
      l.cardsShown,
      l.noPlace,
      l.places[0]?.key ?? null,
      l.places.at(-1)?.key ?? null,
    ]);
  const stopped = (): boolean => {
    if (isKakaoBlockTab(env.url())) return true;
    return exchanges()
      .slice(firstExchange)
      .some((e) => e.result.kind === 'blocked');
  };
  /** The list shows `page` (or any page, null) and the newest request is that page's, answered. */
  const consistent = (page: number | null): boolean => {
    const l = read();
    if (!l.hasList || (l.cardsShown === 0 && !l.noPlace)) return false;
    if (page !== null && l.pager.current !== page) return false;
    const log = requestLog();
    const newest = log.at(-1);
    if (!newest || !answered(newest) || env.network.pending() > 0) return false;
    return l.noPlace || parsed(newest)?.page === l.pager.current;
  };
  const mark = (): Mark => ({ requests: requestLog().length, exchanges: env.network.exchanges().length, signature: signature(read()) });
  const failedSince = (m: Mark) =>
    env.network
      .exchanges()
      .slice(m.exchanges)
      .some((e) => e.result.kind !== 'ok');
  /** The newest answer failed (an HTTP error, a network error): the list will not change. */
  const newestFailed = (): boolean => {
    const last = exchanges().at(-1);
    return !!last && last.result.kind !== 'ok' && last.url === requestLog().at(-1);
  };

  async function waitFor(done: () => boolean, until: number): Promise<void> {
    while (!stopped() && !done() && env.now() < until) await env.sleep(POLL_MS);
  }

  return {
    doc: env.doc,
    read,
    requestLog,
    exchanges,
    counted,
    stopped,
    consistent,
    newestFailed,
    mark,
    newestRequest,
    requestsSince: (m: Mark) => requestLog().length - m.requests,
    waitFor,
    decisive: () => {
      const l = read();
      return (l.cardsShown > 0 || l.noPlace) && consistent(null);
    },
    /** Nothing changed (list, answers) for QUIET_MS, or `until`. */
    async quiet(until: number): Promise<void> {
      let last = JSON.stringify([signature(read()), env.network.exchanges().length, requestLog().length, env.network.pending()]);
      let since = env.now();
      const bound = Math.min(until, env.now() + 5 * QUIET_MS);
      while (env.now() < bound && env.now() - since < QUIET_MS && !stopped()) {
        await env.sleep(POLL_MS);
        const now = JSON.stringify([signature(read()), env.network.exchanges().length, requestLog().length, env.network.pending()]);
        if (now !== last) {
          last = now;
          since = env.now();
        }
      }
    },
    failedSince,
    /** The list re-rendered (or the page asked again) since `before` and its answer is in, or an answer failed. */
    changedSince: (before: Mark, page: number | null): boolean =>
      failedSince(before) || newestFailed() || ((requestLog().length > before.requests || signature(read()) !== before.signature) && consistent(page)),
  };
}

/**
 * The hook's copies a visit may use (untrusted page content: any page script can post one). A
 * copy counts only for a request the browser lists, and only while that request has no more
 * copies than the browser lists it sent: a surplus is a page script's message, and as nothing
 * tells which copy is the page's own, none of that request's copies counts. A request that
 * failed without an answer (no status: the browser may list no such request) is kept, as it can
 * only end a wait early; a block, a place or a count comes only from an answer the browser saw.
 */
export function trustedCopies(copies: readonly KakaoExchange[], measured: readonly string[]): KakaoExchange[] {
  const tally = (urls: readonly string[]) => urls.reduce((m, u) => m.set(u, (m.get(u) ?? 0) + 1), new Map<string, number>());
  const sent = tally(measured);
  const got = tally(copies.map((c) => c.url));
  const unanswered = (c: KakaoExchange) => c.result.kind === 'http-error' && c.result.status === 0;
  return copies.filter((c) => unanswered(c) || (got.get(c.url) ?? 0) <= (sent.get(c.url) ?? 0));
}

/**
 * The newest search request the browser lists, and why it may not be the search the list shows
 * (null: nothing says so). The page's own requests for one page all carry its map's rect (a
 * request before "현 지도 내 장소검색" carries none) and the page's words: a second rect for the
 * same page number, or other words than the page's (`pageQuery`, its URL's `q`), is a request
 * someone else sent, and nothing tells which box the list shows. (Were the live page to search
 * page 1 again with another rect within one visit, its cells would be unresolved, never done.)
 */
export function newestSearch(listed: readonly string[], pageQuery: string | null): { request: MapDaumRequest | null; doubt: string | null } {
  const requests = listed.flatMap((u) => parseMapDaumUrl(u) ?? []);
  const request = requests.at(-1) ?? null;
  if (!request) return { request, doubt: null };
  if (pageQuery !== null && !sameQuery(request.query, pageQuery)) {
    return { request, doubt: `kakao-other-words: the newest search request is for "${request.query}", the page for "${pageQuery}"` };
  }
  if (!request.rect) return { request, doubt: null };
  const key = (r: WcongRect) => `${r.x1},${r.y1},${r.x2},${r.y2}`;
  // Any endpoint and any words: a request someone else sent need not look like the page's own.
  const rects = new Set(requests.filter((r) => r.rect && r.page === request.page).map((r) => key(r.rect!)));
  return {
    request,
    doubt:
      rects.size > 1
        ? `kakao-rects-differ: the page's requests for page ${request.page} searched ${rects.size} different rects; which box the list shows is unknown`
        : null,
  };
}

/** The newest readable answer for a page of the list (its request's `page`). */
export function answerFor(exchanges: readonly KakaoExchange[], page: number): MapDaumPage | null {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const e = exchanges[i]!;
    if (e.result.kind === 'ok' && parseMapDaumUrl(e.url)?.page === page) return e.result;
  }
  return null;
}

/**
 * Ads (B2: cards with no name link; map.daum's `sourceId: "ad"`): listed flagged sponsored, only
 * when an ad card on screen shows the name the answer gives the ad (the answer alone never adds
 * a place), and only when the same place is not listed organically on this page.
 */
export function adListings(doc: Document, answer: MapDaumPage | null, organicKeys: ReadonlySet<string>): Listing[] {
  if (!answer || answer.ads === 0) return [];
  const adTexts = Array.from(doc.querySelectorAll(KAKAO_SELECTORS.items))
    .filter((li) => !li.querySelector('.head_item .tit_name .link_name'))
    .map((li) => (li.querySelector('.tit_name')?.textContent ?? '').replace(/\s+/g, ' ').trim());
  const out: Listing[] = [];
  for (const p of answer.places) {
    if (!p.sponsored || organicKeys.has(p.key)) continue;
    if (!adTexts.some((t) => t.includes(p.name))) continue;
    out.push(listingFromPlace(p, 'card'));
  }
  return out;
}

/**
 * The organic places of every answer to this rect (the visit's pages so far) on which the
 * copies agree (observe.ts agreedRecords), with this page's own listings: what the rect checks
 * look at once the list is complete. They only ever warn.
 */
function visitPlaces(exchanges: readonly KakaoExchange[], rect: WcongRect, organic: readonly Listing[]): Listing[] {
  const byKey = new Map(organic.map((l) => [l.key, l]));
  const toRect = exchanges.filter((e) => {
    const r = parseMapDaumUrl(e.url)?.rect;
    return !!r && r.x1 === rect.x1 && r.y1 === rect.y1 && r.x2 === rect.x2 && r.y2 === rect.y2;
  });
  for (const p of agreedRecords(toRect).agreed.values()) if (!byKey.has(p.key)) byKey.set(p.key, listingFromPlace(p, 'page-data'));
  return [...byKey.values()];
}

/**
 * What the listed places say about the rect. Places outside it: the site did not restrict the
 * list to the rect (the driver's boundsProof recognises a box ignored). A long complete list with
 * every side of the rect empty: the site searched less than the rect [?].
 */
function rectChecks(rect: WcongRect, organic: readonly Listing[], complete: boolean): string[] {
  const points = organic.flatMap((l) => (l.lat !== null && l.lng !== null ? [wgs84ToWcongnamul({ lat: l.lat, lng: l.lng })] : [])).filter((p) => p !== null);
  if (points.length === 0) return [];
  const out: string[] = [];
  const outside = points.filter(
    (p) => p.x < rect.x1 - OUTSIDE_TOLERANCE || p.x > rect.x2 + OUTSIDE_TOLERANCE || p.y < rect.y1 - OUTSIDE_TOLERANCE || p.y > rect.y2 + OUTSIDE_TOLERANCE,
  ).length;
  if (outside > 0) out.push(`kakao-rect-not-honoured: ${outside} of ${points.length} places lie outside the rect the page searched`);
  else if (complete && points.length >= SHRINK_MIN_PLACES) {
    const w = rect.x2 - rect.x1;
    const h = rect.y2 - rect.y1;
    const gaps = [
      Math.min(...points.map((p) => p.x - rect.x1)) / w,
      Math.min(...points.map((p) => rect.x2 - p.x)) / w,
      Math.min(...points.map((p) => p.y - rect.y1)) / h,
      Math.min(...points.map((p) => rect.y2 - p.y)) / h,
    ];
    const empty = Math.min(...gaps);
    if (empty >= SHRINK_EMPTY_SHARE)
      out.push(
        `kakao-rect-border-empty: no place within ${Math.round(empty * 100)}% of any side of the rect (${points.length} places); the site may search less than the rect`,
      );
  }
  return out;
}

/** The map's view if the page shows it on its map element (`data-x`, `data-y`, `data-level`) [?]. */
export function mapViewOfPage(doc: Document): MapView | null {
  const el = doc.querySelector('#map[data-x][data-y][data-level]');
  if (!el) return null;
  const x = Number(el.getAttribute('data-x'));
  const y = Number(el.getAttribute('data-y'));
  const level = Number(el.getAttribute('data-level'));
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isInteger(level)) return null;
  return mapViewOf({ x, y, level });
}

function worstStatus(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

function describe(e: KakaoExchange): string {
  const r = e.result;
  const page = parseMapDaumUrl(e.url)?.page ?? '?';
  if (r.kind === 'http-error') return `page ${page} answered ${r.status || 'with a network error'}`;
  if (r.kind === 'malformed') return `page ${page}: ${r.reason}`;
  return `page ${page}`;
}

/**
 * What the page's newest search covered: its rect, as the largest WGS84 box inside it. A request
 * without a rect is the page searching everywhere only on both the page's word and the
 * request's: no "현 지도 내 장소검색" control shown, and a request that says it searched
 * everywhere (`msFlag=A` and nothing that could carry a box, urls.ts `everywhere`). Anything else
 * without a rect is a box the page did not report (a renamed parameter as likely as anything),
 * and proves nothing.
 */
export function searchedOf(request: MapDaumRequest | null, bounds: KakaoBoundsControl): SearchedBox {
  if (request?.rect) {
    // Degrees are the box the site was asked for; a grid rect holds this box and more.
    const box = request.degrees ?? innerBBoxOfRect(request.rect);
    return box
      ? { kind: 'measured', box, source: `the rect of the page's ${request.endpoint} request${request.degrees ? ' (in degrees)' : ''}` }
      : { kind: 'unknown', why: "the rect of the page's search request is not a box" };
  }
  if (!request) return { kind: 'unknown', why: 'no search request of this page was measured' };
  if (bounds.kind === 'absent' && request.everywhere) {
    return {
      kind: 'unrestricted',
      evidence: 'the page shows no "현 지도 내 장소검색" control and its search request asks for everywhere (msFlag=A, nothing that could carry a box)',
    };
  }
  if (bounds.kind !== 'absent') return { kind: 'unknown', why: 'the page shows "현 지도 내 장소검색" but its search request carries no rect' };
  return {
    kind: 'unknown',
    why: request.restricted
      ? "the page's search request asks for the map (msFlag=S) but carries no rect"
      : "the page's search request carries no rect and does not say it searched everywhere (msFlag=A alone)",
  };
}
