/**
 * One look at a Kakao search page: what the list shows, what the page's own map.daum answers
 * said, and whether this search is finished. The sweep's judge (behind the provider seam) turns
 * this into accept / next page / split / stop; this module only states facts.
 *
 * Complete vs capped (B3): the web list stops after ~34 pages of 15. A list whose last page
 * comes before that is complete; reaching the cap page with more to come means the cell must
 * be split, never marked done.
 */
import type { ProviderPlace } from '../place';
import type { WcongRect } from '../../geo/wcongnamul';
import type { KakaoListExtraction, KakaoPagerState } from './list-dom';
import { nextPagerAction, pageFullyShown, type KakaoPagerAction } from './list-dom';
import type { MapDaumResult } from './mapdaum';
import { KAKAO_PAGE_SIZE, KAKAO_WEB_CAP_PAGES, parseMapDaumUrl } from './urls';

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
  /** `place_totalcount` of the newest answer (null: no answer seen). */
  totalCount: number | null;
  /** The rect of the newest map.daum request (null: the search was not restricted to the map). */
  searchedRect: WcongRect | null;
  /** The list's places, with what map.daum adds (coordinates, full category path, jibun, homepage). */
  places: ProviderPlace[];
  /** Places map.daum listed that are not on screen (other pages, or the list lost them). */
  networkOnly: ProviderPlace[];
  /** The cap this summary judged against, in pages. */
  capPages: number;
  /** Pages read in full this visit, this one included: hand it back in the next `observeKakaoPage`. */
  pagesRead: ReadonlySet<number>;
}

export interface ObserveInput {
  list: KakaoListExtraction;
  /** The page's own map.daum exchanges this visit, oldest first. */
  responses?: readonly KakaoMapDaumExchange[];
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
  const oks = responses.flatMap((r) => (r.result.kind === 'ok' ? [{ url: r.url, page: r.result }] : []));
  const newest = oks.at(-1) ?? null;
  const fromNetwork = new Map<string, ProviderPlace>();
  for (const r of oks) for (const p of r.page.places) if (!p.sponsored) fromNetwork.set(p.key, p);
  const places = list.places.map((p) => merge(p, fromNetwork.get(p.key)));
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
    totalCount: newest?.page.totalCount ?? null,
    searchedRect: newest ? (parseMapDaumUrl(newest.url)?.rect ?? null) : null,
    places,
    networkOnly: [...fromNetwork.values()].filter((p) => !onScreen.has(p.key)),
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
  if (page >= capPages) {
    // At the cap page: "capped" unless the list itself shows this is the end.
    const moreMatched = next !== null || (totalCount !== null && totalCount > page * KAKAO_PAGE_SIZE) || list.places.length >= KAKAO_PAGE_SIZE;
    return moreMatched ? 'capped' : 'complete';
  }
  if (next) return 'more';
  // No way forward on screen. The count may still say more matched: a list that stops early
  // with totalCount beyond it is the cap showing itself sooner than expected.
  if (totalCount !== null && totalCount > page * KAKAO_PAGE_SIZE) return 'capped';
  return 'complete';
}

/** The card's fields, with the gaps filled from map.daum (the card wins where both have a value). */
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
