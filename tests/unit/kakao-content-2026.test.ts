// @vitest-environment happy-dom
/**
 * Kakao as it is in 2026 (issue 21), on the real collector (utils/providers/kakao/collect.ts) and
 * the replica's own search page in happy-dom (kakao-content-harness.ts):
 * - the list's data from whichever request the page makes: the same-origin
 *   `map.kakao.com/api/v1/mapsearch/map` behind its gate token (the replica's default), or the
 *   older map.daum, by JSONP, XHR or fetch (naver-kakao-notes B4b);
 * - "현 지도 내 장소검색" found by what it says, in any markup;
 * - a restricted search whose request carries no readable box proves nothing;
 * - page data never decides: forged copies of the answers (another script posting the hook's
 *   message) neither move places nor end a list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CollectOptions } from '../../utils/messaging/protocol';
import type { Observation } from '../../utils/domain/sweep';
import { bboxContainsBBox } from '../../utils/geo/bbox';
import { haversineMetres } from '../../utils/geo/distance';
import { extractKakaoList, findBoundsControl, type KakaoListExtraction } from '../../utils/providers/kakao/list-dom';
import { observeKakaoPage } from '../../utils/providers/kakao/observe';
import type { ProviderPlace } from '../../utils/domain/place';
import { mapDaumRequestUrl } from '../../utils/providers/kakao/network-hook';
import { parseMapDaumUrl, viewForBox } from '../../utils/providers/kakao/urls';
import { innerBBoxOfRect } from '../../utils/providers/kakao/view';
import { reportedProof } from '../../utils/sweep/bounds-proof';
import { KAKAO_UNTRUSTED_EDGE } from '../../utils/providers/kakao/provider';
import { kakaoGroundTruth } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches, mergeKakaoSwitches } from '../replica/kakao/switches';
import { CANVAS, kakaoFirstPage, kakaoPageOpener, kw, walkKakaoPages, type KakaoPageHarness } from '../helpers/kakao-content-harness';
import { measuredBox } from '../helpers/searched';

const OPTIONS: CollectOptions = { cap: 510, stallMs: 8000, maxMs: 90_000, settleMs: 15_000, scrollPauseMs: 0 };
const CELL = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
const CELL_VIEW = viewForBox(CELL, CANVAS)!;

const opener = kakaoPageOpener(CELL_VIEW);
const page = opener.page;
afterEach(() => opener.close());

const organicKeys = (o: Observation) =>
  o.listings
    .filter((l) => !l.sponsored)
    .map((l) => l.key)
    .sort();
const truthKeys = (rect: NonNullable<ReturnType<typeof parseMapDaumUrl>>['rect']) =>
  kakaoGroundTruth(kw, 'cafe', rect!)
    .map((k) => `kakao:${k.confirmId}`)
    .sort();
const newest = (h: KakaoPageHarness) => parseMapDaumUrl(h.sent.at(-1)!)!;

/** Every place either without coordinates or where it is: no page data moved it. */
function expectNoneMoved(o: Observation): void {
  const moved = o.listings.filter((l) => l.lat !== null && haversineMetres({ lat: l.lat, lng: l.lng! }, kw.byConfirmId.get(l.providerId!)!) > 1);
  expect(moved.map((l) => l.name)).toEqual([]);
}

describe('the 2026 endpoint, the replica default: the same-origin mapsearch behind a gate token', () => {
  it.each([['xhr'], ['fetch']] as const)(
    "by %s: read from the page's own requests, the box their rect, the ground truth of it, every place located",
    async (transport) => {
      const h = page('cafe', { transport });
      const { combined } = await walkKakaoPages(h, OPTIONS);
      expect(h.sent.every((u) => parseMapDaumUrl(u)!.endpoint === 'mapsearch')).toBe(true);
      // Each search the page prepared with a token of its own (and the collector sent none).
      expect(h.gates).toBe(h.sent.length);
      const rect = newest(h).rect!;
      expect(combined.searched).toMatchObject({ kind: 'measured', source: expect.stringContaining('mapsearch') });
      expect(measuredBox(combined)).toEqual(innerBBoxOfRect(rect));
      expect(bboxContainsBBox(measuredBox(combined)!, CELL)).toBe(true);
      expect(combined.endOfList).toBe(true);
      expect(organicKeys(combined)).toEqual(truthKeys(rect));
      expect(combined.listings.every((l) => l.lat !== null)).toBe(true);
      expectNoneMoved(combined);
    },
  );

  it('an unrestricted busy query pages to the 500 the endpoint lets one reach (a short page 34): capped, never complete', async () => {
    const h = page('restaurant', { boundsControl: false });
    const { pages, combined } = await walkKakaoPages(h, OPTIONS);
    expect(pages.at(-1)!.pager).toEqual({ page: 34, more: false });
    expect(combined.listings.filter((l) => !l.sponsored)).toHaveLength(500);
    expect(combined.capHit).toBe(true);
    expect(combined.endOfList).toBe(false);
  }, 60_000);

  it('the hook copies either endpoint and nothing else (the gate-token request is not a search)', () => {
    expect(mapDaumRequestUrl('/api/v1/mapsearch/map?q=cafe&page=1', 'https://map.kakao.com/')).toBe('https://map.kakao.com/api/v1/mapsearch/map?q=cafe&page=1');
    expect(mapDaumRequestUrl('https://search.map.kakao.com/mapsearch/map.daum?q=cafe', 'https://map.kakao.com/')).not.toBeNull();
    for (const other of [
      '/api/v1/settings/web/gate-token',
      'https://evil.example/api/v1/mapsearch/map?q=a',
      'http://map.kakao.com/api/v1/mapsearch/map?q=a',
      '/api/v1/mapsearch/mapx?q=a',
    ]) {
      expect(mapDaumRequestUrl(other, 'https://map.kakao.com/'), other).toBeNull();
      expect(parseMapDaumUrl(new URL(other, 'https://map.kakao.com/').href), other).toBeNull();
    }
  });

  it('the replica refuses a 2026 search the page did not prepare, and JSONP there', () => {
    expect(() => mergeKakaoSwitches(DEFAULT_KAKAO_SWITCHES, { transport: 'jsonp' })).toThrow(/jsonp needs endpoint map\.daum/);
  });
});

describe('the older map.daum, by every transport', () => {
  it.each([['jsonp'], ['xhr'], ['fetch']] as const)(
    'map.daum by %s: the same places as the 2026 endpoint',
    async (transport) => {
      const want = organicKeys((await walkKakaoPages(page('cafe'), OPTIONS)).combined);
      const h = page('cafe', { endpoint: 'map.daum', transport });
      const { combined } = await walkKakaoPages(h, OPTIONS);
      expect(h.sent.every((u) => parseMapDaumUrl(u)!.endpoint === 'map.daum')).toBe(true);
      expect(h.gates).toBe(0);
      expect(combined.endOfList).toBe(true);
      expect(measuredBox(combined)).toEqual(innerBBoxOfRect(newest(h).rect!));
      expect(organicKeys(combined)).toEqual(want);
    },
    30_000,
  );
});

describe('"현 지도 내 장소검색" found by what it says', () => {
  const markups = ['checkbox', 'toggle-button', 'role-checkbox', 'action-button'] as const;
  it.each(markups.map((m) => [m]))('%s: pressed once, the search restricted to the map, the box measured, the ground truth', async (boundsMarkup) => {
    const h = page('cafe', { boundsMarkup });
    expect(parseMapDaumUrl(h.sent[0] ?? 'x') ?? { rect: null }).toMatchObject({ rect: null });
    const first = await kakaoFirstPage(h.env, OPTIONS);
    expect(first.warnings.filter((w) => /kakao-(no-bounds|bounds-not|not-restricted)/.test(w))).toEqual([]);
    const { combined } = await walkKakaoPages(h, OPTIONS, first);
    const rect = newest(h).rect!;
    expect(rect).not.toBeNull();
    expect(measuredBox(combined)).toEqual(innerBBoxOfRect(rect));
    expect(combined.endOfList).toBe(true);
    expect(organicKeys(combined)).toEqual(truthKeys(rect));
  });

  it('ticked already (each markup): nothing pressed, the box measured', async () => {
    for (const boundsMarkup of markups) {
      const h = page('cafe', { boundsMarkup, boundsSearchDefault: true });
      const first = await kakaoFirstPage(h.env, OPTIONS);
      // The load's own search, "더보기", page 1: no press of the control.
      expect(
        h.sent.filter((u) => parseMapDaumUrl(u)!.rect === null),
        boundsMarkup,
      ).toEqual([]);
      expect(first.searched?.kind, boundsMarkup).toBe('measured');
    }
  });

  it('reads the state each markup shows; the words outside a control (a heading, a script, a hidden control) are no control', () => {
    const read = (html: string) => {
      document.body.innerHTML = html;
      return findBoundsControl(document).control;
    };
    expect(read('<label><input type="checkbox" checked> 현 지도 내 장소검색</label>')).toEqual({ kind: 'toggle', on: true });
    expect(read('<div><input type="checkbox"><span>현 지도 내 장소검색</span></div>')).toEqual({ kind: 'toggle', on: false });
    expect(read('<input type="checkbox" id="a1"><label for="a1">현 지도 내<br>장소검색</label>')).toEqual({ kind: 'toggle', on: false });
    expect(read('<span role="switch" aria-checked="true">현 지도 내 장소검색</span>')).toEqual({ kind: 'toggle', on: true });
    expect(read('<button aria-pressed="true">현 지도 내 장소검색</button>')).toEqual({ kind: 'toggle', on: true });
    expect(read('<span id="l">현 지도 내 장소검색</span><a href="#" role="checkbox" aria-labelledby="l" aria-checked="false"></a>')).toEqual({
      kind: 'toggle',
      on: false,
    });
    expect(read('<button title="현 지도 내 장소검색"></button>')).toEqual({ kind: 'action' });
    expect(read('<h3>현 지도 내 장소검색</h3><p title="현 지도 내 장소검색">tip</p><script>var t="현 지도 내 장소검색";</script>')).toEqual({ kind: 'absent' });
    expect(read('<div class="HIDDEN"><input type="checkbox" aria-label="현 지도 내 장소검색"></div><button hidden>현 지도 내 장소검색</button>')).toEqual({
      kind: 'absent',
    });
    expect(read('<button disabled>현 지도 내 장소검색</button><label><input type="checkbox"> 지도 검색</label>')).toEqual({ kind: 'absent' });
    expect(extractKakaoList(document).bounds).toEqual({ kind: 'absent' });
  });
});

describe('a restricted search whose request carries no rect proves nothing', () => {
  it.each([['ours'], ['toggle-button'], ['action-button']] as const)(
    'the box in a parameter not read (%s): searched unknown, never "unrestricted"',
    async (boundsMarkup) => {
      const h = page('cafe', { rectParam: 'renamed', boundsMarkup });
      const first = await kakaoFirstPage(h.env, OPTIONS);
      // The page did restrict its search (the box went out under another name).
      expect(newest(h)).toMatchObject({ restricted: true, rect: null });
      expect(new URL(h.sent.at(-1)!).searchParams.get('bbox')).not.toBeNull();
      expect(first.pageKind).toBe('results');
      expect(first.searched?.kind).toBe('unknown');
      expect(measuredBox(first)).toBeNull();
    },
  );

  it('no box at all (msFlag=S and nothing else): searched unknown, never "unrestricted"', async () => {
    const h = page('cafe', { rectParam: 'absent' });
    const first = await kakaoFirstPage(h.env, OPTIONS);
    expect(newest(h)).toMatchObject({ restricted: true, rect: null, everywhere: false });
    expect(first.searched?.kind).toBe('unknown');
    expect(measuredBox(first)).toBeNull();
  });

  it('no control and an unrestricted request: "unrestricted", with the page\'s evidence', async () => {
    const first = await kakaoFirstPage(page('cafe', { boundsControl: false }).env, OPTIONS);
    expect(first.searched).toMatchObject({ kind: 'unrestricted', evidence: expect.stringContaining('현 지도 내 장소검색') });
  });
});

describe("a restricted search whose rect is written in degrees (lng,lat,lng,lat, the public API's order) [?]", () => {
  it('is the box the page searched: read as written, holding the cell, the list the ground truth', async () => {
    const h = page('cafe', { rectParam: 'wgs84' });
    const first = await kakaoFirstPage(h.env, OPTIONS);
    const sent = new URL(h.sent.at(-1)!).searchParams.get('rect')!;
    const [w, so, e, n] = sent.split(',').map(Number) as [number, number, number, number];
    // Degrees, as the page wrote them, not a grid rect around them.
    expect(w).toBeGreaterThan(126);
    expect(so).toBeGreaterThan(37);
    const box = measuredBox(first)!;
    expect(box).toEqual({ west: w, south: so, east: e, north: n });
    expect(bboxContainsBBox(box, CELL)).toBe(true);
    expect(first.pageKind).toBe('results');
  });
});

describe("page data never decides (another script posts the hook's message)", () => {
  /** Both endpoints: the forging is the same, and the older one shows it is the reading that changed. */
  const ENDPOINTS = [['2026'], ['map.daum']] as const;
  const on = (e: '2026' | 'map.daum'): Partial<KakaoSwitches> => (e === '2026' ? {} : { endpoint: 'map.daum', transport: 'jsonp' });
  const FORGERIES = ENDPOINTS.flatMap(([e]) => (['coords', 'ids-shifted'] as const).map((f) => [f, e] as const));

  it.each(FORGERIES)('forged %s (%s): no place moved, the box not taken as ignored, the list still the ground truth', async (forged, endpoint) => {
    const h = page('cafe', { forged, ...on(endpoint) });
    const { combined } = await walkKakaoPages(h, OPTIONS);
    const rect = newest(h).rect!;
    expect(combined.endOfList).toBe(true);
    expect(organicKeys(combined)).toEqual(truthKeys(rect));
    expectNoneMoved(combined);
    const proof = reportedProof(
      combined.searched!,
      CELL,
      combined.listings.filter((l) => !l.sponsored),
      KAKAO_UNTRUSTED_EDGE,
    );
    expect(proof).toMatchObject({ kind: 'measured', boxIgnored: false });
    // The forger's copies outnumber the requests the browser lists: none of those requests' copies fills a card.
    expect(combined.warnings.some((w) => w.includes('kakao-copies-untrusted'))).toBe(true);
    expect(combined.warnings.filter((w) => w.includes('kakao-rect-not-honoured'))).toEqual([]);
  });

  it.each(ENDPOINTS)('a forged copy of a request the page never sent fills nothing (%s)', async (endpoint) => {
    const h = page('cafe', on(endpoint));
    const first = await kakaoFirstPage(h.env, OPTIONS);
    const k = first.listings.find((l) => !l.sponsored)!;
    const url = h.sent.at(-1)!.replace('&page=1', '&page=1&x=1');
    const body = JSON.stringify({ place_totalcount: '1', page: '1', place: [{ confirmid: k.providerId, name: k.name, lat: '37.0', lon: '127.5' }] });
    h.network.clear();
    window.postMessage(
      { source: 'mapsweep:kakao-mapdaum', phase: 'end', url, outcome: 'body', status: 200, finalUrl: url, contentType: 'application/json', body },
      '*',
    );
    h.advance(10);
    expect(h.network.exchanges()).toHaveLength(1);
    const again = await (await import('../../utils/providers/kakao/collect')).collectKakaoPage(h.env, OPTIONS);
    expect(again.listings.find((l) => l.key === k.key)!.lat).toBeNull();
  });

  it.each(ENDPOINTS)('a count cut to the page does not end a list the cap cut on a full page (capPages 2, %s)', async (endpoint) => {
    const h = page('cafe', { forged: 'count-low', capPages: 2, ...on(endpoint) });
    const { pages, combined } = await walkKakaoPages(h, OPTIONS);
    expect(pages.at(-1)!.pager).toEqual({ page: 2, more: false });
    expect(truthKeys(newest(h).rect).length).toBeGreaterThan(30);
    expect(combined.endOfList).toBe(false);
    expect(combined.capHit).toBe(true);
    // The forged copy spoils the places of its request, not the real count beside it: the largest is taken.
    expect(combined.siteTotal).toBeGreaterThan(30);
  });

  it('an inflated count in a forged copy may only add work: every page is read, and the list taken as capped', async () => {
    const h = page('cafe', { forged: 'count-high' });
    const { combined } = await walkKakaoPages(h, OPTIONS);
    expect(organicKeys(combined)).toEqual(truthKeys(newest(h).rect));
    expect(combined.endOfList).toBe(false);
    expect(combined.capHit).toBe(true);
  });
});

describe('the cap page proves nothing about the end', () => {
  /** The list as the page shows page `page` of a pager whose last link it is, next disabled. */
  const listAt = (page: number, cards: number): KakaoListExtraction => ({
    cardsShown: cards,
    adCards: 0,
    places: Array.from({ length: cards }, (_, i) => ({ ...kw.places[i]!, key: `kakao:${kw.places[i]!.confirmId}` }) as unknown as ProviderPlace),
    unreadable: 0,
    noPlace: false,
    hasList: true,
    pager: {
      current: page,
      moreVisible: false,
      pages: [{ slot: ((page - 1) % 5) + 1, page, active: true }],
      pagerVisible: true,
      prevEnabled: true,
      nextEnabled: false,
    },
    bounds: { kind: 'absent' },
  });
  it.each([
    [15, null],
    [5, null],
    [5, 503],
  ] as const)('page 34 with %i places, no next control, count %s: capped', (cards, count) => {
    const url = 'https://map.kakao.com/api/v1/mapsearch/map?q=cafe&msFlag=A&sort=0&page=34';
    const responses =
      count === null
        ? []
        : [
            {
              url,
              result: {
                kind: 'ok' as const,
                framing: 'json' as const,
                totalCount: count,
                pageCount: 500,
                page: 34,
                places: [],
                organic: 0,
                ads: 0,
                skipped: [],
                fromWcong: 0,
              },
            },
          ];
    expect(observeKakaoPage({ list: listAt(34, cards), responses }).status).toBe('capped');
  });
});
