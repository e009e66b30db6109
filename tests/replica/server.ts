/**
 * The replica Google Maps site: a local HTTPS server that Chromium reaches as https://www.google.com/
 * (and consent.google.com) through `chromiumArgs(port)`.
 *
 * Routes (map-pages-spec §1):
 * - `/maps/search/{q}[/@lat,lng,zoomz]`   search shell; its script loads the list 20 at a time
 * - `/search?tbm=map…`                     the list's JSON (`tch=1` → in-page framing, else `)]}'`)
 * - `/maps/place/…`, `/maps?cid=…`         the place page (with its Reviews tab, reviews-view.ts)
 * - `/maps/rpc/listugcposts?place=…`       one batch of a place's reviews (an XHR, like `/search`)
 * - `/sorry/index`                         429 captcha page (POSTing its form solves it)
 * - consent.google.com `/m`, `/save`       the consent wall and its SOCS cookie
 * - maps.app.goo.gl `/{token}`             a place's share link (share-links.ts), by `shareLinkOf`
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Area, BBox } from '../../utils/geo/types';
import { GOOGLE_ORIGIN, parsePlaceUrl, parseSearchQuery, parseView } from '../../utils/providers/google/urls';
import { REAL_CLASSES } from './dom-variants';
import { placePageUrl, sharedPlaceUrl } from './hrefs';
import {
  createRequestLog,
  createRollingLimit,
  type Headers,
  hostOf,
  hostResolverArgs,
  type LoggedRequest,
  readBody,
  replicaCertificate,
  sleep,
  startHttpsServer,
} from './https-server';
import { consentHtml, escapeHtml, notFoundHtml, placePageHtml, searchShellHtml, serverErrorHtml, sorryHtml } from './pages';
import { createRng, deriveSeed } from './prng';
import { groundTruth } from './search';
import { replicaLang } from './locale';
import { answerReviewsXhr, REVIEWS_PATH, type ReviewClock, type ReviewTruth, reviewsTruth } from './reviews-view';
import { reviewTotal } from './reviews';
import { answerSearchXhr, createSearchCache } from './search-xhr';
import { answerShareRequest, createShareService } from './share-links';
import { DEFAULT_SWITCHES, mergeSwitches, type Switches } from './switches';
import type { ReplicaPlace, World } from './world';

export const CONSENT_ORIGIN = 'https://consent.google.com';
/** The Maps app's share-link service (map-pages-spec §1: "maps.app.goo.gl/…, which redirects"). */
export const GOOGLE_SHARE_HOST = 'maps.app.goo.gl';
/** Every host the replica answers as; `chromiumArgs` sends them all to it. */
export const GOOGLE_HOSTS = ['www.google.com', 'consent.google.com', GOOGLE_SHARE_HOST] as const;
/** Share tokens: 12 base62 characters (the live ones are longer; a test only needs them opaque). */
const SHARE_TOKEN_LENGTH = 12;
const CAPTCHA_WINDOW_MS = 60_000;
const SOCS_ACCEPT = 'CAESHAgBEhJnd3NfMjAyNjAxMDEtMF9SQzIaAmVuIAEaBgiA_LyaBg';
const SOCS_REJECT = 'CAESHAgCEhJnd3NfMjAyNjAxMDEtMF9SQzIaAmVuIAEaBgiA_LyaBg';
/** Where a search without `@…` lands (the real site uses the visitor's location). */
const DEFAULT_SEARCH_ZOOM = 14;

export type RequestKind = 'page' | 'xhr' | 'share' | 'other';

/**
 * `kind` — `page`: a navigation to /maps/*; `xhr`: the list's /search and the reviews' batch requests;
 * `share`: a request to maps.app.goo.gl; `other`: sorry, consent, assets.
 */
export type RequestRecord = LoggedRequest<RequestKind>;

export interface Replica {
  port: number;
  /** `https://127.0.0.1:{port}` (Chromium uses https://www.google.com through the resolver rules). */
  origin: string;
  world: World;
  /** The switches now in force. */
  readonly switches: Readonly<Switches>;
  /** Apply some switches; bad values throw and change nothing. Turning `captchaAfter` off also lifts a block. */
  setSwitches(partial: Partial<Switches>): void;
  /** Every request so far, oldest first. */
  readonly requests: readonly RequestRecord[];
  /** Navigations to /maps/* (search shells and place pages), not counting XHRs. */
  pageLoads(): number;
  /** The list's /search requests and the reviews' batch requests. */
  xhrs(): number;
  /** Requests to the share-link service (maps.app.goo.gl), known token or not. */
  shareLoads(): number;
  /**
   * A place's share link, `https://maps.app.goo.gl/{token}` (by place id `ChIJ…`, CID or feature id:
   * one link per place, whichever names it). The same on every run of the same world; the link
   * redirects by the `shareRedirect` and `shareLanding` switches. Throws for a place Google does not list.
   */
  shareLinkOf(placeId: string): string;
  /** Whether the sorry page is up. */
  blocked(): boolean;
  /** What a human solving the captcha does: lift the block and restart the rolling window. */
  solveCaptcha(): void;
  groundTruth(query: string, area: BBox | Area): ReplicaPlace[];
  /**
   * A place's reviews (by place id `ChIJ…`, CID or feature id), newest first, each with `dateText`, its
   * date as the page prints it by the replica's clock now. Throws for a place Google does not list.
   */
  reviewsTruth(placeId: string): ReviewTruth[];
  /** How many reviews the place has (0 when none). */
  reviewsCount(placeId: string): number;
  close(): Promise<void>;
}

export interface ReplicaOptions {
  world: World;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  switches?: Partial<Switches>;
  /** Clock for the request log and the captcha's rolling minute. */
  now?: () => number;
}

/** Chromium flags that send www.google.com, consent.google.com and maps.app.goo.gl to the replica. */
export function chromiumArgs(port: number): string[] {
  return hostResolverArgs(GOOGLE_HOSTS, port);
}

export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const { world } = options;
  const now = options.now ?? Date.now;
  let switches = mergeSwitches(DEFAULT_SWITCHES, options.switches ?? {});
  const log = createRequestLog<RequestKind>(now);
  const { requests, send } = log;
  const draws = createRng(deriveSeed(world.seed, 'server'));
  const searchCache = createSearchCache();
  const captcha = createRollingLimit(now, CAPTCHA_WINDOW_MS);
  const jitter = createRng(deriveSeed(world.seed, 'reviews jitter'));
  // Every review was written before the replica started; their printed ages grow with its clock.
  const reviewsWrittenBefore = now();
  const reviewClock = (): ReviewClock => ({ writtenBefore: reviewsWrittenBefore, now: now() });
  // Keyed by CID, the one id every place has, so all three ids of a place give one link.
  const shares = createShareService(GOOGLE_SHARE_HOST, SHARE_TOKEN_LENGTH, () => world.byCid.keys());

  function redirect(req: IncomingMessage, res: ServerResponse, kind: RequestKind, location: string, extra: Headers = {}): void {
    send(req, res, kind, 302, { location, 'content-type': 'text/html; charset=UTF-8', ...extra }, `<a href="${escapeHtml(location)}">moved</a>`);
  }

  /** Headers and the start of a page, then nothing: the tab keeps loading forever. */
  function hang(req: IncomingMessage, res: ServerResponse, kind: RequestKind): void {
    log.hang(req, res, kind, '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Google Maps</title></head><body>');
  }

  /** Counts a Google request in the rolling minute; true when the sorry page answers instead. */
  function overLimit(): boolean {
    return captcha.over(switches.captchaAfter);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (switches.slowMs > 0) await sleep(switches.slowMs);
    const url = new URL(req.url ?? '/', GOOGLE_ORIGIN);
    if (hostOf(req) === 'consent.google.com') return handleConsent(req, res, url);
    // Its own service: no captcha, consent wall or hang of www.google.com applies to it.
    if (hostOf(req) === GOOGLE_SHARE_HOST) return shareLink(req, res, url);
    const path = url.pathname;
    const kind: RequestKind = path === '/search' || path === REVIEWS_PATH ? 'xhr' : path === '/maps' || path.startsWith('/maps/') ? 'page' : 'other';
    if (kind !== 'other' && overLimit()) {
      const token = randomBytes(16).toString('hex');
      return redirect(req, res, kind, `${GOOGLE_ORIGIN}/sorry/index?continue=${encodeURIComponent(GOOGLE_ORIGIN + (req.url ?? '/'))}&q=${token}`);
    }
    if (kind === 'page' && switches.consent && !hasCookie(req, 'SOCS')) {
      const cont = encodeURIComponent(GOOGLE_ORIGIN + (req.url ?? '/'));
      return redirect(req, res, kind, `${CONSENT_ORIGIN}/m?continue=${cont}&gl=DE&m=0&pc=m&uxe=eomtm&cm=2&hl=en&src=1`);
    }
    if (kind === 'page') {
      // Drawn on every page load, used or not, so a seed gives the same sequence whatever the switches.
      const hangDraw = draws.next();
      const errorDraw = draws.next();
      if (switches.hangPaths.some((p) => path.startsWith(p)) || hangDraw < switches.hangRate) return hang(req, res, kind);
      if (path.startsWith('/maps/search/') && (errorDraw < switches.error500Rate || switches.error500Paths.some((p) => path.startsWith(p)))) {
        return send(req, res, kind, 500, { 'content-type': 'text/html; charset=UTF-8' }, serverErrorHtml());
      }
    } else if (switches.hangPaths.some((p) => path.startsWith(p))) {
      return hang(req, res, kind);
    }
    if (path === REVIEWS_PATH) return reviewsXhr(req, res, url);
    if (path.startsWith('/maps/search/')) return searchPage(req, res, url);
    if (path.startsWith('/maps/place') || (path === '/maps' && url.searchParams.has('cid'))) return placePage(req, res, url);
    if (path === '/search' && url.searchParams.get('tbm') === 'map') return searchXhr(req, res, url);
    if (path === '/sorry/index') return sorry(req, res, url);
    if (path === '/sorry/image') return send(req, res, 'other', 200, { 'content-type': 'image/gif' }, '');
    return send(req, res, kind, 404, { 'content-type': 'text/html; charset=UTF-8' }, notFoundHtml(path));
  }

  function searchPage(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const query = parseSearchQuery(url.pathname);
    if (!query?.trim()) {
      send(req, res, 'page', 404, { 'content-type': 'text/html; charset=UTF-8' }, notFoundHtml(url.pathname));
      return;
    }
    const view = parseView(url.pathname) ?? { lat: world.centre.lat, lng: world.centre.lng, zoom: DEFAULT_SEARCH_ZOOM };
    const html = searchShellHtml({
      query,
      view,
      classes: REAL_CLASSES,
      variant: switches.domVariant,
      batchDelayMs: switches.batchDelayMs,
      brokenCards: switches.brokenCards,
      singleResultRedirectMs: switches.singleResultRedirectMs,
      panelWidth: switches.panelWidth,
      lang: replicaLang(url.searchParams.get('hl')),
    });
    send(req, res, 'page', 200, { 'content-type': 'text/html; charset=UTF-8' }, html);
  }

  function placePage(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const ids = parsePlaceUrl(url.pathname + url.search);
    const place = (ids.cid && world.byCid.get(ids.cid)) || null;
    if (!place) {
      send(req, res, 'page', 404, { 'content-type': 'text/html; charset=UTF-8' }, notFoundHtml(url.pathname));
      return;
    }
    const canonical = url.pathname.startsWith('/maps/place/') && url.pathname.includes('/data=') ? null : placePageUrl(place);
    if (canonical && url.pathname === '/maps' && switches.cidPage === 'redirect') {
      const hl = url.searchParams.get('hl');
      redirect(req, res, 'page', `${canonical}${hl ? `&hl=${encodeURIComponent(hl)}` : ''}`);
      return;
    }
    const html = placePageHtml({
      place,
      view: parseView(url.pathname) ?? { lat: place.lat, lng: place.lng, zoom: 17 },
      variant: switches.domVariant,
      signedIn: switches.signedIn,
      canonicalUrl: canonical,
      panelWidth: switches.panelWidth,
      lang: replicaLang(url.searchParams.get('hl')),
      reviews: { switches, clock: reviewClock() },
    });
    send(req, res, 'page', 200, { 'content-type': 'text/html; charset=UTF-8' }, html);
  }

  async function reviewsXhr(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // Drawn on every batch, used or not, so a seed gives the same delays whatever the switch.
    const extraMs = jitter.next() * switches.reviewsJitterMs;
    if (extraMs > 0) await sleep(extraMs);
    const answer = answerReviewsXhr(world, switches.signedIn, url.searchParams, reviewClock());
    send(req, res, 'xhr', answer.status, { 'content-type': answer.contentType }, answer.body);
  }

  /** maps.app.goo.gl/{token}: on to the place, as the share switches say. */
  function shareLink(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const answer = answerShareRequest(shares, { method: req.method ?? 'GET', path: url.pathname }, switches.shareRedirect, (cid) =>
      switches.shareLanding === 'cid' ? `${GOOGLE_ORIGIN}/maps?cid=${cid}` : sharedPlaceUrl(world.byCid.get(cid)!, skidOf(cid)),
    );
    send(req, res, 'share', answer.status, answer.headers, answer.body);
  }

  /** The place Google lists under a place id, CID or feature id. */
  function googlePlace(id: string): ReplicaPlace {
    const place = world.byFeatureId.get(id) ?? world.byCid.get(id) ?? [...world.byCid.values()].find((p) => p.placeId === id);
    if (!place) throw new Error(`replica: no place "${id}" on Google`);
    return place;
  }

  function searchXhr(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const answer = answerSearchXhr(world, switches, url.searchParams, searchCache);
    send(req, res, 'xhr', answer.status, { 'content-type': answer.contentType }, answer.body);
  }

  async function sorry(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      captcha.reset();
      return redirect(req, res, 'other', safeContinue(form.get('continue'), `${GOOGLE_ORIGIN}/maps`));
    }
    const html = sorryHtml({
      continueUrl: url.searchParams.get('continue') ?? `${GOOGLE_ORIGIN}/maps`,
      token: url.searchParams.get('q') ?? '',
      ip: req.socket.remoteAddress ?? '127.0.0.1',
      time: new Date(now()),
    });
    send(req, res, 'other', 429, { 'content-type': 'text/html; charset=UTF-8' }, html);
  }

  async function handleConsent(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/m') {
      const html = consentHtml({
        continueUrl: url.searchParams.get('continue') ?? `${GOOGLE_ORIGIN}/maps`,
        hl: url.searchParams.get('hl') ?? 'en',
        gl: url.searchParams.get('gl') ?? 'DE',
      });
      return send(req, res, 'other', 200, { 'content-type': 'text/html; charset=UTF-8' }, html);
    }
    if (url.pathname === '/save' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const value = form.get('set_eom') === 'true' ? SOCS_ACCEPT : SOCS_REJECT;
      const cookie = `SOCS=${value}; Domain=.google.com; Path=/; Max-Age=34190000; Secure; SameSite=lax`;
      return redirect(req, res, 'other', safeContinue(form.get('continue'), `${GOOGLE_ORIGIN}/maps`), { 'set-cookie': [cookie] });
    }
    send(req, res, 'other', 404, { 'content-type': 'text/html; charset=UTF-8' }, notFoundHtml(url.pathname));
  }

  const server = await startHttpsServer({
    certificate: await replicaCertificate('www.google.com', [...GOOGLE_HOSTS, '*.google.com']),
    port: options.port,
    host: options.host,
    handle,
    fail: (req, res, error) => send(req, res, 'other', 500, { 'content-type': 'text/plain' }, `replica error: ${String(error)}`),
  });
  const port = server.port;

  return {
    port,
    origin: `https://127.0.0.1:${port}`,
    world,
    get switches() {
      return switches;
    },
    setSwitches(partial) {
      const next = mergeSwitches(switches, partial);
      if (next.captchaAfter === null) captcha.reset();
      switches = next;
    },
    requests,
    pageLoads: () => requests.filter((r) => r.kind === 'page').length,
    xhrs: () => requests.filter((r) => r.kind === 'xhr').length,
    // The browser's own favicon request on a share page's host is not a load of a share link.
    shareLoads: () => requests.filter((r) => r.kind === 'share' && !r.path.startsWith('/favicon.ico')).length,
    shareLinkOf: (placeId) => shares.linkOf(googlePlace(placeId).cid),
    blocked: captcha.blocked,
    solveCaptcha: captcha.reset,
    groundTruth: (query, area) => groundTruth(world, query, area),
    reviewsTruth: (placeId) => reviewsTruth(googlePlace(placeId), reviewClock()),
    reviewsCount: (placeId) => reviewTotal(googlePlace(placeId)),
    close: server.close,
  };
}

/** The share's `skid`: a UUID-shaped value fixed per link (the live one is a session id of the share). */
function skidOf(cid: string): string {
  const h = createHash('sha256').update(`skid ${cid}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Number.parseInt(h[16]!, 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function hasCookie(req: IncomingMessage, name: string): boolean {
  return (req.headers.cookie ?? '').split(';').some((c) => c.trim().startsWith(`${name}=`));
}

/** Only ever send the browser back to the replica's own hosts. */
function safeContinue(value: string | null, fallback: string): string {
  if (!value) return fallback;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' && (u.hostname === 'www.google.com' || u.hostname === 'consent.google.com') ? u.href : fallback;
  } catch {
    return fallback;
  }
}
