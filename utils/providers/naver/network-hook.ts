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
 * This module runs in the page's world: it imports nothing.
 */

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
const MAX_URL = 4096;

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

const INSTALLED = Symbol.for('mapsweep.naver.networkHook');
type HookedWindow = Window & { [INSTALLED]?: boolean };

/** A request's URL (string, URL or Request from any realm), absolute against the page, when the hook copies its answer. */
export function naverRequestUrl(input: unknown, base: string): { url: string; kind: NaverHookKind } | null {
  try {
    let raw: string | null = null;
    if (typeof input === 'string') raw = input;
    else if (input && typeof input === 'object') {
      // No instanceof: URL and Request objects may come from another realm.
      const o = input as { href?: unknown; url?: unknown };
      raw = typeof o.href === 'string' ? o.href : typeof o.url === 'string' ? o.url : null;
    }
    if (!raw) return null;
    const url = new URL(raw, base).href;
    const kind = naverHookKind(url);
    return kind ? { url, kind } : null;
  } catch {
    return null;
  }
}

/**
 * Wraps `fetch` and `XMLHttpRequest` so every GraphQL (and allSearch) answer's text reaches `post`.
 * The page must not notice: it gets its own response untouched (the hook reads a clone, or the
 * XHR's text after it loaded), nothing here throws into its code, and answers over MAX_HOOK_BODY
 * are not copied. Installing twice is a no-op. Returns a function that puts the originals back.
 */
export function installNaverNetworkHook(win: Window, post: Post): () => void {
  const hooked = win as HookedWindow;
  if (hooked[INSTALLED]) return () => {};
  hooked[INSTALLED] = true;
  const base = () => {
    try {
      return win.location.href;
    } catch {
      return 'https://pcmap.place.naver.com/';
    }
  };
  const send: Post = (m) => {
    try {
      if (m.body.length <= MAX_HOOK_BODY) post(m);
    } catch {
      // The page must not see our failures.
    }
  };
  const restores = [wrapFetch(win, base, send), wrapXhr(win, base, send)];
  return () => {
    for (const r of restores) r();
    hooked[INSTALLED] = false;
  };
}

function message(target: { url: string; kind: NaverHookKind }, status: number | null, finalUrl: string | null, contentType: string | null, body: string): NaverHookMessage {
  return { source: NAVER_HOOK_SOURCE, kind: target.kind, url: target.url, status, finalUrl, contentType, body };
}

function wrapFetch(win: Window, base: () => string, post: Post): () => void {
  const original = win.fetch;
  if (typeof original !== 'function') return () => {};
  const wrapped = function (this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
    const result = original.apply(this ?? win, args);
    try {
      const target = naverRequestUrl(args[0], base());
      if (target && typeof result?.then === 'function') {
        result.then(
          (response) => {
            try {
              const length = Number(response.headers.get('content-length'));
              if (Number.isFinite(length) && length > MAX_HOOK_BODY * 4) return;
              response
                .clone()
                .text()
                .then((body) => post(message(target, response.status || null, response.url || null, response.headers.get('content-type'), body)), ignore);
            } catch {
              // A body already used, or a response that cannot be cloned: skip it.
            }
          },
          ignore,
        );
      }
    } catch {
      // Never let the hook break the page's request.
    }
    return result;
  };
  win.fetch = wrapped as typeof fetch;
  return () => {
    if (win.fetch === wrapped) win.fetch = original;
  };
}

function wrapXhr(win: Window, base: () => string, post: Post): () => void {
  const proto = (win as Window & { XMLHttpRequest?: typeof XMLHttpRequest }).XMLHttpRequest?.prototype;
  if (!proto) return () => {};
  const open = proto.open;
  const sendFn = proto.send;
  const targets = new WeakMap<XMLHttpRequest, { url: string; kind: NaverHookKind }>();
  const wrappedOpen = function (this: XMLHttpRequest, ...args: unknown[]): void {
    try {
      const target = naverRequestUrl(args[1], base());
      if (target) targets.set(this, target);
      else targets.delete(this);
    } catch {
      // ignore
    }
    return (open as (...a: unknown[]) => void).apply(this, args);
  };
  const wrappedSend = function (this: XMLHttpRequest, ...args: unknown[]): void {
    try {
      const target = targets.get(this);
      if (target) {
        const xhr = this;
        xhr.addEventListener('load', () => {
          try {
            // Other response types hold no text we could read without changing the page's request.
            if (xhr.responseType !== '' && xhr.responseType !== 'text') return;
            post(message(target, xhr.status || null, xhr.responseURL || null, xhr.getResponseHeader('content-type'), xhr.responseText));
          } catch {
            // ignore
          }
        });
      }
    } catch {
      // ignore
    }
    return (sendFn as (...a: unknown[]) => void).apply(this, args);
  };
  proto.open = wrappedOpen as typeof proto.open;
  proto.send = wrappedSend as typeof proto.send;
  return () => {
    if (proto.open === wrappedOpen) proto.open = open;
    if (proto.send === wrappedSend) proto.send = sendFn;
  };
}

function ignore(): void {}

/**
 * A hook message's fields, or null for anything else (the exact envelope: these keys, these
 * types, a URL the hook copies, a bounded body). Callers must also check `event.source === window`
 * and `event.origin`: this only checks the shape, which any page script can copy.
 */
export function readNaverHookMessage(data: unknown): NaverHookMessage | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const m = data as Record<string, unknown>;
  if (m.source !== NAVER_HOOK_SOURCE) return null;
  const keys = Object.keys(m);
  if (keys.length !== 7 || !ENVELOPE_KEYS.every((k) => k in m)) return null;
  if (m.kind !== 'graphql' && m.kind !== 'allsearch') return null;
  if (typeof m.url !== 'string' || m.url.length > MAX_URL || naverHookKind(m.url) !== m.kind) return null;
  if (typeof m.body !== 'string' || m.body.length > MAX_HOOK_BODY) return null;
  if (m.status !== null && !(typeof m.status === 'number' && Number.isInteger(m.status) && m.status >= 100 && m.status < 600)) return null;
  const str = (v: unknown, max: number): string | null | undefined => (v === null ? null : typeof v === 'string' && v.length <= max ? v : undefined);
  const finalUrl = str(m.finalUrl, MAX_URL);
  const contentType = str(m.contentType, 200);
  if (finalUrl === undefined || contentType === undefined) return null;
  return { source: NAVER_HOOK_SOURCE, kind: m.kind, url: m.url, status: m.status as number | null, finalUrl, contentType, body: m.body };
}

/** Whether `data` claims to be a hook message (our source tag), valid or not: a refused one is counted. */
export function claimsNaverHook(data: unknown): boolean {
  return !!data && typeof data === 'object' && (data as { source?: unknown }).source === NAVER_HOOK_SOURCE;
}

const ENVELOPE_KEYS = ['source', 'kind', 'url', 'status', 'finalUrl', 'contentType', 'body'] as const;
