/**
 * The place page's script (client/place-page.js: tabs and the Reviews panel), as text for the page and
 * as functions for Node, so unit tests check exactly the cards the browser shows.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageWindow } from './client-renderer';
import type { ReviewSort } from './reviews';
import type { ReviewsPageConfig, ServedReview } from './reviews-view';

let source: string | null = null;

/** The plain-JS source of client/place-page.js. */
export function placePageScript(): string {
  // A path, not a URL object: under happy-dom the global URL is not Node's.
  source ??= readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'client', 'place-page.js'), 'utf8');
  return source;
}

export type ReviewCardOptions = Pick<ReviewsPageConfig, 'classes' | 'expander' | 'idLocation' | 'translated'>;

export interface PlaceClient {
  /** Wires the page: its tabs (signed in) or the overview's reviews (signed out). */
  replicaPlacePage(config: ReviewsPageConfig, win: PageWindow): void;
  renderReviewCard(review: ServedReview, opts: ReviewCardOptions): string;
  /** The page's batch request (reviews-view.ts answerReviewsXhr answers it). */
  reviewsRequestUrl(featureId: string, sort: ReviewSort, offset: number, n: number): string;
}

let client: PlaceClient | null = null;

export function placeClient(): PlaceClient {
  client ??= new Function(`${placePageScript()}\nreturn { replicaPlacePage, renderReviewCard, reviewsRequestUrl };`)() as PlaceClient;
  return client;
}
