import type { Listing } from '../../listing/types';
import type { Observation, PageKind } from '../../sweep/types';
import type { FeedExtraction } from './feed';
import type { NetworkSnapshot } from './network-hook';
import { RESULTS_CAP, type ScrollOutcome } from './scroll';
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
  scroll?: ScrollOutcome | null;
  elapsedMs: number;
  warnings?: string[];
}

export function buildObservation(parts: ObservationParts): Observation {
  const { feed = null, place = null, network = null, scroll = null } = parts;
  const isPlace = parts.pageKind === 'place';
  const listings = isPlace ? (place ? [place] : []) : parts.pageKind === 'results' ? (feed?.listings ?? []) : [];
  // A place page shows one "card", its panel: shown but unread is the extractor-broken case too.
  const cardsVisible = isPlace ? 1 : (feed?.cardsVisible ?? 0);
  const organic = listings.filter((l) => !l.sponsored).length;
  const endOfList = (feed?.endOfList ?? false) || scroll?.stopReason === 'end';
  const capHit = organic >= RESULTS_CAP;

  const warnings = [...(parts.warnings ?? []), ...(feed?.warnings ?? [])];
  const mismatch = network ? networkMismatch(listings, network) : null;
  if (mismatch) warnings.push(mismatch);

  return {
    url: parts.url,
    pageKind: parts.pageKind,
    cardsVisible,
    listings,
    networkItems: network?.networkItems ?? null,
    networkKeys: network?.networkKeys ?? [],
    endOfList,
    capHit,
    finalView: parseView(parts.url),
    elapsedMs: parts.elapsedMs,
    stopReason: scroll?.stopReason ?? (parts.pageKind !== 'results' ? 'not-a-feed' : endOfList ? 'end' : capHit ? 'cap' : 'stalled'),
    warnings,
  };
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
