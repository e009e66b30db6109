/**
 * Behaviours a test can turn on in the Kakao replica. Where naver-kakao-notes mark a fact
 * [?] or [~], each plausible behaviour is a value here, so the sweep can be tested against all
 * of them rather than against one guess.
 */

import { SHARE_REDIRECTS, type ShareRedirect } from '../share-links';
import { DEFAULT_KAKAO_REVIEWS_SWITCHES, KAKAO_REVIEW_CHOICES, type KakaoReviewsSwitches } from './reviews-switches';

/**
 * Where a kko.to link lands [?]: the place page (`place.map.kakao.com/{confirmid}`, B1), or the map
 * opened on the place (`map.kakao.com/?itemId={confirmid}`, as older share links land).
 */
export const KAKAO_SHARE_LANDINGS = ['place', 'itemId'] as const;
export type KakaoShareLanding = (typeof KAKAO_SHARE_LANDINGS)[number];

/** The place page's reviews switches are in KakaoReviewsSwitches (reviews-switches.ts). */
export interface KakaoSwitches extends KakaoReviewsSwitches {
  /**
   * Which search request the page makes (B4b): the 2026 same-origin `map.kakao.com/api/v1/mapsearch/map`,
   * each request behind a gate token the page mints for its exact URL (and, there, `page_count`
   * = the reachable results, at most 500 [~]), or the older `search.map.kakao.com/mapsearch/map.daum` (B4).
   */
  endpoint: 'mapsearch-2026' | 'map.daum';
  /** Pages of 15 the web list goes to (B3: about 34 [V, from code]; 3 = the REST API's 45). */
  capPages: number;
  /** How map.daum's `rect=` bounds the search [?]: exactly, shrunk 5% a side, or not at all. */
  rectMode: 'exact' | 'inset' | 'ignored';
  /** Whether `urlX/urlY/urlLevel` in the search page URL set the map's view [?]. */
  urlView: 'honoured' | 'ignored';
  /** Whether the "현 지도 내 장소검색" control is on the page [?], and checked at load. */
  boundsControl: boolean;
  boundsSearchDefault: boolean;
  /**
   * How the control is marked up (in no source, B4b): ours (`#info.search.place.bounds` with a
   * `<label for>`); a checkbox with another id inside its label; a button with `aria-pressed`; an
   * empty link with `role=checkbox` named by `aria-label`; a plain button with no state that
   * searches the map shown each time it is pressed; or an icon button that says nothing a reader
   * can find (no text, no accessible name: only a picture tells people what it does).
   */
  boundsMarkup: 'ours' | 'checkbox' | 'toggle-button' | 'role-checkbox' | 'action-button' | 'unlabelled';
  /**
   * Where a restricted search carries its box: `rect` in WCONGNAMUL (B4, B7); `rect` in degrees in
   * the public REST API's order, `lng,lat,lng,lat` (`wgs84`) [?]; a parameter the notes do not name
   * (`bbox`) [?], with `msFlag=S` or (`renamed-unflagged`) with the everywhere flag `msFlag=A`
   * kept; or nowhere (`absent`: `msFlag=S` and no box at all, and the search is not bounded).
   */
  rectParam: 'rect' | 'wgs84' | 'renamed' | 'renamed-unflagged' | 'absent';
  /**
   * A hostile page script posting the extension's hook message after each real answer, for the
   * same request [?]: every place 5 km away (ids and names kept), each place's record under the
   * next place's confirmid, or `place_totalcount` (and `page_count`) inflated or cut to the page.
   */
  forged: 'none' | 'coords' | 'ids-shifted' | 'count-high' | 'count-low';
  /** Results the list shows before "장소 더보기" is pressed [?]. */
  previewCount: number;
  /** Which page "장소 더보기" opens [?]: page 1 in full, or page 2. */
  moreLandsOn: 1 | 2;
  /**
   * How the page fetches its search: JSONP through a script tag (B4; map.daum only: the 2026
   * endpoint's token travels in a header a script tag cannot send), XHR or fetch [?].
   */
  transport: 'jsonp' | 'xhr' | 'fetch';
  /** Coordinates map.daum carries: WCONGNAMUL only (older), or with lat/lon (2024–26), or lat/lon only. */
  coords: 'xy' | 'xy+latlon' | 'latlon';
  /** "신형 응답" field names: `cid` and `category` instead of `confirmid` and `cate_name_depth*` [~]. */
  fieldDrift: boolean;
  /**
   * What `openoff_status` says (B4: `"N"` means closed, from one code excerpt that filters on it
   * [~]): `N` on places closed for business, `N` on places merely outside their hours (as a
   * search at 23:00 would see them), or no field at all.
   */
  openoff: 'closed' | 'off-hours' | 'absent';
  /** One ad on top of page 1 repeating an organic place (`sourceId: "ad"`; no name link in the list). */
  ads: boolean;
  /** map.daum requests per rolling minute before the block; null = never. */
  blockAfter: number | null;
  /** How the block shows (B6): a 302 to kakao.com/500.ko.html, or HTML with status 200 where JSON was expected. */
  blockMode: 'redirect-500' | 'html';
  /** Seeded share of map.daum requests answering HTTP 500. */
  error500Rate: number;
  /** Path prefixes (any host) whose response never finishes. */
  hangPaths: string[];
  /** Delay before every response. */
  slowMs: number;
  /** List items keep `li.PlaceItem` but lose the name link and place URL (a site change). */
  brokenItems: boolean;
  /** Width of the left panel over the map, px: the map the rect covers is what is right of it [?]. */
  panelWidth: number;
  /** How kko.to sends a share link on (../share-links.ts). */
  shareRedirect: ShareRedirect;
  shareLanding: KakaoShareLanding;
}

export const DEFAULT_KAKAO_SWITCHES: Readonly<KakaoSwitches> = Object.freeze({
  endpoint: 'mapsearch-2026',
  capPages: 34,
  rectMode: 'exact',
  urlView: 'honoured',
  boundsControl: true,
  boundsSearchDefault: false,
  boundsMarkup: 'ours',
  rectParam: 'rect',
  forged: 'none',
  previewCount: 15,
  moreLandsOn: 2,
  transport: 'xhr',
  coords: 'xy+latlon',
  fieldDrift: false,
  openoff: 'closed',
  ads: true,
  blockAfter: null,
  blockMode: 'redirect-500',
  error500Rate: 0,
  hangPaths: [],
  slowMs: 0,
  brokenItems: false,
  panelWidth: 390,
  shareRedirect: '302',
  shareLanding: 'place',
  ...DEFAULT_KAKAO_REVIEWS_SWITCHES,
} as KakaoSwitches);

const CHOICES: Partial<Record<keyof KakaoSwitches, readonly unknown[]>> = {
  endpoint: ['mapsearch-2026', 'map.daum'],
  boundsMarkup: ['ours', 'checkbox', 'toggle-button', 'role-checkbox', 'action-button', 'unlabelled'],
  rectParam: ['rect', 'wgs84', 'renamed', 'renamed-unflagged', 'absent'],
  forged: ['none', 'coords', 'ids-shifted', 'count-high', 'count-low'],
  rectMode: ['exact', 'inset', 'ignored'],
  urlView: ['honoured', 'ignored'],
  moreLandsOn: [1, 2],
  transport: ['jsonp', 'xhr', 'fetch'],
  coords: ['xy', 'xy+latlon', 'latlon'],
  openoff: ['closed', 'off-hours', 'absent'],
  blockMode: ['redirect-500', 'html'],
  shareRedirect: SHARE_REDIRECTS,
  shareLanding: KAKAO_SHARE_LANDINGS,
  ...KAKAO_REVIEW_CHOICES,
};

/** `current` with `partial` applied, or an Error naming every bad field (then nothing changes). */
export function mergeKakaoSwitches(current: Readonly<KakaoSwitches>, partial: Partial<KakaoSwitches>): KakaoSwitches {
  const problems: string[] = [];
  const next: KakaoSwitches = { ...current, hangPaths: [...current.hangPaths] };
  for (const [key, value] of Object.entries(partial ?? {}) as [keyof KakaoSwitches, unknown][]) {
    if (value === undefined) continue;
    const choices = CHOICES[key];
    if (choices) {
      if (!choices.includes(value)) problems.push(`${key} must be one of ${choices.join(', ')}`);
      else (next as unknown as Record<string, unknown>)[key] = value;
      continue;
    }
    switch (key) {
      case 'boundsControl':
      case 'boundsSearchDefault':
      case 'fieldDrift':
      case 'ads':
      case 'brokenItems':
        if (typeof value !== 'boolean') problems.push(`${key} must be a boolean`);
        else next[key] = value;
        break;
      case 'capPages':
        if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 100) problems.push('capPages must be an integer in 1..100');
        else next.capPages = value as number;
        break;
      case 'previewCount':
        if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 15) problems.push('previewCount must be an integer in 1..15');
        else next.previewCount = value as number;
        break;
      case 'panelWidth':
        if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 1000) problems.push('panelWidth must be an integer in 0..1000');
        else next.panelWidth = value as number;
        break;
      case 'blockAfter':
        if (value !== null && !(Number.isInteger(value) && (value as number) >= 0)) problems.push('blockAfter must be null or an integer >= 0');
        else next.blockAfter = value as number | null;
        break;
      case 'error500Rate':
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) problems.push('error500Rate must be in [0, 1]');
        else next.error500Rate = value;
        break;
      case 'slowMs':
        if (typeof value !== 'number' || !(value >= 0 && value <= 600_000)) problems.push('slowMs must be in [0, 600000]');
        else next.slowMs = value;
        break;
      case 'hangPaths':
        if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && p.startsWith('/')))
          problems.push('hangPaths must be paths starting with "/"');
        else next.hangPaths = [...(value as string[])];
        break;
      default:
        problems.push(`unknown switch "${String(key)}"`);
    }
  }
  if (!problems.length && next.endpoint === 'mapsearch-2026' && next.transport === 'jsonp') {
    problems.push('transport jsonp needs endpoint map.daum (the 2026 endpoint takes its gate token in a header a script tag cannot send)');
  }
  if (problems.length) throw new Error(`kakao replica switches: ${problems.join('; ')}`);
  return next;
}
