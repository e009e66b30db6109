import type { PageDataCounts } from '../../domain/page-audit';
import type { Listing } from '../../domain/listing';
import type { Observation, PageKind } from '../../domain/sweep';
import { findCards, isSponsoredCard, organicCardRatings, readCard, type FeedExtraction } from './feed';
import { detectLimitedView } from './limited-view';
import type { NetworkSnapshot } from './network-hook';
import { joinPageData, type PageDataLookup } from './page-data';
import { RESULTS_CAP, type ScrollOutcome } from './scroll';
import { CAP_MARGIN } from '../../grid/decide';
import { parseView } from './urls';

/** The pieces one page visit produced; the content script gathers them, this combines them. */
export interface ObservationParts {
  /** The page URL at the end (the site may have moved the view by itself). */
  url: string;
  pageKind: PageKind;
  feed?: FeedExtraction | null;
  /** The single place shown, on a 'place' page. */
  place?: Listing | null;
  network?: NetworkSnapshot | null;
  /**
   * Page data for this page (search responses, the place page's state), by key: it fills
   * fields of the listings the DOM showed, never adds one (page-data.ts has the rule).
   */
  pageData?: PageDataLookup | null;
  scroll?: ScrollOutcome | null;
  elapsedMs: number;
  warnings?: string[];
  /** A limited-view notice found on the page (findLimitedViewBanner), if any. */
  limitedViewBanner?: string | null;
}

/**
 * The live cap is "about 120" (spec §1.3: "always 120" say users; nobody promises exactly).
 * A list that ends within CAP_MARGIN of it (one constant, shared with the planner's decision)
 * may have been cut by the cap, not by the area running out of places, so it counts as
 * crowded and the cell splits: one more search is cheap, a silently truncated cell is not.
 */
export { CAP_MARGIN };
/** Organic cards shown at or above this: the cap was hit. */
export const CROWDED_AT = RESULTS_CAP - CAP_MARGIN;

export function buildObservation(parts: ObservationParts): Observation & PageDataCounts {
  const { feed = null, place = null, network = null, scroll = null, pageData = null } = parts;
  const isPlace = parts.pageKind === 'place';
  const shown = isPlace ? (place ? [place] : []) : parts.pageKind === 'results' ? (feed?.listings ?? []) : [];
  // Everything below counts what the DOM showed; page data only fills the listings' fields.
  const joined = pageData ? joinPageData(shown, pageData) : null;
  const listings = joined ? joined.listings : shown;
  // A place page shows one "card", its panel: shown but unread is the extractor-broken case too.
  const cardsVisible = isPlace ? 1 : (feed?.cardsVisible ?? 0);
  const endOfList = (feed?.endOfList ?? false) || scroll?.stopReason === 'end';
  // What the page showed, not what was read: an unreadable card is still a place the cap counted.
  const organicShown = isPlace ? 1 : parts.pageKind === 'results' && feed ? organicCardsShown(feed) : 0;
  const capHit = organicShown >= CROWDED_AT;
  const limitedView =
    parts.pageKind === 'results'
      ? // What the cards show, not the listings joined with page data (limited-view.ts says why).
        detectLimitedView({ cards: feed ? organicCardRatings(feed) : [], organicShown, endOfList, banner: parts.limitedViewBanner ?? null })
      : null;

  const warnings = [...(parts.warnings ?? []), ...(feed?.warnings ?? [])];
  const mismatch = network ? networkMismatch(listings, network) : null;
  if (mismatch) warnings.push(mismatch);
  if (joined && joined.dropped > 0) {
    const why = Object.entries(joined.reasons)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(', ');
    warnings.push(`page data dropped for ${joined.dropped} place(s): it contradicts the page (${why})`);
  }

  return {
    url: parts.url,
    pageKind: parts.pageKind,
    cardsVisible,
    listings,
    networkItems: network?.networkItems ?? null,
    networkKeys: network?.networkKeys ?? [],
    endOfList,
    capHit,
    organicShown,
    limitedView,
    finalView: parseView(parts.url),
    elapsedMs: parts.elapsedMs,
    stopReason: scroll?.stopReason ?? (parts.pageKind !== 'results' ? 'not-a-feed' : endOfList ? 'end' : capHit ? 'cap' : 'stalled'),
    warnings,
    ...(joined ? { pageDataDropped: joined.dropped } : {}),
  };
}

/**
 * Organic cards in the feed, read or not: every card less the sponsored ones. Sponsored cards
 * are counted on the cards themselves, because the extraction drops an ad that repeats an
 * organic place (one listing per key), so its listings undercount the ads shown. Without the
 * feed element (a test's bare extraction), the sponsored listings are all there is to go by.
 */
export function organicCardsShown(feed: FeedExtraction): number {
  if (!feed.feed) return Math.max(0, feed.cardsVisible - feed.listings.filter((l) => l.sponsored).length);
  const cards = findCards(feed.feed);
  let sponsored = 0;
  for (const card of cards) {
    const read = readCard(card);
    if (typeof read === 'object' ? read.sponsored : looksSponsored(card)) sponsored++;
  }
  return Math.max(0, cards.length - sponsored);
}

/**
 * An unreadable card still shows whether it is an ad (its "Sponsored" label, an /aclk link):
 * an unreadable ad must not count as a lost organic place. The marks are the ones feed.ts
 * reads on readable cards (spec §1.2).
 */
function looksSponsored(card: Element): boolean {
  return isSponsoredCard(card);
}

/**
 * A note when the page's own responses and its DOM disagree. Not an error: the first batch
 * often comes inside the HTML rather than over the network, and ads are not in responses.
 */
function networkMismatch(listings: Listing[], network: NetworkSnapshot): string | null {
  if (network.networkItems === null) return null;
  const dom = new Set(listings.filter((l) => !l.sponsored).map((l) => l.key));
  const net = new Set(network.networkKeys);
  const domOnly = [...dom].filter((k) => !net.has(k)).length;
  const netOnly = [...net].filter((k) => !dom.has(k)).length;
  if (domOnly === 0 && netOnly === 0) return null;
  return (
    `DOM and network disagree: ${dom.size} organic listings on the page, ${net.size} places in its search responses ` +
    `(${domOnly} only on the page, ${netOnly} only in responses).`
  );
}
