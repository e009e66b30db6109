/**
 * The Naver replica as an HTTP handler (one function a server can mount) and a standalone HTTPS
 * server, `startNaverReplica`, that answers as map.naver.com, pcmap.place.naver.com and
 * pcmap-api.place.naver.com by Host header (Chromium: `naverChromiumArgs(port)`).
 *
 * Routes:
 * - map.naver.com `/p/search/{q}[?c=…]`        outer page, `iframe#searchIframe` → the list page
 * - map.naver.com `/p/entry/place/{id}`         outer page, `iframe#entryIframe` → the place home
 * - map.naver.com `/p/api/search/allSearch?…`   allSearch JSON, 20 per page
 * - pcmap `/{vertical}/list?query&x&y&bounds&page` the list page (Apollo state, lazy list, pager)
 * - pcmap `/{vertical}/{id}[/home]`              the place page (Apollo detail state)
 * - pcmap `/{type}/{id}/review/visitor[?reviewSort=recent]` the visitor reviews page (reviews-page.ts)
 * - pcmap `/{type}/{id}/review/visitor/list?sort&size&cursor` a page of its reviews: the page's XHR, an API request
 * - pcmap-api `POST /graphql`                    the GraphQL list (getPlacesList / getRestaurants), with CORS
 *                                                for pcmap.place.naver.com (credentials) and its OPTIONS preflight
 * - naver.me `/{token}`                          a place's share link (../share-links.ts), by `shareLinkOf`;
 *                                                not a page load of the map, so outside the block
 * Over `blockAfter` page loads a minute, pages answer the block page and APIs 429 until `unblock()`
 * (the list page's own GraphQL calls for its lazy batches, and the reviews page's list requests, are
 * not page loads and do not count).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BBox } from '../../../utils/geo/types';
import { visibleBBox } from '../../../utils/geo/mercator';
import { naverListUrl, parseBounds, parseCParam, parseListUrl, parseSearchQuery, pcmapPlaceHomeUrl } from '../../../utils/providers/naver/urls';
import {
  createRequestLog,
  createRollingLimit,
  hostOf,
  hostResolverArgs,
  type LoggedRequest,
  readBody,
  replicaCertificate,
  sleep,
  startHttpsServer,
} from '../https-server';
import { createRng, deriveSeed } from '../prng';
import { answerShareRequest, createShareService } from '../share-links';
import type { World } from '../world';
import { naverIdOf, naverPlaceById } from './data';
import {
  allSearchAnswer,
  appShellHtml,
  blockPageHtml,
  entryPageHtml,
  graphqlListAnswer,
  listPageHtml,
  noResultsHtml,
  outerSearchHtml,
  placeHomeHtml,
} from './pages';
import { visitorReviewsHtml } from './reviews-page';
import { naverReviewOrder, naverReviewTotal, type NaverReviewSort } from './reviews';
import { answerNaverReviewsList, type NaverReviewClock, type NaverReviewTruth, naverReviewsTruth, parseNaverReviewsPath, sortFromQuery } from './reviews-view';
import { adsFor, listTotalOf, naverGroundTruth, naverSearch, pageOf } from './search';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverSwitches } from './switches';

/** Naver's share-link service: the app's "공유" links are `https://naver.me/{token}`. */
export const NAVER_SHARE_HOST = 'naver.me';
/**
 * A host off the map that a hostile share link points to (`shareLanding: 'offsite'`): served by the
 * replica only so that a request reaching it is logged (the extension must never send one).
 */
export const NAVER_OFFSITE_HOST = 'offsite.example';
export const NAVER_HOSTS = ['map.naver.com', 'pcmap.place.naver.com', 'pcmap-api.place.naver.com', NAVER_SHARE_HOST, NAVER_OFFSITE_HOST] as const;
/** naver.me tokens are 8 characters (public share links: `naver.me/IGs3UqxD`). */
const SHARE_TOKEN_LENGTH = 8;
const BLOCK_WINDOW_MS = 60_000;
const ALLSEARCH_PAGE = 20;
/** The outer page's map when the URL gives no centre (the live site uses the visitor's location). */
const DEFAULT_ZOOM = 15;

/** `share`: a request to naver.me. */
export type NaverRequestRecord = LoggedRequest<'page' | 'api' | 'share' | 'other'>;

export interface NaverHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  readonly switches: Readonly<NaverSwitches>;
  setSwitches(partial: Partial<NaverSwitches>): void;
  readonly requests: readonly NaverRequestRecord[];
  blocked(): boolean;
  /** What waiting out the block does: lift it and restart the rolling window. */
  unblock(): void;
  groundTruth(query: string, bbox: BBox): ReturnType<typeof naverGroundTruth>;
  /**
   * A place's visitor reviews (by Naver id), newest first (or in `sort`'s order), with their dates as
   * the reviews page prints them under the current switches by the replica's clock now. Throws for a
   * place Naver does not list.
   */
  naverReviewsTruth(placeId: string, sort?: NaverReviewSort): NaverReviewTruth[];
  /** How many visitor reviews the place has (0 when none). */
  naverReviewsCount(placeId: string): number;
  /**
   * A place's share link, `https://naver.me/{token}` (by Naver id): the same on every run of the same
   * world; it redirects by the `shareRedirect` and `shareLanding` switches. Throws for a place Naver does not list.
   */
  shareLinkOf(placeId: string): string;
  /** Requests to naver.me, known token or not. */
  shareLoads(): number;
}

export function createNaverHandler(world: World, options: { switches?: Partial<NaverSwitches>; now?: () => number } = {}): NaverHandler {
  const now = options.now ?? Date.now;
  let switches = mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, options.switches ?? {});
  const log = createRequestLog<NaverRequestRecord['kind']>(now);
  const { requests } = log;
  const draws = createRng(deriveSeed(world.seed, 'naver-server'));
  const limit = createRollingLimit(now, BLOCK_WINDOW_MS);
  // Every review was written before the replica started; their dates print against its clock.
  const reviewsWrittenBefore = now();
  const reviewClock = (): NaverReviewClock => ({ writtenBefore: reviewsWrittenBefore, now: now() });
  // Every place Naver lists (naverPlaceById's test), by its id.
  const shares = createShareService(NAVER_SHARE_HOST, SHARE_TOKEN_LENGTH, () =>
    world.places.flatMap((p, i) => (p.siteViews?.naver.present === false ? [] : [naverIdOf(i)])),
  );

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    kind: NaverRequestRecord['kind'],
    status: number,
    type: string,
    body: string,
    extra: Record<string, string> = {},
  ): void {
    log.send(req, res, kind, status, { 'content-type': type, ...extra }, body);
  }
  const html = 'text/html; charset=UTF-8';
  const json = 'application/json; charset=UTF-8';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (switches.slowMs > 0) await sleep(switches.slowMs);
    const host = hostOf(req);
    const url = new URL(req.url ?? '/', `https://${host || 'map.naver.com'}`);
    const path = url.pathname;
    if (host === NAVER_SHARE_HOST) {
      const answer = answerShareRequest(shares, { method: req.method ?? 'GET', path }, switches.shareRedirect, shareLanding);
      return log.send(req, res, 'share', answer.status, answer.headers, answer.body);
    }
    const reviews = host === 'pcmap.place.naver.com' ? parseNaverReviewsPath(path) : null;
    // The reviews page's list requests are its XHRs: API requests, like the list page's GraphQL calls.
    const isApi = path.startsWith('/p/api/') || host === 'pcmap-api.place.naver.com' || reviews?.list === true;
    const isPage = !isApi && (path.startsWith('/p/') || /^\/[a-z]+\/(list|\d+)/.test(path));
    const kind = isApi ? 'api' : isPage ? 'page' : 'other';
    const gqlHost = host === 'pcmap-api.place.naver.com';
    const cors = gqlHost ? corsHeaders(req) : {};
    // The CORS preflight of the list page's own GraphQL calls (a JSON POST from pcmap.place.naver.com).
    if (gqlHost && req.method === 'OPTIONS')
      return send(req, res, kind, cors['access-control-allow-origin'] ? 204 : 403, 'text/plain; charset=UTF-8', '', { ...cors, ...preflightHeaders(req) });
    // Page loads count towards the block (blockAfter: "page loads a minute"); once it is up, APIs answer 429 too.
    const over =
      kind === 'page' ? limit.over(switches.blockAfter) : kind === 'api' && switches.blockAfter !== null && (limit.blocked() || switches.blockAfter === 0);
    if (over) {
      return isApi
        ? send(req, res, kind, 429, json, JSON.stringify({ error: { code: 'NCAPTCHA', msg: '잠시 후 다시 시도해주세요' } }), cors)
        : send(req, res, kind, switches.blockStatus, html, blockPageHtml());
    }
    if (kind === 'page') {
      // Drawn on every page load, used or not, so a seed gives the same sequence whatever the switches.
      const hangDraw = draws.next();
      const errorDraw = draws.next();
      if (switches.hangPaths.some((p) => path.startsWith(p)) || hangDraw < switches.hangRate) {
        return log.hang(req, res, kind, '<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>네이버 지도</title></head><body>');
      }
      if (errorDraw < switches.error500Rate || switches.error500Paths.some((p) => path.startsWith(p)))
        return send(req, res, kind, 500, html, '<!DOCTYPE html><html lang="ko"><body><p>일시적인 오류가 발생했습니다.</p></body></html>');
    }
    if (host === 'map.naver.com') {
      if (path === '/p/api/search/allSearch') return send(req, res, kind, 200, json, JSON.stringify(allSearch(url)));
      const entry = /^\/p\/entry\/place\/(\d+)/.exec(path);
      if (entry) {
        const p = naverPlaceById(world, entry[1]!);
        return p ? send(req, res, kind, 200, html, entryPageHtml(p.name, `${pcmapPlaceHomeUrl(p.id)}?entry=plt`)) : send(req, res, kind, 404, html, notFound());
      }
      const query = path.startsWith('/p/search/') ? parseSearchQuery(path) : null;
      if (query) return send(req, res, kind, 200, html, outerSearchHtml(query, outerListSrc(query, url)));
    }
    if (reviews) return reviewsRoute(req, res, kind, reviews, url);
    if (host === 'pcmap.place.naver.com') {
      const list = parseListUrl(url.href);
      if (list) return send(req, res, kind, 200, html, listPage(list));
      const place = /^\/[a-z]+\/(\d+)(\/home)?\/?$/.exec(path);
      if (place) {
        const p = naverPlaceById(world, place[1]!);
        return p ? send(req, res, kind, 200, html, placeHomeHtml(p)) : send(req, res, kind, 404, html, notFound());
      }
    }
    if (gqlHost && path === '/graphql' && req.method === 'POST') {
      const answer = graphql(await readBody(req));
      return answer === 'fail'
        ? send(req, res, kind, 500, json, JSON.stringify({ errors: [{ message: 'Internal Server Error' }] }), cors)
        : send(req, res, kind, 200, json, JSON.stringify(answer), cors);
    }
    return send(req, res, kind, 404, html, notFound());
  }

  /** The visitor reviews page, or one page of its list (JSON). */
  function reviewsRoute(
    req: IncomingMessage,
    res: ServerResponse,
    kind: NaverRequestRecord['kind'],
    route: NonNullable<ReturnType<typeof parseNaverReviewsPath>>,
    url: URL,
  ): void {
    const p = route.list ? null : naverPlaceById(world, route.id);
    if (route.list) {
      // The answer says 404 itself for a place Naver does not list.
      const answer = answerNaverReviewsList(world, route.id, url.searchParams, switches, reviewClock());
      send(req, res, kind, answer.status, json, answer.body);
    } else if (!p) {
      send(req, res, kind, 404, html, notFound());
    } else {
      const sort = sortFromQuery(url.searchParams.get('reviewSort'));
      send(req, res, kind, 200, html, visitorReviewsHtml({ place: p, type: route.type, sort, switches, clock: reviewClock() }));
    }
  }

  /** Where naver.me sends a place's link: the map's entry page (with the share links' usual `c=`), or pcmap's place page. */
  function shareLanding(id: string): string {
    if (switches.shareLanding === 'offsite') return `https://${NAVER_OFFSITE_HOST}/after-share?id=${id}`;
    return switches.shareLanding === 'pcmap' ? pcmapPlaceHomeUrl(id) : `https://map.naver.com/p/entry/place/${id}?c=15.00,0,0,0,dh`;
  }

  /** The place Naver lists under an id. */
  function naverPlace(id: string): NonNullable<ReturnType<typeof naverPlaceById>> {
    const p = naverPlaceById(world, id);
    if (!p) throw new Error(`naver replica: no place "${id}"`);
    return p;
  }

  /** The outer page lists the map's view: centre from `c=` (metres form) or the world's, box from zoom and a 1280×800 window. */
  function outerListSrc(query: string, url: URL): string {
    const c = parseCParam(url.searchParams.get('c'));
    const centre = c?.form === 'metres' ? c.centre : world.centre;
    const zoom = c?.zoom ?? DEFAULT_ZOOM;
    const bounds = visibleBBox({ ...centre, zoom }, { width: 1280, height: 800, panelWidth: 0 });
    return naverListUrl({ query, bounds, centre });
  }

  function listPage(list: NonNullable<ReturnType<typeof parseListUrl>>): string {
    const input = { query: list.query, bounds: list.bounds, centre: list.centre };
    const outcome = naverSearch(world, input, switches);
    const ads = list.page === 1 ? adsFor(world, input, outcome, switches) : [];
    if (outcome.results.length === 0 && switches.emptyPage === 'shell') return appShellHtml(list.query);
    // 'ads-only': the ads go on showing above an empty list, and no notice says it is empty.
    if (outcome.results.length === 0 && !(switches.emptyPage === 'ads-only' && ads.length > 0)) return noResultsHtml(list.query);
    const { items, pages } = pageOf(outcome.results, list.page, switches.pageSize);
    const centre = list.centre ?? world.centre;
    return listPageHtml({
      query: list.query,
      x: centre.lng.toFixed(7),
      y: centre.lat.toFixed(7),
      items,
      ads,
      rendered: Math.min(switches.firstRender, items.length),
      page: Math.min(list.page, pages),
      pages,
      total: listTotalOf(world, list.query, outcome, switches.listTotal),
      pageSize: switches.pageSize,
      lazyBatch: switches.lazyBatch,
      lazyDelayMs: switches.lazyDelayMs,
      pagerWindow: switches.pagerWindow,
      endMarker: switches.endMarker,
      apolloHolds: switches.apolloHolds,
      variant: switches.domVariant,
      brokenCards: switches.brokenCards,
      pagerMarkup: switches.pagerMarkup,
      pageTurn: switches.pageTurn,
      lazyFail: switches.lazyFail,
      // What the page's own GraphQL calls for its lazy batches send (apolloHolds 'rendered'): this URL's search.
      search: { bounds: list.bounds, centre: list.centre },
    });
  }

  /** allSearch: `boundary=minLng;minLat;maxLng;maxLat`, `searchCoord=lng;lat`, 20 per page within the same cap. */
  function allSearch(url: URL): unknown {
    const query = (url.searchParams.get('query') ?? '').trim();
    const bounds = parseBounds(url.searchParams.get('boundary'));
    const [lng, lat] = (url.searchParams.get('searchCoord') ?? '').split(';').map(Number);
    const centre = Number.isFinite(lat) && Number.isFinite(lng) ? { lat: lat!, lng: lng! } : null;
    const page = Math.max(1, Math.trunc(Number(url.searchParams.get('page') ?? '1')) || 1);
    const outcome = naverSearch(world, { query, bounds, centre }, switches);
    return allSearchAnswer({
      query,
      items: outcome.results.slice((page - 1) * ALLSEARCH_PAGE, page * ALLSEARCH_PAGE),
      total: outcome.matched,
      page,
      boundary: outcome.searchedBox,
    });
  }

  /**
   * GraphQL: the array body's first operation with `variables.input` {query, start, display, x, y, bounds}.
   * 'fail' for the request of a lazy batch `lazyFail` says never comes (its `start` is that batch's on its page).
   */
  function graphql(body: string): unknown {
    let ops: unknown;
    try {
      ops = JSON.parse(body);
    } catch {
      return [{ errors: [{ message: 'bad request' }] }];
    }
    const op = (Array.isArray(ops) ? ops[0] : ops) as { operationName?: unknown; variables?: { input?: Record<string, unknown> } } | undefined;
    const input = op?.variables?.input ?? {};
    const query = typeof input.query === 'string' ? input.query : '';
    const display = Math.min(100, Math.max(1, Number(input.display) || 50));
    const start = Math.max(1, Number(input.start) || 1);
    if (switches.lazyFail > 0) {
      const offset = (start - 1) % switches.pageSize;
      const failing = switches.firstRender + (switches.lazyFail - 1) * switches.lazyBatch;
      if (offset >= failing) return 'fail';
    }
    const x = Number(input.x);
    const y = Number(input.y);
    const outcome = naverSearch(
      world,
      {
        query,
        bounds: parseBounds(typeof input.bounds === 'string' ? input.bounds : null),
        centre: Number.isFinite(x) && Number.isFinite(y) ? { lat: y, lng: x } : null,
      },
      switches,
    );
    // getRestaurants answers under `restaurants` (A6), getPlacesList and the rest under `businesses`.
    return graphqlListAnswer(
      outcome.results.slice(start - 1, start - 1 + display),
      listTotalOf(world, query, outcome, switches.listTotal),
      op?.operationName === 'getRestaurants' ? 'restaurants' : 'businesses',
    );
  }

  return {
    handle,
    get switches() {
      return switches;
    },
    setSwitches(partial) {
      const next = mergeNaverSwitches(switches, partial);
      if (next.blockAfter === null) limit.reset();
      switches = next;
    },
    requests,
    blocked: limit.blocked,
    unblock: limit.reset,
    groundTruth: (query, bbox) => naverGroundTruth(world, query, bbox),
    naverReviewsTruth: (placeId, sort = 'recent') => {
      const place = naverPlace(placeId);
      const newest = naverReviewsTruth(place, switches, reviewClock());
      return sort === 'recent' ? newest : Array.from(naverReviewOrder(place, sort), (i) => newest[i]!);
    },
    naverReviewsCount: (placeId) => naverReviewTotal(naverPlace(placeId)),
    shareLinkOf: (placeId) => shares.linkOf(naverPlace(placeId).id),
    // The browser's own favicon request on a share page's host is not a load of a share link.
    shareLoads: () => requests.filter((r) => r.kind === 'share' && !r.path.startsWith('/favicon.ico')).length,
  };
}

export interface NaverReplica extends Omit<NaverHandler, 'handle'> {
  port: number;
  world: World;
  close(): Promise<void>;
}

/** Chromium flags that send the Naver hosts to the replica. */
export function naverChromiumArgs(port: number): string[] {
  return hostResolverArgs(NAVER_HOSTS, port);
}

export async function startNaverReplica(options: {
  world: World;
  port?: number;
  host?: string;
  switches?: Partial<NaverSwitches>;
  now?: () => number;
}): Promise<NaverReplica> {
  const handler = createNaverHandler(options.world, options);
  const server = await startHttpsServer({
    certificate: await replicaCertificate('map.naver.com', NAVER_HOSTS),
    port: options.port,
    host: options.host,
    handle: handler.handle,
  });
  return {
    port: server.port,
    world: options.world,
    get switches() {
      return handler.switches;
    },
    setSwitches: (p) => handler.setSwitches(p),
    requests: handler.requests,
    blocked: () => handler.blocked(),
    unblock: () => handler.unblock(),
    groundTruth: (q, b) => handler.groundTruth(q, b),
    naverReviewsTruth: (id, sort) => handler.naverReviewsTruth(id, sort),
    naverReviewsCount: (id) => handler.naverReviewsCount(id),
    shareLinkOf: (id) => handler.shareLinkOf(id),
    shareLoads: () => handler.shareLoads(),
    close: server.close,
  };
}

/** Pages that may call pcmap-api from a browser (the list and place pages). */
const GRAPHQL_ORIGINS = new Set(['https://pcmap.place.naver.com', 'https://m.place.naver.com']);

/**
 * CORS of pcmap-api as a browser needs it for the page's credentialed fetch: the calling origin echoed
 * (a credentialed request may not get `*`), credentials allowed, `Vary: Origin`. Another origin gets none.
 */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : '';
  if (!GRAPHQL_ORIGINS.has(origin)) return { vary: 'Origin' };
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}

/** The preflight's answer: POST, the headers the page asks for (content-type, x-wtm-graphql, nCaptcha headers), cached 10 min. */
function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const asked = typeof req.headers['access-control-request-headers'] === 'string' ? req.headers['access-control-request-headers'] : '';
  const allowed = asked
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^(content-type|x-wtm-graphql|x-wtm-ncaptcha-token|x-ncaptcha-violation|accept|accept-language)$/.test(h));
  return {
    'access-control-allow-methods': 'POST, GET, OPTIONS',
    'access-control-allow-headers': [...new Set(['content-type', ...allowed])].join(', '),
    'access-control-max-age': '600',
  };
}

function notFound(): string {
  return '<!DOCTYPE html><html lang="ko"><body><p>요청하신 페이지를 찾을 수 없습니다.</p></body></html>';
}
