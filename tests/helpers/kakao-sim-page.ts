/**
 * Kakao's search page, in-process: the replica's own search (tests/replica/kakao/search.ts)
 * behind the PageDriver seam, so the real planner, queue, store and driver sweep a Kakao world
 * without a browser. The page's map is the view the URL asks for (or the replica's default when
 * `urlView: 'ignored'`), the rect its request carries is what lies right of the panel, the list
 * pages 15 at a time up to the cap, and the rect is honoured exactly, searched 5% less a side,
 * or ignored — as the replica's switches say.
 */
import { TimeoutError } from '../../utils/browser/page-driver';
import type { Listing } from '../../utils/listing/types';
import { placeKey } from '../../utils/providers/place';
import { KAKAO_PAGE_SIZE, parseSearchPageUrl, placeUrl, viewAt, viewRect, type KakaoView } from '../../utils/providers/kakao/urls';
import { innerBBoxOfRect } from '../../utils/providers/kakao/view';
import type { Observation } from '../../utils/domain/sweep';
import type { KakaoReplicaPlace, KakaoWorld } from '../replica/kakao/places';
import { kakaoSearch } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches } from '../replica/kakao/switches';
import { createSimListDriver, type SimListDriver } from './sim-list-pages';

export interface KakaoSimOptions {
  switches: Partial<KakaoSwitches>;
  random(): number;
  /** Share of loads that fail (the page shows nothing; the judge retries). */
  failRate: number;
  /** The window (CSS px); the map is what lies right of `switches.panelWidth`. */
  window: { width: number; height: number };
  /** The answers carry `place_totalcount` (default true); false: as if they never said, so nothing is learnt from it. */
  reportsTotal: boolean;
}

export function kakaoListingOf(k: KakaoReplicaPlace): Listing {
  return {
    key: placeKey('kakao', k.confirmId),
    provider: 'kakao',
    providerId: k.confirmId,
    placeId: null,
    featureId: null,
    cid: null,
    name: k.name,
    category: k.categoryPath[k.categoryPath.length - 1] ?? null,
    address: k.roadAddress,
    phone: k.phone,
    website: k.homepage,
    rating: k.rating,
    reviews: k.ratingCount,
    lat: k.lat,
    lng: k.lng,
    url: placeUrl(k.confirmId),
    sponsored: false,
    roadAddress: k.roadAddress,
    lotAddress: k.jibunAddress,
  };
}

/** Counts its loads and its page turns. */
export type KakaoSimDriver = SimListDriver;

export function createKakaoSimDriver(kw: KakaoWorld, o: Partial<KakaoSimOptions> & Pick<KakaoSimOptions, 'random'>): KakaoSimDriver {
  const switches = { ...DEFAULT_KAKAO_SWITCHES, ...o.switches };
  const win = o.window ?? { width: 1280, height: 800 };

  function observe(tab: { url: string; page: number; failed: boolean } | undefined): Observation {
    const info = tab ? parseSearchPageUrl(tab.url) : null;
    if (!tab || !info) throw new TimeoutError('no search page in this tab');
    const base = { url: tab.url, networkItems: null, networkKeys: [], finalView: null, elapsedMs: 1000, httpStatus: 200, warnings: [] };
    if (tab.failed) return { ...base, pageKind: 'unknown', cardsVisible: 0, listings: [], endOfList: false, capHit: false, stopReason: 'not-a-feed' };
    const view: KakaoView = (switches.urlView === 'honoured' ? info.view : null) ?? viewAt(kw.world.centre, 5)!;
    const canvas = { width: Math.max(100, win.width - switches.panelWidth), height: win.height };
    // What the page's own request carries: the map right of the panel (the replica's mapRect).
    const rect = switches.boundsControl ? viewRect(view, canvas) : null;
    const searchedBounds = rect ? innerBBoxOfRect(rect) : null;
    const { ranked } = kakaoSearch(kw, info.query ?? "", rect, switches);
    const cap = switches.capPages * KAKAO_PAGE_SIZE;
    const listed = ranked.slice(0, cap);
    if (listed.length === 0) return { ...base, pageKind: 'no-results', cardsVisible: 0, listings: [], endOfList: true, capHit: false, stopReason: 'not-a-feed', searchedBounds };
    const items = listed.slice((tab.page - 1) * KAKAO_PAGE_SIZE, tab.page * KAKAO_PAGE_SIZE);
    const more = tab.page * KAKAO_PAGE_SIZE < listed.length;
    return {
      ...base,
      pageKind: 'results',
      cardsVisible: items.length,
      organicShown: items.length,
      listings: items.map(kakaoListingOf),
      // As collect-kakao.ts reports it: the last page, and place_totalcount beyond what was listed = capped.
      endOfList: !more && ranked.length <= listed.length,
      capHit: !more && ranked.length > listed.length,
      stopReason: 'end',
      pager: { page: tab.page, more },
      searchedBounds,
      // As collect-kakao.ts reads it: the answer's place_totalcount (the replica's: every match in the rect).
      siteTotal: o.reportsTotal === false ? null : ranked.length,
    };
  }

  return createSimListDriver({
    load: (url) => ({ url, page: 1, failed: (o.failRate ?? 0) > 0 && o.random() < o.failRate! }),
    observe,
    viewport: () => ({ width: win.width, height: win.height, panelWidth: 408 }),
  });
}
