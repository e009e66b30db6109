import type { Listing } from '../../domain/listing';
import { checkPin, makeListing, TEXT_LIMITS, unwrapLink } from './fields';
import {
  boundedText,
  cleanText,
  END_OF_LIST_PATTERNS,
  isNoReviewsText,
  isPriceText,
  isSponsoredWord,
  isWebsiteLabel,
  looksLikePhone,
  matchesAny,
  parseParenthesisedCount,
  parseRatingLabel,
  splitInfoLine,
  WEBSITE_DATA_VALUES,
} from './labels';
import type { CardRating } from './limited-view';
import { GOOGLE_ORIGIN, parsePlaceUrl } from './urls';

/**
 * The results list of a Google Maps search page (map-pages-spec §1.2).
 *
 * Cards are found and identified only through stable hooks (role=article, place hrefs,
 * aria-labels). Class names (W4Efsd info lines, UsdlK phone, HlvSq end text, lXJj5c
 * spinner) are used only for fields no stable hook carries.
 */
export interface FeedExtraction {
  feed: Element | null;
  /** Cards in the feed, organic and sponsored, readable or not. */
  cardsVisible: number;
  /** One per place key; a sponsored duplicate of an organic card is dropped. */
  listings: Listing[];
  /** The list said it has no more results. */
  endOfList: boolean;
  /** The spinner row is showing: more cards are on their way. */
  loading: boolean;
  warnings: string[];
}

const PLACE_LINK = 'a[href*="/maps/place/"]';
const RATING_IMG = '[role="img"][aria-label]';

/** Reads the feed under `root` (a document, or any element containing it). */
export function extractFeed(root: ParentNode): FeedExtraction {
  const feed = root.querySelector('[role="feed"]');
  if (!feed) return { feed: null, cardsVisible: 0, listings: [], endOfList: false, loading: false, warnings: [] };

  const cards = findCards(feed);
  const byKey = new Map<string, Listing>();
  let noId = 0;
  let noName = 0;
  for (const card of cards) {
    const read = readCard(card);
    if (read === 'no-id') noId++;
    else if (read === 'no-name') noName++;
    else {
      const seen = byKey.get(read.key);
      // The organic card wins: a sponsored copy must never make an organic result look like an ad.
      if (!seen || (seen.sponsored && !read.sponsored)) byKey.set(read.key, read);
    }
  }

  const warnings: string[] = [];
  if (noId > 0) warnings.push(`${noId} of ${cards.length} result cards had no readable place id.`);
  if (noName > 0) warnings.push(`${noName} of ${cards.length} result cards had no readable name.`);
  return {
    feed,
    cardsVisible: cards.length,
    listings: [...byKey.values()],
    endOfList: showsEndOfList(feed),
    loading: showsSpinner(feed),
    warnings,
  };
}

/**
 * Every card once: each role=article, plus any place link outside one (so a page that drops
 * role=article still has its cards counted, and a broken href still counts as a card).
 */
export function findCards(feed: Element): Element[] {
  const cards = new Set<Element>(feed.querySelectorAll('[role="article"]'));
  for (const link of feed.querySelectorAll(PLACE_LINK)) {
    if (link.closest('[role="article"]')) continue;
    cards.add(link.closest('[jsaction*="mouseover:pane"]') ?? link);
  }
  return [...cards];
}

export function readCard(card: Element): Listing | 'no-id' | 'no-name' {
  const link = card.matches(PLACE_LINK) ? card : card.querySelector(PLACE_LINK);
  const href = absolute(link?.getAttribute('href'));
  if (!href) return 'no-id';
  const parts = parsePlaceUrl(href);
  if (!parts.key || !parts.cid) return 'no-id';

  const name =
    boundedText(link?.getAttribute('aria-label'), TEXT_LIMITS.name) ??
    boundedText(card.getAttribute('aria-label'), TEXT_LIMITS.name) ??
    boundedText(card.querySelector('.fontHeadlineSmall')?.textContent, TEXT_LIMITS.name);
  if (!name) return 'no-name';

  const rating = readRating(card);
  const info = readInfoLines(card, rating.element);
  const pin = checkPin(parts.lat, parts.lng);
  return makeListing(
    { key: parts.key, cid: parts.cid, featureId: parts.featureId, placeId: parts.placeId },
    {
      name,
      category: info.category,
      address: info.address,
      phone: info.phone,
      website: readWebsite(card),
      rating: rating.rating,
      reviews: rating.reviews,
      lat: pin?.lat ?? null,
      lng: pin?.lng ?? null,
      sponsored: isSponsoredCard(card),
    },
    'card',
  );
}

function absolute(href: string | null | undefined): string | null {
  if (!href) return null;
  try {
    return new URL(href, GOOGLE_ORIGIN).href;
  } catch {
    return null;
  }
}

/**
 * Whether a card is an ad, in any interface language: its label ("Sponsored", "광고",
 * "Sponsorisé", "スポンサー"; span.jHLihd, an aria-label or a leaf text) or an ad-click link
 * (`/aclk`, googleadservices), which ads carry whatever the language.
 */
export function isSponsoredCard(card: Element): boolean {
  if (card.querySelector('.jHLihd, a[href^="/aclk"], a[href*="google.com/aclk"], a[href*="googleadservices.com/"]')) return true;
  for (const el of card.querySelectorAll('[aria-label]')) {
    // The card's link and the card carry the place's name: a business may be called "Annonce".
    if (el.matches(PLACE_LINK)) continue;
    if (isSponsoredWord(el.getAttribute('aria-label'))) return true;
  }
  for (const span of card.querySelectorAll('span')) {
    if (span.childElementCount === 0 && isSponsoredWord(span.textContent)) return true;
  }
  return false;
}

/**
 * What each organic card's star label shows, read from the cards themselves, unreadable cards
 * included (they show their stars all the same): the limited-view evidence (limited-view.ts).
 * Never the listings after the page-data join, which may carry the counts the cards hide.
 * Without the feed element (a test's bare extraction), its listings are what the cards showed.
 */
export function organicCardRatings(extraction: FeedExtraction): CardRating[] {
  if (!extraction.feed) return extraction.listings.filter((l) => !l.sponsored).map(ratingShown);
  return findCards(extraction.feed)
    .filter((card) => !isSponsoredCard(card))
    .map((card) => ratingShown(readRating(card)));
}

function ratingShown(r: { rating: number | null; reviews: number | null }): CardRating {
  if (r.rating === null) return 'unrated';
  return r.reviews === null ? 'bare' : 'counted';
}

interface CardStars {
  rating: number | null;
  reviews: number | null;
  element: Element | null;
}

/**
 * The star image's label: "4.5 stars 1,234 Reviews" signed in, a bare "4.9 stars" in the
 * limited view, where the count, if shown at all, is "(1,234)" text beside the stars.
 */
function readRating(card: Element): CardStars {
  for (const img of card.querySelectorAll(RATING_IMG)) {
    const parsed = parseRatingLabel(img.getAttribute('aria-label'));
    if (!parsed) continue;
    const reviews = parsed.reviews ?? parenthesisedCountNear(img);
    return { rating: parsed.rating, reviews, element: img };
  }
  return { rating: null, reviews: null, element: null };
}

function parenthesisedCountNear(img: Element): number | null {
  const scope = img.parentElement ?? img;
  for (const el of scope.querySelectorAll('span')) {
    if (el.childElementCount > 0) continue;
    const n = parseParenthesisedCount(el.textContent);
    if (n !== null) return n;
  }
  return null;
}

interface CardInfo {
  category: string | null;
  address: string | null;
  phone: string | null;
}

/**
 * Info lines: "{rating} · {price}", then "{category} · {price?} · {address}", then a
 * description and "{hours} · {phone}". Leaf W4Efsd elements are the lines.
 */
function readInfoLines(card: Element, ratingElement: Element | null): CardInfo {
  const lines = infoLineElements(card)
    .filter((line) => !(ratingElement && line.contains(ratingElement)))
    .map((line) => splitInfoLine(line.textContent ?? '').filter((part) => !isNoReviewsText(part)));

  const phone = boundedText(card.querySelector('.UsdlK')?.textContent, TEXT_LIMITS.phone) ?? lines.flat().find((part) => looksLikePhone(part)) ?? null;

  const first = lines.map((parts) => parts.filter((part) => !isPriceText(part) && !looksLikePhone(part))).find((parts) => parts.length > 0);
  if (!first) return { category: null, address: null, phone };
  return {
    category: boundedText(first[0], TEXT_LIMITS.category),
    address: first.length > 1 ? boundedText(first[first.length - 1], TEXT_LIMITS.address) : null,
    phone,
  };
}

/**
 * The card's info lines: the innermost `W4Efsd` blocks. Class names change every few months,
 * so when none is found the lines are recognised by shape instead: innermost blocks whose
 * text is a `·`-separated line ("Cafe · $$ · 12 Main St").
 */
function infoLineElements(card: Element): Element[] {
  const byClass = [...card.querySelectorAll('.W4Efsd')].filter((line) => !line.querySelector('.W4Efsd'));
  if (byClass.length > 0) return byClass;
  return [...card.querySelectorAll('div')].filter((d) => !d.querySelector('div') && /[·⋅]/.test(d.textContent ?? ''));
}

function readWebsite(card: Element): string | null {
  const byValue = WEBSITE_DATA_VALUES.map((v) => `a[data-value="${v}"][href]`).join(', ');
  const link = card.querySelector(byValue) ?? [...card.querySelectorAll('a[aria-label][href]')].find((a) => isWebsiteLabel(a.getAttribute('aria-label')));
  return link ? unwrapLink(link.getAttribute('href')) : null;
}

function showsEndOfList(feed: Element): boolean {
  // The end row may sit just after the feed rather than in it.
  const scope = feed.parentElement ?? feed;
  if (scope.querySelector('.HlvSq')) return true;
  for (const p of scope.querySelectorAll('p')) {
    if (matchesAny(END_OF_LIST_PATTERNS, cleanText(p.textContent))) return true;
  }
  return false;
}

function showsSpinner(feed: Element): boolean {
  for (const el of feed.querySelectorAll('.lXJj5c, [role="progressbar"]')) {
    if (isShown(el)) return true;
  }
  return false;
}

/** checkVisibility where the browser has it (display:none / detached = not shown). */
function isShown(el: Element): boolean {
  if (el.closest('[hidden]')) return false;
  const check = (el as Element & { checkVisibility?: () => boolean }).checkVisibility;
  return typeof check === 'function' ? check.call(el) : true;
}
