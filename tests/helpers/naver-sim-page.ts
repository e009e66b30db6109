/**
 * Naver's list pages, in-process: the replica's own search (tests/replica/naver/search.ts) behind
 * the PageDriver seam, so the real planner, queue, store and driver sweep a Naver world without a
 * browser. As imperfect as the replica: the box honoured, spilled or ignored (boundsMode), ads on
 * page 1, cards now and then unread, pages failing, the cap a little above or below 300.
 */
import { TimeoutError } from '../../utils/browser/page-driver';
import type { Listing } from '../../utils/listing/types';
import { placeKey } from '../../utils/providers/place';
import { naverPlaceUrl, parseListUrl } from '../../utils/providers/naver/urls';
import type { Observation } from '../../utils/domain/sweep';
import type { NaverReplicaPlace } from '../replica/naver/data';
import { adsFor, listTotalOf, naverSearch, pageOf } from '../replica/naver/search';
import { DEFAULT_NAVER_SWITCHES, type NaverSwitches } from '../replica/naver/switches';
import type { World } from '../replica/world';
import { createSimListDriver, type SimListDriver } from './sim-list-pages';

export interface NaverSimOptions {
  switches: Partial<NaverSwitches>;
  random(): number;
  /** Share of cards unread the first time their place is shown (mid-render), as the Google simulation does. */
  unreadableRate: number;
  /** Share of list loads that fail (HTTP 500). */
  failRate: number;
  /** The pager's next control skips a page: from page 1 it lands on page 3 (issue 21). */
  skipPageTwo: boolean;
}

export function naverListingOf(p: NaverReplicaPlace, sponsored = false): Listing {
  return {
    key: placeKey('naver', p.id),
    provider: 'naver',
    providerId: p.id,
    placeId: null,
    featureId: null,
    cid: null,
    name: p.name,
    category: p.categoryPath[p.categoryPath.length - 1] ?? null,
    address: p.roadAddress,
    phone: p.phone ?? p.virtualPhone,
    website: p.homepage,
    rating: p.visitorReviewScore,
    reviews: p.visitorReviewCount,
    lat: Number(p.y),
    lng: Number(p.x),
    url: naverPlaceUrl(p.id),
    sponsored,
    roadAddress: p.roadAddress,
    lotAddress: p.jibunAddress,
    bookingUrl: p.bookingUrl,
  };
}

/** Counts its loads and its page turns. */
export type NaverSimDriver = SimListDriver;

export function createNaverSimDriver(world: World, o: Partial<NaverSimOptions> & Pick<NaverSimOptions, 'random'>): NaverSimDriver {
  const switches = { ...DEFAULT_NAVER_SWITCHES, ...o.switches };
  const shownBefore = new Set<string>();

  function observe(tab: { url: string; page: number; status: number } | undefined): Observation {
    const parts = tab ? parseListUrl(tab.url) : null;
    if (!tab || !parts) throw new TimeoutError('no list page in this tab');
    const base = { url: tab.url, networkItems: null, networkKeys: [], finalView: null, elapsedMs: 1000, httpStatus: tab.status, warnings: [], searchedBounds: parts.bounds };
    if (tab.status >= 400) return { ...base, pageKind: 'unknown', cardsVisible: 0, listings: [], endOfList: false, capHit: false, stopReason: 'not-a-feed' };
    const outcome = naverSearch(world, { query: parts.query, bounds: parts.bounds, centre: parts.centre }, switches);
    if (outcome.results.length === 0) {
      return { ...base, pageKind: 'no-results', cardsVisible: 0, listings: [], endOfList: true, capHit: false, stopReason: 'not-a-feed' };
    }
    const { items, hasNext } = pageOf(outcome.results, tab.page, switches.pageSize);
    const ads = tab.page === 1 ? adsFor(world, { query: parts.query, bounds: parts.bounds, centre: parts.centre }, outcome, switches) : [];
    const unread = items.filter((p) => {
      const first = !shownBefore.has(p.id);
      shownBefore.add(p.id);
      return first && (o.unreadableRate ?? 0) > 0 && o.random() < o.unreadableRate!;
    });
    const read = items.filter((p) => !unread.includes(p));
    const more = hasNext;
    return {
      ...base,
      pageKind: 'results',
      cardsVisible: items.length + ads.length,
      organicShown: items.length,
      listings: [...ads.map((p) => naverListingOf(p, true)), ...read.map((p) => naverListingOf(p))],
      // As the content script reports it (utils/providers/naver/observe.ts): a full last page the
      // cap allows is capped whatever the pager says; a short last page is the end.
      endOfList: !more && items.length < switches.pageSize,
      capHit: tab.page * switches.pageSize >= 300 && items.length >= switches.pageSize,
      stopReason: 'end',
      pager: { page: tab.page, more },
      // As collect-naver.ts reads it: the Apollo state's list `total`.
      siteTotal: listTotalOf(world, parts.query, outcome, switches.listTotal),
    };
  }

  return createSimListDriver({
    load(url) {
      const failed = (o.failRate ?? 0) > 0 && o.random() < o.failRate!;
      return { url, page: 1, status: failed ? 500 : 200 };
    },
    observe,
    viewport: () => ({ width: 1280, height: 800, panelWidth: 0 }),
    turn: o.skipPageTwo ? (page) => (page === 1 ? 3 : page + 1) : undefined,
  });
}
