/**
 * Behaviours a test can turn on in the Naver replica. Where naver-kakao-notes marks a fact [~] or
 * [?], each plausible behaviour is a switch, so the extension can be tested against all of them.
 */
import { SHARE_REDIRECTS, type ShareRedirect } from '../share-links';
import { DEFAULT_NAVER_REVIEWS_SWITCHES, isNaverReviewsSwitch, type NaverReviewsSwitches, naverReviewsSwitchProblem } from './reviews-switches';

/**
 * Where a naver.me link lands [?]: the map's place entry with the share links' usual view
 * (`/p/entry/place/{id}?c=15.00,0,0,0,dh`, A1), or the bare place page on pcmap.
 */
/** `offsite`: a short link that points off the map (naver.me shortens any address): a hostile list line. */
export const NAVER_SHARE_LANDINGS = ['entry', 'pcmap', 'offsite'] as const;
export type NaverShareLanding = (typeof NAVER_SHARE_LANDINGS)[number];

export type BoundsMode =
  /** Only places inside `bounds` (what public tile-splitting tools rely on, A8). */
  | 'strict'
  /** Places up to a fifth of the box beyond each edge also listed [?]: a map search that spills. */
  | 'spill'
  /** `bounds` ignored, ranked by distance from x,y [?]. */
  | 'ignored';

export type NaverDomVariant =
  /** The restaurant vertical's classes (li.UEzoS, span.TYaxT, span.KCMnt). */
  | 'restaurant'
  /** Other verticals (li.VLTHu, span.YwYLL, span.YzBgS). */
  | 'place'
  /** Every class renamed; only ids, hrefs, aria and texts stay (as the 2026 m.map page shows Naver does). */
  | 'renamed';

/**
 * What the list page is when its search finds nothing [?]: the notice (A3's m.place wording), ads
 * alone with no notice (sponsored places outside the box, the organic list empty), or an app shell
 * that never renders and carries the notice's wording only in its script dictionary (as the real
 * m.place capture inlines it).
 */
export type NaverEmptyPage = 'notice' | 'ads-only' | 'shell';

/** The visitor reviews page's switches are in NaverReviewsSwitches (reviews-switches.ts). */
export interface NaverSwitches extends NaverReviewsSwitches {
  /** Results per search (A4: about 300 = 6 × 50 [V], "about"). */
  resultCap: number;
  /** Items per list page once scrolled (A3: 50). */
  pageSize: number;
  /** Items shown before scrolling (A3: about 10). */
  firstRender: number;
  /** Items added per scroll to the bottom [?]. */
  lazyBatch: number;
  /** Delay before a lazy batch shows. */
  lazyDelayMs: number;
  boundsMode: BoundsMode;
  /** How the last page shows its end [~]: the next arrow `aria-disabled="true"`, or no next arrow at all. */
  endMarker: 'next-disabled' | 'no-next';
  /** Page numbers shown at once [~]: 5 (page 6 appears once 5 is open) or all. */
  pagerWindow: number;
  /**
   * The pager's markup [?]: `div > a` as documented (A3), or `<nav>` of `<button>`s named by
   * aria-label ("이전 페이지" / "다음 페이지"), the current page `aria-current`, ends `disabled`.
   */
  pagerMarkup: 'links' | 'buttons';
  /** Where the next control leads [?]: the next page, or the one after it (page 3 after page 1: a turn that lands on the wrong page). */
  pageTurn: 'next' | 'skip';
  /**
   * The k-th lazy batch of every page never comes (0: all come): its GraphQL request answers HTTP 500
   * (`apolloHolds: 'rendered'`), or it never renders (`'page'`: a throttled tab); later batches neither.
   */
  lazyFail: number;
  emptyPage: NaverEmptyPage;
  /**
   * Share of each side of the URL's `bounds` the search does not list from, while the URL still
   * echoes the whole box [?]: the page says it searched more than it did (0: what it says).
   */
  searchInset: number;
  /** What the list page's Apollo state holds [?]: the whole page's items, or only those rendered at load. */
  apolloHolds: 'page' | 'rendered';
  /**
   * What the list's `total` counts [?]: the results the list holds (at most the cap), every match
   * in the box (thousands, as allSearch's totalCount), every match of the query anywhere (a count
   * that ignores the box), or none given. The sweep may use an honest count to stop paging a
   * crowded list early; a count above what one search lists on a list that ended early says the
   * list was cut, so under 'query' no such list is proven (the sweep reports those cells).
   */
  listTotal: 'listed' | 'matched' | 'query' | 'absent';
  /** Ads on top of the first page (the 2025 capture has 2). */
  ads: number;
  /** Ads repeat an organic result of the same search (else they are matching places outside the box). */
  adsRepeatOrganic: boolean;
  domVariant: NaverDomVariant;
  /** List/place page loads per rolling minute before the block page; null = never. */
  blockAfter: number | null;
  /** Status of the block page (A7: one project saw 429; a 200 with the text is as plausible [?]). */
  blockStatus: 429 | 200;
  slowMs: number;
  error500Rate: number;
  error500Paths: string[];
  hangPaths: string[];
  hangRate: number;
  /** Cards lose their place hrefs and names (a site change that breaks extraction). */
  brokenCards: boolean;
  /** How naver.me sends a share link on (../share-links.ts). */
  shareRedirect: ShareRedirect;
  shareLanding: NaverShareLanding;
}

export const DEFAULT_NAVER_SWITCHES: Readonly<NaverSwitches> = Object.freeze({
  resultCap: 300,
  pageSize: 50,
  firstRender: 10,
  lazyBatch: 10,
  lazyDelayMs: 300,
  boundsMode: 'strict',
  endMarker: 'next-disabled',
  pagerWindow: 5,
  pagerMarkup: 'links',
  pageTurn: 'next',
  lazyFail: 0,
  emptyPage: 'notice',
  searchInset: 0,
  apolloHolds: 'page',
  listTotal: 'listed',
  ads: 2,
  adsRepeatOrganic: false,
  domVariant: 'restaurant',
  blockAfter: null,
  blockStatus: 429,
  slowMs: 0,
  error500Rate: 0,
  error500Paths: [],
  hangPaths: [],
  hangRate: 0,
  brokenCards: false,
  shareRedirect: '302',
  shareLanding: 'entry',
  ...DEFAULT_NAVER_REVIEWS_SWITCHES,
});

const INT_RANGES: Partial<Record<keyof NaverSwitches, [number, number]>> = {
  resultCap: [0, 10_000],
  pageSize: [1, 200],
  firstRender: [1, 200],
  lazyBatch: [1, 200],
  lazyDelayMs: [0, 600_000],
  pagerWindow: [1, 20],
  lazyFail: [0, 20],
  ads: [0, 10],
  slowMs: [0, 600_000],
};

/** `current` with `partial` applied, or an Error naming every bad field (then nothing changes). Unknown keys are errors. */
export function mergeNaverSwitches(current: Readonly<NaverSwitches>, partial: Partial<NaverSwitches>): NaverSwitches {
  const next: NaverSwitches = { ...current, error500Paths: [...current.error500Paths], hangPaths: [...current.hangPaths] };
  const problems: string[] = [];
  const set = <K extends keyof NaverSwitches>(k: K, v: unknown): void => {
    next[k] = v as NaverSwitches[K];
  };
  for (const [key, value] of Object.entries(partial ?? {})) {
    if (value === undefined) continue;
    const range = INT_RANGES[key as keyof NaverSwitches];
    if (range) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1])
        problems.push(`${key} must be an integer in [${range[0]}, ${range[1]}]`);
      else set(key as keyof NaverSwitches, value);
      continue;
    }
    if (isNaverReviewsSwitch(key)) {
      const problem = naverReviewsSwitchProblem(key, value);
      if (problem) problems.push(problem);
      else set(key, value);
      continue;
    }
    switch (key) {
      case 'boundsMode':
        if (!['strict', 'spill', 'ignored'].includes(value as string)) problems.push('boundsMode must be strict, spill or ignored');
        else set(key, value);
        break;
      case 'endMarker':
        if (!['next-disabled', 'no-next'].includes(value as string)) problems.push('endMarker must be next-disabled or no-next');
        else set(key, value);
        break;
      case 'pagerMarkup':
        if (!['links', 'buttons'].includes(value as string)) problems.push('pagerMarkup must be links or buttons');
        else set(key, value);
        break;
      case 'pageTurn':
        if (!['next', 'skip'].includes(value as string)) problems.push('pageTurn must be next or skip');
        else set(key, value);
        break;
      case 'emptyPage':
        if (!['notice', 'ads-only', 'shell'].includes(value as string)) problems.push('emptyPage must be notice, ads-only or shell');
        else set(key, value);
        break;
      case 'searchInset':
        if (typeof value !== 'number' || !(value >= 0 && value <= 0.45)) problems.push('searchInset must be a number in [0, 0.45]');
        else set(key, value);
        break;
      case 'apolloHolds':
        if (!['page', 'rendered'].includes(value as string)) problems.push('apolloHolds must be page or rendered');
        else set(key, value);
        break;
      case 'listTotal':
        if (!['listed', 'matched', 'query', 'absent'].includes(value as string)) problems.push('listTotal must be listed, matched, query or absent');
        else set(key, value);
        break;
      case 'domVariant':
        if (!['restaurant', 'place', 'renamed'].includes(value as string)) problems.push('domVariant must be restaurant, place or renamed');
        else set(key, value);
        break;
      case 'shareRedirect':
        if (!SHARE_REDIRECTS.includes(value as ShareRedirect)) problems.push(`shareRedirect must be one of ${SHARE_REDIRECTS.join(', ')}`);
        else set(key, value);
        break;
      case 'shareLanding':
        if (!NAVER_SHARE_LANDINGS.includes(value as NaverShareLanding)) problems.push(`shareLanding must be one of ${NAVER_SHARE_LANDINGS.join(', ')}`);
        else set(key, value);
        break;
      case 'adsRepeatOrganic':
      case 'brokenCards':
        if (typeof value !== 'boolean') problems.push(`${key} must be a boolean`);
        else set(key, value);
        break;
      case 'blockAfter':
        if (value !== null && !(Number.isInteger(value) && (value as number) >= 0)) problems.push('blockAfter must be null or an integer >= 0');
        else set(key, value);
        break;
      case 'blockStatus':
        if (value !== 429 && value !== 200) problems.push('blockStatus must be 429 or 200');
        else set(key, value);
        break;
      case 'error500Rate':
      case 'hangRate':
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) problems.push(`${key} must be a number in [0, 1]`);
        else set(key, value);
        break;
      case 'error500Paths':
      case 'hangPaths':
        if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && p.startsWith('/')))
          problems.push(`${key} must be an array of paths starting with "/"`);
        else set(key, [...(value as string[])]);
        break;
      default:
        problems.push(`unknown switch "${key}"`);
    }
  }
  if (problems.length) throw new Error(`naver replica switches: ${problems.join('; ')}`);
  return next;
}
