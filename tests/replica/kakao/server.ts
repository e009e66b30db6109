/**
 * The Kakao replica: one local HTTPS server answering, by Host header, as
 * - map.kakao.com          `/?q=…[&urlX&urlY&urlLevel]`  the search page (list built by its script)
 * - search.map.kakao.com   `/mapsearch/map.daum?…`       the list's JSON or JSONP
 * - place.map.kakao.com    `/{confirmid}`                 the place page
 * - www.kakao.com          `/500.ko.html`                 where a block redirects
 * Chromium reaches it through `kakaoChromiumArgs(port)`. The Google replica (../server.ts) is
 * separate and unchanged; both can run at once on two ports.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { generate } from 'selfsigned';
import type { BBox } from '../../../utils/geo/types';
import { bboxToWcongRect, WCONG_PER_METRE } from '../../../utils/geo/wcongnamul';
import { KAKAO_MAP_ORIGIN, KAKAO_PLACE_ORIGIN, KAKAO_SEARCH_ORIGIN, type KakaoView, metresPerPixel, parseMapDaumUrl, parseSearchPageUrl, viewAt } from '../../../utils/providers/kakao/urls';
import { createRng, deriveSeed } from '../prng';
import type { World } from '../world';
import { kakaoBlockPageHtml, kakaoNotFoundHtml, kakaoPlacePageHtml, kakaoRateLimitHtml, kakaoSearchPageHtml } from './pages';
import { type KakaoReplicaPlace, type KakaoWorld, kakaoWorld } from './places';
import { answerMapDaum, kakaoGroundTruth } from './search';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches, mergeKakaoSwitches } from './switches';

export const KAKAO_HOSTS = ['map.kakao.com', 'search.map.kakao.com', 'place.map.kakao.com', 'www.kakao.com'] as const;
export const KAKAO_BLOCK_URL = 'https://www.kakao.com/500.ko.html';
const BLOCK_WINDOW_MS = 60_000;
/** Where the map opens without a view in the URL (the live site uses the visitor's location). */
const DEFAULT_LEVEL = 5;

export type KakaoRequestKind = 'page' | 'mapdaum' | 'place' | 'other';

export interface KakaoRequestRecord {
  at: number;
  host: string;
  path: string;
  status: number;
  kind: KakaoRequestKind;
}

export interface KakaoReplica {
  port: number;
  world: World;
  kakao: KakaoWorld;
  readonly switches: Readonly<KakaoSwitches>;
  setSwitches(partial: Partial<KakaoSwitches>): void;
  readonly requests: readonly KakaoRequestRecord[];
  mapDaumRequests(): number;
  blocked(): boolean;
  /** Lift a block and restart the rolling minute (what waiting it out does). */
  unblock(): void;
  groundTruth(query: string, box: BBox): KakaoReplicaPlace[];
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
  return [`--host-resolver-rules=${KAKAO_HOSTS.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ')}`, '--ignore-certificate-errors'];
}

let certificate: Promise<{ key: string; cert: string }> | null = null;
function kakaoCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'map.kakao.com' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [...KAKAO_HOSTS.map((value) => ({ type: 2 as const, value })), { type: 2 as const, value: 'localhost' }, { type: 7 as const, ip: '127.0.0.1' }],
      },
    ],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}

export async function startKakaoReplica(options: KakaoReplicaOptions): Promise<KakaoReplica> {
  const { world } = options;
  const kw = kakaoWorld(world);
  const now = options.now ?? Date.now;
  let switches = mergeKakaoSwitches(DEFAULT_KAKAO_SWITCHES, options.switches ?? {});
  const requests: KakaoRequestRecord[] = [];
  const draws = createRng(deriveSeed(world.seed, 'kakao-server'));
  let recent: number[] = [];
  let isBlocked = false;
  let jqueryId = 0;

  const { key, cert } = await kakaoCertificate();
  const sockets = new Set<Socket>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(req, res, 'other', 500, { 'content-type': 'text/plain' }, `replica error: ${String(error)}`);
      else res.destroy();
    });
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function send(req: IncomingMessage, res: ServerResponse, kind: KakaoRequestKind, status: number, headers: Record<string, string>, body: string): void {
    requests.push({ at: now(), host: hostOf(req), path: req.url ?? '/', status, kind });
    res.writeHead(status, { 'cache-control': 'no-store', ...headers });
    res.end(body);
  }

  function overLimit(): boolean {
    if (switches.blockAfter === null) return false;
    if (isBlocked) return true;
    const t = now();
    recent = recent.filter((at) => t - at < BLOCK_WINDOW_MS);
    recent.push(t);
    if (recent.length > switches.blockAfter) isBlocked = true;
    return isBlocked;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (switches.slowMs > 0) await new Promise((r) => setTimeout(r, switches.slowMs));
    const host = hostOf(req);
    const url = new URL(req.url ?? '/', `https://${host || 'map.kakao.com'}`);
    const html = { 'content-type': 'text/html; charset=UTF-8' };
    if (switches.hangPaths.some((p) => url.pathname.startsWith(p))) {
      requests.push({ at: now(), host, path: req.url ?? '/', status: 200, kind: 'other' });
      res.writeHead(200, { ...html, 'cache-control': 'no-store' });
      res.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>');
      return;
    }
    if (host === 'www.kakao.com' && url.pathname === '/500.ko.html') return send(req, res, 'other', 200, html, kakaoBlockPageHtml());
    if (host === 'search.map.kakao.com' && url.pathname === '/mapsearch/map.daum') return mapDaum(req, res, url);
    if (host === 'place.map.kakao.com') {
      const m = /^\/(\d+)\/?$/.exec(url.pathname);
      const k = m ? kw.byConfirmId.get(m[1]!) : undefined;
      return k ? send(req, res, 'place', 200, html, kakaoPlacePageHtml(k)) : send(req, res, 'place', 404, html, kakaoNotFoundHtml(url.pathname));
    }
    if ((host === 'map.kakao.com' || host === '127.0.0.1' || host === 'localhost') && url.pathname === '/') return searchPage(req, res, url);
    send(req, res, 'other', 404, html, kakaoNotFoundHtml(url.pathname));
  }

  function searchPage(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const info = parseSearchPageUrl(`${KAKAO_MAP_ORIGIN}/${url.search}`);
    const view: KakaoView = (switches.urlView === 'honoured' ? info?.view : null) ?? viewAt(world.centre, DEFAULT_LEVEL)!;
    const body = kakaoSearchPageHtml({
      query: info?.query ?? '',
      view,
      wcongPerPx: metresPerPixel(view.level) * WCONG_PER_METRE,
      panelWidth: switches.panelWidth,
      previewCount: switches.previewCount,
      moreLandsOn: switches.moreLandsOn,
      capPages: switches.capPages,
      boundsControl: switches.boundsControl,
      boundsSearch: switches.boundsSearchDefault,
      transport: switches.transport,
      brokenItems: switches.brokenItems,
      searchOrigin: KAKAO_SEARCH_ORIGIN,
      placeOrigin: KAKAO_PLACE_ORIGIN,
      jqueryId: `1124${String(++jqueryId).padStart(12, '0')}`,
    });
    send(req, res, 'page', 200, { 'content-type': 'text/html; charset=UTF-8' }, body);
  }

  function mapDaum(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const cors = { 'access-control-allow-origin': KAKAO_MAP_ORIGIN, 'access-control-allow-credentials': 'true' };
    // Drawn on every request, used or not, so a seed gives the same sequence whatever the switches.
    const errorDraw = draws.next();
    if (overLimit()) {
      if (switches.blockMode === 'redirect-500') return send(req, res, 'mapdaum', 302, { location: KAKAO_BLOCK_URL, 'content-type': 'text/html; charset=UTF-8' }, '');
      return send(req, res, 'mapdaum', 200, { 'content-type': 'text/html; charset=UTF-8', ...cors }, kakaoRateLimitHtml());
    }
    if (errorDraw < switches.error500Rate) return send(req, res, 'mapdaum', 500, { 'content-type': 'text/html; charset=UTF-8', ...cors }, kakaoBlockPageHtml());
    const request = parseMapDaumUrl(`${KAKAO_SEARCH_ORIGIN}${url.pathname}${url.search}`);
    if (!request) return send(req, res, 'mapdaum', 400, { 'content-type': 'application/json', ...cors }, '{"error":"bad request"}');
    const answer = answerMapDaum(kw, switches, request);
    send(req, res, 'mapdaum', answer.status, { 'content-type': answer.contentType, ...cors }, answer.body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    world,
    kakao: kw,
    get switches() {
      return switches;
    },
    setSwitches(partial) {
      const next = mergeKakaoSwitches(switches, partial);
      if (next.blockAfter === null) {
        isBlocked = false;
        recent = [];
      }
      switches = next;
    },
    requests,
    mapDaumRequests: () => requests.filter((r) => r.kind === 'mapdaum').length,
    blocked: () => isBlocked,
    unblock() {
      isBlocked = false;
      recent = [];
    },
    groundTruth: (query, box) => kakaoGroundTruth(kw, query, bboxToWcongRect(box)!).filter((k) => k.lat >= box.south && k.lat <= box.north && k.lng >= box.west && k.lng <= box.east),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function hostOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
}
