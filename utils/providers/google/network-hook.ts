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

/** A tbm=map request of the page as the hook follows it: its URL, and a number that pairs its start with its end. */
interface TbmRequest {
  url: string;
  id: number;
}

/**
 * Wraps `win.fetch` and `XMLHttpRequest` so every tbm=map response body reaches `post`, with the
 * URL it came from (after redirects, else as the page asked for it). `progress` hears each such
 * request start and end (answered, failed or aborted), so the isolated world knows when the
 * page has no answer outstanding (collect.ts `pageRequestsSettled`). The page must not notice
 * (utils/providers/page-network-hook.ts): it gets its own response object untouched, and nothing
 * here may throw into the page's code. Installing twice is a no-op. Returns a function that puts
 * the originals back.
 */
export function installNetworkHook(
  win: Window,
  post: (body: string, url: string) => void,
  progress: (phase: TbmPhase, id: number) => void = () => {},
): () => void {
  let next = 0;
  return installPageNetworkHook<TbmRequest>(win, {
    key: 'mapsweep.google.networkHook',
    fallbackBase: 'https://www.google.com/',
    match: (url, absolute) => (isTbmUrl(absolute) ? { url, id: ++next } : null),
    // Failed and aborted XHRs end too (status 0): a start is never left outstanding.
    xhrEvent: 'loadend',
    sent: (request) => progress('start', request.id),
    received: (request, answer) => {
      // An XHR's status 0 is a request that failed: no answer to copy. An XHR body of another
      // response type has no text to copy either.
      const failedXhr = answer.via === 'xhr' && answer.status === 0;
      if (!failedXhr && answer.body !== null) post(answer.body, answer.finalUrl || request.url);
      progress('end', request.id);
    },
    failed: (request) => progress('end', request.id),
  });
}

export type TbmPhase = 'start' | 'end';

/** The window message that tells the isolated world a tbm=map request started or ended; checked with `readTbmProgress`. */
export const TBM_PROGRESS_SOURCE = 'mapsweep:google-tbm-progress';

export function tbmProgressMessage(phase: TbmPhase, id: number): { source: typeof TBM_PROGRESS_SOURCE; phase: TbmPhase; id: number } {
  return { source: TBM_PROGRESS_SOURCE, phase, id };
}

/** The phase and request number of a progress message, or null for anything else (callers also check `event.source`). */
export function readTbmProgress(data: unknown): { phase: TbmPhase; id: number } | null {
  const m = taggedMessage(data, TBM_PROGRESS_SOURCE);
  if (!m || (m.phase !== 'start' && m.phase !== 'end') || !Number.isSafeInteger(m.id)) return null;
  return { phase: m.phase, id: m.id as number };
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
  /** A progress message from the hook: a request of the page started or ended. */
  progress(phase: TbmPhase, id: number): void;
  /**
   * The page's tbm=map requests started at most MAX_OPEN_MS ago and not yet ended, as the hook
   * said. Page content like the rest: a forged start only makes the collection wait to its
   * bound, a forged end only makes it read sooner (the page data it then lacks fills fields, it
   * never proves a cell).
   */
  outstanding(): number;
  snapshot(): NetworkSnapshot;
  /** The places the responses described, by key, for joinPageData (untrusted: see above). */
  pageData(): PageDataLookup;
  reset(): void;
}

/** More keys than any search can show: past it, someone is flooding us. */
const MAX_KEYS = 5000;
/** More requests outstanding than a page makes: past it, starts are not remembered (the wait has its bound anyway). */
const MAX_OUTSTANDING = 100;
/**
 * How long a start is believed without its end. The hook ends every request it starts (answered,
 * failed, aborted, dropped by a new open()), so a start this old is forged, or a request the page
 * itself stopped waiting for; counted on, it would hold every later collection in this document
 * (a retried one) to the wait's full bound. Not cleared per collection instead: when a
 * collection starts, the page's first search is often still in flight, and its answer is what
 * the wait is for.
 */
export const MAX_OPEN_MS = 10_000;

export function createNetworkCollector(now: () => number = Date.now): NetworkCollector {
  let keys = new Set<string>();
  let responses = 0;
  let blocked = 0;
  let dropped = 0;
  let places = createPageDataStore(MAX_KEYS);
  /** Request id → when its start came. */
  const open = new Map<number, number>();
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
    progress(phase, id) {
      if (phase === 'end') open.delete(id);
      // An end that came without its start (the listener was not there yet) is ignored.
      else if (open.size < MAX_OUTSTANDING) open.set(id, now());
    },
    outstanding() {
      const believedSince = now() - MAX_OPEN_MS;
      for (const [id, at] of open) if (at < believedSince) open.delete(id);
      return open.size;
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
