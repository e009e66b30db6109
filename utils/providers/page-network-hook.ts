/**
 * What the three MAIN-world hooks (google/, naver/ and kakao/network-hook.ts) share: wrapping a
 * page's `fetch` and `XMLHttpRequest` so the answers to the requests one provider cares about
 * reach it, without the page noticing; and the first checks of the window message the copies
 * travel in. Which requests, and what a copy says, stay in each provider's file.
 *
 * It sits here, beside the providers, because they import it: utils/content and utils/browser
 * import the providers, so nothing there may be imported back.
 *
 * This module runs in the page's world, before the page's own scripts: it imports nothing
 * (whatever it imported would be bundled into every hooked page). It is one file of ~370 lines on
 * purpose: it is the whole of what MapSweep runs inside the page, and the promise that the page
 * cannot notice it (untouched responses, nothing thrown into the page) is reviewed as one piece.
 */

/**
 * An answer to a request the hook copies. Each field is read from the response only when asked:
 * a hook reads what it posts and nothing more, so the page's own XHR sees no reads it did not
 * see before (a page may have patched `getResponseHeader`).
 */
export interface PageAnswer {
  /**
   * The transport that carried it. Status 0 means different things: an XHR that failed (network
   * error, abort, timeout); a fetch whose answer is opaque.
   */
  readonly via: 'fetch' | 'xhr';
  readonly status: number;
  /** The URL the answer came from after redirects; '' when the transport does not tell. */
  readonly finalUrl: string;
  readonly contentType: string | null;
  /**
   * The answer's text. Null for an XHR whose responseType holds no text (json, blob…): reading
   * one would mean changing the page's request; and, given to `failed`, for a fetch body that
   * could not be read.
   */
  readonly body: string | null;
}

/** One provider's hook: which requests it copies, and what it does with their answers. */
export interface PageNetworkHook<T> {
  /** Names the install-once flag, `Symbol.for(key)` on the window: one symbol for every copy of the script in the page. */
  key: string;
  /** The page URL relative request URLs resolve against when `location` cannot be read. */
  fallbackBase: string;
  /**
   * What the callbacks get for a request (its URL, say), or null to leave it alone. `url` is the
   * one the request goes to as the page wrote it (fetch's input: a string, URL or Request; XHR
   * open()'s argument, as a string as open() itself turns it); `absolute`, the same resolved
   * against the page. A URL that does not parse is left alone without asking.
   */
  match(url: string, absolute: string): T | null;
  /**
   * Longest body handed on (characters); past it an answer is dropped, and a fetch whose
   * declared length (bytes, up to 4 per character) cannot fit is not even read. None: no limit.
   */
  maxBody?: number;
  /**
   * The XHR event an answer is handed to `received` at: 'load' (answers only, a failure goes to
   * `failed`; default) or 'loadend' (failures too, with status 0).
   */
  xhrEvent?: 'load' | 'loadend';
  /** A matching request went out (fetch called, or the XHR sent). Exactly one `received` or `failed` follows. */
  sent?(target: T): void;
  /** A matching request's answer. */
  received(target: T, answer: PageAnswer): void;
  /**
   * A matching request ended with nothing to hand on: no answer (null: a fetch that rejected, an
   * XHR whose send() threw or that open() dropped unanswered), a fetch body that could not be
   * read, an XHR that failed under xhrEvent 'load', or an answer over maxBody (without its body).
   */
  failed?(target: T, answer: PageAnswer | null): void;
  /** More of the page to wrap under the same install (Kakao's JSONP scripts); returns its restore. */
  wrapMore?(base: () => string): () => void;
}

type HookedWindow = Window & { [flag: symbol]: boolean | undefined };

/**
 * Wraps `win.fetch` and `XMLHttpRequest` so every matching request's answer reaches `hook`.
 * The page must not notice: it gets its own response untouched (fetch answers are read from a
 * clone, XHR text only once it has loaded), nothing the hook or its callbacks do can throw into
 * the page's code, and every request goes out exactly as the page made it. Installing twice with
 * one key is a no-op. Returns a function that puts the originals back.
 */
export function installPageNetworkHook<T extends string | object>(win: Window, hook: PageNetworkHook<T>): () => void {
  const flag = Symbol.for(hook.key);
  const hooked = win as HookedWindow;
  if (hooked[flag]) return () => {};
  hooked[flag] = true;
  const base = () => {
    try {
      return win.location.href;
    } catch {
      return hook.fallbackBase;
    }
  };
  const { maxBody } = hook;
  const calls: Calls<T> = {
    sent: quiet((target: T) => hook.sent?.(target)),
    received: quiet((target: T, answer: PageAnswer) => {
      if (maxBody !== undefined && answer.body !== null && answer.body.length > maxBody) hook.failed?.(target, withoutBody(answer));
      else hook.received(target, answer);
    }),
    failed: quiet((target: T, answer: PageAnswer | null) => hook.failed?.(target, answer)),
  };
  const restores = [wrapFetch(win, base, hook, calls), wrapXhr(win, base, hook, calls)];
  if (hook.wrapMore) restores.push(hook.wrapMore(base));
  return () => {
    for (const r of restores) r();
    hooked[flag] = false;
  };
}

/** `fn`, except that it never throws: what the hook calls from inside the page's code must not fail there. */
export function quiet<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch {
      // The page must not see our failures.
    }
  };
}

/** A fetch input's URL: a string, or a URL or Request object from any realm; null for anything else. */
export function requestUrl(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object') {
    // URL and Request objects may come from another realm: no instanceof.
    const o = input as { href?: unknown; url?: unknown };
    if (typeof o.href === 'string') return o.href;
    if (typeof o.url === 'string') return o.url;
  }
  return null;
}

/** The hook's target for a request URL, or null: no URL, or one that does not parse against the page. */
function matchUrl<T>(hook: PageNetworkHook<T>, url: string | null, base: () => string): T | null {
  if (!url) return null;
  let absolute: string;
  try {
    absolute = new URL(url, base()).href;
  } catch {
    return null;
  }
  return hook.match(url, absolute);
}

interface Calls<T> {
  sent(target: T): void;
  received(target: T, answer: PageAnswer): void;
  failed(target: T, answer: PageAnswer | null): void;
}

function wrapFetch<T extends string | object>(win: Window, base: () => string, hook: PageNetworkHook<T>, calls: Calls<T>): () => void {
  const original = win.fetch;
  if (typeof original !== 'function') return () => {};
  const { maxBody } = hook;
  const wrapped = function (this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
    // The page's request first, whatever the hook makes of it: the page gets the very promise fetch gave.
    const result = original.apply(this ?? win, args);
    try {
      const target = matchUrl(hook, requestUrl(args[0]), base);
      if (target !== null && typeof result?.then === 'function') {
        calls.sent(target);
        result.then(
          (response) => {
            try {
              if (maxBody !== undefined) {
                const length = Number(response.headers.get('content-length'));
                if (Number.isFinite(length) && length > maxBody * 4) {
                  calls.failed(target, fetchAnswer(response, null));
                  return;
                }
              }
              response
                .clone()
                .text()
                .then(
                  (body) => calls.received(target, fetchAnswer(response, body)),
                  () => calls.failed(target, fetchAnswer(response, null)),
                );
            } catch {
              // A body already used, or a response that cannot be cloned: nothing to copy, but the request ended.
              calls.failed(target, fetchAnswer(response, null));
            }
          },
          () => calls.failed(target, null),
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

function fetchAnswer(response: Response, body: string | null): PageAnswer {
  return answer(
    'fetch',
    () => response.status,
    () => response.url,
    () => response.headers.get('content-type'),
    () => body,
  );
}

/** `a` without its body, the rest still read only when asked. */
function withoutBody(a: PageAnswer): PageAnswer {
  return answer(
    a.via,
    () => a.status,
    () => a.finalUrl,
    () => a.contentType,
    () => null,
  );
}

/** A PageAnswer whose fields are read when asked (see there). */
function answer(via: PageAnswer['via'], status: () => number, finalUrl: () => string, contentType: () => string | null, body: () => string | null): PageAnswer {
  return {
    via,
    get status() {
      return status();
    },
    get finalUrl() {
      return finalUrl();
    },
    get contentType() {
      return contentType();
    },
    get body() {
      return body();
    },
  };
}

function wrapXhr<T extends string | object>(win: Window, base: () => string, hook: PageNetworkHook<T>, calls: Calls<T>): () => void {
  const proto = (win as Window & { XMLHttpRequest?: typeof XMLHttpRequest }).XMLHttpRequest?.prototype;
  if (!proto) return () => {};
  const open = proto.open;
  const send = proto.send;
  const event = hook.xhrEvent ?? 'load';
  // Matched at open(), as the XHR resolves its URL there; a reused XHR is matched again, and
  // each open() is a request of its own.
  const requests = new WeakMap<XMLHttpRequest, XhrRequest<T>>();
  /**
   * True, once, for a request still owed its end: the XHR's current one, sent and not ended. A
   * listener asks it before handing anything on, so another open() of the same XHR makes the
   * listeners of its earlier request stale, and a later, unrelated answer is never taken for
   * that one (the request is compared, not its target: two opens of one URL are two requests).
   */
  const endOwed = (xhr: XMLHttpRequest, request: XhrRequest<T>): boolean => {
    if (requests.get(xhr) !== request || request.state !== 'sent') return false;
    request.state = 'ended';
    return true;
  };
  const wrappedOpen = function (this: XMLHttpRequest, ...args: unknown[]): void {
    // The page's open() first: when it throws (a bad method or URL) the request in flight goes on,
    // and an event it fires still finds that request current.
    (open as (...a: unknown[]) => void).apply(this, args);
    try {
      const previous = requests.get(this);
      // open() drops a request still in flight without an event: it ends here.
      if (previous && endOwed(this, previous)) calls.failed(previous.target, null);
      let target: T | null = null;
      try {
        target = matchUrl(hook, String(args[1]), base);
      } catch {
        // A match that threw: copy nothing.
      }
      if (target !== null) requests.set(this, { target, state: 'opened' });
      else requests.delete(this);
    } catch {
      // ignore
    }
  };
  const wrappedSend = function (this: XMLHttpRequest, ...args: unknown[]): void {
    let request: XhrRequest<T> | undefined;
    try {
      const opened = requests.get(this);
      if (opened?.state === 'opened') {
        request = opened;
        listen(this, opened);
      }
    } catch {
      // ignore
    }
    try {
      (send as (...a: unknown[]) => void).apply(this, args);
      return;
    } catch (e) {
      // A send() the XHR refused never went out, and a synchronous one that failed fires no event.
      if (request && endOwed(this, request)) calls.failed(request.target, null);
      throw e;
    }
  };
  /**
   * A request goes out: each of its events is listened to once, then the hook hears it started
   * (a page that broke addEventListener gets its request, and the hook hears of none).
   */
  function listen(xhr: XMLHttpRequest, request: XhrRequest<T>): void {
    xhr.addEventListener(
      event,
      () => {
        if (endOwed(xhr, request)) calls.received(request.target, xhrAnswer(xhr));
      },
      { once: true },
    );
    // Under 'load' a failure (error, abort, timeout) ends at loadend, with no load before it.
    if (event !== 'loadend') {
      xhr.addEventListener(
        'loadend',
        () => {
          if (endOwed(xhr, request)) calls.failed(request.target, xhrAnswer(xhr));
        },
        { once: true },
      );
    }
    request.state = 'sent';
    calls.sent(request.target);
  }
  proto.open = wrappedOpen as typeof proto.open;
  proto.send = wrappedSend as typeof proto.send;
  return () => {
    if (proto.open === wrappedOpen) proto.open = open;
    if (proto.send === wrappedSend) proto.send = send;
  };
}

/** One open() of an XHR the hook copies: its target, and how far its request got. */
interface XhrRequest<T> {
  readonly target: T;
  state: 'opened' | 'sent' | 'ended';
}

function xhrAnswer(xhr: XMLHttpRequest): PageAnswer {
  return answer(
    'xhr',
    () => xhr.status,
    () => xhr.responseURL,
    () => xhr.getResponseHeader('content-type'),
    () => (xhr.responseType === '' || xhr.responseType === 'text' ? xhr.responseText : null),
  );
}

/** Longest URL a hook message may carry. */
export const MAX_MESSAGE_URL = 4096;

/**
 * The fields of a window message tagged `source`, or null for anything else. Only the first
 * check: any page script can post the same tag, so each reader still checks every field it
 * uses, and callers must also check `event.source === window`.
 */
export function taggedMessage(data: unknown, source: string): Record<string, unknown> | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as Record<string, unknown>;
  return m.source === source ? m : null;
}

/** `v` when it is a string of at most `max` characters, else null. */
export function boundedString(v: unknown, max: number): string | null {
  return typeof v === 'string' && v.length <= max ? v : null;
}
