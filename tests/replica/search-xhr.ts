/**
 * The `/search?tbm=map` endpoint as a pure function of the world, the switches and the query string,
 * so unit tests can answer a page's requests in-process exactly as the server does.
 */
import type { MapView, Viewport } from '../../utils/geo/types';
import { PANEL_WIDTH_PX, zoomFromViewDistance } from './mercator';
import { localisePlace, replicaLang } from './locale';
import { frameDirect, frameInPage, searchResponseData } from './place-data';
import { type SearchOutcome, type SearchSwitches, searchPlaces } from './search';
import type { ReplicaPlace, World } from './world';

export const BATCH_SIZE = 20;

export interface SearchRequest {
  view: MapView;
  width: number;
  height: number;
  offset: number;
  count: number;
}

export interface XhrAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** Small memo of recent searches: the page asks the same search once per batch. */
export interface SearchCache {
  get(key: string): SearchOutcome | undefined;
  set(key: string, value: SearchOutcome): void;
}

export function createSearchCache(limit = 64): SearchCache {
  const map = new Map<string, SearchOutcome>();
  return {
    get: (key) => map.get(key),
    set(key, value) {
      if (map.size >= limit) map.delete(map.keys().next().value!);
      map.set(key, value);
    },
  };
}

export function answerSearchXhr(
  world: World,
  switches: SearchSwitches & { sponsored: boolean },
  params: URLSearchParams,
  cache: SearchCache = createSearchCache(),
): XhrAnswer {
  const query = params.get('q') ?? '';
  const request = parsePb(params.get('pb') ?? '', params.get('ech'));
  if (typeof request === 'string' || !query.trim()) {
    const why = typeof request === 'string' ? request : 'missing q';
    return { status: 400, contentType: 'text/plain; charset=UTF-8', body: `bad tbm=map request: ${why}` };
  }
  const viewport: Viewport = { width: request.width, height: request.height, panelWidth: switches.panelWidth ?? PANEL_WIDTH_PX };
  const key = JSON.stringify([
    query,
    request.view,
    request.width,
    request.height,
    switches.signedIn,
    switches.sparseZoomOut,
    switches.geometry,
    viewport.panelWidth,
  ]);
  let outcome = cache.get(key);
  if (!outcome) {
    outcome = searchPlaces(world, query, request.view, viewport, switches);
    cache.set(key, outcome);
  }
  // The page's language (`hl`) changes the texts only, never which places are listed.
  const lang = replicaLang(params.get('hl'));
  const batch = outcome.results.slice(request.offset, request.offset + request.count).map((p) => localisePlace(p, lang));
  const ad = request.offset === 0 && switches.sponsored ? pickSponsored(outcome.results) : null;
  const sponsored = ad ? localisePlace(ad, lang) : null;
  const data = searchResponseData({ query, places: batch, finalView: outcome.finalView, viewport, signedIn: switches.signedIn, sponsored, lang });
  const body = params.get('tch') === '1' ? frameInPage(data) : frameDirect(data);
  return { status: 200, contentType: 'application/json; charset=UTF-8', body };
}

/**
 * The view, window and paging of a `pb` (spec §1.5): `!1d{dist}!2d{lng}!3d{lat}…!3m2!1i{w}!2i{h}!4f{zoom}…!7i{n}!8i{offset}`.
 * `!8i` may be absent on the first page; `ech` (1-based page) is the fallback. Returns a reason when malformed.
 */
export function parsePb(pb: string, ech: string | null = null): SearchRequest | string {
  const centre = /!1d([\d.]+)!2d(-?[\d.]+)!3d(-?[\d.]+)/.exec(pb);
  if (!centre) return 'pb has no !1d!2d!3d view';
  const size = /!3m2!1i(\d+)!2i(\d+)/.exec(pb);
  if (!size) return 'pb has no !3m2!1i!2i window size';
  const width = Number(size[1]);
  const height = Number(size[2]);
  const lng = Number(centre[2]);
  const lat = Number(centre[3]);
  const zoomToken = /!4f([\d.]+)/.exec(pb);
  const zoom = zoomToken ? Number(zoomToken[1]) : zoomFromViewDistance(Number(centre[1]), lat, height);
  if (![lat, lng, zoom].every(Number.isFinite) || Math.abs(lat) > 85 || Math.abs(lng) > 180 || zoom < 1 || zoom > 22) return 'view out of range';
  if (width < 1 || height < 1 || width > 10_000 || height > 10_000) return 'window size out of range';
  const count = Number(/!7i(\d+)/.exec(pb)?.[1] ?? BATCH_SIZE);
  if (count < 1 || count > 100) return 'count (!7i) out of range';
  const offsetToken = /!8i(\d+)/.exec(pb)?.[1];
  const page = ech !== null && /^\d+$/.test(ech) ? Math.max(1, Number(ech)) : 1;
  const offset = offsetToken !== undefined ? Number(offsetToken) : (page - 1) * BATCH_SIZE;
  return { view: { lat, lng, zoom }, width, height, offset, count };
}

/** The organic place the sponsored card repeats: the first with a website from rank 3 on. */
function pickSponsored(results: readonly ReplicaPlace[]): ReplicaPlace | null {
  return results.slice(2).find((p) => p.website !== null) ?? null;
}
