/**
 * Seeing the search page's own search answers (naver-kakao-notes B4, B4b): the list's DOM has no
 * coordinates, no homepage, no full category path and no total count; the answers have them.
 * Two endpoints answer the same "map.daum" shape: the older `search.map.kakao.com/mapsearch/map.daum`
 * (JSONP or JSON) and, in 2026, the same-origin `map.kakao.com/api/v1/mapsearch/map` the page
 * sends with a gate token it minted for that very URL (XHR or fetch). Both are copied, neither
 * is ever sent from here; the gate-token request itself is not a search and is left alone.
 *
 * Two halves, as for Google (utils/providers/google/network-hook.ts): `installKakaoNetworkHook`
 * runs in the page's MAIN world before its scripts and copies each map.daum exchange to `post`
 * (JSONP: the callback's argument, caught by wrapping the page's own callback when its script
 * is inserted; XHR and fetch: the response text); the isolated world reads the copies back with
 * `readKakaoHookMessage` and trusts nothing in them: any page script can post the same message.
 * What the copies may do is in kakao/collect.ts (fill fields of places the list shows, count
 * matches, recognise a block); the searched rect is measured there from the browser's own
 * resource timing, not from these messages.
 */

import { boundedString, installPageNetworkHook, MAX_MESSAGE_URL, quiet, taggedMessage } from '../page-network-hook';

export const KAKAO_HOOK_SOURCE = 'mapsweep:kakao-mapdaum';

/*
 * This module runs in the page's MAIN world: it imports only the shared hook
 * (utils/providers/page-network-hook.ts, which imports nothing). urls.ts would bring proj4 into
 * every map.kakao.com page for nothing, so its endpoint test (searchEndpointOf) is repeated here;
 * tests/unit/kakao-content-2026.test.ts checks the two agree.
 */
const MAP_DAUM_HOSTS = new Set(['search.map.kakao.com', 'search.map.daum.net']);

function isSearchEndpoint(u: URL): boolean {
  if (u.protocol !== 'https:') return false;
  return (u.hostname === 'map.kakao.com' && u.pathname === '/api/v1/mapsearch/map') || (MAP_DAUM_HOSTS.has(u.hostname) && u.pathname === '/mapsearch/map.daum');
}

function mapDaumParts(href: string): { callback: string | null } | null {
  try {
    const u = new URL(href);
    if (!isSearchEndpoint(u) || !u.searchParams.get('q')) return null;
    const cb = u.searchParams.get('callback');
    return { callback: cb && /^[A-Za-z_$][\w$]*$/.test(cb) ? cb : null };
  } catch {
    return null;
  }
}

/** One copied exchange, as the hook posts it. */
export type KakaoHookMessage =
  | { source: typeof KAKAO_HOOK_SOURCE; phase: 'start'; url: string }
  | {
      source: typeof KAKAO_HOOK_SOURCE;
      phase: 'end';
      url: string;
      /**
       * 'body': `body` is the answer's text (XHR/fetch) or the JSONP callback's argument as JSON.
       * 'no-callback': the JSONP script ran but never called back (its body was not JSONP: HTML,
       * the block page). 'failed': the request failed (network error, a non-2xx script).
       */
      outcome: 'body' | 'no-callback' | 'failed';
      status: number | null;
      /** The URL the answer came from after redirects, when the transport tells it (XHR, fetch). */
      finalUrl: string | null;
      contentType: string | null;
      body: string | null;
    };

type Post = (message: KakaoHookMessage) => void;

type HookedWindow = Window & Record<string, unknown>;

/** A search request URL (either endpoint), absolute against the page. */
export function mapDaumRequestUrl(url: unknown, base: string): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const abs = new URL(url, base).href;
    return mapDaumParts(abs) ? abs : null;
  } catch {
    return null;
  }
}

/**
 * Wraps the page's JSONP script insertion, XMLHttpRequest and fetch so every map.daum exchange
 * reaches `post`: a 'start' when the request goes out, an 'end' when it is over. The page must
 * not notice (utils/providers/page-network-hook.ts): its callback gets the same arguments, its
 * XHR and fetch the same response, and nothing here throws into its code. Installing twice is a
 * no-op. Returns a function that puts the originals back.
 */
export function installKakaoNetworkHook(win: Window, post: Post): () => void {
  return installPageNetworkHook<string>(win, {
    key: 'mapsweep.kakao.networkHook',
    fallbackBase: 'https://map.kakao.com/',
    match: (_url, absolute) => (mapDaumParts(absolute) ? absolute : null),
    // Failed and aborted XHRs end their exchange too (status 0): a start is never left pending (network.ts counts them).
    xhrEvent: 'loadend',
    sent: (url) => post({ source: KAKAO_HOOK_SOURCE, phase: 'start', url }),
    received: (url, answer) => {
      // An XHR's status 0 is a request that failed; a fetch's, an opaque answer: its body is what there is.
      const xhr = answer.via === 'xhr';
      post(
        end(url, {
          outcome: xhr && answer.status === 0 ? 'failed' : 'body',
          status: xhr ? answer.status || null : answer.status,
          finalUrl: answer.finalUrl || null,
          contentType: answer.contentType,
          body: answer.body,
        }),
      );
    },
    failed: (url, answer) =>
      post(end(url, { outcome: 'failed', status: answer ? answer.status : null, finalUrl: answer?.finalUrl || null, contentType: null, body: null })),
    // JSONP is neither fetch nor XHR; what it posts runs inside the page's callback and script events, hence `quiet`.
    wrapMore: (base) => wrapScripts(win as HookedWindow, base, quiet(post)),
  });
}

function end(url: string, rest: Omit<Extract<KakaoHookMessage, { phase: 'end' }>, 'source' | 'phase' | 'url'>): KakaoHookMessage {
  return { source: KAKAO_HOOK_SOURCE, phase: 'end', url, ...rest };
}

/** JSONP: when a `<script src=…map.daum…&callback=NAME>` is inserted, the page's `window[NAME]` is wrapped. */
function wrapScripts(win: HookedWindow, base: () => string, post: Post): () => void {
  const proto = (win as unknown as { Node?: typeof Node }).Node?.prototype;
  if (!proto) return () => {};
  const appendChild = proto.appendChild;
  const insertBefore = proto.insertBefore;
  const seen = new WeakSet<object>();

  const watch = (node: unknown) => {
    try {
      const script = node as HTMLScriptElement;
      if (script?.nodeName !== 'SCRIPT' || seen.has(script)) return;
      const url = mapDaumRequestUrl(script.src, base());
      if (!url) return;
      seen.add(script);
      const callback = mapDaumParts(url)?.callback ?? null;
      post({ source: KAKAO_HOOK_SOURCE, phase: 'start', url });
      let called = false;
      let done = false;
      const deliver = (data: unknown) => {
        if (done) return;
        called = true;
        done = true;
        let body: string | null = null;
        try {
          body = JSON.stringify(data) ?? null;
        } catch {
          body = null;
        }
        post(end(url, { outcome: 'body', status: null, finalUrl: null, contentType: null, body }));
      };
      if (callback) wrapCallback(win, callback, deliver);
      script.addEventListener('load', () => {
        if (!called && !done) {
          done = true;
          post(end(url, { outcome: callback ? 'no-callback' : 'body', status: null, finalUrl: null, contentType: null, body: null }));
        }
      });
      script.addEventListener('error', () => {
        if (!done) {
          done = true;
          post(end(url, { outcome: 'failed', status: null, finalUrl: null, contentType: null, body: null }));
        }
      });
    } catch {
      // ignore
    }
  };
  const wrappedAppend = function (this: Node, child: Node): Node {
    watch(child);
    return appendChild.call(this, child) as Node;
  };
  const wrappedInsert = function (this: Node, child: Node, ref: Node | null): Node {
    watch(child);
    return insertBefore.call(this, child, ref) as Node;
  };
  proto.appendChild = wrappedAppend as typeof proto.appendChild;
  proto.insertBefore = wrappedInsert as typeof proto.insertBefore;
  return () => {
    if (proto.appendChild === wrappedAppend) proto.appendChild = appendChild;
    if (proto.insertBefore === wrappedInsert) proto.insertBefore = insertBefore;
  };
}

/**
 * The page's callback, called through: set already (jQuery and the page set it before inserting
 * the script) or set later (an accessor catches the assignment). The page may delete it after.
 */
function wrapCallback(win: HookedWindow, name: string, deliver: (data: unknown) => void): void {
  const wrap = (fn: unknown) =>
    typeof fn === 'function'
      ? function (this: unknown, ...args: unknown[]) {
          deliver(args[0]);
          return (fn as (...a: unknown[]) => unknown).apply(this, args);
        }
      : fn;
  const current = win[name];
  if (typeof current === 'function') {
    win[name] = wrap(current);
    return;
  }
  let value: unknown = current;
  try {
    Object.defineProperty(win, name, {
      configurable: true,
      enumerable: true,
      get: () => value,
      set: (v) => {
        value = wrap(v);
      },
    });
  } catch {
    // A non-configurable global: leave it alone.
  }
}

const MAX_BODY = 8_000_000;

/**
 * A hook message's fields, or null for anything else. Callers must also check
 * `event.source === window`: this only checks the shape, which any page script can copy.
 */
export function readKakaoHookMessage(data: unknown): KakaoHookMessage | null {
  const m = taggedMessage(data, KAKAO_HOOK_SOURCE);
  if (!m) return null;
  const url = boundedString(m.url, MAX_MESSAGE_URL);
  if (url === null || !mapDaumParts(url)) return null;
  if (m.phase === 'start') return { source: KAKAO_HOOK_SOURCE, phase: 'start', url };
  if (m.phase !== 'end') return null;
  if (m.outcome !== 'body' && m.outcome !== 'no-callback' && m.outcome !== 'failed') return null;
  if (m.body !== null && m.body !== undefined && boundedString(m.body, MAX_BODY) === null) return null;
  const status = typeof m.status === 'number' && Number.isInteger(m.status) && m.status >= 0 && m.status < 1000 ? m.status : null;
  return {
    source: KAKAO_HOOK_SOURCE,
    phase: 'end',
    url,
    outcome: m.outcome,
    status,
    finalUrl: boundedString(m.finalUrl, MAX_MESSAGE_URL),
    contentType: boundedString(m.contentType, 200),
    body: boundedString(m.body, MAX_BODY),
  };
}
