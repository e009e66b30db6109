// @vitest-environment happy-dom
/**
 * A Kakao sweep visit (utils/providers/kakao/collect.ts) on the replica's search page, its own
 * script fetching map.daum through the MAIN-world hook (kakao-content-harness.ts), under the
 * replica's switches: the searched box is the rect the page's own request carried, the pager is
 * walked to the end or the cap, and nothing unread or unproven passes as complete.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collectKakaoPage, type KakaoCollectEnv } from '../../utils/providers/kakao/collect';
import { pressNextPage } from '../../utils/providers/kakao/first-page';
import type { CollectOptions } from '../../utils/messaging/protocol';
import { readability } from '../../utils/domain/readability';
import type { Observation } from '../../utils/domain/sweep';
import { bboxContains, bboxContainsBBox } from '../../utils/geo/bbox';
import { haversineMetres } from '../../utils/geo/distance';
import { wcongRectToBBox } from '../../utils/geo/wcongnamul';
import { type KakaoView, parseMapDaumUrl, viewAt, viewForBox } from '../../utils/providers/kakao/urls';
import { innerBBoxOfRect } from '../../utils/providers/kakao/view';
import { kakaoGroundTruth } from '../replica/kakao/search';
import type { KakaoSwitches } from '../replica/kakao/switches';
import { CANVAS, kakaoFirstPage, kw, openKakaoPage, SEOUL, walkKakaoPages, type KakaoPageHarness } from '../helpers/kakao-content-harness';
import { measuredBox } from '../helpers/searched';

const OPTIONS: CollectOptions = { cap: 510, stallMs: 8000, maxMs: 90_000, settleMs: 15_000, scrollPauseMs: 0 };
const CELL = { south: 37.5615, west: 126.972, north: 37.5715, east: 126.984 };
const CELL_VIEW = viewForBox(CELL, CANVAS)!;

let open: KakaoPageHarness | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

function page(query: string, view: KakaoView, sw: Partial<KakaoSwitches> = {}): KakaoPageHarness {
  open?.close();
  open = openKakaoPage(query, view, sw);
  return open;
}

const firstPage = (env: KakaoCollectEnv) => kakaoFirstPage(env, OPTIONS);
const walk = (h: KakaoPageHarness, maxPages = 40) => walkKakaoPages(h, OPTIONS, undefined, maxPages);
const walkFrom = (h: KakaoPageHarness, first: Observation) => walkKakaoPages(h, OPTIONS, first);

function keys(o: Observation): string[] {
  return o.listings
    .filter((l) => !l.sponsored)
    .map((l) => l.key)
    .sort();
}

/** The rect of the newest request the page sent: what the fake server was asked to search. */
function newestRect(h: KakaoPageHarness) {
  return parseMapDaumUrl(h.sent.at(-1)!)!.rect;
}

describe('a cell on the search page (defaults: the 2026 endpoint by XHR, control unticked, more → page 2, ads)', () => {
  it('ticks "현 지도 내 장소검색", leaves the preview, reads page 1 in full, walks to the end: the ground truth of the rect searched', async () => {
    const h = page('cafe', CELL_VIEW);
    const first = await firstPage(h.env);
    expect(first.pageKind).toBe('results');
    expect(first.pager).toEqual({ page: 1, more: true });
    expect((h.env.doc.querySelector('#info\\.search\\.place\\.bounds') as HTMLInputElement).checked).toBe(true);
    // The page's first request was unrestricted; the one after the tick carries the rect.
    expect(parseMapDaumUrl(h.sent[0]!)!.rect).toBeNull();
    expect(h.sent.some((u) => parseMapDaumUrl(u)!.rect !== null)).toBe(true);
    expect(first.listings.filter((l) => !l.sponsored)).toHaveLength(15);

    const { combined, pages } = await walkFrom(h, first);
    const rect = newestRect(h)!;
    expect(measuredBox(combined)).toEqual(innerBBoxOfRect(rect));
    expect(bboxContainsBBox(measuredBox(combined)!, CELL)).toBe(true);
    expect(combined.endOfList).toBe(true);
    expect(combined.capHit).toBe(false);
    expect(pages.map((p) => p.pager!.page)).toEqual(pages.map((_, i) => i + 1));
    const truth = kakaoGroundTruth(kw, 'cafe', rect)
      .map((k) => `kakao:${k.confirmId}`)
      .sort();
    expect(truth.length).toBeGreaterThan(30);
    expect(keys(combined)).toEqual(truth);
    expect(readability(combined)).toEqual({ kind: 'read' });
    // Each page read once: the cards of the visit are the places, ads aside.
    expect(combined.organicShown).toBe(truth.length);
    // Places reach every side of an exact rect: no "shrunk" flag, no "not honoured" flag.
    expect(combined.warnings.filter((w) => w.includes('kakao-rect'))).toEqual([]);
  });

  it('fills every field: WGS84 from map.daum, both addresses, phone, homepage, category path', async () => {
    const { combined } = await walk(page('cafe', CELL_VIEW));
    for (const l of combined.listings.filter((x) => !x.sponsored)) {
      const k = kw.byConfirmId.get(l.providerId!)!;
      expect(haversineMetres({ lat: l.lat!, lng: l.lng! }, k)).toBeLessThan(0.01);
      expect(l).toMatchObject({
        name: k.name,
        roadAddress: k.roadAddress,
        lotAddress: k.jibunAddress,
        phone: k.phone,
        url: `https://place.map.kakao.com/${k.confirmId}`,
      });
      expect(l.categories).toEqual([...k.categoryPath].reverse());
      expect(l.website).toBe(k.homepage ? new URL(k.homepage).href : null);
    }
  });

  it('lists the ad flagged sponsored, never as an organic card', async () => {
    const first = await firstPage(page('cafe', CELL_VIEW).env);
    expect(first.cardsVisible).toBe(16);
    expect(first.organicShown).toBe(15);
    // The ad repeats a place of page 1 (the replica's 4th): listed organically, the ad adds nothing.
    expect(first.listings.filter((l) => l.sponsored)).toEqual([]);
    expect(readability(first)).toEqual({ kind: 'read' });
  });
});

describe('under every switch, the same places and the box the page really asked for', () => {
  const baseline = async () => keys((await walk(page('cafe', CELL_VIEW))).combined);

  const cases: Partial<KakaoSwitches>[] = [
    { boundsSearchDefault: true },
    { previewCount: 5 },
    { previewCount: 3, moreLandsOn: 1 },
    { moreLandsOn: 1 },
    { endpoint: 'map.daum', transport: 'jsonp' },
    { transport: 'fetch', previewCount: 7, moreLandsOn: 1 },
    { coords: 'xy' },
    { coords: 'latlon' },
    { fieldDrift: true },
    { ads: false },
    { panelWidth: 0 },
  ];
  it.each(cases.map((c) => [JSON.stringify(c), c] as const))('%s', async (_name, sw) => {
    const want = await baseline();
    const h = page('cafe', CELL_VIEW, sw);
    const { combined } = await walk(h);
    expect(combined.pageKind).toBe('results');
    expect(combined.endOfList).toBe(true);
    expect(measuredBox(combined)).toEqual(innerBBoxOfRect(newestRect(h)!));
    if ((sw.panelWidth ?? 390) === 390) expect(keys(combined)).toEqual(want);
    else
      expect(keys(combined)).toEqual(
        kakaoGroundTruth(kw, 'cafe', newestRect(h)!)
          .map((k) => `kakao:${k.confirmId}`)
          .sort(),
      );
    for (const l of combined.listings)
      expect(l.lat === null ? 0 : haversineMetres({ lat: l.lat, lng: l.lng! }, kw.byConfirmId.get(l.providerId!)!)).toBeLessThan(0.5);
  });

  it('no "현 지도 내 장소검색" control: the search is not restricted, and the page says so', async () => {
    const h = page('cafe', CELL_VIEW, { boundsControl: false });
    const first = await firstPage(h.env);
    expect(first.pageKind).toBe('results');
    expect(first.searched?.kind).toBe('unrestricted');
    expect(first.warnings.some((w) => w.startsWith('kakao-no-bounds-control'))).toBe(true);
    expect(first.warnings.some((w) => w.startsWith('kakao-not-restricted'))).toBe(true);
  });

  it("rect ignored [?]: the box is the request's, and the places far outside it show it was not honoured", async () => {
    const h = page('cafe', CELL_VIEW, { rectMode: 'ignored' });
    const { combined } = await walk(h);
    expect(measuredBox(combined)).toEqual(innerBBoxOfRect(newestRect(h)!));
    const box = measuredBox(combined)!;
    const outside = combined.listings.filter((l) => !l.sponsored && !bboxContains(box, { lat: l.lat!, lng: l.lng! }));
    expect(outside.length).toBeGreaterThan(combined.listings.length / 2);
    expect(combined.warnings.some((w) => w.includes('kakao-rect-not-honoured'))).toBe(true);
    // The whole world's cafés: capped, never complete.
    expect(combined.capHit).toBe(true);
    expect(combined.endOfList).toBe(false);
  }, 30_000);

  it("rect shrunk [?]: the box is the request's; a long complete list with every side empty is flagged", async () => {
    const h = page('cafe', CELL_VIEW, { rectMode: 'inset' });
    const { combined } = await walk(h);
    const rect = newestRect(h)!;
    expect(measuredBox(combined)).toEqual(innerBBoxOfRect(rect));
    const truth = kakaoGroundTruth(kw, 'cafe', rect);
    expect(combined.listings.length).toBeLessThan(truth.length);
    expect(combined.listings.length).toBeGreaterThanOrEqual(30);
    expect(combined.endOfList).toBe(true);
    expect(combined.warnings.some((w) => w.includes('kakao-rect-border-empty'))).toBe(true);
  }, 30_000);

  it('the URL view ignored [?]: the box measured is the map the page opened on, not the cell', async () => {
    // The harness opens the page at the view given; "ignored" is the server opening its default.
    const h = page('cafe', viewAt(SEOUL, 5)!);
    const first = await firstPage(h.env);
    expect(bboxContainsBBox(measuredBox(first)!, { south: 37.6, west: 127.05, north: 37.61, east: 127.06 })).toBe(false);
    expect(first.finalView!.lat).toBeCloseTo(SEOUL.lat, 5);
  });
});

describe('the cap and the end', () => {
  it('an unrestricted busy query walks 34 pages (more → 5 pages → 다음) and is capped, never complete (map.daum: 34 full pages)', async () => {
    const h = page('restaurant', viewAt(SEOUL, 5)!, { boundsControl: false, endpoint: 'map.daum', transport: 'jsonp' });
    const { pages, combined } = await walk(h);
    expect(pages.at(-1)!.pager).toEqual({ page: 34, more: false });
    expect(pages).toHaveLength(34);
    expect(combined.capHit).toBe(true);
    expect(combined.endOfList).toBe(false);
    expect(combined.listings.filter((l) => !l.sponsored)).toHaveLength(510);
    expect(combined.searched?.kind).toBe('unrestricted');
  }, 60_000);

  it('a cap of 3 pages (45) is capped at page 3 though no 다음 is offered', async () => {
    const { pages, combined } = await walk(page('restaurant', viewAt(SEOUL, 5)!, { capPages: 3, boundsControl: false }));
    expect(pages).toHaveLength(3);
    expect(combined.capHit).toBe(true);
    expect(combined.endOfList).toBe(false);
  });

  it('pressNextPage answers clicked: false on the last page', async () => {
    const h = page('cafe', CELL_VIEW);
    await walk(h);
    expect(pressNextPage(h.env.doc)).toEqual({ clicked: false });
  });

  it('"no results" is believed because the page says so', async () => {
    const first = await firstPage(page('zzqqxx nothing', CELL_VIEW).env);
    expect(first.pageKind).toBe('no-results');
    expect(measuredBox(first)).not.toBeNull();
    expect(first.pager).toEqual({ page: 1, more: false });
  });

  it('expectPage waits for the page asked: a collect right after the click still reads page 2, not page 1', async () => {
    const h = page('cafe', CELL_VIEW);
    await firstPage(h.env);
    pressNextPage(h.env.doc);
    const second = await collectKakaoPage(h.env, { ...OPTIONS, expectPage: 2 });
    expect(second.pager!.page).toBe(2);
    expect(second.pageKind).toBe('results');
    expect(parseMapDaumUrl(h.sent.at(-1)!)!.page).toBe(2);
  });
});

describe('what is not proven is not passed', () => {
  it('cards the extractor cannot read: organicShown > listings, never an empty success', async () => {
    const first = await firstPage(page('cafe', CELL_VIEW, { brokenItems: true }).env);
    expect(first.organicShown).toBeGreaterThan(0);
    expect(first.listings.filter((l) => !l.sponsored)).toHaveLength(0);
    expect(readability(first).kind).not.toBe('read');
  });

  it.each([
    ['map.daum', 'jsonp', 'redirect-500'],
    ['map.daum', 'jsonp', 'html'],
    ['map.daum', 'xhr', 'html'],
    ['mapsearch-2026', 'xhr', 'html'],
    ['mapsearch-2026', 'fetch', 'html'],
  ] as const)('a block (%s, %s, %s) is a captcha-kind page', async (endpoint, transport, blockMode) => {
    const first = await firstPage(page('cafe', CELL_VIEW, { endpoint, transport, blockMode, blockAfter: 0 }).env);
    expect(first.pageKind).toBe('captcha');
  });

  it.each([[{ endpoint: 'map.daum', transport: 'jsonp' }], [{ blockMode: 'html' }]] as const)(
    'a block on a later page stops the walk there as a block (%o)',
    async (sw) => {
      const h = page('cafe', CELL_VIEW, { blockAfter: 4, ...sw });
      const { pages, combined } = await walk(h);
      expect(pages.at(-1)!.pageKind).toBe('captcha');
      expect(combined.pageKind).toBe('captcha');
    },
  );

  it.each([['xhr'], ['fetch']] as const)('%s and a 302 block: the page sees a network error; the visit is not accepted (no page read)', async (transport) => {
    const first = await firstPage(page('cafe', CELL_VIEW, { transport, blockMode: 'redirect-500', blockAfter: 0 }).env);
    expect(first.pageKind).toBe('unknown');
    expect(first.endOfList).toBe(false);
  });

  it('the box is the one the page searched, even when that is not the one the test planned', async () => {
    const h = page('cafe', CELL_VIEW);
    const first = await firstPage(h.env);
    const asked = wcongRectToBBox(newestRect(h)!)!;
    expect(bboxContainsBBox(asked, measuredBox(first)!)).toBe(true);
  });
});
