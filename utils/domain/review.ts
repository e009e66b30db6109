/**
 * A review as MapSweep keeps it (issue 38): read from a place's reviews as the page shows them,
 * stored once under its site's own id. Reviewer identity is not part of it unless the user turned
 * that option on (`author`), and even then only the name as displayed.
 */
import type { ProviderId } from './place';

/** When a review was written, as the page said it, and what that means as a date. */
export interface ReviewDate {
  /** The page's own words ("3 weeks ago", "2025.3.5.", "3주 전"). */
  said: string;
  /** The day it stands for (YYYY-MM-DD): for a relative date, counted back from when the page was read. */
  iso: string;
  /**
   * How exact `iso` is: 'day' for a date the page printed or "N days ago"; 'week', 'month',
   * 'year' for "N weeks/months/years ago" (the site rounds: "a month ago" is any day of that
   * month or so).
   */
  precision: 'day' | 'week' | 'month' | 'year';
}

export interface Review {
  /** `{placeKey}|{reviewId}`: each review once per place. */
  key: string;
  placeKey: string;
  provider: ProviderId;
  /**
   * The site's own id for the review, or, where the page shows none, `h:` and a hash of the place,
   * the author as displayed, the date as said and the text (`idFromSite: false`; docs/REVIEWS.md).
   */
  reviewId: string;
  idFromSite: boolean;
  /** Stars, 1 to 5; null when the page shows none. */
  rating: number | null;
  date: ReviewDate | null;
  /** The text as the page shows it once its "More" expander is open; '' for a rating alone. */
  text: string;
  /** Where the site shows its own translation beside the original: the translation (text is the original). */
  translation: string | null;
  /** The language the page marks the text with, when it does. */
  lang: string | null;
  ownerReply: { text: string; date: ReviewDate | null } | null;
  photos: number;
  /** Naver's visit facts, where shown. */
  visit: { date: ReviewDate | null; count: number | null; tags: string[] } | null;
  /** The reviewer's name as displayed: only when the user chose to keep it (off by default). */
  author: string | null;
  /** When it was read. */
  readAt: number;
  /** Read by a newest-first reading (a run from the top of the list), not in the page's own order. */
  newestFirst: boolean;
}

export const MAX_REVIEW_TEXT = 20_000;

/**
 * How many of a place's ratings gave 1, 2, 3, 4 and 5 stars (in that order), as the site's own
 * histogram shows them: counts of ratings, which may be more than the reviews with a text.
 */
export type RatingDistribution = [n1: number, n2: number, n3: number, n4: number, n5: number];
