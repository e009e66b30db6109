import { guarded } from '../../messaging/senders';
import type { WxtBrowser as Browser } from 'wxt/browser';
import type { MeasuredCanvas } from '../../coverage/geometry';
import type { Listing } from '../../domain/listing';
import { readKakaoPlace, startKakaoPlaceDetails } from './place-details';
import { answerLookAtPage } from '../../content/page-look';
import { listingFromPlace } from '../../listing/from-provider-place';
import { onMessage } from '../../messaging/protocol';
import { extractKakaoList } from './list-dom';
import { createKakaoNetwork, type KakaoNetwork } from './network';
import { readKakaoHookMessage } from './network-hook';
import { observeKakaoPage } from './observe';
import { readPlacePage } from './place-page';
import { parseMapDaumUrl } from './urls';
import type { BrowsingReader } from '../../content/browsing';
import { startBrowsing } from '../../content/browsing-wiring';
import { collectKakaoPage, type KakaoCollectEnv, type MeasuredRequest } from './collect';
import { adListings, answerFor } from './answers';
import { kakaoFirstPageReady, kakaoPreparation, pressKakaoControl, pressKakaoNextPage } from './first-page';
import { navigationStatus } from '../../content/navigation-status';
import { answerReviewsStep } from '../../content/reviews';
import { confirmIdFromPlaceUrl } from './ids';
import { createKakaoReviews } from './reviews';
import { kakaoReviewsRequestPlace, type KakaoReviewsHookMessage, readKakaoReviewsHookMessage } from './reviews-hook';

/**
 * Wires the Kakao Map content script (map.kakao.com, place.map.kakao.com). The sweep's
 * `firstPageReady`, `pressFirstPageControl`, `collect` and `nextPage` are answered only when the
 * extension's background asks; the hook's
 * window messages (entrypoints/kakao-hook.content.ts) are taken only from this very window and
 * only in the hook's exact shape, and even then only as page content (kakao/collect.ts).
 */
export function startKakaoContent(win: Window, browser: Browser): void {
  const network = createKakaoNetwork();
  const reviewCopies: KakaoReviewsHookMessage[] = [];
  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win || event.origin !== win.location.origin) return;
    const message = readKakaoHookMessage(event.data);
    if (message) network.accept(message);
    const copy = readKakaoReviewsHookMessage(event.data);
    if (copy && reviewCopies.length < MAX_REVIEW_COPIES) reviewCopies.push(copy);
  });
  const requests = watchMapDaumRequests(win);

  // A page a sweep loaded is the sweep's, not something the person browsed: once asked to
  // collect, this page never feeds the Browsing collection (even after the sweep ends).
  let sweepPage = false;
  // Only the extension's background may ask (utils/messaging/senders.ts).
  const senders = { runtime: browser.runtime };

  const env: KakaoCollectEnv = {
    doc: win.document,
    url: () => win.location.href,
    now: () => Date.now(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    requests,
    network,
    httpStatus: () => navigationStatus(win.performance),
    hidden: () => win.document.visibilityState === 'hidden',
  };
  // One per document: each cell's search is a page load of its own, so a new visit.
  const preparation = kakaoPreparation();
  /** The background asked: the page is the sweep's. */
  const sweepAsks = () => {
    sweepPage = true;
    browsing.stop();
  };

  onMessage(
    'firstPageReady',
    guarded('firstPageReady', senders, async (message) => {
      sweepAsks();
      return kakaoFirstPageReady(env, message.data, preparation);
    }),
  );

  onMessage(
    'pressFirstPageControl',
    guarded('pressFirstPageControl', senders, async () => {
      sweepAsks();
      return pressKakaoControl(env, preparation);
    }),
  );

  onMessage(
    'collect',
    guarded('collect', senders, async (message) => {
      sweepAsks();
      const observation = await collectKakaoPage(env, message.data);
      return { ...observation, canvas: measureKakaoCanvas(win) };
    }),
  );
  // Check this page (issue 41): the same reading, as a look; the page stays the person's.
  answerLookAtPage(win, browser, { collect: (options) => collectKakaoPage(env, options), readPlace: readKakaoPlace, frame: () => 'top' });

  // Async, so a refusal is an error reply, not an exception thrown into the messaging layer.
  onMessage(
    'nextPage',
    guarded('nextPage', senders, async () => {
      sweepAsks();
      return pressKakaoNextPage(env);
    }),
  );

  const browsing = startBrowsing(win, browser, createKakaoBrowsingReader(network), () => sweepPage);
  // A place page the details pass loaded (utils/details) is the sweep's too.
  startKakaoPlaceDetails(win, browser, { onAsked: sweepAsks });
  // And one the reviews pass loaded (utils/reviews): its reviews from the page's own answers.
  if (confirmIdFromPlaceUrl(win.location.href)) {
    const reviewRequests = watchPageRequests(win, (url, initiator) => REVIEW_INITIATORS.has(initiator) && kakaoReviewsRequestPlace(url) !== null);
    const source = { messages: () => reviewCopies, requestCount: (url: string) => reviewRequests().filter((r) => r.url === url).length };
    answerReviewsStep(win, browser, createKakaoReviews(source), { onAsked: sweepAsks });
  }
}

/** The place page fetches its reviews by XHR or fetch. */
const REVIEW_INITIATORS: ReadonlySet<string> = new Set(['xmlhttprequest', 'fetch']);
/** Copies kept per page: a place of thousands of reviews is a few hundred answers. */
const MAX_REVIEW_COPIES = 5_000;

/**
 * How the page sends its search (B4, B4b): XHR or fetch, or a JSONP script. A request an image, a
 * beacon or a stylesheet made is not one whose answer the page can show: someone else's. This
 * only narrows the list (a page script can fetch too): collect.ts newestSearch does the rest.
 */
const SEARCH_INITIATORS: ReadonlySet<string> = new Set(['xmlhttprequest', 'fetch', 'script']);

/** The page's finished search requests (either endpoint, urls.ts parseMapDaumUrl), oldest first by start. */
export function watchMapDaumRequests(win: Window): () => readonly MeasuredRequest[] {
  return watchPageRequests(win, (url, initiator) => SEARCH_INITIATORS.has(initiator) && parseMapDaumUrl(url) !== null);
}

/**
 * The page's finished requests that `wanted` picks, oldest first by start, with the status the
 * browser gives (`responseStatus`; 0, an opaque answer, is null), from the browser's resource
 * timing (the isolated world sees the document's own timeline). A PerformanceObserver keeps every
 * entry even if the page clears the timeline or its 250-entry buffer fills.
 */
export function watchPageRequests(win: Window, wanted: (url: string, initiator: string) => boolean): () => readonly MeasuredRequest[] {
  const seen: (MeasuredRequest & { start: number })[] = [];
  const measured = (e: PerformanceEntry) => {
    const status = (e as PerformanceEntry & { responseStatus?: number }).responseStatus;
    return { url: e.name, status: typeof status === 'number' && status > 0 ? status : null, start: e.startTime };
  };
  const isWanted = (e: PerformanceEntry) => e.entryType === 'resource' && wanted(e.name, (e as PerformanceResourceTiming).initiatorType);
  const add = (entries: PerformanceEntryList) => {
    let added = false;
    for (const e of entries) {
      if (!isWanted(e)) continue;
      seen.push(measured(e));
      added = true;
    }
    if (added) seen.sort((a, b) => a.start - b.start);
  };
  const Observer = (win as Window & { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
  let observing = false;
  if (Observer) {
    try {
      new Observer((list) => add(list.getEntries())).observe({ type: 'resource', buffered: true });
      observing = true;
    } catch {
      observing = false;
    }
  }
  const strip = ({ url, status }: MeasuredRequest) => ({ url, status });
  return () => {
    if (observing) return seen.map(strip);
    const entries = win.performance.getEntriesByType('resource').filter(isWanted);
    return [...entries].sort((a, b) => a.startTime - b.startTime).map((e) => strip(measured(e)));
  };
}

/** The map right of the list panel (`#info`), as the page lays it out. */
export function measureKakaoCanvas(win: Pick<Window, 'innerWidth' | 'innerHeight'> & { document: Document }): MeasuredCanvas | null {
  const width = win.innerWidth;
  const height = win.innerHeight;
  if (!(width > 0 && height > 0)) return null;
  const panel = win.document.getElementById('info')?.getBoundingClientRect();
  const panelRight = panel && panel.width > 0 && panel.left <= 8 && panel.right < width * 0.9 ? panel.right : null;
  return { width, height, panelRight };
}

/** Misses of the hook's copy a card waits for before it is kept without coordinates. */
const WAIT_FOR_ANSWER_SCANS = 3;

/**
 * Kakao's browsing reader: the list's cards not read before (with what the page's own answers
 * add: coordinates, homepage, category path), ads flagged, and the place page the person opened
 * (place.map.kakao.com/{confirmid}). Never clicks, scrolls or navigates.
 */
export function createKakaoBrowsingReader(network: Pick<KakaoNetwork, 'exchanges'>): BrowsingReader {
  const readKeys = new Set<string>();
  const misses = new Map<string, number>();
  let lastPlaceUrl: string | null = null;
  return {
    readNew(doc, url) {
      const cards: Listing[] = [];
      const places: Listing[] = [];
      const exchanges = network.exchanges();
      const list = extractKakaoList(doc);
      if (list.cardsShown > 0) {
        const summary = observeKakaoPage({ list, responses: exchanges });
        for (const p of summary.places) {
          if (readKeys.has(p.key)) continue;
          if (p.lat === null && (misses.get(p.key) ?? 0) < WAIT_FOR_ANSWER_SCANS) {
            misses.set(p.key, (misses.get(p.key) ?? 0) + 1);
            continue;
          }
          readKeys.add(p.key);
          misses.delete(p.key);
          cards.push(listingFromPlace(p, 'card'));
        }
        const organic = new Set(summary.places.map((p) => p.key));
        for (const ad of adListings(doc, answerFor(exchanges, list.pager.current), organic)) {
          const key = `ad|${ad.key}`;
          if (readKeys.has(key)) continue;
          readKeys.add(key);
          cards.push(ad);
        }
      }
      if (url !== lastPlaceUrl) {
        const place = readPlacePage(doc, url);
        if (place) {
          lastPlaceUrl = url;
          places.push(listingFromPlace(place, 'panel'));
        }
      }
      return { cards, places };
    },
  };
}
