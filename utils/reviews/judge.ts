/**
 * What the reviews pass does next on a place's page, from what the page shows now (pure). A
 * place is done only on the page's proof: the list visibly ended (its end sentence, or as many
 * cards as the count it shows), the limit was reached newest first, or a review already stored
 * (or one older than the user's date) was reached newest first. A list that only stopped
 * growing, an expander that did not open, a panel that never showed: unknown, never done.
 */
import type { ReviewCard, ReviewsAction, ReviewsView } from '../messaging/reviews-protocol';
import type { ReviewsEnd } from './records';

export interface ReviewLimits {
  /** At most this many reviews per place, newest first. */
  perPlace: number;
  /** Only reviews from this day on (YYYY-MM-DD), newest first; null for no date limit. */
  since: string | null;
}

/**
 * What is stored of the place already: how deep a newest-first run its stored reviews make (0
 * when any of them was read in another order, so they prove nothing of what is older).
 */
export interface StoredRun {
  newestFirst: number;
}

/** What was tried on this page so far (the runner keeps it for one place's reading). */
export interface StepHistory {
  opens: number;
  sorts: number;
  /** Expand steps in a row that opened nothing. */
  expands: number;
  /** 'more' steps in a row that brought no card. */
  stalls: number;
}

export const newHistory = (): StepHistory => ({ opens: 0, sorts: 0, expands: 0, stalls: 0 });

export type Next =
  | { kind: 'act'; action: ReviewsAction }
  /** Done: the first `take` cards are the place's reviews (their ids and dates as `keep` decided). */
  | { kind: 'done'; end: ReviewsEnd; take: number; sortedNewest: boolean }
  | { kind: 'unknown'; reason: string }
  | { kind: 'limited' };

const MAX_OPENS = 2;
/** A menu takes two presses (open it, choose Newest); one more for a slow page. */
const MAX_SORTS = 3;
const MAX_EXPANDS = 2;
const MAX_STALLS = 2;

/**
 * `stopAt(card, i)`: whether the newest-first reading ends before card i (a review already
 * stored, or one older than the date limit), and why.
 */
export function nextStep(
  view: ReviewsView,
  limits: ReviewLimits,
  history: StepHistory,
  stopAt: (card: ReviewCard, index: number) => 'known' | 'since' | null,
  stored: StoredRun = { newestFirst: 0 },
): Next {
  if (view.page === 'limited') return { kind: 'limited' };
  if (view.page === 'place') {
    return history.opens < MAX_OPENS ? { kind: 'act', action: 'open' } : { kind: 'unknown', reason: 'the Reviews tab did not open' };
  }
  if (view.page === 'unknown') return { kind: 'unknown', reason: 'the page showed no reviews' };
  if (view.loading) return { kind: 'act', action: 'look' };
  // Newest first when the page offers the order; if it cannot be chosen, the page's order is read whole or to the limit.
  if (view.order === 'other' && history.sorts < MAX_SORTS) return { kind: 'act', action: 'sort-newest' };
  const newest = view.order === 'newest';
  const cards = view.cards;
  const collapsedUpTo = (n: number) => cards.slice(0, n).some((c) => c.collapsed);

  // Where a newest-first reading stops: the first stored review, or the first older than the date.
  let take = cards.length;
  let end: ReviewsEnd | null = null;
  if (newest) {
    let knownSeen = false;
    for (let i = 0; i < cards.length; i++) {
      const stop = stopAt(cards[i]!, i);
      if (stop === 'since') {
        take = i;
        end = stop;
        break;
      }
      if (stop === 'known' && !knownSeen) {
        knownSeen = true;
        // The first stored review proves the rest stored only as deep as the stored run goes:
        // the new ones above it and the run must reach the limit (or the whole list).
        if (i + stored.newestFirst >= Math.min(limits.perPlace, view.total ?? Number.POSITIVE_INFINITY)) {
          take = i;
          end = 'known';
          break;
        }
      }
    }
  }
  if (take >= limits.perPlace) {
    take = limits.perPlace;
    end = 'limit';
  }
  if (end === null && (view.endShown || (view.total !== null && cards.length >= view.total))) end = 'ended';
  if (end === null && cards.length === 0 && view.total === 0) end = 'ended';

  if (end !== null) {
    if (collapsedUpTo(take)) {
      return history.expands < MAX_EXPANDS ? { kind: 'act', action: 'expand' } : { kind: 'unknown', reason: 'a review\u2019s "More" did not open' };
    }
    return { kind: 'done', end, take, sortedNewest: newest };
  }
  if (history.stalls >= MAX_STALLS) {
    const of = view.total !== null ? ` of ${view.total}` : '';
    return { kind: 'unknown', reason: `the list stopped growing at ${cards.length}${of} reviews` };
  }
  return { kind: 'act', action: 'more' };
}

/** The history after `action` changed the view from `before` to `after`. */
export function afterStep(history: StepHistory, action: ReviewsAction, before: ReviewsView, after: ReviewsView): StepHistory {
  const h = { ...history };
  if (action === 'open') h.opens++;
  if (action === 'sort-newest') h.sorts++;
  const collapsed = (v: ReviewsView) => v.cards.filter((c) => c.collapsed).length;
  if (action === 'expand') h.expands = collapsed(after) < collapsed(before) ? 0 : h.expands + 1;
  if (action === 'more') h.stalls = after.cards.length > before.cards.length ? 0 : h.stalls + 1;
  return h;
}
