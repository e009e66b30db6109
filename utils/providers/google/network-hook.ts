import { boundedString, installPageNetworkHook, MAX_MESSAGE_URL, taggedMessage } from '../page-network-hook';
import { isGoogleMapsHost } from './hosts';
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

/**
 * `/search?…tbm=map…` on a Google Maps host: the page's own origin, www.google.com or a country
 * domain's (www.google.co.kr…). Relative URLs resolve against `base`; the same path on any other
 * host is not the map's search and is not read.
 */
export function isTbmUrl(url: string, base = 'https://www.google.com/'): boolean {
  try {
    const u = new URL(url, base);
    return isGoogleMapsHost(u.hostname) && u.pathname === '/search' && u.searchParams.get('tbm') === 'map';
  } catch {
    return false;
  }
}

/**
 * Wraps `win.fetch` and `XMLHttpRequest` so every tbm=map response body reaches `post`, with the
 * URL it came from (after redirects, else as the page asked for it). The page must not notice
 * (utils/providers/page-network-hook.ts): it gets its own response object untouched, and nothing
 * here may throw into the page's code. Installing twice is a no-op. Returns a function that
 * puts the originals back.
 */
export function installNetworkHook(win: Window, post: (body: string, url: string) => void): () => void {
  return installPageNetworkHook<string>(win, {
    key: 'mapsweep.google.networkHook',
    fallbackBase: 'https://www.google.com/',
    match: (url, absolute) => (isTbmUrl(absolute) ? url : null),
    received: (url, answer) => {
      // An XHR body of another response type: no text to copy.
      if (answer.body !== null) post(answer.body, answer.finalUrl || url);
    },
  });
}

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
  const m = taggedMessage(data, TBM_MESSAGE_SOURCE);
  if (!m) return null;
  const body = boundedString(m.body, MAX_MESSAGE_BODY);
  const url = boundedString(m.url, MAX_MESSAGE_URL);
  return body !== null && url !== null ? { body, url } : null;
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
