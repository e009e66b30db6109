import { guarded } from '../../messaging/senders';
import type { WxtBrowser as Browser } from 'wxt/browser';
import { onMessage } from '../../messaging/protocol';
import type { Listing } from '../../domain/listing';
import { findCards, readCard } from './feed';
import { createNetworkCollector, readTbmMessage, readTbmProgress } from './network-hook';
import { extractPlacePanel } from './place';
import type { BrowsingReader } from '../../content/browsing';
import { startBrowsing } from '../../content/browsing-wiring';
import { collectGooglePage } from './collect';
import { navigationStatus } from '../../content/navigation-status';
import { measureCanvas } from './canvas';
import { readGooglePlace, startGooglePlaceDetails } from './place-details';
import { answerLookAtPage } from '../../content/page-look';
import { answerReviewsStep } from '../../content/reviews';
import { GOOGLE_REVIEWS } from './reviews';

/**
 * Wires the Google Maps content script. Messages from the page's world are accepted only
 * when they come from this very window and have the hook's exact shape; even then they only
 * feed a cross-check, never the store.
 */
export function startGoogleContent(win: Window, browser: Browser): void {
  const network = createNetworkCollector();
  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win || event.origin !== win.location.origin) return;
    const message = readTbmMessage(event.data);
    if (message) network.accept(message.body);
    const progress = readTbmProgress(event.data);
    if (progress) network.progress(progress.phase, progress.id);
  });

  // A page a sweep loaded is the sweep's, not something the person browsed: once asked to
  // collect, this page never feeds the Browsing collection (even after the sweep ends).
  let sweepPage = false;
  // Only the extension's background may ask (utils/messaging/senders.ts).
  const senders = { runtime: browser.runtime };

  const env = {
    doc: win.document,
    url: () => win.location.href,
    now: () => Date.now(),
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
    random: Math.random,
    network,
    httpStatus: () => navigationStatus(win.performance),
    hidden: () => win.document.visibilityState === 'hidden',
  };
  onMessage(
    'collect',
    guarded('collect', senders, async (message) => {
      sweepPage = true;
      browsing.stop();
      const observation = await collectGooglePage(env, message.data);
      // What the page searched is measured here, after the page settled, not taken from the tab's size.
      return { ...observation, canvas: measureCanvas(win) };
    }),
  );
  // Check this page (issue 41): the same reading, as a look; the page stays the person's.
  answerLookAtPage(win, browser, { collect: (options) => collectGooglePage(env, options), readPlace: readGooglePlace, frame: () => 'top' });

  const browsing = startBrowsing(win, browser, createGoogleBrowsingReader(), () => sweepPage);
  // A place page the details pass loaded (utils/details) is the sweep's too.
  const sweepAsks = () => {
    sweepPage = true;
    browsing.stop();
  };
  startGooglePlaceDetails(win, browser, { onAsked: sweepAsks });
  // And one the reviews pass loaded (utils/reviews).
  answerReviewsStep(win, browser, GOOGLE_REVIEWS, { onAsked: sweepAsks });
}

/**
 * Google's browsing reader: result cards in the feed not read before (cards stay in the DOM as
 * the feed grows; a card still being filled in, without its link yet, is read on a later scan),
 * and the place panel when the URL names a place other than the last one read.
 */
export function createGoogleBrowsingReader(): BrowsingReader {
  const read = new WeakSet<Element>();
  let lastPanelUrl: string | null = null;
  return {
    readNew(doc, url) {
      const cards: Listing[] = [];
      const places: Listing[] = [];
      const feed = doc.querySelector('[role="feed"]');
      if (feed) {
        for (const card of findCards(feed)) {
          if (read.has(card)) continue;
          const listing = readCard(card);
          if (typeof listing === 'string') continue;
          read.add(card);
          cards.push(listing.sponsored ? withoutAdLink(listing) : listing);
        }
      }
      if (url.includes('/maps/place/') && url !== lastPanelUrl) {
        // null while the panel still shows the previous place (its heading and label disagree).
        const place = extractPlacePanel(doc, url);
        if (place) {
          lastPanelUrl = url;
          places.push(place);
        }
      }
      return { cards, places };
    },
  };
}

/** Hosts whose links are ad clicks or ad redirects, never a business's website. */
const AD_HOSTS = /(^|\.)(googleadservices\.com|doubleclick\.net|googlesyndication\.com)$/i;
const GOOGLE_HOST = /(^|\.)google\.[a-z.]+$/i;

/**
 * An ad card's listing with its website only when that is the business's own site: an
 * ad-click link (`/aclk`, googleadservices, doubleclick) is never stored as the website.
 * (readCard already unwraps `/aclk?…&adurl=` to the advertised site when the link carries one.)
 */
export function withoutAdLink(listing: Listing): Listing {
  const site = listing.website;
  if (site === null || !isAdLink(site)) return listing;
  const out: Listing = { ...listing, website: null };
  if (listing.sources?.website !== undefined) {
    const sources = { ...listing.sources };
    delete sources.website;
    out.sources = sources;
  }
  return out;
}

function isAdLink(href: string): boolean {
  try {
    const u = new URL(href, 'https://www.google.com');
    if (AD_HOSTS.test(u.hostname)) return true;
    if (GOOGLE_HOST.test(u.hostname) && (u.pathname === '/aclk' || u.pathname.startsWith('/pagead/'))) return true;
    return /[?&](?:gclid|gclsrc|dclid)=/i.test(u.search);
  } catch {
    return true;
  }
}
