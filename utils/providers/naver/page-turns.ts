import { findNextControl, isDisabled, type PagerState } from './list-dom';
import type { Observation } from '../../domain/sweep';

/**
 * Naver's page turns: the pager's next button pressed (one paced request of the driver's), and
 * which page a list shows (the pager's mark, the URL's `page`), so a collection knows the page it read.
 */

/** Which page a collection read, and its first organic place: what `previous` compares. */
export interface PageMark {
  page: number;
  firstKey: string | null;
}

/** The page marked current by the pager, else the URL's `page=` (the replica navigates); null when neither says. */
export function markedPage(pager: PagerState, url: string): number | null {
  return pager.current ?? urlPageParam(url);
}

export function urlPageParam(url: string): number | null {
  try {
    const raw = new URL(url).searchParams.get('page');
    const n = raw === null ? NaN : Number(raw);
    return Number.isInteger(n) && n >= 1 ? n : null;
  } catch {
    return null;
  }
}

export function withPage(url: string, page: number): string {
  try {
    const u = new URL(url);
    u.searchParams.set('page', String(page));
    return u.href;
  } catch {
    return url;
  }
}

/**
 * Press the pager's "next page" control as a person would. `clicked: false` when the page shows
 * no next control in a pager it recognises, or it is disabled, so the list has no further page.
 * Whether the page then navigates (the replica) or re-renders in place (the live site), the next
 * collection waits for the page it expects.
 */
export function pressNextPage(doc: Document): { clicked: boolean } {
  const next = findNextControl(doc);
  if (!next || isDisabled(next)) return { clicked: false };
  (next as HTMLElement).click();
  return { clicked: true };
}

/** What `previous` should be for the next collection of this same document. */
export function pageMarkOf(observation: Observation): PageMark | null {
  if (!observation.pager) return null;
  const first = observation.listings.find((l) => !l.sponsored);
  return { page: observation.pager.page, firstKey: first?.key ?? null };
}
