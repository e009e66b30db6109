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
 * visit; nothing here navigates, and collect-while-browsing never calls it. The first page's
 * controls are first-page.ts's; what the page searched, searched-box.ts's.
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
import { answerFor, adListings, visitPlaces } from './answers';
import { listingFromPlace } from '../../listing/from-provider-place';
import type { CollectOptions } from '../../messaging/protocol';
import { isKakaoBlockTab } from './block';
import { extractKakaoList, type KakaoListExtraction } from './list-dom';
import type { KakaoExchange, KakaoNetwork } from './network';
import { observeKakaoPage, type KakaoPageSummary } from './observe';
import { KAKAO_PAGE_SIZE, parseMapDaumUrl, parseSearchPageUrl, type MapDaumRequest } from './urls';
import type { Observation, PageKind, SearchedBox } from '../../domain/sweep';
import { trustedCopies, newestSearch, rectChecks, searchedOf, mapViewOfPage } from './searched-box';

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

/** Pages 1 … n−1: a walk reads them in order, so those before the current one are read. */
export function pagesBefore(n: number): Set<number> {
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

export interface Mark {
  requests: number;
  exchanges: number;
  signature: string;
}

export function visit(env: KakaoCollectEnv, firstExchange: number) {
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
