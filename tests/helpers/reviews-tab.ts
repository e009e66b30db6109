/**
 * A place's Google Reviews tab as a model of what each reviews step shows (the content script's
 * report, utils/messaging/reviews-protocol.ts): a tab to open, a sort menu of two presses, batches
 * of 10 per scroll, "More" on some texts. For the loop's costs and its resumption (the bench,
 * in-process tests); what the reader makes of a real page is proven on the replica.
 */
import type { ReviewCard, ReviewsStepRequest, ReviewsView } from '../../utils/messaging/reviews-protocol';

export const MODEL_BATCH = 10;

/** A site's reviews list as its costs: reviews per batch, presses to choose newest first, the share of texts cut. */
export interface TabModel {
  batch: number;
  sortPresses: 1 | 2;
  longShare: number;
}

/** Google's: batches of 10, a sort menu (open it, choose), "More" on a fifth of the texts. */
export const GOOGLE_TAB: TabModel = { batch: MODEL_BATCH, sortPresses: 2, longShare: 0.2 };

/** One place's Reviews tab as its costs: what each step shows. */
export function modelledTab(total: number, random: () => number, model: TabModel = GOOGLE_TAB) {
  const long = Array.from({ length: total }, () => random() < model.longShare);
  let opened = false;
  let menu = false;
  let newest = false;
  let shown = 0;
  const expanded = new Set<number>();
  const card = (i: number): ReviewCard => ({
    id: `r${i}`,
    author: `A${i}`,
    rating: 1 + (i % 5),
    dateSaid: `${i + 1} days ago`,
    text: `review ${i}`,
    collapsed: long[i]! && !expanded.has(i),
    translation: null,
    ownerReply: null,
    photos: 0,
    lang: null,
  });
  const view = (): ReviewsView => ({
    page: opened ? 'reviews' : 'place',
    order: newest ? 'newest' : 'other',
    sortChoiceShown: menu,
    cards: Array.from({ length: shown }, (_, i) => card(i)),
    total,
    loading: false,
    endShown: false,
  });
  return (action: ReviewsStepRequest['action']): ReviewsView => {
    if (action === 'open' && !opened) {
      opened = true;
      shown = Math.min(model.batch, total);
    } else if (action === 'sort-newest') {
      if (menu || model.sortPresses === 1) newest = true;
      menu = !menu;
    } else if (action === 'more') shown = Math.min(total, shown + model.batch);
    else if (action === 'expand') for (let i = 0; i < shown; i++) expanded.add(i);
    return view();
  };
}
