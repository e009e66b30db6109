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
 * - pcmap-api `POST /graphql`                    the GraphQL list (getPlacesList-like)
 * Over `blockAfter` loads a minute, pages answer the block page and APIs 429 until `unblock()`.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { generate } from 'selfsigned';
import type { BBox } from '../../../utils/geo/types';
import { visibleBBox } from '../../../utils/geo/mercator';
import { naverListUrl, parseBounds, parseCParam, parseListUrl, parseSearchQuery, pcmapPlaceHomeUrl } from '../../../utils/providers/naver/urls';
import { createRng, deriveSeed } from '../prng';
import type { World } from '../world';
import { naverPlaceById } from './data';
import { allSearchAnswer, blockPageHtml, entryPageHtml, graphqlListAnswer, listPageHtml, noResultsHtml, outerSearchHtml, placeHomeHtml } from './pages';
import { adsFor, naverGroundTruth, naverSearch, pageOf } from './search';
import { DEFAULT_NAVER_SWITCHES, mergeNaverSwitches, type NaverSwitches } from './switches';

export const NAVER_HOSTS = ['map.naver.com', 'pcmap.place.naver.com', 'pcmap-api.place.naver.com'] as const;
const BLOCK_WINDOW_MS = 60_000;
const ALLSEARCH_PAGE = 20;
/** The outer page's map when the URL gives no centre (the live site uses the visitor's location). */
const DEFAULT_ZOOM = 15;

export interface NaverRequestRecord {
  at: number;
  method: string;
  host: string;
  path: string;
  status: number;
  kind: 'page' | 'api' | 'other';
}

export interface NaverHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  readonly switches: Readonly<NaverSwitches>;
  setSwitches(partial: Partial<NaverSwitches>): void;
  readonly requests: readonly NaverRequestRecord[];
  blocked(): boolean;
  /** What waiting out the block does: lift it and restart the rolling window. */
  unblock(): void;
  groundTruth(query: string, bbox: BBox): ReturnType<typeof naverGroundTruth>;
}

export function createNaverHandler(world: World, options: { switches?: Partial<NaverSwitches>; now?: () => number } = {}): NaverHandler {
  const now = options.now ?? Date.now;
  let switches = mergeNaverSwitches(DEFAULT_NAVER_SWITCHES, options.switches ?? {});
  const requests: NaverRequestRecord[] = [];
  const draws = createRng(deriveSeed(world.seed, 'naver-server'));
  let recent: number[] = [];
  let isBlocked = false;

  function send(req: IncomingMessage, res: ServerResponse, kind: NaverRequestRecord['kind'], status: number, type: string, body: string): void {
    requests.push({ at: now(), method: req.method ?? 'GET', host: hostOf(req), path: req.url ?? '/', status, kind });
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  }
  const html = 'text/html; charset=UTF-8';
  const json = 'application/json; charset=UTF-8';

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
    const url = new URL(req.url ?? '/', `https://${host || 'map.naver.com'}`);
    const path = url.pathname;
    const isApi = path.startsWith('/p/api/') || host === 'pcmap-api.place.naver.com';
    const isPage = !isApi && (path.startsWith('/p/') || /^\/[a-z]+\/(list|\d+)/.test(path));
    const kind = isApi ? 'api' : isPage ? 'page' : 'other';
    if (kind !== 'other' && overLimit()) {
      return isApi ? send(req, res, kind, 429, json, JSON.stringify({ error: { code: 'NCAPTCHA', msg: '잠시 후 다시 시도해주세요' } })) : send(req, res, kind, switches.blockStatus, html, blockPageHtml());
    }
    if (kind === 'page') {
      // Drawn on every page load, used or not, so a seed gives the same sequence whatever the switches.
      const hangDraw = draws.next();
      const errorDraw = draws.next();
      if (switches.hangPaths.some((p) => path.startsWith(p)) || hangDraw < switches.hangRate) {
        requests.push({ at: now(), method: req.method ?? 'GET', host, path: req.url ?? '/', status: 200, kind });
        res.writeHead(200, { 'content-type': html });
        res.write('<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>네이버 지도</title></head><body>');
        return;
      }
      if (errorDraw < switches.error500Rate || switches.error500Paths.some((p) => path.startsWith(p))) return send(req, res, kind, 500, html, '<!DOCTYPE html><html lang="ko"><body><p>일시적인 오류가 발생했습니다.</p></body></html>');
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
    if (host === 'pcmap.place.naver.com') {
      const list = parseListUrl(url.href);
      if (list) return send(req, res, kind, 200, html, listPage(list));
      const place = /^\/[a-z]+\/(\d+)(\/home)?\/?$/.exec(path);
      if (place) {
        const p = naverPlaceById(world, place[1]!);
        return p ? send(req, res, kind, 200, html, placeHomeHtml(p)) : send(req, res, kind, 404, html, notFound());
      }
    }
    if (host === 'pcmap-api.place.naver.com' && path === '/graphql' && req.method === 'POST') return send(req, res, kind, 200, json, JSON.stringify(graphql(await readBody(req))));
    return send(req, res, kind, 404, html, notFound());
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
    if (outcome.results.length === 0) return noResultsHtml(list.query);
    const { items, pages } = pageOf(outcome.results, list.page, switches.pageSize);
    const centre = list.centre ?? world.centre;
    return listPageHtml({
      query: list.query,
      x: centre.lng.toFixed(7),
      y: centre.lat.toFixed(7),
      items,
      ads: list.page === 1 ? adsFor(world, input, outcome, switches) : [],
      rendered: Math.min(switches.firstRender, items.length),
      page: Math.min(list.page, pages),
      pages,
      total: outcome.results.length,
      pageSize: switches.pageSize,
      lazyBatch: switches.lazyBatch,
      lazyDelayMs: switches.lazyDelayMs,
      pagerWindow: switches.pagerWindow,
      endMarker: switches.endMarker,
      apolloHolds: switches.apolloHolds,
      variant: switches.domVariant,
      brokenCards: switches.brokenCards,
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
    return allSearchAnswer({ query, items: outcome.results.slice((page - 1) * ALLSEARCH_PAGE, page * ALLSEARCH_PAGE), total: outcome.matched, page, boundary: outcome.searchedBox });
  }

  /** GraphQL: the array body's first operation with `variables.input` {query, start, display, x, y, bounds}. */
  function graphql(body: string): unknown {
    let ops: unknown;
    try {
      ops = JSON.parse(body);
    } catch {
      return [{ errors: [{ message: 'bad request' }] }];
    }
    const op = (Array.isArray(ops) ? ops[0] : ops) as { variables?: { input?: Record<string, unknown> } } | undefined;
    const input = op?.variables?.input ?? {};
    const query = typeof input.query === 'string' ? input.query : '';
    const display = Math.min(100, Math.max(1, Number(input.display) || 50));
    const start = Math.max(1, Number(input.start) || 1);
    const x = Number(input.x);
    const y = Number(input.y);
    const outcome = naverSearch(world, { query, bounds: parseBounds(typeof input.bounds === 'string' ? input.bounds : null), centre: Number.isFinite(x) && Number.isFinite(y) ? { lat: y, lng: x } : null }, switches);
    return graphqlListAnswer(outcome.results.slice(start - 1, start - 1 + display), outcome.results.length);
  }

  return {
    handle,
    get switches() {
      return switches;
    },
    setSwitches(partial) {
      const next = mergeNaverSwitches(switches, partial);
      if (next.blockAfter === null) {
        isBlocked = false;
        recent = [];
      }
      switches = next;
    },
    requests,
    blocked: () => isBlocked,
    unblock() {
      isBlocked = false;
      recent = [];
    },
    groundTruth: (query, bbox) => naverGroundTruth(world, query, bbox),
  };
}

export interface NaverReplica extends Omit<NaverHandler, 'handle'> {
  port: number;
  world: World;
  close(): Promise<void>;
}

/** Chromium flags that send the Naver hosts to the replica. */
export function naverChromiumArgs(port: number): string[] {
  return [`--host-resolver-rules=${NAVER_HOSTS.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ')}`, '--ignore-certificate-errors'];
}

let certificate: Promise<{ key: string; cert: string }> | null = null;
function naverCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'map.naver.com' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [...NAVER_HOSTS.map((value) => ({ type: 2 as const, value })), { type: 2 as const, value: 'localhost' }, { type: 7 as const, ip: '127.0.0.1' }] }],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}

export async function startNaverReplica(options: { world: World; port?: number; host?: string; switches?: Partial<NaverSwitches>; now?: () => number }): Promise<NaverReplica> {
  const handler = createNaverHandler(options.world, options);
  const { key, cert } = await naverCertificate();
  const sockets = new Set<Socket>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    handler.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`replica error: ${String(error)}`);
      } else res.destroy();
    });
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    world: options.world,
    get switches() {
      return handler.switches;
    },
    setSwitches: (p) => handler.setSwitches(p),
    requests: handler.requests,
    blocked: () => handler.blocked(),
    unblock: () => handler.unblock(),
    groundTruth: (q, b) => handler.groundTruth(q, b),
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

function notFound(): string {
  return '<!DOCTYPE html><html lang="ko"><body><p>요청하신 페이지를 찾을 수 없습니다.</p></body></html>';
}

function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > limit) {
        reject(new Error('body too large'));
        req.destroy();
      }
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
