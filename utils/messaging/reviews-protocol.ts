import { defineExtensionMessaging } from '@webext-core/messaging';
import type { ProviderId } from '../domain/place';
import type { RatingDistribution } from '../domain/review';
import type { Covered } from './senders';

/**
 * The reviews pass's one message (issue 38), on a messaging instance of its own (as the place
 * details' and the long exports' are). Background → the content script of the worker tab's top
 * frame, once per paced step: do one thing the page offers (or nothing) and say what the page
 * shows now. The background decides when (each step that makes the page fetch or change waits
 * its turn in the site's lane: utils/reviews/runner.ts); the page decides what there is.
 */
export type ReviewsAction =
  /** Read only. */
  | 'look'
  /** Press the place page's Reviews tab. */
  | 'open'
  /** Choose the newest-first order in the page's sort control. */
  | 'sort-newest'
  /** Open every collapsed text on screen ("More"), and show the original beside a translation. */
  | 'expand'
  /** Scroll the list to its end, so the page loads its next batch. */
  | 'more';

export interface ReviewsStepRequest {
  key: string;
  provider: ProviderId;
  action: ReviewsAction;
  /** Wait at most this long for the page to show what the action brought. */
  settleMs: number;
}

/** One review as its card shows it: page content, checked again and shaped by the background. */
export interface ReviewCard {
  /** The site's id for the review where the page carries one. */
  id: string | null;
  /** The reviewer's name as displayed ('' when none is found): kept only if the user chose so. */
  author: string;
  rating: number | null;
  /** The date as the page words it ("3 weeks ago"). */
  dateSaid: string | null;
  text: string;
  /** Whether a collapsed text's expander is still to be opened. */
  collapsed: boolean;
  /** The site's translation shown in place of the original (the original is `text`). */
  translation: string | null;
  ownerReply: { text: string; dateSaid: string | null } | null;
  photos: number;
  lang: string | null;
  /** Naver's visit facts, where the card shows them: the visit's date as worded, "N번째 방문", the keyword chips. */
  visit?: { dateSaid: string | null; count: number | null; tags: string[] };
  /** Where the card shows a written date apart from the visit's (Naver), its words. */
  writtenSaid?: string | null;
}

export interface ReviewsView {
  /** 'reviews': the list shows; 'place': a place page whose Reviews tab is still to be opened; 'limited': the signed-out view; 'unknown': neither. */
  page: 'reviews' | 'place' | 'limited' | 'unknown';
  /** The order shown: newest first (chosen and shown so), another, or 'none' when the page offers no order to choose. */
  order: 'newest' | 'other' | 'none';
  /** The newest-first choice shows (a sort menu opened, or chips): the next sort step chooses it. */
  sortChoiceShown: boolean;
  cards: ReviewCard[];
  /** The number of reviews the page says the place has, or null when it says none. */
  total: number | null;
  /** A loading indicator shows in the list. */
  loading: boolean;
  /** The page shows that the list ended (its end sentence). */
  endShown: boolean;
  /**
   * The place's rating histogram where the page shows one, counts of 1 to 5 stars; null or absent
   * where it shows none (Naver, Kakao). Page content: the background checks it against `total`
   * before keeping it (utils/reviews/distribution.ts).
   */
  distribution?: RatingDistribution | null;
}

export interface ReviewsProtocol {
  reviewsStep(req: ReviewsStepRequest): ReviewsView;
}

export const { sendMessage: sendReviewsMessage, onMessage: onReviewsMessage } = defineExtensionMessaging<ReviewsProtocol>();
void (true satisfies Covered<ReviewsProtocol>);
