import { createPageDataStore, type PageDataLookup } from './page-data';
import { parseTbmBody, type TbmParse } from './tbm';

/**
 * Seeing the page's own `/search?tbm=map` responses: to cross-check what the DOM shows, and
 * to fill the fields the cards do not print (full address, phone, hours…).
 *
 * Two halves: `installNetworkHook` runs in the page's MAIN world (the only place fetch and
 * XMLHttpRequest can be observed) and hands each body to `post`; the isolated world gets the
 * bodies back as window messages and feeds them to `createNetworkCollector`. Anything
 * in the MAIN world can forge those messages, so the collector trusts nothing it receives.
 *
 * Trust rule (in full in utils/listing/merge-fields.ts): what comes through here is page
 * content, as trustworthy as the DOM's text and no more. After the schema's shape checks and
 * sanitising it may fill fields of a place the DOM also showed on this page (joinPageData),
 * never add a place; it never starts, stops or judges a sweep; a record that contradicts the
 * DOM about its place (name, ids, coordinates) is dropped and counted in the page audit.
 */

/** `/search?…tbm=map…` on the page's origin (relative URLs resolve against `base`). */
export function isTbmUrl(url: string, base = 'https://www.google.com/'): boolean {
  try {
    const u = new URL(url, base);
    return u.pathname === '/search' && u.searchParams.get('tbm') === 'map';
  } catch {
    return false;
  }
}

const INSTALLED = Symbol.for('mapsweep.google.networkHook');
type HookedWindow = Window & { [INSTALLED]?: boolean };

/**
 * Wraps `win.fetch` and `XMLHttpRequest` so every tbm=map response body reaches `post`.
 * The page must not notice: the page gets its own response object untouched (we read a
 * clone), and nothing here may throw into the page's code. Installing twice is a no-op.
 * Returns a function that puts the originals back.
 */
export function installNetworkHook(win: Window, post: (body: string, url: string) => void): () => void {
  const hooked = win as HookedWindow;
  if (hooked[INSTALLED]) return () => {};
  hooked[INSTALLED] = true;

  const pageUrl = (): string => {
    try {
      return win.location.href;
    } catch {
      return 'https://www.google.com/';
    }
  };
  const deliver = (body: unknown, url: string): void => {
    if (typeof body !== 'string') return;
    try {
      post(body, url);
    } catch {
      // The page must not see our failures.
    }
  };

  const restoreFetch = wrapFetch(win, pageUrl, deliver);
  const restoreXhr = wrapXhr(win, pageUrl, deliver);
  return () => {
    restoreFetch();
    restoreXhr();
    hooked[INSTALLED] = false;
  };
}

type Deliver = (body: unknown, url: string) => void;

function wrapFetch(win: Window, pageUrl: () => string, deliver: Deliver): () => void {
  const original = win.fetch;
  if (typeof original !== 'function') return () => {};
  const wrapped = function (this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
    const result = original.apply(this ?? win, args);
    try {
      const url = requestUrl(args[0]);
      if (url && isTbmUrl(url, pageUrl()) && typeof result?.then === 'function') {
        result.then(
          (response) => {
            try {
              response.clone().text().then((body) => deliver(body, response.url || url), ignore);
            } catch {
              // A body already used or a response type that cannot be cloned: skip it.
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

function wrapXhr(win: Window, pageUrl: () => string, deliver: Deliver): () => void {
  const proto = (win as Window & { XMLHttpRequest?: typeof XMLHttpRequest }).XMLHttpRequest?.prototype;
  if (!proto) return () => {};
  const open = proto.open;
  const send = proto.send;
  const urls = new WeakMap<XMLHttpRequest, string>();

  const wrappedOpen = function (this: XMLHttpRequest, ...args: unknown[]): void {
    try {
      urls.set(this, String(args[1]));
    } catch {
      // ignore
    }
    return (open as (...a: unknown[]) => void).apply(this, args);
  };
  const wrappedSend = function (this: XMLHttpRequest, ...args: unknown[]): void {
    try {
      const url = urls.get(this);
      if (url && isTbmUrl(url, pageUrl())) {
        const xhr = this;
        xhr.addEventListener('load', () => {
          try {
            // Other response types hold no text we could read without changing the page's request.
            if (xhr.responseType === '' || xhr.responseType === 'text') deliver(xhr.responseText, xhr.responseURL || url);
          } catch {
            // ignore
          }
        });
      }
    } catch {
      // ignore
    }
    return (send as (...a: unknown[]) => void).apply(this, args);
  };
  proto.open = wrappedOpen as typeof proto.open;
  proto.send = wrappedSend as typeof proto.send;
  return () => {
    if (proto.open === wrappedOpen) proto.open = open;
    if (proto.send === wrappedSend) proto.send = send;
  };
}

function requestUrl(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object') {
    // URL and Request objects from any realm: no instanceof.
    const o = input as { href?: unknown; url?: unknown };
    if (typeof o.href === 'string') return o.href;
    if (typeof o.url === 'string') return o.url;
  }
  return null;
}

function ignore(): void {}

/** The window message the MAIN-world hook posts; the isolated world checks it with `readTbmMessage`. */
export const TBM_MESSAGE_SOURCE = 'mapsweep:google-tbm';

export interface TbmMessage {
  source: typeof TBM_MESSAGE_SOURCE;
  body: string;
  url: string;
}

const MAX_MESSAGE_BODY = 16_000_000;

export function tbmMessage(body: string, url: string): TbmMessage {
  return { source: TBM_MESSAGE_SOURCE, body, url };
}

/**
 * The body and URL of a hook message, or null for anything else. Callers must also check
 * `event.source === window`: this only checks the shape, which any page script can copy.
 */
export function readTbmMessage(data: unknown): { body: string; url: string } | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as Partial<Record<keyof TbmMessage, unknown>>;
  if (m.source !== TBM_MESSAGE_SOURCE) return null;
  if (typeof m.body !== 'string' || m.body.length > MAX_MESSAGE_BODY) return null;
  if (typeof m.url !== 'string' || m.url.length > 4096) return null;
  return { body: m.body, url: m.url };
}

/** What the page's own search responses said, for one page visit. */
export interface NetworkSnapshot {
  /** Distinct places seen (shape-checked), or null when no readable response came. */
  networkItems: number | null;
  networkKeys: string[];
  /** Responses that parsed. */
  responses: number;
  /** Bodies that were not Google JSON (a block page, or something forged). */
  blocked: number;
  /** Place items refused by the shape check. */
  dropped: number;
}

export interface NetworkCollector {
  accept(body: string): TbmParse;
  snapshot(): NetworkSnapshot;
  /** The places the responses described, by key, for joinPageData (untrusted: see above). */
  pageData(): PageDataLookup;
  reset(): void;
}

/** More keys than any search can show: past it, someone is flooding us. */
const MAX_KEYS = 5000;

export function createNetworkCollector(): NetworkCollector {
  let keys = new Set<string>();
  let responses = 0;
  let blocked = 0;
  let dropped = 0;
  let places = createPageDataStore(MAX_KEYS);
  return {
    accept(body) {
      const parsed = parseTbmBody(body);
      if (parsed.blocked) {
        blocked++;
        return parsed;
      }
      responses++;
      dropped += parsed.dropped;
      for (const place of parsed.places) {
        if (keys.size >= MAX_KEYS) break;
        keys.add(place.key);
        places.add(place);
      }
      return parsed;
    },
    snapshot() {
      return { networkItems: responses > 0 ? keys.size : null, networkKeys: [...keys], responses, blocked, dropped };
    },
    pageData: () => places,
    reset() {
      keys = new Set();
      places = createPageDataStore(MAX_KEYS);
      responses = 0;
      blocked = 0;
      dropped = 0;
    },
  };
}
