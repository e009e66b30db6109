/**
 * One look at a Kakao search page: what the list shows, what the page's own map.daum answers
 * said, and whether this search is finished. The sweep's judge (behind the provider seam) turns
 * this into accept / next page / split / stop; this module only states facts.
 *
 * Complete vs capped (B3): the web list stops after ~34 pages of 15. A list whose last page
 * comes before that is complete; reaching the cap page means the cell must be split, never
 * marked done (how many the cap holds is not known to the place: 500 reachable results in one
 * 2026 source, 34 × 15 in others, B3, B4b).
 *
 * The answers are page content (any page script can post a copy, network-hook.ts). What they
 * say may only add work: a count beyond what the list holds makes it capped; a count never
 * makes a list end. They fill a card only where they agree with it and with each other: the
 * record's confirmid and name are the card's, and every copy of that place says the same.
 */
import type { ProviderPlace } from '../../domain/place';
import type { WcongRect } from '../../geo/wcongnamul';
import type { KakaoListExtraction, KakaoPagerState } from './list-dom';
import { nextPagerAction, pageFullyShown, type KakaoPagerAction } from './list-dom';
import type { MapDaumPage, MapDaumResult } from './mapdaum';
import { KAKAO_PAGE_SIZE, KAKAO_WEB_CAP_PAGES, parseMapDaumUrl, type MapDaumRequest } from './urls';

export type KakaoPageStatus =
  /** The block page or HTML instead of JSON: pause, do not retry. */
  | 'blocked'
  /** `#info\.noPlace` and no cards: believed, because the page says so. */
  | 'no-results'
  /** Cards on screen and nothing read, or no list at all: the page changed. */
  | 'broken'
  /** Neither list, cards nor "no results" yet. */
  | 'loading'
  /** More pages to walk (`nextAction` says what to click). */
  | 'more'
  /** The list ended before the cap: every match was listed. */
  | 'complete'
  /** The cap page is reached and more matched: the cell must be split. */
  | 'capped';

export interface KakaoMapDaumExchange {
  /** The request URL as the page sent it (its `rect` is what was searched). */
  url: string;
  result: MapDaumResult;
}

export interface KakaoPageSummary {
  status: KakaoPageStatus;
  cardsShown: number;
  /** Organic places read from the list. */
  placesRead: number;
  ads: number;
  unreadable: number;
  pager: KakaoPagerState;
  nextAction: KakaoPagerAction | null;
  /**
   * The most any answer to the newest search says it matched (`place_totalcount`; on the 2026
   * endpoint also `page_count`, its reachable results [~]); null: no answer said.
   */
  totalCount: number | null;
  /** The rect of the newest map.daum request (null: the search was not restricted to the map). */
  searchedRect: WcongRect | null;
  /** The list's places, with what map.daum adds (coordinates, full category path, jibun, homepage). */
  places: ProviderPlace[];
  /** Places map.daum listed that are not on screen (other pages, or the list lost them). */
  networkOnly: ProviderPlace[];
  /** Cards whose answers did not fill them: a record of the same confirmid names another place, or the copies disagree. */
  unconfirmed: number;
  /** The cap this summary judged against, in pages. */
  capPages: number;
  /** Pages read in full this visit, this one included: hand it back in the next `observeKakaoPage`. */
  pagesRead: ReadonlySet<number>;
}

export interface ObserveInput {
  list: KakaoListExtraction;
  /** The page's own map.daum exchanges this visit, oldest first. */
  responses?: readonly KakaoMapDaumExchange[];
  /**
   * Where the counts (`place_totalcount`, `page_count`) are read (default: `responses`): may hold
   * copies that `responses` leaves out (more copies of a request than it was sent), as the
   * largest count is taken and a count may only add work.
   */
  counted?: readonly KakaoMapDaumExchange[];
  /** The search whose counts are read: the newest request the browser lists (default: that of the newest answer in `responses`). */
  search?: MapDaumRequest | null;
  /** The tab's URL is the block page (block.ts isKakaoBlockTab). */
  blockedTab?: boolean;
  capPages?: number;
  /** Pages already read in full this visit (the previous summary's `pagesRead`). */
  pagesRead?: ReadonlySet<number>;
}

export function observeKakaoPage(input: ObserveInput): KakaoPageSummary {
  const { list } = input;
  const responses = input.responses ?? [];
  const capPages = input.capPages ?? KAKAO_WEB_CAP_PAGES;
  const oksOf = (rs: readonly KakaoMapDaumExchange[]) => rs.flatMap((r) => (r.result.kind === 'ok' ? [{ url: r.url, page: r.result }] : []));
  const oks = oksOf(responses);
  const newest = oks.at(-1) ?? null;
  const search = input.search !== undefined ? input.search : newest ? parseMapDaumUrl(newest.url) : null;
  const { agreed, disputed } = agreedRecords(responses);
  let unconfirmed = 0;
  const places = list.places.map((card) => {
    const net = agreed.get(card.key);
    if (net && sameName(net.name, card.name)) return merge(card, net);
    if (net || disputed.has(card.key)) unconfirmed++;
    return card;
  });
  const onScreen = new Set(places.map((p) => p.key));
  const pagesRead = new Set(input.pagesRead ?? []);
  if (list.cardsShown > 0 && pageFullyShown(list.pager)) pagesRead.add(list.pager.current);
  const base = {
    cardsShown: list.cardsShown,
    placesRead: list.places.length,
    ads: list.adCards,
    unreadable: list.unreadable,
    pager: list.pager,
    nextAction: nextPagerAction(list.pager, pagesRead),
    totalCount: search ? matchedCount(oksOf(input.counted ?? responses), search) : null,
    searchedRect: newest ? (parseMapDaumUrl(newest.url)?.rect ?? null) : null,
    places,
    networkOnly: [...agreed.values()].filter((p) => !onScreen.has(p.key)),
    unconfirmed,
    capPages,
    pagesRead,
  };
  const blocked = input.blockedTab === true || responses.some((r) => r.result.kind === 'blocked');
  return { ...base, status: blocked ? 'blocked' : statusOf(list, base.nextAction, base.totalCount, capPages, responses) };
}

function statusOf(
  list: KakaoListExtraction,
  next: KakaoPagerAction | null,
  totalCount: number | null,
  capPages: number,
  responses: readonly KakaoMapDaumExchange[],
): KakaoPageStatus {
  if (list.noPlace && list.cardsShown === 0) return 'no-results';
  if (list.cardsShown > 0 && list.places.length === 0) return 'broken';
  if (responses.some((r) => r.result.kind === 'malformed')) return 'broken';
  if (!list.hasList) return 'broken';
  if (list.cardsShown === 0) return 'loading';
  const page = list.pager.current;
  // At the cap page the list cannot show whether more matched (a cap of 500 ends it on a short
  // page, one of 510 on a full one): capped, whatever a count says.
  if (page >= capPages) return 'capped';
  if (next) return 'more';
  // No way forward on screen. The count may still say a page more matched: the cap showing
  // itself sooner than expected. Only ever this way: a count never ends a list. (Within the
  // page it is not compared: whether it counts ads or closed places is not known.)
  if (totalCount !== null && totalCount > page * KAKAO_PAGE_SIZE) return 'capped';
  return 'complete';
}

/**
 * The most the answers to one search say it matched: `place_totalcount`, and on the 2026
 * endpoint `page_count` too (there, one source says, the results one can page to [~]; on
 * map.daum it is about 25 whatever the search, B4, so not a count of places). The largest,
 * because a count may only add work.
 */
function matchedCount(oks: readonly { url: string; page: MapDaumPage }[], search: MapDaumRequest | null): number | null {
  let most: number | null = null;
  for (const r of oks) {
    const req = parseMapDaumUrl(r.url);
    if (!req || !search || !sameSearch(req, search)) continue;
    for (const n of [r.page.totalCount, req.endpoint === 'mapsearch' ? r.page.pageCount : null]) if (n !== null && (most === null || n > most)) most = n;
  }
  return most;
}

function sameSearch(a: MapDaumRequest, b: MapDaumRequest): boolean {
  return a.endpoint === b.endpoint && a.query === b.query && JSON.stringify(a.rect) === JSON.stringify(b.rect);
}

/**
 * The organic records of the answers, one per confirmid, where every copy of that place says
 * the same (name and coordinates); `disputed`: confirmids whose copies disagree. Page content
 * may be posted twice for one request (a page script can post the hook's message): then
 * neither copy is believed.
 */
export function agreedRecords(responses: readonly KakaoMapDaumExchange[]): { agreed: Map<string, ProviderPlace>; disputed: Set<string> } {
  const agreed = new Map<string, ProviderPlace>();
  const disputed = new Set<string>();
  for (const r of responses) {
    if (r.result.kind !== 'ok') continue;
    for (const p of r.result.places) {
      if (p.sponsored || disputed.has(p.key)) continue;
      const seen = agreed.get(p.key);
      if (!seen) agreed.set(p.key, p);
      else if (!sameName(seen.name, p.name) || !samePoint(seen, p)) {
        agreed.delete(p.key);
        disputed.add(p.key);
      }
    }
  }
  return { agreed, disputed };
}

function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}

/** Within about a metre (two readings of one answer's WCONGNAMUL integers differ by centimetres). */
function samePoint(a: ProviderPlace, b: ProviderPlace): boolean {
  if (a.lat === null || a.lng === null || b.lat === null || b.lng === null) return a.lat === b.lat && a.lng === b.lng;
  return Math.abs(a.lat - b.lat) < 1e-5 && Math.abs(a.lng - b.lng) < 1e-5;
}

/** The card's fields, with the gaps filled from an answer that agrees with it (the card wins where both have a value). */
function merge(card: ProviderPlace, net: ProviderPlace | undefined): ProviderPlace {
  if (!net) return card;
  return {
    ...card,
    category: net.category ?? card.category,
    categoryPath: net.categoryPath.length >= card.categoryPath.length ? net.categoryPath : card.categoryPath,
    address: net.address ?? card.address,
    roadAddress: card.roadAddress ?? net.roadAddress,
    phone: card.phone ?? net.phone,
    website: card.website ?? net.website,
    rating: card.rating ?? net.rating,
    reviews: card.reviews ?? net.reviews,
    lat: net.lat,
    lng: net.lng,
  };
}
