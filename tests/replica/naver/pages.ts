/**
 * HTML and JSON of the Naver replica (map-pages-spec §2, naver-kakao-notes A): the outer search page
 * with `iframe#searchIframe`, the pcmap list page (Apollo state, lazy list, pager, ads), the entry
 * page with `iframe#entryIframe`, the pcmap place home page (Apollo detail state), no-results, the
 * block page, and the allSearch / GraphQL answers. Pure functions of their input.
 */
import { escapeHtml, scriptJsonSafe } from './text';
import type { NaverReplicaPlace } from './data';
import type { NaverDomVariant } from './switches';

export { escapeHtml };

export interface ListPageInput {
  query: string;
  x: string;
  y: string;
  /** This page's organic items, in rank order. */
  items: readonly NaverReplicaPlace[];
  /** Ads above the list (page 1 only). */
  ads: readonly NaverReplicaPlace[];
  /** How many organic items are rendered at load; the rest come in as the container scrolls. */
  rendered: number;
  page: number;
  pages: number;
  /** The list's own count (NaverSwitches.listTotal); null: none given. */
  total: number | null;
  pageSize: number;
  lazyBatch: number;
  lazyDelayMs: number;
  pagerWindow: number;
  endMarker: 'next-disabled' | 'no-next';
  apolloHolds: 'page' | 'rendered';
  variant: NaverDomVariant;
  brokenCards: boolean;
  /** NaverSwitches.pagerMarkup (default 'links'). */
  pagerMarkup?: 'links' | 'buttons';
  /** NaverSwitches.pageTurn (default 'next'). */
  pageTurn?: 'next' | 'skip';
  /** NaverSwitches.lazyFail (default 0): with `apolloHolds: 'page'`, the k-th lazy batch and those after it never render. */
  lazyFail?: number;
  /** What the page's own GraphQL calls send for its lazy batches (`apolloHolds: 'rendered'`); default: no bounds, no x,y. */
  search?: ListPageSearch;
}

const CLASSES: Record<Exclude<NaverDomVariant, 'renamed'>, { li: string; name: string; category: string }> = {
  restaurant: { li: 'UEzoS rTjJo', name: 'TYaxT', category: 'KCMnt' },
  place: { li: 'VLTHu', name: 'YwYLL', category: 'YzBgS' },
};

/** What a card shows, as text (escaped by `cardFromParts`): the page script renders lazy cards from the same parts. */
export interface CardParts {
  href: string;
  name: string;
  category: string;
  /** `4.50`, or null when the place hides its score. */
  score: string | null;
  /** `리뷰 123`'s number as shown (`999+` above 999), or null. */
  reviews: string | null;
}

/** A card's parts from a replica place. */
export function cardPartsOf(p: NaverReplicaPlace, opts: { variant: NaverDomVariant; broken: boolean }): CardParts {
  const vertical = opts.variant === 'place' ? 'place' : 'restaurant';
  return {
    href: opts.broken ? '#' : `/${vertical}/${p.id}?entry=pll`,
    name: opts.broken ? '' : p.name,
    category: p.categoryPath[p.categoryPath.length - 1] ?? '',
    score: p.visitorReviewScore === null ? null : p.visitorReviewScore.toFixed(2),
    reviews: p.visitorReviewCount === null ? null : p.visitorReviewCount > 999 ? '999+' : String(p.visitorReviewCount),
  };
}

const SCORE_HTML = (score: string) => `<span class="h69bs orXYY"><span class="place_blind">별점</span>${score}</span>`;
const REVIEWS_HTML = (reviews: string) => `<span class="h69bs">리뷰 ${reviews}</span>`;

/** One list card from its parts (class names of the restaurant or place vertical; `renameFor` renames them). */
export function cardFromParts(parts: CardParts, opts: { variant: NaverDomVariant; sponsored: boolean }): string {
  const c = CLASSES[opts.variant === 'renamed' ? 'restaurant' : opts.variant];
  const score = parts.score === null ? '' : SCORE_HTML(escapeHtml(parts.score));
  const reviews = parts.reviews === null ? '' : REVIEWS_HTML(escapeHtml(parts.reviews));
  const ad = opts.sponsored
    ? `<a href="https://m.help.naver.com/support/alias/NSP_M/NSPM_70.naver" role="button" class="gU6bV _DHlh"><span class="place_blind">광고</span><svg class="dPXjn Xlsde" aria-hidden="true"></svg></a>`
    : '';
  return `<li class="${c.li}${opts.sponsored ? ' cZnHG' : ''}"><div class="CHC5F"><a href="${escapeHtml(parts.href)}" role="button" class="tzwk0"><div class="bSoi3"><div class="place_bluelink N_KDL"><span class="${c.name}">${escapeHtml(parts.name)}</span><span class="${c.category}">${escapeHtml(parts.category)}</span></div></div></a>${ad}<div class="Dr_06"><div class="MVx6e">${score}${reviews}</div></div></div></li>`;
}

/** One list card. Ads carry the hidden "광고" label and svg.dPXjn (the 2025 capture); links are relative, as there. */
export function cardHtml(p: NaverReplicaPlace, opts: { variant: NaverDomVariant; sponsored: boolean; broken: boolean }): string {
  return cardFromParts(cardPartsOf(p, opts), opts);
}

/** An Apollo list item (`RestaurantListSummary` shape of the 2025 capture): road and lot parts short, region in `commonAddress`. */
export function listItemState(p: NaverReplicaPlace, ad: boolean, typename: string): Record<string, unknown> {
  return {
    __typename: typename,
    id: p.id,
    name: p.name,
    // A planted path (WorldOptions.oversized) comes whole, as an array: the state gives either shape (apollo.ts).
    category: p.place.categoryPath ? p.categoryPath : (p.categoryPath[p.categoryPath.length - 1] ?? null),
    x: p.x,
    y: p.y,
    phone: p.phone && p.phone !== p.virtualPhone ? p.phone : null,
    virtualPhone: p.virtualPhone,
    roadAddress: p.roadPart,
    address: p.jibunPart,
    commonAddress: `${p.region} ${p.dong.split(' ')[0]}`,
    visitorReviewCount: p.visitorReviewCount === null ? null : p.visitorReviewCount.toLocaleString('en-US'),
    visitorReviewScore: p.visitorReviewScore === null ? null : p.visitorReviewScore.toFixed(2),
    bookingUrl: p.bookingUrl,
    businessHours: naverHoursText(p),
    ...(ad ? { adId: `nad-replica-${p.id}`, adDescription: '광고' } : {}),
  };
}

/**
 * The week in words, as the 2025 list capture's `businessHours` are worded (../shared/real-pages/naver
 * naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html): "매일 11:00~23:00 연중무휴", "평일 … |
 * 토요일 … | 일요일 …", or "" when the place gives none. The world's places keep one span every
 * day; which wording a place gets is fixed by its id, so every form is on every page.
 */
export function naverHoursText(p: NaverReplicaPlace): string {
  const h = p.place.hours;
  if (h === null) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  const span = h === 'open24h' ? '00:00~24:00' : `${two(h.opens)}:00~${two(h.closes)}:00`;
  switch (Number(p.id.slice(-1)) % 3) {
    case 0:
      return `매일 ${span} 연중무휴`;
    case 1:
      return `평일 ${span} | 토요일 ${span} | 일요일 ${span}`;
    default:
      return `매일 ${span}`;
  }
}

/** `window.__APOLLO_STATE__` of a list page: root list query with ranked refs, ad query, one cache entry per item. */
export function listApolloState(input: {
  query: string;
  x: string;
  y: string;
  items: readonly NaverReplicaPlace[];
  ads: readonly NaverReplicaPlace[];
  /** null: the answer gives none (listTotal 'absent'). */
  total: number | null;
  start: number;
  display: number;
  variant: NaverDomVariant;
}): Record<string, unknown> {
  const restaurant = input.variant !== 'place';
  const type = restaurant ? 'RestaurantListSummary' : 'PlaceSummary';
  const adType = restaurant ? 'RestaurantAdSummary' : 'PlaceAdSummary';
  const keyOf = (p: NaverReplicaPlace) => (restaurant ? `${type}:${p.id}:${p.id}` : `${type}:${p.id}`);
  const args = JSON.stringify({ input: { deviceType: 'pcmap', display: input.display, query: input.query, start: input.start, x: input.x, y: input.y } });
  const state: Record<string, unknown> = {
    ROOT_QUERY: {
      __typename: 'Query',
      [`${restaurant ? 'restaurantList' : 'places'}(${args})`]: {
        __typename: restaurant ? 'RestaurantListResult' : 'PlacesResult',
        ...(input.total === null ? {} : { total: input.total }),
        items: input.items.map((p) => ({ __ref: keyOf(p) })),
      },
      [`adBusinesses(${args})`]: { __typename: 'AdsResult', total: input.ads.length, items: input.ads.map((p) => ({ __ref: `${adType}:${p.id}` })) },
    },
  };
  for (const p of input.items) state[keyOf(p)] = listItemState(p, false, type);
  for (const p of input.ads) state[`${adType}:${p.id}`] = listItemState(p, true, adType);
  return state;
}

function pagerHtml(input: ListPageInput): string {
  const last = Math.min(input.pages, Math.max(input.pagerWindow, input.page + 1));
  const atEnd = input.page >= input.pages;
  const step = input.pageTurn === 'skip' ? 2 : 1;
  const prev = { page: Math.max(1, input.page - 1), off: input.page <= 1 };
  const next = atEnd && input.endMarker === 'no-next' ? null : { page: Math.min(input.pages, input.page + step), off: atEnd };
  const numbers = Array.from({ length: last }, (_, i) => i + 1);
  if (input.pagerMarkup === 'buttons') {
    // Buttons named for people: arrows by aria-label around an icon, the current page aria-current, the ends `disabled`.
    const arrow = (label: string, a: { page: number; off: boolean }) =>
      `<button type="button" class="pgArrow" aria-label="${label}" data-replica-page="${a.page}"${a.off ? ' disabled' : ''}><svg class="pgIcon" aria-hidden="true"></svg></button>`;
    const nums = numbers.map(
      (n) => `<button type="button" class="pgNum"${n === input.page ? ' aria-current="page"' : ''} data-replica-page="${n}">${n}</button>`,
    );
    return `<nav class="pgNav" aria-label="페이지 이동">${arrow('이전 페이지', prev)}<span class="pgNums">${nums.join('')}</span>${next ? arrow('다음 페이지', next) : ''}</nav>`;
  }
  const links: string[] = [];
  links.push(
    `<a href="#" role="button" class="eUTV2" aria-disabled="${prev.off}" data-replica-page="${prev.page}"><span class="place_blind">이전페이지</span></a>`,
  );
  for (const n of numbers) links.push(`<a href="#" role="button" class="mBN2s${n === input.page ? ' qxokY' : ''}" data-replica-page="${n}">${n}</a>`);
  if (next)
    links.push(
      `<a href="#" role="button" class="eUTV2" aria-disabled="${next.off}" data-replica-page="${next.page}"><span class="place_blind">다음페이지</span></a>`,
    );
  return `<div class="zRM9F">${links.join('')}</div>`;
}

/** What the list page's own GraphQL calls send for its lazy batches: the list URL's search, as the page got it. */
export interface ListPageSearch {
  bounds: { south: number; west: number; north: number; east: number } | null;
  /** The URL's x,y; null when it gave none (the search is then centred on the box). */
  centre: { lat: number; lng: number } | null;
}

/** Where the list page's script sends its GraphQL calls (A6). */
export const GRAPHQL_URL = 'https://pcmap-api.place.naver.com/graphql';

/**
 * The list page. The first `rendered` organic cards are in the HTML; the rest of the page's items come in
 * `lazyBatch` at a time when the container is scrolled to its end:
 * - `apolloHolds: 'page'`: from the page script's config (the state describes the whole page);
 * - `apolloHolds: 'rendered'`: from the page's own GraphQL calls (`POST pcmap-api…/graphql`, credentials
 *   included, as the live page fetches what it did not render at load), each answer rendered as cards.
 * The pager's links navigate to `&page=N` (the live page re-queries in place [?]; a navigation is the
 * replica's simplification, and the seam sees a new page either way).
 */
export function listPageHtml(input: ListPageInput): string {
  const cards = (ps: readonly NaverReplicaPlace[], sponsored: boolean) =>
    ps.map((p) => cardHtml(p, { variant: input.variant, sponsored, broken: input.brokenCards }));
  const first = input.items.slice(0, input.rendered);
  const rest = input.items.slice(input.rendered);
  const stateItems = input.apolloHolds === 'page' ? input.items : first;
  const pageStart = (input.page - 1) * input.pageSize + 1;
  const state = listApolloState({
    query: input.query,
    x: input.x,
    y: input.y,
    items: stateItems,
    ads: input.ads,
    total: input.total,
    start: pageStart,
    display: input.pageSize,
    variant: input.variant,
  });
  // lazyFail k: batches k, k+1, … never render (the state still describes them: it holds the page).
  const coming = input.lazyFail ? rest.slice(0, (input.lazyFail - 1) * input.lazyBatch) : rest;
  const config =
    input.apolloHolds === 'page'
      ? { lazyBatch: input.lazyBatch, lazyDelayMs: input.lazyDelayMs, more: cards(coming, false).map((h) => renameFor(input.variant, h)) }
      : graphqlConfig(input, pageStart + first.length, rest.length);
  const body = `<div id="app-root"><div class="place_on_pcmap"><div id="_pcmap_list_scroll_container" style="height:100vh;overflow-y:auto"><ul class="eDFz9">${[...cards(input.ads, true), ...cards(first, false)].join('')}</ul></div>${pagerHtml(input)}</div></div>`;
  return page(
    `${escapeHtml(input.query)} : 네이버 지도`,
    renameFor(input.variant, body),
    state,
    `<script id="replica-config" type="application/json">${scriptJsonSafe(config)}</script><script>${LIST_SCRIPT}</script>`,
  );
}

/** The config of a page whose lazy batches come from GraphQL: the call to make, and the card's markup to fill in. */
function graphqlConfig(input: ListPageInput, start: number, left: number): Record<string, unknown> {
  const restaurant = input.variant !== 'place';
  const b = input.search?.bounds ?? null;
  const c = input.search?.centre ?? null;
  const gqlInput: Record<string, unknown> = { query: input.query, start, display: input.lazyBatch, deviceType: 'pcmap', isPcmap: true, adult: false };
  if (c) Object.assign(gqlInput, { x: String(c.lng), y: String(c.lat) });
  if (b) gqlInput.bounds = `${b.west};${b.south};${b.east};${b.north}`;
  const mark = { href: '\u0001H', name: '\u0001N', category: '\u0001C', score: '\u0001S', reviews: '\u0001R' };
  const tpl = (html: string) => renameFor(input.variant, html);
  return {
    lazyBatch: input.lazyBatch,
    lazyDelayMs: input.lazyDelayMs,
    graphql: { url: GRAPHQL_URL, operationName: restaurant ? 'getRestaurants' : 'getPlacesList', input: gqlInput, left },
    vertical: restaurant ? 'restaurant' : 'place',
    broken: input.brokenCards,
    tpl: {
      card: tpl(cardFromParts(mark, { variant: input.variant, sponsored: false })),
      score: tpl(SCORE_HTML(mark.score)),
      reviews: tpl(REVIEWS_HTML(mark.reviews)),
    },
  };
}

/**
 * The page script of the list: lazy batches on scroll (from the config, or fetched from GraphQL and
 * rendered from the answer), pager clicks. Plain ES2017 so Chromium and happy-dom run it as is. The
 * GraphQL call uses the page's `fetch` as it is when called (a hook wrapping it sees the call).
 */
export const LIST_SCRIPT = `(function(){
var c=document.getElementById('_pcmap_list_scroll_container');var ul=c&&c.querySelector('ul');
var cfg=JSON.parse(document.getElementById('replica-config').textContent);var more=(cfg.more||[]).slice();var pending=false;
var g=cfg.graphql||null;var left=g?g.left:0;var next=g?g.input.start:0;
function atEnd(){return c.scrollTop+c.clientHeight>=c.scrollHeight-40;}
function esc(s){return String(s).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;').replace(/"/g,'&quot;').replace(/'/g,'&#39;');}
function put(h,k,v){return h.split(k).join(v);}
function card(it){var t=cfg.tpl;var h=t.card;
var score=it.visitorReviewScore==null?null:String(it.visitorReviewScore);
var n=it.visitorReviewCount==null?NaN:Number(String(it.visitorReviewCount).replace(/,/g,''));var reviews=isFinite(n)?(n>999?'999+':String(n)):null;
h=put(h,t.score,score===null?'':put(t.score,'\u0001S',esc(score)));h=put(h,t.reviews,reviews===null?'':put(t.reviews,'\u0001R',esc(reviews)));
h=put(h,'\u0001H',cfg.broken?'#':esc('/'+cfg.vertical+'/'+it.id+'?entry=pll'));h=put(h,'\u0001N',cfg.broken?'':esc(it.name==null?'':it.name));h=put(h,'\u0001C',esc(it.category==null?'':it.category));return h;}
function fetchMore(){var display=Math.min(cfg.lazyBatch,left);var input={};for(var k in g.input)input[k]=g.input[k];input.start=next;input.display=display;
return fetch(g.url,{method:'POST',credentials:'include',headers:{'content-type':'application/json'},body:JSON.stringify([{operationName:g.operationName,variables:{input:input},query:'query '+g.operationName+'($input: PlacesInput) { businesses: places(input: $input) { total items { id name category x y roadAddress address commonAddress phone virtualPhone visitorReviewCount visitorReviewScore bookingUrl } } }'}])})
.then(function(r){if(!r.ok)throw new Error('HTTP '+r.status);return r.json();})
.then(function(a){var d=a&&a[0]&&a[0].data;var list=d&&(d.businesses||d.restaurants);var items=list&&list.items||[];
for(var i=0;i<items.length;i++)ul.insertAdjacentHTML('beforeend',card(items[i]));next+=items.length;left-=items.length;if(!items.length)left=0;});}
function onScroll(){if(pending||!atEnd())return;if(g?left<=0:!more.length)return;pending=true;setTimeout(function(){
if(g){fetchMore().then(function(){pending=false;},function(){pending=false;});return;}
for(var i=0;i<cfg.lazyBatch&&more.length;i++)ul.insertAdjacentHTML('beforeend',more.shift());pending=false;},cfg.lazyDelayMs);}
if(c)c.addEventListener('scroll',onScroll);
document.addEventListener('click',function(e){var a=e.target&&e.target.closest?e.target.closest('[data-replica-page]'):null;if(!a)return;e.preventDefault();
if(a.getAttribute('aria-disabled')==='true'||a.hasAttribute('disabled'))return;var u=new URL(location.href);u.searchParams.set('page',a.getAttribute('data-replica-page'));location.href=u.href;});
})();`;

/** "No results": the m.place wording (A3 [~]; pcmap's own text is not recorded). */
export function noResultsHtml(query: string): string {
  return page(`${escapeHtml(query)} : 네이버 지도`, `<div id="_pcmap_list_scroll_container"><div class="FYvSc">조건에 맞는 업체가 없습니다.</div></div>`, {
    ROOT_QUERY: { __typename: 'Query' },
  });
}

/**
 * An app shell that never rendered (NaverSwitches.emptyPage 'shell'): an empty root and the UI
 * dictionary script the real m.place capture inlines, the no-results wording among its strings.
 * Nothing on it is shown to people.
 */
export function appShellHtml(query: string): string {
  const dictionary = { noResult: '조건에 맞는 업체가 없습니다.', noPhoto: '조건에 맞는 사진이 없습니다.', retry: '다시 시도', more: '더보기' };
  return page(`${escapeHtml(query)} : 네이버 지도`, `<div id="app-root"></div><script>window.__PLACE_I18N__ = ${scriptJsonSafe(dictionary)};</script>`, {
    ROOT_QUERY: { __typename: 'Query' },
  });
}

/** The block page (A7), verbatim text. */
export function blockPageHtml(): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>네이버</title></head><body><div class="error_content"><h2>과도한 접근 요청으로 서비스 이용이 제한되었습니다.</h2><p>잠시 후 다시 시도해주세요.</p></div></body></html>`;
}

/** map.naver.com/p/search/{q}: the outer page; the list is its iframe. */
export function outerSearchHtml(query: string, listSrc: string): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>${escapeHtml(query)} - 네이버 지도</title></head><body><div id="app-layout"><div id="section_content"><iframe id="searchIframe" name="searchIframe" title="Naver Place Search" src="${escapeHtml(listSrc)}" style="width:380px;height:100vh;border:0"></iframe></div><div id="map" class="mapboxgl-map"></div></div></body></html>`;
}

/** map.naver.com/p/entry/place/{id}: the outer page with the detail iframe. */
export function entryPageHtml(name: string, homeSrc: string): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>${escapeHtml(name)} - 네이버 지도</title></head><body><div id="app-layout"><iframe id="entryIframe" name="entryIframe" title="Naver Place Entry" src="${escapeHtml(homeSrc)}" style="width:380px;height:100vh;border:0"></iframe><div id="map"></div></div></body></html>`;
}

/** The place page's Apollo state, in the 2026 capture's shape. */
export function detailApolloState(p: NaverReplicaPlace): Record<string, unknown> {
  const base = `PlaceDetailBase:${p.id}`;
  return {
    [base]: {
      __typename: 'PlaceDetailBase',
      id: p.id,
      name: p.name,
      reviewSettings: { __typename: 'ReviewSettings', showVisitorReviewScore: p.visitorReviewScore !== null },
      category: p.categoryPath[p.categoryPath.length - 1] ?? null,
      roadAddress: p.roadAddress,
      address: p.jibunAddress,
      visitorReviewsTotal: p.visitorReviewCount,
      visitorReviewsScore: p.visitorReviewScore ?? 0,
      coordinate: { __typename: 'Coordinate', x: p.x, y: p.y, mapZoomLevel: 12 },
      virtualPhone: p.virtualPhone,
      phone: p.phone && p.phone !== p.virtualPhone ? p.phone : null,
    },
    ROOT_QUERY: {
      __typename: 'Query',
      [`placeDetail(${JSON.stringify({ input: { deviceType: 'pcmap', id: p.id, isNx: false } })})`]: {
        __typename: 'PlaceDetail',
        base: { __ref: base },
        homepages: { __typename: 'Homepage', etc: [], repr: p.homepage ? { __typename: 'HomepageItem', url: p.homepage, type: '홈페이지' } : null },
        'naverBooking({"bookingType":"restaurant"})': { __typename: 'PlaceDetailNaverBooking', naverBookingUrl: p.bookingUrl },
        'newBusinessHours({"format":"restaurant"})': newBusinessHours(p),
      },
    },
  };
}

/**
 * The week, in the 2026 capture's shape (../shared/real-pages/naver naver_pcmap_place_apollo-state_1446535451):
 * one `WorkingHoursInfo` a day, starting today (the capture's first day is its Wednesday), its
 * `businessHours` start and end; `[]` for a place that gives none. The world's places keep one span every day.
 */
function newBusinessHours(p: NaverReplicaPlace): unknown[] {
  const h = p.place.hours;
  if (h === null) return [];
  const two = (n: number) => String(n).padStart(2, '0');
  const [start, end] = h === 'open24h' ? ['00:00', '24:00'] : [`${two(h.opens)}:00`, `${two(h.closes)}:00`];
  const week = ['수', '목', '금', '토', '일', '월', '화'];
  return [
    {
      __typename: 'NewBusinessHour',
      name: '',
      businessStatusDescription: { __typename: 'BusinessStatusDescription', status: '영업 중', description: `${end}에 영업 종료` },
      businessHours: week.map((day) => ({
        __typename: 'WorkingHoursInfo',
        day,
        businessHours: { __typename: 'StartEndTime', start, end },
        breakHours: [],
        description: null,
        lastOrderTimes: null,
        showEndsNextDay: false,
      })),
    },
  ];
}

/** pcmap.place.naver.com/{vertical}/{id}/home: the detail spans (S19) and the Apollo state. */
export function placeHomeHtml(p: NaverReplicaPlace): string {
  const phone = p.phone ?? p.virtualPhone;
  const body = `<div id="app-root"><div class="place_section"><div id="_title"><span class="GHAhO">${escapeHtml(p.name)}</span><span class="lnJFt">${escapeHtml(p.categoryPath[p.categoryPath.length - 1] ?? '')}</span></div>
<div class="place_section_content"><span class="LDgIH">${escapeHtml(p.roadAddress)}</span>${phone ? `<span class="xlx7Q">${escapeHtml(phone)}</span>` : ''}</div></div></div>`;
  return page(`${escapeHtml(p.name)} : 네이버`, body, detailApolloState(p));
}

function page(title: string, body: string, state: Record<string, unknown>, tail = ''): string {
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}
<script>window.__APOLLO_STATE__ = ${scriptJsonSafe(state)};</script>${tail}</body></html>`;
}

/** Variant 'renamed': obfuscated class tokens replaced; snake_case names (place_bluelink, place_blind) and ids stay. */
export function renameFor(variant: NaverDomVariant, html: string): string {
  if (variant !== 'renamed') return html;
  return html.replace(
    /class="([^"]*)"/g,
    (_, list: string) =>
      `class="${list
        .split(/\s+/)
        .filter(Boolean)
        .map((t) => (t.includes('_') ? t : renamedToken(t)))
        .join(' ')}"`,
  );
}

function renamedToken(t: string): string {
  let h = 2166136261;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619) >>> 0;
  return `r${h.toString(36).slice(0, 5)}`;
}

/** allSearch's answer (A5; the 2026 capture's shape): 20 per page, `boundary` as [minLng, maxLat, maxLng, minLat] strings. */
export function allSearchAnswer(input: {
  query: string;
  items: readonly NaverReplicaPlace[];
  total: number;
  page: number;
  boundary: { south: number; west: number; north: number; east: number } | null;
}): unknown {
  const b = input.boundary;
  return {
    result: {
      type: 'place',
      metaInfo: { pageId: 'replica', searchedQuery: input.query, queryTypes: ['query_category'] },
      address: null,
      bus: null,
      place: {
        page: input.page,
        totalCount: input.total,
        boundary: b ? [b.west.toFixed(7), b.north.toFixed(7), b.east.toFixed(7), b.south.toFixed(7)] : null,
        list: input.items.map((p, i) => ({
          index: String(i),
          rank: String((input.page - 1) * 20 + i + 1),
          id: p.id,
          name: p.name,
          tel: p.phone ?? '',
          virtualTel: p.virtualPhone ?? '',
          telDisplay: p.phone ?? '',
          category: p.categoryPath,
          address: p.jibunAddress,
          roadAddress: p.roadAddress,
          display: p.name,
          reviewCount: p.visitorReviewCount ?? 0,
          placeReviewCount: p.visitorReviewCount ?? 0,
          x: p.x,
          y: p.y,
          homePage: p.homepage ?? '',
          hasNaverBooking: p.bookingUrl !== null,
          naverBookingUrl: p.bookingUrl,
        })),
      },
    },
  };
}

/** The GraphQL list answer (A6): an array with one `{data: {businesses|restaurants: {total, items}}}` (getPlacesList / getRestaurants). */
export function graphqlListAnswer(items: readonly NaverReplicaPlace[], total: number | null, root: 'businesses' | 'restaurants' = 'businesses'): unknown {
  const counted = total === null ? {} : { total };
  if (root === 'restaurants')
    return [
      { data: { restaurants: { __typename: 'RestaurantListResult', ...counted, items: items.map((p) => listItemState(p, false, 'RestaurantListSummary')) } } },
    ];
  return [{ data: { businesses: { __typename: 'PlacesResult', ...counted, items: items.map((p) => listItemState(p, false, 'PlaceSummary')) } } }];
}
