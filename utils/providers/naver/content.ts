import { guarded } from '../../messaging/senders';
import type { WxtBrowser as Browser } from 'wxt/browser';
import { readNaverPlace, startNaverPlaceDetails } from './place-details';
import { answerLookAtPage } from '../../content/page-look';
import type { PageLook } from '../../domain/page-look';
import { answerReviewsStep } from '../../content/reviews';
import { NAVER_REVIEWS } from './reviews';
import { listingFromPlace } from '../../listing/from-provider-place';
import type { Listing } from '../../domain/listing';
import { onMessage } from '../../messaging/protocol';
import { type ApolloState, apolloStateFromDocument, placeFromDetailState } from './apollo';
import { observeListPage } from './observe';
import { claimsNaverHook, readNaverHookMessage } from './network-hook';
import { createNaverPageData, type NaverPageData } from './page-data';
import { parseListUrl, placeIdOf } from './urls';
import type { BrowsingReader } from '../../content/browsing';
import { startBrowsing } from '../../content/browsing-wiring';
import { collectNaverPage, readPlaces, stateKeys } from './collect';
import { pageMarkOf, pressNextPage, type PageMark } from './page-turns';
import { navigationStatus } from '../../content/navigation-status';

/** The outer Naver Map page whose list and place iframes are read while the person browses. */
const NAVER_MAP_ORIGIN = 'https://map.naver.com';

/**
 * Wires the content script on pcmap.place.naver.com (every frame).
 *
 * Two roles, by where the document is:
 * - **Top-level** (a worker tab the sweep driver loaded with a list URL, or a place page the
 *   person opened in a tab of its own): answers `collect` and `nextPage`, only from the
 *   extension's background; collects while browsing only where the background says no sweep
 *   drives the tab, and never once the sweep asked it to collect.
 * - **A frame inside map.naver.com** (the person's `searchIframe` list and `entryIframe` place
 *   page): collect while browsing, as on Google: cards the person scrolls past, places they open;
 *   never clicks, scrolls or navigates. Frames never answer the sweep's messages (a tab message
 *   reaches every frame; only the document the driver loaded should reply).
 */
export function startNaverContent(win: Window, browser: Browser): void {
  const topLevel = isTopLevel(win);
  // The page's own GraphQL answers, as the MAIN-world hook copies them (page content: see page-data.ts).
  const pageData = createNaverPageData();
  let onPageData: (() => void) | null = null;
  listenToNaverHook(win, pageData, () => onPageData?.());
  // A page a sweep loaded is the sweep's: once asked to collect, it never feeds browsing.
  let sweepPage = false;
  let browsingStop: (() => void) | null = null;

  if (topLevel) {
    const sweepAsks = () => {
      sweepPage = true;
      browsingStop?.();
    };
    // A place page the details pass loaded (utils/details) is the sweep's too, and one the reviews pass loaded (utils/reviews).
    startNaverPlaceDetails(win, browser, { onAsked: sweepAsks });
    answerReviewsStep(win, browser, NAVER_REVIEWS, { onAsked: sweepAsks });
    let previous: PageMark | null = null;
    // Only the extension's background may ask (utils/messaging/senders.ts).
    const senders = { runtime: browser.runtime };
    onMessage(
      'collect',
      guarded('collect', senders, async (message) => {
        sweepPage = true;
        browsingStop?.();
        const observation = await collectNaverPage(
          {
            doc: win.document,
            url: () => win.location.href,
            now: () => Date.now(),
            sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
            random: Math.random,
            httpStatus: () => navigationStatus(win.performance),
            hidden: () => win.document.visibilityState === 'hidden',
            previous,
            pageData,
          },
          message.data,
        );
        previous = pageMarkOf(observation) ?? previous;
        return observation;
      }),
    );
    // async: a refusal is then an error reply, not an exception thrown out of the runtime listener.
    onMessage(
      'nextPage',
      guarded('nextPage', senders, async () => {
        sweepPage = true;
        browsingStop?.();
        return pressNextPage(win.document);
      }),
    );
  }

  // Check this page (issue 41), in every frame: the sweep's reading of this document as a look.
  // The person's map has a list frame and maybe a place frame: the list answers first.
  const frame = (): PageLook['frame'] => (topLevel ? 'top' : placeIdOf(win.location.href) !== null ? 'place-frame' : 'list-frame');
  const lookEnv = {
    doc: win.document,
    url: () => win.location.href,
    now: () => Date.now(),
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
    random: Math.random,
    httpStatus: () => navigationStatus(win.performance),
    hidden: () => win.document.visibilityState === 'hidden',
    previous: null,
    pageData,
  };
  answerLookAtPage(win, browser, {
    collect: (options) => collectNaverPage(lookEnv, options),
    readPlace: readNaverPlace,
    frame,
    answerDelayMs: (look) =>
      look.observation.pageKind === 'results' || look.observation.pageKind === 'no-results' ? 0 : look.observation.pageKind === 'place' ? 400 : 1_200,
  });

  // Browsing: in frames of the Naver Map page, and in a place page of its own (one the person
  // opened in a tab): the background says whether a sweep drives the tab (startBrowsing). A list
  // at the top of a tab is what a sweep loads (people open lists in the map), so it never browses,
  // even where the background has not saved the tab as a sweep's yet.
  if (topLevel ? placeIdOf(win.location.href) === null : !insideNaverMap(win)) return;
  // A card shown before the page's answer for it arrived is read once the answer is here (or its wait is over).
  let browsingScan: (() => void) | null = null;
  const reader = createNaverBrowsingReader({ pageData, now: () => win.performance.now(), later: (ms) => win.setTimeout(() => browsingScan?.(), ms) });
  const browsing = startBrowsing(win, browser, reader, () => sweepPage);
  browsingStop = () => browsing.stop();
  browsingScan = () => browsing.scan();
  onPageData = () => browsing.scan();
}

/**
 * Accepts the hook's messages: only from this very window and its own origin, with the hook's exact
 * envelope. A message that claims to be the hook's and fails these checks is counted, never read.
 */
export function listenToNaverHook(win: Window, pageData: NaverPageData, accepted?: () => void): void {
  win.addEventListener('message', (event: MessageEvent) => {
    if (!claimsNaverHook(event.data)) return;
    let origin: string | null = null;
    try {
      origin = win.location.origin;
    } catch {
      origin = null;
    }
    const message = event.source === win && origin !== null && event.origin === origin ? readNaverHookMessage(event.data) : null;
    if (!message) {
      pageData.refuse();
      return;
    }
    pageData.accept(message);
    accepted?.();
  });
}

function isTopLevel(win: Window): boolean {
  try {
    return win.top === win;
  } catch {
    return false;
  }
}

/**
 * A frame whose top page is Naver Map. Chrome says so in `location.ancestorOrigins`; where the
 * browser does not, any frame counts (pcmap pages are framed only by the map).
 */
export function insideNaverMap(win: Window): boolean {
  if (isTopLevel(win)) return false;
  const ancestors = (win.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (!ancestors || ancestors.length === 0) return true;
  return ancestors.item(ancestors.length - 1) === NAVER_MAP_ORIGIN;
}

/**
 * Naver's browsing reader, on the frame's own document:
 * - a list (`/{vertical}/list?…`): every card shown that was not read before, organic and ads
 *   (flagged), with the fields of the page's Apollo state where it holds the card's place (the
 *   state describes the page as loaded); cards added later (lazy batches, a page the pager
 *   re-rendered in place) are read from the card, filled from the hook's copies of the page's own
 *   answers where they agree with it (a card waits up to BROWSING_PAGE_DATA_WAIT_MS for its answer);
 * - a place page (`/{vertical}/{id}/home`, …): the place of the page's Apollo state, once per id.
 *   Its state must name the id of the URL, so a state left from another place is never used.
 * A card still being filled in (no id or name yet) is read on a later scan.
 */
export interface NaverBrowsingOptions {
  /** The hook's copies of the page's answers: they fill cards the state does not describe. */
  pageData?: NaverPageData | null;
  now?: () => number;
  /** Ask for another scan in `ms` (a card waiting for its answer). */
  later?: (ms: number) => void;
}

/** How long a card the state does not describe waits for the page's answer before it is read from the card alone. */
export const BROWSING_PAGE_DATA_WAIT_MS = 1500;

export function createNaverBrowsingReader(options: NaverBrowsingOptions = {}): BrowsingReader {
  const read = new Set<string>();
  const pageData = options.pageData ?? null;
  const now = options.now ?? (() => Date.now());
  /** When a card waiting for its answer was first seen. */
  const waiting = new Map<string, number>();
  /** When the wake-up asked for last is due (-Infinity: none). */
  let wakeAt = Number.NEGATIVE_INFINITY;
  let state: ApolloState | null = null;
  /** `key|sponsored` of the list items the state holds: their fields came from the page data. */
  let stateItems: Set<string> | null = null;
  let lastPlaceId: string | null = null;
  const stateOf = (doc: Document): ApolloState | null => {
    // The state is the page's own inline script: parsed once it is there.
    if (!state) state = apolloStateFromDocument(doc);
    return state;
  };
  const listItemsOf = (s: ApolloState): Set<string> => {
    if (!stateItems) stateItems = stateKeys(s);
    return stateItems;
  };
  return {
    readNew(doc, url) {
      const cards: Listing[] = [];
      const places: Listing[] = [];
      if (parseListUrl(url)) {
        const s = stateOf(doc);
        const inState = s ? listItemsOf(s) : new Set<string>();
        const summary = observeListPage({ doc, url, scrollSettled: true, state: s });
        const fresh = [...summary.places, ...summary.ads].filter((place) => {
          const k = `${place.key}|${place.sponsored}`;
          if (read.has(k)) return false;
          // An organic card the state does not describe waits a little for the page's answer for it.
          if (pageData && !place.sponsored && !inState.has(k) && pageData.get(place.key) === undefined) {
            const since = waiting.get(k) ?? now();
            waiting.set(k, since);
            if (now() - since < BROWSING_PAGE_DATA_WAIT_MS) return false;
          }
          waiting.delete(k);
          read.add(k);
          return true;
        });
        // Cards no longer shown stop waiting; the one due first is woken for (each wake asks for the next).
        const shown = new Set([...summary.places, ...summary.ads].map((p) => `${p.key}|${p.sponsored}`));
        for (const k of [...waiting.keys()]) if (!shown.has(k)) waiting.delete(k);
        if (waiting.size > 0 && options.later) {
          const t = now();
          const due = Math.max(t + 50, Math.min(...waiting.values()) + BROWSING_PAGE_DATA_WAIT_MS + 50);
          if (!(wakeAt > t && wakeAt <= due)) {
            wakeAt = due;
            options.later(due - t);
          }
        }
        cards.push(...readPlaces(fresh, inState, pageData).listings);
        return { cards, places };
      }
      const id = placeIdOf(url);
      if (id && id !== lastPlaceId) {
        const s = stateOf(doc);
        const place = s ? placeFromDetailState(s, id) : null;
        if (place) {
          lastPlaceId = id;
          places.push(listingFromPlace(place, 'page-data'));
        }
      }
      return { cards, places };
    },
  };
}
