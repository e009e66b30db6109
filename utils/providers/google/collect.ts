import type { CollectOptions } from '../../messaging/protocol';
import { appStateFromDocument } from './app-state';
import { extractFeed } from './feed';
import { findLimitedViewBanner } from './limited-view';
import type { NetworkCollector } from './network-hook';
import { buildObservation, organicCardsShown } from './observe';
import { detectPageKind } from './page-kind';
import { extractPlacePanel } from './place';
import { scrollFeed } from './scroll';
import { firstOf, pageDataLookup, type PageDataLookup } from './page-data';
import type { Observation, PageKind } from '../../domain/sweep';

export interface CollectEnv {
  doc: Document;
  /** The page URL now (the site rewrites it as the view changes). */
  url(): string;
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  network: NetworkCollector;
  /** HTTP status of this document's navigation, when the browser tells it. */
  httpStatus(): number | null;
  hidden(): boolean;
}

/**
 * How often the page is looked at until it shows what it is: a look is a few DOM queries, and
 * every poll's remainder is time the page sat shown and unread.
 */
const SHOWN_POLL_MS = 50;

/** Page kinds that decide the visit by themselves; a results page decides once it shows something. */
const DECISIVE: PageKind[] = ['place', 'no-results', 'captcha', 'consent'];

/**
 * One sweep visit, read-only on the page: wait until the page shows what it is, scroll the
 * results feed (never the window) within bounded time, then extract and describe everything
 * seen. The page is never clicked; scrolling the feed is what a person does to see more.
 */
export async function collectGooglePage(env: CollectEnv, options: CollectOptions): Promise<Observation> {
  const start = env.now();
  const warnings: string[] = [];
  let kind = detectPageKind(env.doc, env.url());
  while (env.now() - start < options.settleMs) {
    kind = detectPageKind(env.doc, env.url());
    if (DECISIVE.includes(kind)) break;
    if (kind === 'results') {
      const feed = extractFeed(env.doc);
      if (feed.cardsVisible > 0 || feed.endOfList) break;
    }
    await env.sleep(SHOWN_POLL_MS);
  }

  let scroll = null;
  // A look (Check this page) reads what the page shows, and scrolls nothing.
  if (kind === 'results' && !options.look) {
    const feedEl = extractFeed(env.doc).feed;
    if (feedEl) {
      if (env.hidden()) warnings.push('page-hidden: the tab is in the background and the browser may slow it down');
      scroll = await scrollFeed(
        feedEl,
        {
          sleep: env.sleep,
          now: env.now,
          random: env.random,
          readState: () => {
            const f = extractFeed(env.doc);
            // Cards shown, read or not, as the cap counts them (observe.ts).
            return { cards: organicCardsShown(f), endOfList: f.endOfList, loading: f.loading };
          },
        },
        { cap: options.cap, stallMs: options.stallMs, maxMs: options.maxMs, pauseMs: [options.scrollPauseMs / 2, options.scrollPauseMs * 1.5] },
      );
    }
  }

  // The page renders a batch from its own response at once, but the hook's copy of that response
  // reaches this world as a message a task or more later: wait until every request the page
  // started has ended, or the last batch's page data (full addresses, phones, hours) would
  // depend on timing.
  await pageRequestsSettled(env);

  const url = env.url();
  const finalKind = kind === 'results' || kind === 'unknown' ? detectPageKind(env.doc, url) : kind;
  const observation = buildObservation({
    url,
    pageKind: finalKind,
    feed: finalKind === 'results' ? extractFeed(env.doc) : null,
    place: finalKind === 'place' ? extractPlacePanel(env.doc, url) : null,
    network: env.network.snapshot(),
    pageData: pageDataFor(env, finalKind),
    scroll,
    elapsedMs: env.now() - start,
    warnings,
    // Only a results page can be the limited view's short list; other kinds are judged as they are.
    limitedViewBanner: finalKind === 'results' ? findLimitedViewBanner(env.doc) : null,
  });
  return { ...observation, httpStatus: env.httpStatus() };
}

/**
 * The page data a visit may use: the search responses the hook copied, and on a place page
 * its APP_INITIALIZATION_STATE (it describes the document as first loaded; the join checks
 * it names the place the panel shows).
 */
function pageDataFor(env: CollectEnv, kind: PageKind): PageDataLookup {
  const network = env.network.pageData();
  if (kind !== 'place') return network;
  const state = appStateFromDocument(env.doc)?.place;
  return state ? firstOf(pageDataLookup([state]), network) : network;
}

/** How often the wait looks again while a request is outstanding … */
const SETTLE_POLL_MS = 25;
/** … and it never lasts longer than this (a forged start, or an answer the hook never saw end). */
const SETTLE_MAX_MS = 1500;

/**
 * Returns once no tbm=map request of the page is outstanding (network-hook.ts). One task turn
 * is yielded first: messages the hook posted before now are then delivered, whatever order the
 * browser runs the page's tasks and the messages in.
 */
async function pageRequestsSettled(env: CollectEnv): Promise<void> {
  const until = env.now() + SETTLE_MAX_MS;
  await env.sleep(0);
  while (env.network.outstanding() > 0 && env.now() < until) await env.sleep(SETTLE_POLL_MS);
}
