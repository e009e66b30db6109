// @vitest-environment happy-dom
/**
 * The Kakao replica's search page (its own script, client/search-page.js) in happy-dom, with its
 * map.daum requests answered in-process by the function the server uses. The provider's readers
 * (list-dom.ts, mapdaum.ts, observe.ts) walk it the way a sweep visit will: read, click what
 * `nextPagerAction` names, until the page is complete or capped; the result is compared with the
 * replica's ground truth.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { haversineMetres } from '../../utils/geo/distance';
import { wcongnamulToWgs84, wcongRectContains } from '../../utils/geo/wcongnamul';
import { extractKakaoList } from '../../utils/providers/kakao/list-dom';
import { parseMapDaumBody } from '../../utils/providers/kakao/mapdaum';
import { type KakaoMapDaumExchange, type KakaoPageSummary, observeKakaoPage } from '../../utils/providers/kakao/observe';
import type { ProviderPlace } from '../../utils/domain/place';
import { type KakaoView, metresPerPixel, parseMapDaumUrl, viewForBox, viewAt } from '../../utils/providers/kakao/urls';
import { kakaoSearchPageConfig, kakaoSearchPageHtml, kakaoSearchPageScript } from '../replica/kakao/pages';
import { kakaoWorld } from '../replica/kakao/places';
import { answerMapDaum, kakaoGroundTruth } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches, mergeKakaoSwitches } from '../replica/kakao/switches';
import { createWorld } from '../replica/world';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { openingHoursText } from '../../utils/export/columns';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 6000, centre: SEOUL, radiusKm: 4 });
const kw = kakaoWorld(world);
const CANVAS = { width: 1024 - DEFAULT_KAKAO_SWITCHES.panelWidth, height: 768 };

interface Visit {
  exchanges: KakaoMapDaumExchange[];
  settle(): void;
  summary(pagesRead?: ReadonlySet<number>): KakaoPageSummary;
}

function openSearch(query: string, view: KakaoView, partial: Partial<KakaoSwitches> = {}, boundsSearch = false): Visit {
  const switches = mergeKakaoSwitches(DEFAULT_KAKAO_SWITCHES, partial);
  const html = kakaoSearchPageHtml(kakaoSearchPageConfig(switches, { query, view, boundsSearch, jqueryId: '1124000000000001' }));
  document.body.innerHTML = /<body>([\s\S]*)<script>/.exec(html)![1]!;
  const tasks: (() => void)[] = [];
  const exchanges: KakaoMapDaumExchange[] = [];
  (window as unknown as Record<string, unknown>).__replicaKakaoTransport = (url: string, done: (data: unknown) => void) => {
    tasks.push(() => {
      const req = parseMapDaumUrl(url)!;
      const answer = answerMapDaum(kw, switches, req);
      // The page asked for JSONP: the reader sees the wrapped body, the page the object.
      expect(answer.body.startsWith(`/**/${req.callback}(`)).toBe(switches.transport === 'jsonp');
      exchanges.push({ url, result: parseMapDaumBody(answer.body) });
      done(JSON.parse(answerMapDaum(kw, switches, { ...req, callback: null }).body));
    });
  };
  const run = new Function('window', `${kakaoSearchPageScript()}\nreturn replicaKakaoSearchPage;`)(window) as (c: unknown, w: unknown) => unknown;
  run(JSON.parse(/replicaKakaoSearchPage\((\{[\s\S]*\}), window\);\}\)\(\);<\/script>/.exec(html)![1]!), window);
  const settle = () => {
    while (tasks.length) tasks.shift()!();
  };
  return {
    exchanges,
    settle,
    summary: (pagesRead) => observeKakaoPage({ list: extractKakaoList(document), responses: exchanges, capPages: switches.capPages, pagesRead }),
  };
}

/** What a sweep visit does: read, click the next pager control, until not 'more'. */
function walk(v: Visit): { last: KakaoPageSummary; places: Map<string, ProviderPlace>; clicks: string[]; pagesSeen: number[] } {
  const places = new Map<string, ProviderPlace>();
  const clicks: string[] = [];
  const pagesSeen: number[] = [];
  let read: ReadonlySet<number> = new Set();
  for (let step = 0; step < 200; step++) {
    v.settle();
    const s = v.summary(read);
    read = s.pagesRead;
    pagesSeen.push(s.pager.current);
    for (const p of s.places) places.set(p.key, p);
    if (s.status !== 'more') return { last: s, places, clicks, pagesSeen };
    clicks.push(s.nextAction!.kind);
    (document.querySelector(s.nextAction!.selector) as HTMLElement).click();
  }
  throw new Error('the pager never ended');
}

beforeEach(() => {
  delete (window as unknown as Record<string, unknown>).__replicaKakaoTransport;
});

describe('a cell searched within the map ("현 지도 내 장소검색")', () => {
  const box = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
  const view = viewForBox(box, CANVAS)!;

  it('walks more → pages and lists exactly the ground truth of the rect the page searched, once each', () => {
    const v = openSearch('cafe', view, {}, true);
    const { last, places } = walk(v);
    expect(last.status).toBe('complete');
    expect(last.searchedRect).not.toBeNull();
    const truth = kakaoGroundTruth(kw, 'cafe', last.searchedRect!);
    expect(truth.length).toBeGreaterThan(15); // more than one page, so the pager was used
    expect([...places.keys()].sort()).toEqual(truth.map((k) => `kakao:${k.confirmId}`).sort());
    // The searched rect covers the cell: the view was chosen for it.
    for (const k of kw.places.filter((k) => k.lat > box.south && k.lat < box.north && k.lng > box.west && k.lng < box.east)) {
      expect(wcongRectContains(last.searchedRect!, k)).toBe(true);
    }
  });

  it('fills every field from the list and map.daum: category path, both addresses, phone, homepage, rating, WGS84', () => {
    const { places } = walk(openSearch('cafe', view, {}, true));
    for (const p of places.values()) {
      const k = kw.byConfirmId.get(p.providerId)!;
      expect(p).toMatchObject({
        name: k.name,
        category: k.categoryPath.at(-1),
        categoryPath: k.categoryPath,
        address: k.jibunAddress,
        roadAddress: k.roadAddress,
        phone: k.phone,
        website: k.homepage ? new URL(k.homepage).href : null,
        rating: k.rating,
        reviews: k.rating === null ? null : k.ratingCount,
        url: `https://place.map.kakao.com/${k.confirmId}`,
        sponsored: false,
      });
      expect(haversineMetres(p as { lat: number; lng: number }, k)).toBeLessThan(0.01);
    }
  });

  it('reads each place\u2019s hours line as the week it words (the world\u2019s span every day); a place without one has none', () => {
    const { places } = walk(openSearch('cafe', view, {}, true));
    let withHours = 0;
    for (const p of places.values()) {
      const k = kw.byConfirmId.get(p.providerId)!;
      const l = listingFromPlace(p, 'card');
      if (k.place.hours === null) {
        expect(l.hours ?? null, p.key).toBeNull();
        continue;
      }
      withHours++;
      const h = k.place.hours;
      const span = h === 'open24h' ? '00:00-24:00' : `${String(h.opens).padStart(2, '0')}:00-${String(h.closes).padStart(2, '0')}:00`;
      expect(openingHoursText(l.openingHours), p.key).toBe(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => `${d} ${span}`).join('; '));
    }
    expect(withHours).toBeGreaterThan(5);
  });

  it('with WCONGNAMUL only (older answers), coordinates come from x/y within 0.5 m', () => {
    const { places } = walk(openSearch('cafe', view, { coords: 'xy' }, true));
    expect(places.size).toBeGreaterThan(0);
    for (const p of places.values()) expect(haversineMetres(p as { lat: number; lng: number }, kw.byConfirmId.get(p.providerId)!)).toBeLessThan(0.5);
  });

  it('reads the "new response" names (cid, category) the same [~]', () => {
    const a = walk(openSearch('cafe', view, {}, true)).places;
    const b = walk(openSearch('cafe', view, { fieldDrift: true }, true)).places;
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [key, p] of b) expect(p.categoryPath).toEqual(a.get(key)!.categoryPath);
  });

  it('counts the ad as an ad, never as a place, on page 1', () => {
    const v = openSearch('cafe', view, {}, true);
    v.settle();
    const s = v.summary();
    expect(s.ads).toBe(1);
    expect(s.cardsShown).toBe(16);
    expect(s.placesRead).toBe(15);
    const ok = v.exchanges[0]!.result;
    expect(ok.kind === 'ok' && ok.ads === 1 && ok.places[0]!.sponsored).toBe(true);
  });

  it('whichever page "장소 더보기" opens and however few it previews, the walk ends with the same places [?]', () => {
    const base = [...walk(openSearch('cafe', view, {}, true)).places.keys()].sort();
    for (const sw of [{ moreLandsOn: 1 as const }, { previewCount: 5 }, { moreLandsOn: 1 as const, previewCount: 3 }, { transport: 'xhr' as const }]) {
      const r = walk(openSearch('cafe', view, sw, true));
      expect(r.last.status, JSON.stringify(sw)).toBe('complete');
      expect([...r.places.keys()].sort(), JSON.stringify(sw)).toEqual(base);
      if ('previewCount' in sw && sw.moreLandsOn !== 1) expect(r.clicks.slice(0, 2), 'page 1 read after "more" opened page 2').toEqual(['more', 'page']);
    }
  }, 30_000);

  it('shrunk rect [?]: the searched rect is what the request said, so the places missing are detectable', () => {
    const { last, places } = walk(openSearch('cafe', view, { rectMode: 'inset' }, true));
    const claimed = kakaoGroundTruth(kw, 'cafe', last.searchedRect!);
    expect(places.size).toBeLessThan(claimed.length);
  });
});

describe('paging to the cap', () => {
  it('an unrestricted busy query stops at page 34 with 510 places on map.daum, "capped" (more → 5 pages → next)', () => {
    const v = openSearch('restaurant', viewAt(SEOUL, 5)!, { endpoint: 'map.daum', transport: 'jsonp' });
    const { last, places, clicks, pagesSeen } = walk(v);
    expect(last.status).toBe('capped');
    expect(last.pager.current).toBe(34);
    expect(places.size).toBe(34 * 15);
    expect(last.totalCount).toBeGreaterThan(510);
    expect(clicks[0]).toBe('more');
    expect(clicks).toContain('next');
    // "더보기" opened page 2; page 1 before it may have been a preview [?], so it is read again.
    expect(pagesSeen.slice(0, 8)).toEqual([1, 2, 1, 3, 4, 5, 6, 7]);
  }, 30_000);

  it("a cap of 3 pages (the REST API's 45) is capped at 45", () => {
    const { last, places } = walk(openSearch('restaurant', viewAt(SEOUL, 5)!, { capPages: 3 }));
    expect(last.status).toBe('capped');
    expect(places.size).toBe(45);
  });

  it('a short list is complete on page 1 without a pager', () => {
    const name = kw.places.find((k) => /[가-힣]/.test(k.name) && kw.places.filter((o) => o.name.includes(k.name)).length === 1)!;
    const v = openSearch(name.name, viewAt(SEOUL, 5)!, { ads: false });
    v.settle();
    const s = v.summary();
    expect(s.status).toBe('complete');
    expect(s.pager.pagerVisible).toBe(false);
    expect(s.places.map((p) => p.providerId)).toContain(name.confirmId);
  });
});

describe('no results, broken markup', () => {
  it('believes "no results" only because #info.noPlace is shown', () => {
    const v = openSearch('zzqqxx nothing', viewAt(SEOUL, 5)!);
    v.settle();
    expect(v.summary().status).toBe('no-results');
  });

  it('cards on screen and nothing read is "broken", never an empty success', () => {
    const box = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
    const v = openSearch('cafe', viewForBox(box, CANVAS)!, { brokenItems: true }, true);
    v.settle();
    const s = v.summary();
    expect(s.cardsShown).toBeGreaterThan(0);
    expect(s.placesRead).toBe(0);
    expect(s.status).toBe('broken');
  });

  it('the searched rect decodes to the map the page shows', () => {
    const view = viewAt(SEOUL, 4)!;
    const v = openSearch('cafe', view, {}, true);
    v.settle();
    const r = v.summary().searchedRect!;
    const centre = wcongnamulToWgs84({ x: (r.x1 + r.x2) / 2, y: (r.y1 + r.y2) / 2 })!;
    expect(haversineMetres(centre, SEOUL)).toBeLessThan(1);
    expect((r.x2 - r.x1) / 2.5).toBeCloseTo(CANVAS.width * metresPerPixel(4), -1);
  });
});
