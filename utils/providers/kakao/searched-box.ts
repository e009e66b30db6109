import { wgs84ToWcongnamul, type WcongRect } from '../../geo/wcongnamul';
import type { Listing } from '../../domain/listing';
import type { KakaoBoundsControl } from './list-dom';
import type { KakaoExchange } from './network';
import { parseMapDaumUrl, type MapDaumRequest } from './urls';
import { innerBBoxOfRect, mapViewOf } from './view';
import { sameQuery } from '../same-query';
import type { MapView } from '../../geo/types';
import type { SearchedBox } from '../../domain/sweep';

/**
 * What a Kakao page searched, measured, not assumed: the newest finished search request the
 * browser lists, its rect as the largest WGS84 box inside it, which copies of the answers can be
 * trusted, and the checks a rect must pass against the places the list shows.
 */

/** A place this far (WCONGNAMUL units, 2.5 per metre) outside the rect was not listed from it. */
export const OUTSIDE_TOLERANCE = 25;

/** With at least this many located places and every side of the rect this empty, the rect looks shrunk. */
export const SHRINK_MIN_PLACES = 30;

export const SHRINK_EMPTY_SHARE = 0.03;

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

/**
 * What the listed places say about the rect. Places outside it: the site did not restrict the
 * list to the rect (the driver's boundsProof recognises a box ignored). A long complete list with
 * every side of the rect empty: the site searched less than the rect [?].
 */
export function rectChecks(rect: WcongRect, organic: readonly Listing[], complete: boolean): string[] {
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
