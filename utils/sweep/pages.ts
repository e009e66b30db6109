/**
 * A paged list (Naver 50 a page, Kakao 15) is read one page at a time, each page its own
 * observation; the cell is judged on all of them at once, as one observation. Pure.
 */
import type { BBox } from '../geo/types';
import type { Observation, PageKind, SearchedBox } from '../domain/sweep';

/**
 * The pages of one visit, in visiting order, as one observation: every card and listing of every
 * page (a place listed twice — the order shifted between pages — counts once), the end as the
 * last page showed it. Anything that stops a sweep on one page (a block, a page not recognised)
 * stops it for the whole visit. The searched box is the pages' one box; pages that searched
 * different boxes, or one page that did not say, prove none ('unknown').
 */
export function combinePages(pages: readonly Observation[]): Observation {
  const first = pages[0];
  const last = pages[pages.length - 1];
  if (!first || !last) throw new Error('combinePages needs at least one page');
  if (pages.length === 1) return first;
  const seen = new Set<string>();
  const listings = pages
    .flatMap((p) => p.listings)
    .filter((l) => {
      const k = `${l.key}|${l.sponsored}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  return {
    ...last,
    url: first.url,
    pageKind: combinedKind(pages.map((p) => p.pageKind)),
    cardsVisible: sum(pages, (p) => p.cardsVisible),
    organicShown: sum(pages, (p) => p.organicShown ?? p.cardsVisible - p.listings.filter((l) => l.sponsored).length),
    listings,
    networkItems: pages.every((p) => p.networkItems === null) ? null : sum(pages, (p) => p.networkItems ?? 0),
    networkKeys: [...new Set(pages.flatMap((p) => p.networkKeys))],
    capHit: pages.some((p) => p.capHit),
    elapsedMs: sum(pages, (p) => p.elapsedMs),
    httpStatus: pages.map((p) => p.httpStatus ?? null).reduce<number | null>((worst, s) => (s !== null && (worst === null || s > worst) ? s : worst), null),
    warnings: pages.flatMap((p) => p.warnings.map((w) => `page ${p.pager?.page ?? '?'}: ${w}`)),
    searched: sameSearch(pages.map((p) => p.searched)),
  };
}

function combinedKind(kinds: readonly PageKind[]): PageKind {
  for (const stop of ['captcha', 'consent', 'unknown'] as const) if (kinds.includes(stop)) return stop;
  // A later page that says "nothing found" after results is not an empty search: the list changed.
  return kinds.every((k) => k === kinds[0]) ? kinds[0]! : 'unknown';
}

/** What every page proved alike; pages that searched differently prove nothing (one list, one box). */
function sameSearch(all: ReadonlyArray<SearchedBox | undefined>): SearchedBox | undefined {
  const [a] = all;
  if (a === undefined)
    return all.every((b) => b === undefined) ? undefined : { kind: 'unknown', why: 'some pages of the list said what they searched, others did not' };
  const unknown = all.find((b) => b?.kind === 'unknown');
  if (unknown) return unknown;
  if (all.every((b) => b !== undefined && sameProof(a, b))) return a;
  return { kind: 'unknown', why: 'the pages of one list searched different boxes' };
}

function sameProof(a: SearchedBox, b: SearchedBox): boolean {
  if (a.kind === 'measured' && b.kind === 'measured') return sameBox(a.box, b.box);
  return a.kind === b.kind;
}

function sameBox(a: BBox, b: BBox): boolean {
  return a.south === b.south && a.west === b.west && a.north === b.north && a.east === b.east;
}

function sum<T>(xs: readonly T[], f: (x: T) => number): number {
  return xs.reduce((n, x) => n + f(x), 0);
}
