// @vitest-environment happy-dom
/**
 * The holes a mutation check of the proof and safety code found (issue 21): one-line bugs the
 * other unit tests let through, each of which ends cells "done" on ground no search listed.
 * Every test here fails with its mutant in place (scripts/mutants.ts, `npm run mutants`, keeps
 * the table); the Google limited-view edges are in google-limited-cards.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { assessCoverage } from '../../utils/coverage/assess';
import { learnFromSearch, pixelOffset, type SearchEvidence } from '../../utils/coverage/calibration';
import {
  DENSE_RESULTS,
  DENSE_SEARCHES_NEEDED,
  initialCalibration,
  safeSpan,
  type GeometryCalibration,
  type MeasuredCanvas,
} from '../../utils/coverage/geometry';
import type { Observation, SearchedBox } from '../../utils/domain/sweep';
import type { BBox, LatLng, MapView } from '../../utils/geo/types';
import type { Listing } from '../../utils/domain/listing';
import { extractKakaoList } from '../../utils/providers/kakao/list-dom';
import { observeKakaoPage } from '../../utils/providers/kakao/observe';
import { KAKAO_PAGE_SIZE, KAKAO_WEB_CAP_PAGES } from '../../utils/providers/kakao/urls';
import { insetBox, reportedProof, requestedBounds } from '../../utils/sweep/bounds-proof';
import { judgeObservation } from '../../utils/sweep/judge';
import { googleProvider } from '../../utils/providers/google/provider';
import { combinePages } from '../../utils/sweep/pages';
import { narrowest, type BoxSpans } from '../../utils/sweep/reported-box';
import { resultsObservation } from '../helpers/observations';
import { makeListing } from '../helpers/store-records';

const VIEW: MapView = { lat: 37.55, lng: 126.95, zoom: 15 };
const CANVAS: MeasuredCanvas = { width: 1280, height: 800, panelRight: null };
/** Degrees of longitude per screen pixel at VIEW's zoom (256 px tiles). */
const LNG_PER_PX = 360 / (256 * 2 ** VIEW.zoom);

function place(i: number, at: LatLng, over: Partial<Listing> = {}): Listing {
  return makeListing(String(1000 + i), {
    name: `P${i}`,
    category: null,
    address: null,
    rating: null,
    reviews: null,
    lat: at.lat,
    lng: at.lng,
    url: '',
    ...over,
  });
}

/** A place `dx` screen px right of VIEW's centre (negative: left). */
const atPx = (dx: number): LatLng => ({ lat: VIEW.lat, lng: VIEW.lng + dx * LNG_PER_PX });

describe('judge.ts: an ad is no evidence of what was searched', () => {
  // Ads are placed by the advertiser, not by the search box: an ad far left of every result
  // must not teach the calibration that the search reached there.
  const organic = Array.from({ length: 12 }, (_, i) => place(i, atPx(-100 + i * 20)));
  const ad = place(99, atPx(-600), { sponsored: true });
  const cell: BBox = { south: 37.549, west: 126.949, north: 37.551, east: 126.951 };
  const judged = (listings: Listing[]) => {
    const obs = resultsObservation({ finalView: VIEW, listings, cardsVisible: listings.length, organicShown: organic.length });
    const j = judgeObservation(obs, { bbox: cell, keyword: 'cafe' }, VIEW, 0, googleProvider);
    if (j.verdict !== 'accepted') throw new Error(`not accepted: ${j.error.message}`);
    const coverage = assessCoverage({
      observation: obs,
      organic: j.organic,
      cellBox: cell,
      requested: VIEW,
      planned: CANVAS,
      calibration: initialCalibration(CANVAS, 0),
      now: 0,
    });
    return { j, coverage };
  };

  it('the judged organic list and its count leave the ad out', () => {
    expect(pixelOffset(VIEW, atPx(-600)).x).toBeCloseTo(-600, 0);
    const { j } = judged([...organic, ad]);
    expect(j.organic.map((l) => l.key)).toEqual(organic.map((l) => l.key));
    expect(j.result.organic).toBe(organic.length);
  });

  it("the ad's position does not widen the calibrated box: the page is learnt as if the ad were not there", () => {
    const withAd = judged([...organic, ad]).coverage;
    const without = judged(organic).coverage;
    expect(withAd.calibration.panelBoundRight).toBe(without.calibration.panelBoundRight);
    expect(withAd.searchedBox).toEqual(without.searchedBox);
  });
});

describe('geometry.ts: the vertical span never reaches rows no search listed', () => {
  /** A calibration whose complete, well-filled searches listed places from `top` to `bottom` (px from the centre). */
  const dense = (top: number, bottom: number, searches = DENSE_SEARCHES_NEEDED): GeometryCalibration => ({
    ...initialCalibration(CANVAS, 0),
    denseExtent: { left: -200, right: 500, top, bottom },
    denseSearches: searches,
    searches,
  });

  it('results reaching 100 px up and 300 px down: the span is kept within the nearer side, both ways', () => {
    const s = safeSpan(dense(-100, 300));
    // Vertical offsets cannot be expressed as a view, so the span is symmetric: it may reach no
    // further down than the results reached up, or rows above them would count as searched.
    expect(s.bottom).toBeCloseTo(-s.top, 9);
    expect(-s.top).toBeLessThanOrEqual(100);
    expect(s.bottom).toBeLessThanOrEqual(100);
    // The same the other way round.
    const t = safeSpan(dense(-300, 100));
    expect(-t.top).toBeLessThanOrEqual(100);
    expect(t.bottom).toBeLessThanOrEqual(100);
  });

  it("the audit's vertical limits: the span stays inside the nearer one, both ways", () => {
    const cal = initialCalibration(CANVAS, 0);
    const s = safeSpan(cal, { top: -150, bottom: 250 });
    expect(s.top).toBeGreaterThanOrEqual(-150);
    expect(s.bottom).toBeLessThanOrEqual(150);
    const t = safeSpan(cal, { top: -250, bottom: 150 });
    expect(t.top).toBeGreaterThanOrEqual(-150);
    expect(t.bottom).toBeLessThanOrEqual(150);
  });

  it('fewer complete searches than DENSE_SEARCHES_NEEDED do not shrink the span', () => {
    const few = dense(-100, 100, DENSE_SEARCHES_NEEDED - 1);
    expect(safeSpan(few)).toEqual(safeSpan({ ...few, denseExtent: null }));
  });
});

describe('calibration.ts: only complete lists are negative evidence', () => {
  // DENSE_RESULTS places clustered within 150 px of the centre, as a capped list of a crowded
  // cell lists them: the cap cut the list, not the search box, so the places stop short of its edges.
  const cluster: LatLng[] = Array.from({ length: DENSE_RESULTS + 10 }, (_, i) => ({
    lat: VIEW.lat + ((i % 5) - 2) * 0.0004,
    lng: atPx(-150 + (i * 300) / (DENSE_RESULTS + 9)).lng,
  }));
  const learnt = (complete: boolean) => {
    let cal: GeometryCalibration | null = null;
    for (let k = 0; k < DENSE_SEARCHES_NEEDED + 2; k++) {
      const ev: SearchEvidence = { view: VIEW, canvas: CANVAS, places: cluster, complete };
      cal = learnFromSearch(cal, ev, k);
    }
    return cal!;
  };

  it('capped lists, however many, leave the safe box as the rules give it', () => {
    const capped = learnt(false);
    expect(capped.denseSearches).toBe(0);
    expect(capped.denseExtent).toBeNull();
    expect(safeSpan(capped)).toEqual(safeSpan(initialCalibration(CANVAS, 0)));
  });

  it('the same lists, complete, do shrink it (so the evidence above is the kind that would)', () => {
    const complete = safeSpan(learnt(true));
    const rules = safeSpan(initialCalibration(CANVAS, 0));
    expect(complete.right - complete.left).toBeLessThan(rules.right - rules.left);
  });
});

describe('Kakao observe: the last page the web list allows, full, with nothing to say it is the end', () => {
  /** Kakao's list markup (naver-kakao-notes B2–B3): `page` active among pager links `first`…, next control off. */
  function kakaoListPage(page: number, places: number, firstLink: number): string {
    const cards = Array.from(
      { length: places },
      (_, i) =>
        `<li class="PlaceItem"><div class="head_item"><strong class="tit_name"><a class="link_name" title="곳 ${page}-${i}">곳 ${page}-${i}</a></strong></div>` +
        `<a class="moreview" data-id="moreview" href="https://place.map.kakao.com/${page * 100 + i + 1000}">상세보기</a></li>`,
    ).join('');
    const links = Array.from({ length: 5 }, (_, k) => {
      const n = firstLink + k;
      return `<a id="info.search.page.no${k + 1}" class="${n === page ? 'ACTIVE' : ''}">${n}</a>`;
    }).join('');
    return `<ul id="info.search.place.list">${cards}</ul><div id="info.search.page">${links}<button id="info.search.page.next" class="next disabled">다음</button></div>`;
  }
  const readBefore = (page: number) => new Set(Array.from({ length: page - 1 }, (_, i) => i + 1));

  it(`page ${KAKAO_WEB_CAP_PAGES} with ${KAKAO_PAGE_SIZE} places, no next control and no count read: capped, never complete`, () => {
    document.body.innerHTML = kakaoListPage(KAKAO_WEB_CAP_PAGES, KAKAO_PAGE_SIZE, KAKAO_WEB_CAP_PAGES - 4);
    const list = extractKakaoList(document);
    expect([list.pager.current, list.places.length, list.pager.nextEnabled]).toEqual([KAKAO_WEB_CAP_PAGES, KAKAO_PAGE_SIZE, false]);
    const summary = observeKakaoPage({ list, responses: [], pagesRead: readBefore(KAKAO_WEB_CAP_PAGES) });
    expect(summary.nextAction).toBeNull();
    expect(summary.totalCount).toBeNull();
    expect(summary.status).toBe('capped');
  });

  it('the same with a cap of 3 pages given', () => {
    document.body.innerHTML = kakaoListPage(3, KAKAO_PAGE_SIZE, 1);
    expect(observeKakaoPage({ list: extractKakaoList(document), responses: [], capPages: 3, pagesRead: readBefore(3) }).status).toBe('capped');
  });
});

describe('pages.ts: one visit of several pages proves no more than its weakest page', () => {
  const page = (n: number, over: Partial<Observation>): Observation =>
    resultsObservation({ listings: [place(n, atPx(n))], pager: { page: n, more: false }, ...over });
  const box = (west: number): SearchedBox => ({ kind: 'measured', box: { south: 37.5, north: 37.6, west, east: west + 0.1 }, source: 'list URL bounds' });

  it('a cap shown on any page is the list capped', () => {
    expect(combinePages([page(1, { capHit: false }), page(2, { capHit: true })]).capHit).toBe(true);
    expect(combinePages([page(1, { capHit: true }), page(2, { capHit: false })]).capHit).toBe(true);
  });

  it('results, then "nothing found" on a later page: the list changed, the visit is not a results page', () => {
    expect(combinePages([page(1, {}), page(2, { pageKind: 'no-results', listings: [], cardsVisible: 0 })]).pageKind).toBe('unknown');
  });

  it('pages that searched different boxes prove none of them', () => {
    expect(combinePages([page(1, { searched: box(126.9) }), page(2, { searched: box(126.95) })]).searched?.kind).toBe('unknown');
    expect(combinePages([page(1, { searched: box(126.9) }), page(2, { searched: box(126.9) })]).searched).toEqual(box(126.9));
  });
});

describe('bounds-proof.ts and reported-box.ts: a reported box proves only what is surely inside it', () => {
  const cell: BBox = { south: 37.5, north: 37.52, west: 127.0, east: 127.02 };
  const measured = (b: BBox): SearchedBox => ({ kind: 'measured', box: b, source: 'test' });

  it("a box that is just the cell does not prove it once the box's untrusted edge is left out", () => {
    const proof = reportedProof(measured(cell), cell, [], 0.1);
    expect(proof).toMatchObject({ kind: 'measured', covered: false });
    // The trusted part lies inside what the page reported.
    const inner = insetBox(cell, 0.1);
    expect(inner.south).toBeGreaterThan(cell.south);
    expect(inner.east).toBeLessThan(cell.east);
    // The box a cell's search asks for is wide enough to prove it with that edge left out.
    expect(reportedProof(measured(requestedBounds(cell, 0.1)), cell, [], 0.1)).toMatchObject({ covered: true });
  });

  it('a box beside the cell does not prove it', () => {
    const beside = { ...cell, west: cell.west + 0.01, east: cell.east + 0.01 };
    expect(reportedProof(measured(requestedBounds(beside, 0)), cell, [], 0)).toMatchObject({ covered: false });
  });

  it('the next cell is planned to what every search covered, on each side', () => {
    const a: BoxSpans = { left: 300, right: 200, top: 250, bottom: 150 };
    const b: BoxSpans = { left: 250, right: 260, top: 200, bottom: 180 };
    const n = narrowest(a, b);
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      expect(n[side]).toBeLessThanOrEqual(a[side]);
      expect(n[side]).toBeLessThanOrEqual(b[side]);
      expect([a[side], b[side]]).toContain(n[side]);
    }
  });
});
