/**
 * A paged list that says up front it matched more than any list can hold (Kakao's
 * `place_totalcount`, Naver's list `total`) is crowded: its cell will be split whatever its
 * pages show. Walking its remaining pages (Kakao: up to 34 of 15, each a request to the site)
 * only re-reads places the cell's children will list again. So the visit stops at the first
 * page that says so, and the cell is split.
 *
 * The count is page content, and nothing else proves it: a site whose count ignores the box
 * (the whole query's matches) would make every cell look crowded and split the sweep down to
 * its smallest cells. So a sweep believes the count only once its own complete lists showed it
 * honest: at least TRUSTED_AFTER lists that ended on their own, each holding about as many
 * places as its count said, and none counting more than it listed. Until then (and for good,
 * once a count overstated its list) every page is walked as before. Believing it changes what
 * the sweep spends, never what it proves: a cell is done only when its own list ended.
 */
import type { Cell } from '../domain/sweep';

/** Complete lists whose count matched, before counts are believed. */
export const TRUSTED_AFTER = 3;

/**
 * How many more places a count may claim than its complete list held and still be honest:
 * cards the extractor could not read are shown but not listed (the judge retries such pages,
 * so this stays small).
 */
export function countSlack(listed: number): number {
  return Math.max(2, Math.ceil(listed * 0.05));
}

export interface SiteTotalTrust {
  trusted: boolean;
  /** Complete lists whose count matched what they listed. */
  honest: number;
  /** Complete lists whose count claimed more than they listed. */
  overstated: number;
}

/** What the sweep's finished cells say of the site's counts (cells of any keyword of one sweep). */
export function siteTotalTrust(cells: readonly Pick<Cell, 'status' | 'result'>[]): SiteTotalTrust {
  let honest = 0;
  let overstated = 0;
  for (const c of cells) {
    const r = c.result;
    // Only lists that ended by themselves say how many places the count stood for.
    if (c.status !== 'done' || !r || r.reason !== 'end-of-list' || r.siteTotal == null || r.organic === 0) continue;
    if (r.siteTotal > r.organic + countSlack(r.organic)) overstated++;
    else honest++;
  }
  return { trusted: honest >= TRUSTED_AFTER && overstated === 0, honest, overstated };
}

/** The page's own count says its list cannot end before the crowded mark (`crowdedAt` organic results). */
export function saysCrowded(siteTotal: number | null | undefined, crowdedAt: number): boolean {
  return typeof siteTotal === 'number' && siteTotal >= crowdedAt;
}
