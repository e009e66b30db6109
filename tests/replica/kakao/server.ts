/**
 * The Kakao replica: one local HTTPS server answering, by Host header, as
 * - map.kakao.com          `/?q=…[&urlX&urlY&urlLevel]`  the search page (list built by its script)
 *                          `/?itemId={confirmid}`         the same page opened on a place (no query:
 *                                                         the map centred on it, no search made)
 *                          `POST /api/v1/settings/web/gate-token`, then `/api/v1/mapsearch/map?…`
 *                                                         the 2026 search: JSON, only with the token
 *                                                         minted for its exact URL (B4b; gate.ts)
 * - search.map.kakao.com   `/mapsearch/map.daum?…`       the older search: JSON or JSONP
 * - place.map.kakao.com    `/{confirmid}`                 the place page
 * - place-api.map.kakao.com `/places/tab/reviews/kakaomap/{confirmid}` a page of the place's
 *                          reviews (JSON, the place page's fetch; reviews-api.ts)
 * - www.kakao.com          `/500.ko.html`                 where a block redirects
 * - kko.to                 `/{token}`                     a place's share link (../share-links.ts),
 *                                                         by `shareLinkOf`; outside the block
 * Chromium reaches it through `kakaoChromiumArgs(port)`. The Google replica (../server.ts) is
 * separate and unchanged; both can run at once on two ports.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BBox } from '../../../utils/geo/types';
import { bboxToWcongRect } from '../../../utils/geo/wcongnamul';
import {
  KAKAO_MAP_ORIGIN,
  KAKAO_PLACE_ORIGIN,
  KAKAO_SEARCH_ORIGIN,
  type KakaoView,
  MAP_DAUM_PATH,
  MAP_SEARCH_PATH,
  parseMapDaumUrl,
  parseSearchPageUrl,
  viewAt,
} from '../../../utils/providers/kakao/urls';
import { answerGateRequest, GATE_TOKEN_HEADER, GATE_TOKEN_PATH, gateTokenValid } from './gate';
import {
  createRequestLog,
  createRollingLimit,
  hostOf,
  hostResolverArgs,
  type LoggedRequest,
  replicaCertificate,
  sleep,
  startHttpsServer,
} from '../https-server';
import { createRng, deriveSeed } from '../prng';
import { answerShareRequest, createShareService } from '../share-links';
import type { World } from '../world';
import { kakaoBlockPageHtml, kakaoNotFoundHtml, kakaoPlacePageHtml, kakaoRateLimitHtml, kakaoSearchPageConfig, kakaoSearchPageHtml } from './pages';
import { type KakaoReplicaPlace, type KakaoWorld, kakaoWorld } from './places';
import { answerMapDaum, kakaoGroundTruth } from './search';
import { answerKakaoReviews, KAKAO_REVIEWS_PATH } from './reviews-api';
import { type KakaoReview, kakaoReviewsOf, kakaoReviewTotal } from './reviews';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches, mergeKakaoSwitches } from './switches';

/** Kakao's share-link service: Kakao Map's "공유" links are `https://kko.to/{token}`. */
export const KAKAO_SHARE_HOST = 'kko.to';
export const KAKAO_HOSTS = [
  'map.kakao.com',
  'search.map.kakao.com',
  'place.map.kakao.com',
  'place-api.map.kakao.com',
  'www.kakao.com',
  KAKAO_SHARE_HOST,
] as const;
/** kko.to tokens are 10 characters (public share links: `kko.to/x4Wa2tk9Ff`). */
const SHARE_TOKEN_LENGTH = 10;
/** The level the map opens at on a place (`?itemId=`): a street or two around it [?]. */
const ITEM_LEVEL = 3;
const KAKAO_PLACE_API_ORIGIN = 'https://place-api.map.kakao.com';
export const KAKAO_BLOCK_URL = 'https://www.kakao.com/500.ko.html';
const BLOCK_WINDOW_MS = 60_000;
/** Where the map opens without a view in the URL (the live site uses the visitor's location). */
const DEFAULT_LEVEL = 5;

/**
 * `mapdaum`: a search request of either endpoint (both answer the map.daum shape); `gate`: a gate-token
 * request; `share`: a request to kko.to.
 */
export type KakaoRequestKind = 'page' | 'mapdaum' | 'gate' | 'place' | 'reviews' | 'share' | 'other';

export type KakaoRequestRecord = LoggedRequest<KakaoRequestKind>;

export interface KakaoReplica {
  port: number;
  world: World;
  kakao: KakaoWorld;
  readonly switches: Readonly<KakaoSwitches>;
  setSwitches(partial: Partial<KakaoSwitches>): void;
  readonly requests: readonly KakaoRequestRecord[];
  /** Search requests answered or refused, either endpoint. */
  mapDaumRequests(): number;
  blocked(): boolean;
  /** Lift a block and restart the rolling minute (what waiting it out does). */
  unblock(): void;
  groundTruth(query: string, box: BBox): KakaoReplicaPlace[];
  /** A place's reviews (by confirmid), newest first; [] for a place with none. */
  kakaoReviewsTruth(confirmId: string): KakaoReview[];
  /**
   * A place's share link, `https://kko.to/{token}` (by confirmid): the same on every run of the same
   * world; it redirects by the `shareRedirect` and `shareLanding` switches. Throws for a place Kakao does not list.
   */
  shareLinkOf(confirmId: string): string;
  /** Requests to kko.to, known token or not. */
  shareLoads(): number;
  close(): Promise<void>;
}

export interface KakaoReplicaOptions {
  world: World;
  port?: number;
  host?: string;
  switches?: Partial<KakaoSwitches>;
  now?: () => number;
}

/** Chromium flags that send the Kakao hosts to the replica. */
export function kakaoChromiumArgs(port: number): string[] {
  return hostResolverArgs(KAKAO_HOSTS, port);
}

export async function startKakaoReplica(options: KakaoReplicaOptions): Promise<KakaoReplica> {
  const { world } = options;
  const kw = kakaoWorld(world);
  const now = options.now ?? Date.now;
  let switches = mergeKakaoSwitches(DEFAULT_KAKAO_SWITCHES, options.switches ?? {});
  const log = createRequestLog<KakaoRequestKind>(now);
  const { requests, send } = log;
  const draws = createRng(deriveSeed(world.seed, 'kakao-server'));
  const limit = createRollingLimit(now, BLOCK_WINDOW_MS);
  let jqueryId = 0;
  /** The gate token's key: a new one per replica, so no token outlives it. */
  const gateSecret = `kakao-gate-${world.seed}-${Math.random()}`;
  /** Reviews are written before the replica started: the truth does not move while a test reads it. */
  const reviewsWrittenBefore = now();
  const shares = createShareService(KAKAO_SHARE_HOST, SHARE_TOKEN_LENGTH, () => kw.byConfirmId.keys());

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (switches.slowMs > 0) await sleep(switches.slowMs);
    const host = hostOf(req);
    const url = new URL(req.url ?? '/', `https://${host || 'map.kakao.com'}`);
    const html = { 'content-type': 'text/html; charset=UTF-8' };
    if (host === KAKAO_SHARE_HOST) {
      const answer = answerShareRequest(shares, { method: req.method ?? 'GET', path: url.pathname }, switches.shareRedirect, (id) =>
        switches.shareLanding === 'itemId' ? `${KAKAO_MAP_ORIGIN}/?itemId=${id}` : `${KAKAO_PLACE_ORIGIN}/${id}`,
      );
      return send(req, res, 'share', answer.status, answer.headers, answer.body);
    }
    if (switches.hangPaths.some((p) => url.pathname.startsWith(p)))
      return log.hang(req, res, 'other', '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>');
    if (host === 'www.kakao.com' && url.pathname === '/500.ko.html') return send(req, res, 'other', 200, html, kakaoBlockPageHtml());
    if (host === 'search.map.kakao.com' && url.pathname === MAP_DAUM_PATH) return mapDaum(req, res, `${KAKAO_SEARCH_ORIGIN}${url.pathname}${url.search}`);
    if (host === 'map.kakao.com' && url.pathname === GATE_TOKEN_PATH) return gate(req, res);
    if (host === 'map.kakao.com' && url.pathname === MAP_SEARCH_PATH) {
      const token = req.headers[GATE_TOKEN_HEADER];
      if (!gateTokenValid(gateSecret, url.pathname + url.search, Array.isArray(token) ? token[0] : token)) {
        return send(req, res, 'mapdaum', 403, { 'content-type': 'application/json; charset=utf-8' }, '{"code":403,"message":"invalid gate token"}');
      }
      return mapDaum(req, res, `${KAKAO_MAP_ORIGIN}${url.pathname}${url.search}`);
    }
    if (host === 'place.map.kakao.com') {
      const m = /^\/(\d+)\/?$/.exec(url.pathname);
      const k = m ? kw.byConfirmId.get(m[1]!) : undefined;
      if (!k) return send(req, res, 'place', 404, html, kakaoNotFoundHtml(url.pathname));
      const reviews = { switches, count: kakaoReviewTotal(k), apiOrigin: KAKAO_PLACE_API_ORIGIN };
      return send(req, res, 'place', 200, html, kakaoPlacePageHtml(k, reviews));
    }
    if (host === 'place-api.map.kakao.com') return placeApi(req, res, url);
    if ((host === 'map.kakao.com' || host === '127.0.0.1' || host === 'localhost') && url.pathname === '/') return searchPage(req, res, url);
    send(req, res, 'other', 404, html, kakaoNotFoundHtml(url.pathname));
  }

  function searchPage(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const info = parseSearchPageUrl(`${KAKAO_MAP_ORIGIN}/${url.search}`);
    // `?itemId={confirmid}` without a query: the map opened on that place (a kko.to landing).
    const item = info?.query ? undefined : kw.byConfirmId.get(url.searchParams.get('itemId') ?? '');
    const view: KakaoView = item ? viewAt(item, ITEM_LEVEL)! : ((switches.urlView === 'honoured' ? info?.view : null) ?? viewAt(world.centre, DEFAULT_LEVEL)!);
    const body = kakaoSearchPageHtml(
      kakaoSearchPageConfig(switches, {
        query: info?.query ?? '',
        view,
        boundsSearch: switches.boundsSearchDefault,
        jqueryId: `1124${String(++jqueryId).padStart(12, '0')}`,
      }),
    );
    send(req, res, 'page', 200, { 'content-type': 'text/html; charset=UTF-8' }, body);
  }

  /** The reviews API, called cross-origin by the place page with its `pf` header (so after a preflight). */
  function placeApi(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const cors = {
      'access-control-allow-origin': KAKAO_PLACE_ORIGIN,
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'pf',
      'content-type': 'application/json; charset=utf-8',
    };
    if (req.method === 'OPTIONS') {
      send(req, res, 'reviews', 204, cors, '');
      return;
    }
    const m = KAKAO_REVIEWS_PATH.exec(url.pathname);
    const k = m ? kw.byConfirmId.get(m[1]!) : undefined;
    if (!k) {
      send(req, res, 'reviews', 404, cors, '{"error":"not found"}');
      return;
    }
    const answer = answerKakaoReviews(k, url.searchParams, { pf: req.headers.pf }, switches, reviewsWrittenBefore);
    send(req, res, 'reviews', answer.status, cors, answer.body);
  }

  async function gate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(req, res, 'gate', 405, { 'content-type': 'application/json' }, '{"code":405}');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = answerGateRequest(gateSecret, Buffer.concat(chunks).toString('utf8'));
    if (!answer) return send(req, res, 'gate', 400, { 'content-type': 'application/json' }, '{"code":400}');
    send(req, res, 'gate', 200, { 'content-type': 'application/json; charset=utf-8' }, answer);
  }

  function mapDaum(req: IncomingMessage, res: ServerResponse, sentUrl: string): void {
    const cors = { 'access-control-allow-origin': KAKAO_MAP_ORIGIN, 'access-control-allow-credentials': 'true' };
    // Drawn on every request, used or not, so a seed gives the same sequence whatever the switches.
    const errorDraw = draws.next();
    if (limit.over(switches.blockAfter)) {
      if (switches.blockMode === 'redirect-500') {
        send(req, res, 'mapdaum', 302, { location: KAKAO_BLOCK_URL, 'content-type': 'text/html; charset=UTF-8' }, '');
        return;
      }
      send(req, res, 'mapdaum', 200, { 'content-type': 'text/html; charset=UTF-8', ...cors }, kakaoRateLimitHtml());
      return;
    }
    if (errorDraw < switches.error500Rate) {
      send(req, res, 'mapdaum', 500, { 'content-type': 'text/html; charset=UTF-8', ...cors }, kakaoBlockPageHtml());
      return;
    }
    const request = parseMapDaumUrl(sentUrl);
    if (!request) {
      send(req, res, 'mapdaum', 400, { 'content-type': 'application/json', ...cors }, '{"error":"bad request"}');
      return;
    }
    const answer = answerMapDaum(kw, switches, request, sentUrl);
    send(req, res, 'mapdaum', answer.status, { 'content-type': answer.contentType, ...cors }, answer.body);
  }

  const server = await startHttpsServer({
    certificate: await replicaCertificate('map.kakao.com', KAKAO_HOSTS),
    port: options.port,
    host: options.host,
    handle,
    fail: (req, res, error) => send(req, res, 'other', 500, { 'content-type': 'text/plain' }, `replica error: ${String(error)}`),
  });
  return {
    port: server.port,
    world,
    kakao: kw,
    get switches() {
      return switches;
    },
    setSwitches(partial) {
      const next = mergeKakaoSwitches(switches, partial);
      if (next.blockAfter === null) limit.reset();
      switches = next;
    },
    requests,
    mapDaumRequests: () => requests.filter((r) => r.kind === 'mapdaum').length,
    blocked: limit.blocked,
    unblock: limit.reset,
    groundTruth: (query, box) =>
      kakaoGroundTruth(kw, query, bboxToWcongRect(box)!).filter((k) => k.lat >= box.south && k.lat <= box.north && k.lng >= box.west && k.lng <= box.east),
    kakaoReviewsTruth: (confirmId) => {
      const k = kw.byConfirmId.get(confirmId);
      return k ? kakaoReviewsOf(k, reviewsWrittenBefore) : [];
    },
    shareLinkOf: (confirmId) => {
      if (!kw.byConfirmId.has(confirmId)) throw new Error(`kakao replica: no place "${confirmId}"`);
      return shares.linkOf(confirmId);
    },
    // The browser's own favicon request on a share page's host is not a load of a share link.
    shareLoads: () => requests.filter((r) => r.kind === 'share' && !r.path.startsWith('/favicon.ico')).length,
    close: server.close,
  };
}
