/**
 * The Kakao replica's pages, as pure functions: the search page shell (its script builds the
 * list from map.daum, client/search-page.js), the place page, the block page.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WCONG_PER_METRE, wcongnamulToWgs84 } from '../../../utils/geo/wcongnamul';
import { KAKAO_HOOK_SOURCE } from '../../../utils/providers/kakao/network-hook';
import { KAKAO_MAP_ORIGIN, KAKAO_PLACE_ORIGIN, KAKAO_SEARCH_ORIGIN, type KakaoView, metresPerPixel } from '../../../utils/providers/kakao/urls';
import { GATE_TOKEN_HEADER, GATE_TOKEN_PATH } from './gate';
import { escapeHtml } from '../pages';
import type { KakaoReplicaPlace } from './places';
import type { KakaoSwitches } from './switches';
import type { KakaoReviewsSwitches } from './reviews-switches';

let source: string | null = null;

export function kakaoSearchPageScript(): string {
  // A path, not a URL object: under happy-dom the global URL is not Node's.
  source ??= readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'client', 'search-page.js'), 'utf8');
  return source;
}

export interface KakaoSearchPageConfig {
  query: string;
  /** The map's view (the URL's, or the default when the switch ignores it). */
  view: KakaoView;
  /** WCONGNAMUL units per screen pixel at the view's level. */
  wcongPerPx: number;
  /**
   * The view's centre in degrees, and degrees per WCONGNAMUL unit along x and y (the grid is
   * turned a little against the meridians): what a page writing its box in degrees (`wgs84`) needs.
   */
  degrees: { lng: number; lat: number; lngPerX: number; latPerX: number; lngPerY: number; latPerY: number };
  panelWidth: number;
  previewCount: number;
  moreLandsOn: 1 | 2;
  capPages: number;
  boundsControl: boolean;
  boundsSearch: boolean;
  boundsMarkup: KakaoSwitches['boundsMarkup'];
  endpoint: KakaoSwitches['endpoint'];
  rectParam: KakaoSwitches['rectParam'];
  forged: KakaoSwitches['forged'];
  /** The extension's hook message tag, for the forging page script (`forged`). */
  hookSource: string;
  transport: KakaoSwitches['transport'];
  brokenItems: boolean;
  mapOrigin: string;
  gatePath: string;
  gateHeader: string;
  searchOrigin: string;
  placeOrigin: string;
  /** The number in the page's `jQuery{n}_{seq}` callback names. */
  jqueryId: string;
}

/** The search page's config under some switches: what the page shows is the switches', the rest the visit's. */
export function kakaoSearchPageConfig(
  switches: Readonly<KakaoSwitches>,
  visit: Pick<KakaoSearchPageConfig, 'query' | 'view' | 'boundsSearch' | 'jqueryId'>,
): KakaoSearchPageConfig {
  return {
    query: visit.query,
    view: visit.view,
    wcongPerPx: metresPerPixel(visit.view.level) * WCONG_PER_METRE,
    degrees: degreesAround(visit.view),
    panelWidth: switches.panelWidth,
    previewCount: switches.previewCount,
    moreLandsOn: switches.moreLandsOn,
    capPages: switches.capPages,
    boundsControl: switches.boundsControl,
    boundsSearch: visit.boundsSearch,
    boundsMarkup: switches.boundsMarkup,
    endpoint: switches.endpoint,
    rectParam: switches.rectParam,
    forged: switches.forged,
    hookSource: KAKAO_HOOK_SOURCE,
    transport: switches.transport,
    brokenItems: switches.brokenItems,
    mapOrigin: KAKAO_MAP_ORIGIN,
    gatePath: GATE_TOKEN_PATH,
    gateHeader: GATE_TOKEN_HEADER,
    searchOrigin: KAKAO_SEARCH_ORIGIN,
    placeOrigin: KAKAO_PLACE_ORIGIN,
    jqueryId: visit.jqueryId,
  };
}

/** The view's centre in degrees and the grid's local slope there (a kilometre each way is flat enough). */
function degreesAround(v: KakaoView): KakaoSearchPageConfig['degrees'] {
  const at = (dx: number, dy: number) => wcongnamulToWgs84({ x: v.x + dx, y: v.y + dy })!;
  const c = at(0, 0);
  const step = 1000;
  const x = at(step, 0);
  const y = at(0, step);
  return {
    lng: c.lng,
    lat: c.lat,
    lngPerX: (x.lng - c.lng) / step,
    latPerX: (x.lat - c.lat) / step,
    lngPerY: (y.lng - c.lng) / step,
    latPerY: (y.lat - c.lat) / step,
  };
}

export function kakaoSearchPageHtml(c: KakaoSearchPageConfig): string {
  const pages = [1, 2, 3, 4, 5].map((n) => `<a href="#" id="info.search.page.no${n}" class="HIDDEN">${n}</a>`).join('');
  const bounds = c.boundsControl ? boundsControlHtml(c.boundsMarkup, c.boundsSearch) : '';
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>${escapeHtml(c.query)} – 카카오맵</title>
<style>.HIDDEN{display:none!important}#info{position:absolute;left:0;top:0;bottom:0;width:${c.panelWidth}px;overflow:auto}#map{position:absolute;left:${c.panelWidth}px;right:0;top:0;bottom:0;background:#e8eef2}</style></head>
<body>
<div id="info">
<form id="search.keyword" onsubmit="return false"><input id="search.keyword.query" name="q" value="${escapeHtml(c.query)}"><button id="search.keyword.submit" type="submit">검색</button></form>
${bounds}
<div id="info.search.error" class="HIDDEN">일시적인 오류로 검색결과를 불러오지 못했습니다.</div>
<div id="info.search.place" class="placeList">
<ul id="info.search.place.list" class="placelist"></ul>
<a href="#" id="info.search.place.more" class="more HIDDEN">장소 더보기</a>
<div id="info.search.page" class="pageWrap HIDDEN"><a href="#" id="info.search.page.prev" class="prev disabled">이전</a>${pages}<a href="#" id="info.search.page.next" class="next disabled">다음</a></div>
</div>
<div id="info.noPlace" class="HIDDEN"><p>검색결과가 없습니다.</p></div>
</div>
<div id="map" data-x="${Math.round(c.view.x)}" data-y="${Math.round(c.view.y)}" data-level="${c.view.level}"></div>
<script>(function(){${kakaoSearchPageScript()}
replicaKakaoSearchPage(${JSON.stringify(c).replace(/</g, '\\u003c')}, window);})();</script>
</body></html>`;
}

/**
 * "현 지도 내 장소검색" in each markup (switches.ts `boundsMarkup`). `data-replica-bounds` is the
 * page script's own handle on it; the extension finds the control by what it says.
 */
function boundsControlHtml(markup: KakaoSwitches['boundsMarkup'], on: boolean): string {
  const label = '현 지도 내 장소검색';
  switch (markup) {
    case 'ours':
      return `<div class="option_bounds"><input type="checkbox" id="info.search.place.bounds" data-id="boundsSearch" data-replica-bounds${on ? ' checked' : ''}><label for="info.search.place.bounds">${label}</label></div>`;
    case 'checkbox':
      return `<div class="box_option"><label class="lab_check"><input type="checkbox" class="inp_check" id="chkMapArea_7f2" data-replica-bounds${on ? ' checked' : ''}> <span class="txt_check">${label}</span></label></div>`;
    case 'toggle-button':
      return `<div class="box_option"><button type="button" class="btn_area" aria-pressed="${on}" data-replica-bounds>${label}</button></div>`;
    case 'role-checkbox':
      return `<div class="box_option"><a href="#" class="link_area" role="checkbox" aria-checked="${on}" aria-label="${label}" data-replica-bounds><span class="ico_check"></span></a></div>`;
    case 'unlabelled':
      return `<div class="box_option"><button type="button" class="btn_area" aria-pressed="${on}" data-replica-bounds><span class="ico_area"></span></button></div>`;
    case 'action-button':
      return `<div class="box_option"><button type="button" class="btn_research" data-replica-bounds><span class="ico_research"></span>${label}</button></div>`;
  }
}

/** The place page: a shell in the live site (data from place-api); here the fields are in the markup. */
/** The place page's reviews script (client/place-reviews.js). */
let reviewsSource: string | null = null;
function kakaoPlaceReviewsScript(): string {
  reviewsSource ??= readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'client', 'place-reviews.js'), 'utf8');
  return reviewsSource;
}

/** What the place page's reviews section shows (reviews-switches.ts), and where it fetches from. */
export interface KakaoPlaceReviewsConfig {
  switches: KakaoReviewsSwitches;
  /** The place's review count, printed on the tab. */
  count: number;
  apiOrigin: string;
}

export function kakaoPlacePageHtml(k: KakaoReplicaPlace, reviews?: KakaoPlaceReviewsConfig): string {
  const e = escapeHtml;
  const s = reviews?.switches;
  const config = s && {
    placeId: k.confirmId,
    apiOrigin: reviews.apiOrigin,
    count: reviews.count,
    tab: s.kakaoReviewsTab,
    sort: s.kakaoReviewsSort,
    more: s.kakaoReviewsMore,
    pageKey: s.kakaoReviewsPageKey,
    naming: s.kakaoReviewsCase,
    batch: s.kakaoReviewsBatch,
    cut: s.kakaoReviewsCut,
  };
  const reviewsHtml = config
    ? `<div id="replica-tabs"></div><div id="replica-reviews" hidden></div>
<script>(function(){${kakaoPlaceReviewsScript()}
replicaKakaoReviews(${JSON.stringify(config).replace(/</g, '\\u003c')});})();</script>`
    : '';
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>${e(k.name)} | 카카오맵</title>
<meta property="og:title" content="${e(k.name)}"><meta property="og:url" content="https://place.map.kakao.com/${k.confirmId}"></head>
<body><div id="mArticle" data-confirmid="${k.confirmId}">
<h3 class="tit_place">${e(k.name)}</h3><span class="info_cate">${e(k.categoryPath.at(-1) ?? '')}</span>
<div class="detail_info"><span class="txt_address">${e(k.roadAddress)}</span><span class="txt_addrnum">지번 ${e(k.jibunAddress)}</span>
${k.phone ? `<span class="txt_contact">${e(k.phone)}</span>` : ''}${k.homepage ? `<a class="link_homepage" href="${e(k.homepage)}">${e(k.homepage)}</a>` : ''}
${k.rating !== null ? `<span class="num_star">${k.rating.toFixed(1)}</span><span class="num_rate">${k.ratingCount ?? 0}</span>` : ''}</div>
${kakaoPlaceHoursHtml(k)}
${reviewsHtml}</div></body></html>`;
}

/**
 * The place page's hours, under the heading "영업시간" (its markup is in no source [?]): the week
 * as one line ("매일 10:00 ~ 22:00") or, for a place whose confirmid is odd, a line per day
 * ("월 10:00 ~ 22:00"), so both forms are on every page of places. None when the place gives none.
 */
function kakaoPlaceHoursHtml(k: KakaoReplicaPlace): string {
  const h = k.place.hours;
  if (h === null) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  const span = h === 'open24h' ? '00:00 ~ 24:00' : `${two(h.opens)}:00 ~ ${two(h.closes)}:00`;
  const lines = Number(k.confirmId) % 2 === 1 ? ['월', '화', '수', '목', '금', '토', '일'].map((d) => `${d} ${span}`) : [`매일 ${span}`];
  return `<div class="section_openhour"><strong class="tit_section">영업시간</strong><ul class="list_openhour">${lines
    .map((l) => `<li><span class="txt_operation">${l}</span></li>`)
    .join('')}</ul></div>`;
}

/** www.kakao.com/500.ko.html, where blocked requests are sent. */
export function kakaoBlockPageHtml(): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>Kakao</title></head><body><div class="error_page"><h2>서비스 이용에 불편을 드려 죄송합니다.</h2><p>일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.</p></div></body></html>`;
}

/** What map.daum answers in its rate limit (HTML where JSON was expected, B6). */
export function kakaoRateLimitHtml(): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>Kakao</title></head><body><p>요청이 너무 많습니다.</p></body></html>`;
}

export function kakaoNotFoundHtml(path: string): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>404</title></head><body><p>페이지를 찾을 수 없습니다: ${escapeHtml(path)}</p></body></html>`;
}
