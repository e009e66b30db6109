/**
 * Seeing the list page's own GraphQL answers (naver-kakao-notes A6): the Apollo state embedded in
 * a pcmap list page describes only what was rendered at load; the cards the lazy list adds as the
 * person scrolls (and a page the pager re-renders in place) come from the page's own
 * `POST pcmap-api.place.naver.com/graphql` calls, whose items carry what the cards do not print
 * (coordinates, road and lot addresses, phones, booking).
 *
 * Two halves, as for Google and Kakao (utils/providers/google/network-hook.ts,
 * utils/providers/kakao/network-hook.ts): `installNaverNetworkHook` runs in the page's MAIN world
 * before its scripts and copies each answer's text to `post`; the isolated world reads the copies
 * back with `readNaverHookMessage` and trusts nothing in them (any page script can post the same
 * message). What the copies may do is in page-data.ts: fill fields of places the DOM showed.
 *
 * This module runs in the page's world: it imports only the shared hook
 * (utils/providers/page-network-hook.ts), which imports nothing.
 */

import { boundedString, installPageNetworkHook, MAX_MESSAGE_URL, taggedMessage } from '../page-network-hook';

export const NAVER_HOOK_SOURCE = 'mapsweep:naver-pcmap';

/** Which answer a copy is. */
export type NaverHookKind = 'graphql' | 'allsearch';

/** One copied answer, as the hook posts it. */
export interface NaverHookMessage {
  source: typeof NAVER_HOOK_SOURCE;
  kind: NaverHookKind;
  /** The request URL as the page sent it (absolute). */
  url: string;
  /** HTTP status, or null when the transport does not tell it. */
  status: number | null;
  /** The URL the answer came from after redirects, when the transport tells it. */
  finalUrl: string | null;
  contentType: string | null;
  /** The answer's text. */
  body: string;
}

/** Longest answer copied: a 50-item GraphQL page is ~60 kB, an allSearch page ~120 kB. Past this it is not one we read. */
export const MAX_HOOK_BODY = 4_000_000;

/** The kind of answer a request URL gets, or null for any request the hook leaves alone. */
export function naverHookKind(href: string): NaverHookKind | null {
  try {
    const u = new URL(href);
    if (u.protocol !== 'https:') return null;
    // `/graphql` now; `/place/graphql` around 2021–22 (A6).
    if (u.hostname === 'pcmap-api.place.naver.com' && (u.pathname === '/graphql' || u.pathname === '/place/graphql')) return 'graphql';
    if (u.hostname === 'map.naver.com' && u.pathname === '/p/api/search/allSearch') return 'allsearch';
    return null;
  } catch {
    return null;
  }
}

type Post = (message: NaverHookMessage) => void;
type Target = { url: string; kind: NaverHookKind };

/**
 * Wraps `fetch` and `XMLHttpRequest` so every GraphQL (and allSearch) answer's text reaches `post`.
 * The page must not notice (utils/providers/page-network-hook.ts): it gets its own response
 * untouched (the hook reads a clone, or the XHR's text after it loaded), nothing here throws into
 * its code, and answers over MAX_HOOK_BODY are not copied. Installing twice is a no-op. Returns a
 * function that puts the originals back.
 */
export function installNaverNetworkHook(win: Window, post: Post): () => void {
  return installPageNetworkHook<Target>(win, {
    key: 'mapsweep.naver.networkHook',
    fallbackBase: 'https://pcmap.place.naver.com/',
    match: (_url, absolute) => {
      const kind = naverHookKind(absolute);
      return kind ? { url: absolute, kind } : null;
    },
    maxBody: MAX_HOOK_BODY,
    received: (target, answer) => {
      // An XHR body of another response type: no text to copy.
      if (answer.body === null) return;
      post({
        source: NAVER_HOOK_SOURCE,
        kind: target.kind,
        url: target.url,
        status: answer.status || null,
        finalUrl: answer.finalUrl || null,
        contentType: answer.contentType,
        body: answer.body,
      });
    },
  });
}

/**
 * A hook message's fields, or null for anything else (the exact envelope: these keys, these
 * types, a URL the hook copies, a bounded body). Callers must also check `event.source === window`
 * and `event.origin`: this only checks the shape, which any page script can copy.
 */
export function readNaverHookMessage(data: unknown): NaverHookMessage | null {
  if (Array.isArray(data)) return null;
  const m = taggedMessage(data, NAVER_HOOK_SOURCE);
  if (!m) return null;
  const keys = Object.keys(m);
  if (keys.length !== 7 || !ENVELOPE_KEYS.every((k) => k in m)) return null;
  if (m.kind !== 'graphql' && m.kind !== 'allsearch') return null;
  const url = boundedString(m.url, MAX_MESSAGE_URL);
  if (url === null || naverHookKind(url) !== m.kind) return null;
  const body = boundedString(m.body, MAX_HOOK_BODY);
  if (body === null) return null;
  if (m.status !== null && !(typeof m.status === 'number' && Number.isInteger(m.status) && m.status >= 100 && m.status < 600)) return null;
  // Null, or a bounded string: anything else (even a missing field) refuses the message.
  const str = (v: unknown, max: number): string | null | undefined => (v === null ? null : (boundedString(v, max) ?? undefined));
  const finalUrl = str(m.finalUrl, MAX_MESSAGE_URL);
  const contentType = str(m.contentType, 200);
  if (finalUrl === undefined || contentType === undefined) return null;
  return { source: NAVER_HOOK_SOURCE, kind: m.kind, url, status: m.status as number | null, finalUrl, contentType, body };
}

/** Whether `data` claims to be a hook message (our source tag), valid or not: a refused one is counted. */
export function claimsNaverHook(data: unknown): boolean {
  return taggedMessage(data, NAVER_HOOK_SOURCE) !== null;
}

const ENVELOPE_KEYS = ['source', 'kind', 'url', 'status', 'finalUrl', 'contentType', 'body'] as const;
