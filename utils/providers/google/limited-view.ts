/**
 * Google's signed-out "limited view" (map-pages-spec §1.2, §1.6; rolled out from about
 * 2026-02, sources S7, S8, S15). Signed out, a card's star label is a bare "4.9 stars" with
 * no review count, and a category search shows only about 5 results before the end text.
 * A sweep must never take such a page for the whole list: every crowded cell would end
 * "done, 5 places". So the page is recognised here and the sweep pauses for the user to sign in.
 *
 * Pure: the evidence is counted by the caller (observe.ts from the feed's cards, the content
 * script for the banner text); this module only weighs it.
 *
 * What counts is what each card SHOWS, never the listing merged with page data: the page's own
 * responses may carry the review counts that the signed-out cards hide (issue 21), and a count
 * filled in from them would make the limited view look signed in.
 */
import { cleanText } from './labels';

export type LimitedViewReason = 'counts-missing' | 'short-list' | 'banner';

/**
 * What one organic card's star label shows (feed.ts organicCardRatings): no rating, a bare
 * rating ("4.9 stars"), or a rating with its review count ("4.5 stars 1,234 Reviews", "(1,234)").
 */
export type CardRating = 'unrated' | 'bare' | 'counted';

export interface LimitedViewEvidence {
  /** One per organic card shown, read or not, as the card itself shows its rating. */
  cards: readonly CardRating[];
  /** Organic cards shown, read or not. */
  organicShown: number;
  /** The list showed its end text. */
  endOfList: boolean;
  /** Text of a limited-view notice found on the page (findLimitedViewBanner), or null. */
  banner: string | null;
}

/**
 * Signed in, every rated card carries its count ("4.5 stars 1,234 Reviews"; an unrated place
 * says "No reviews" and has no rating at all), so a few rated cards are enough to tell. With
 * fewer rated cards than this, the share alone is not trusted (see the short-list rule).
 */
export const MIN_RATED_CARDS = 3;
/** "Across the list": this share of rated cards without a count. Not 1, so that one odd label cannot hide it. */
export const MISSING_COUNT_SHARE = 0.8;
/**
 * "About 5 results" for a generic query (S15), with room to spare: a list that ends at or
 * below this many cards, all of whose ratings lack counts, is the limited view. A rare query
 * that really has 3 results shows counts when signed in, so it is not mistaken for one.
 */
export const SHORT_LIST_MAX = 8;

/**
 * Wording of the notice, as a list of patterns (the page's language follows the user's).
 * The spec's sources name the mode "limited view" (S8, the English UI); the Korean form is
 * our reading of how the same UI would say it and is unconfirmed [?]: a miss there still
 * leaves the two card-based rules, which need no wording at all.
 */
export const LIMITED_VIEW_PATTERNS: readonly RegExp[] = [
  /\blimited view\b/i,
  /제한된\s*(?:보기|뷰|화면|버전)/,
  // French, Japanese, German, Greek: the same reading, as unconfirmed [?] as the Korean one.
  /\b(?:vue|affichage|version) limitée\b/i,
  /(?:限定|制限付き|制限された)(?:表示|ビュー|版|バージョン)/,
  /\beingeschränkte[nr]? (?:Ansicht|Version)\b/i,
  /περιορισμένη (?:προβολή|έκδοση)/i,
];

/** Why the page is the limited view, or null when the evidence says it is not. */
export function detectLimitedView(e: LimitedViewEvidence): LimitedViewReason | null {
  const rated = e.cards.filter((c) => c !== 'unrated').length;
  const bare = e.cards.filter((c) => c === 'bare').length;
  if (rated >= MIN_RATED_CARDS && bare >= MISSING_COUNT_SHARE * rated) return 'counts-missing';
  if (e.endOfList && e.organicShown > 0 && e.organicShown <= SHORT_LIST_MAX && rated > 0 && bare === rated) return 'short-list';
  // A notice alone is believed unless the cards prove the opposite (counts on most rated
  // cards): a business or a review may well contain the words "limited view".
  const countsShown = rated >= MIN_RATED_CARDS && rated - bare >= MISSING_COUNT_SHARE * rated;
  if (e.banner !== null && !countsShown) return 'banner';
  return null;
}

/** Text nodes only (NodeFilter.SHOW_TEXT, spelled out: no globals in this module). */
const SHOW_TEXT = 4;
/** Notices are short; a long text node is a review or a description, not the banner. */
const MAX_NOTICE_CHARS = 300;
/** Where the words would be a place's or a reviewer's, not Google's notice. */
const NOT_A_NOTICE = 'script, style, noscript, template, [role="article"], [data-review-id], h1';

/** The first limited-view notice on the page, outside result cards and reviews, or null. */
export function findLimitedViewBanner(doc: Document): string | null {
  const root = doc.body ?? doc.documentElement;
  if (!root) return null;
  const walker = doc.createTreeWalker(root, SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const raw = node.nodeValue ?? '';
    if (raw.length > MAX_NOTICE_CHARS || !LIMITED_VIEW_PATTERNS.some((p) => p.test(raw))) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest(NOT_A_NOTICE)) continue;
    return cleanText(raw);
  }
  return null;
}
