/**
 * What a search proved of where it looked (Observation.searched, utils/sweep/bounds-proof.ts
 * SearchProof) decides a cell through the real driver, queue and store: a page whose box could
 * not be read never proves its cell (issue 21 item 3), a page that searched everywhere proves a
 * short list and stops on a full one, and the box Naver echoes is trusted only less its edge.
 * The page is scripted (what each load leaves in the tab); everything that judges it is real.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Observation, SearchedBox } from '../../utils/domain/sweep';
import type { BBox } from '../../utils/geo/types';
import { naverProvider, NAVER_PLANNING_VIEWPORT } from '../../utils/providers/naver/provider';
import { kakaoProvider } from '../../utils/providers/kakao/provider';
import { parseListUrl } from '../../utils/providers/naver/urls';
import { openStore } from '../../utils/store';
import { NOT_RESTRICTED_MESSAGE, searchUnknownMessage } from '../../utils/sweep/bounds-proof';
import { runWorker } from '../../utils/sweep/driver';
import { retryQuarantined } from '../../utils/queue';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { bboxContainsBBox } from '../../utils/geo/bbox';
import { resultsObservation } from '../helpers/observations';
import { seededRandom } from '../helpers/random';
import { createSimListDriver } from '../helpers/sim-list-pages';
import { makeListing } from '../helpers/store-records';

/** About 300 m square in central Seoul: one cell per keyword. */
const AREA = '37.5650,126.9765,37.5677,126.9799';

let run = 0;

/**
 * A sweep of `keywords` whose every list page shows `places` organic places at the box's centre,
 * on one page that ends, and says it searched `searched(url, visit)`.
 */
async function sweepWith(o: {
  keywords: string;
  places: number;
  searched(url: string, visit: number, cell: BBox): SearchedBox | undefined;
  capHit?: boolean;
  firstPage?: number;
  /** Given: page 1 offers a next page, and page 2 shows this. */
  secondPage?: Partial<Observation>;
}) {
  const random = seededRandom(3);
  const store = await openStore({ name: `search-proof-${++run}` });
  let clock = 1_000_000;
  const sleep = async (ms: number) => {
    clock += Math.max(0, ms);
    await Promise.resolve();
  };
  const settings = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0, maxAttempts: 3 };
  const plan = planSweep(
    { areaText: AREA, keywordsText: o.keywords, settings, viewport: NAVER_PLANNING_VIEWPORT, origin: null, provider: naverProvider },
    'sp',
    clock,
  );
  if (!plan.ok) throw new Error(plan.error.message);
  const sweep = await store.createSweep(plan.sweep, plan.cells);
  /** The planned cell a search is centred on (what the page was asked for, whatever the padding). */
  const cellAt = (lat: number, lng: number): BBox =>
    plan.cells.map((c) => c.bbox).find((b) => Math.abs((b.south + b.north) / 2 - lat) < 1e-9 && Math.abs((b.west + b.east) / 2 - lng) < 1e-9)!;
  let visits = 0;
  const page = createSimListDriver<{ url: string; page: number; visit: number }>({
    load: (url) => ({ url, page: o.firstPage ?? 1, visit: ++visits }),
    observe(tab): Observation {
      if (!tab) throw new Error('nothing loaded');
      const asked = parseListUrl(tab.url)!.bounds!;
      const lat = (asked.south + asked.north) / 2;
      const lng = (asked.west + asked.east) / 2;
      const listings = Array.from({ length: o.places }, (_, i) =>
        makeListing(`p${tab.visit}-${i}`, { key: `naver:${i}`, provider: 'naver', providerId: String(i), cid: null, lat: lat + i * 1e-6, lng }),
      );
      const shown = resultsObservation({
        url: tab.url,
        listings,
        endOfList: !o.capHit && !o.secondPage,
        capHit: o.capHit ?? false,
        pager: { page: tab.page, more: !!o.secondPage && tab.page === 1 },
        searched: o.searched(tab.url, tab.visit, cellAt(lat, lng)),
      });
      return o.secondPage && tab.page === 2 ? { ...shown, ...o.secondPage } : shown;
    },
    viewport: () => NAVER_PLANNING_VIEWPORT,
  });
  const pacer = createPacer({ now: () => clock, sleep, random, timing: () => settings });
  const exit = await runWorker({ store, page, pacer, now: () => clock, sleep, random, attention: () => {} }, sweep.id, 1);
  return {
    store,
    exit,
    sweep: (await store.getSweep(sweep.id))!,
    cells: (await store.listCells(sweep.id)).filter((c) => c.role !== 'audit'),
    loads: page.loads,
    events: await store.listEvents(sweep.id),
  };
}

const echoed = (url: string): SearchedBox => ({ kind: 'measured', box: parseListUrl(url)!.bounds!, source: 'test: the box asked for' });

describe('a page that did not show what it searched proves nothing', () => {
  it('a short complete list without a readable box: retried once, then unresolved; on the next cell the sweep stops with the reason', async () => {
    const r = await sweepWith({
      keywords: 'cafe\nbakery',
      places: 3,
      searched: () => ({ kind: 'unknown', why: "the list page's URL carries no readable bounds" }),
    });
    expect(r.cells.filter((c) => c.status === 'done')).toEqual([]);
    const unresolved = r.cells.filter((c) => c.status === 'saturated' && c.result?.reason === 'search-unknown');
    expect(unresolved).toHaveLength(1);
    // Its places are kept (they are real), and the cell is reported, not proven.
    expect(unresolved[0]!.result?.organic).toBe(3);
    expect(r.exit).toBe('failed');
    expect(r.sweep.status).toBe('failed');
    expect(r.sweep.problem?.message).toBe(searchUnknownMessage("the list page's URL carries no readable bounds"));
    // First cell: first look + retry; second cell: first look + retry, then the stop.
    expect(r.loads).toBe(4);
  });

  it('an unresolved cell far back is not "again": a cell proven between sets the run back, and the sweep finishes', async () => {
    // One cell a keyword, each unknown on its first look; of the looks again, the one right after
    // the first cell settled unresolved shows its box (whichever cell the queue gives then).
    const looks = new Map<string, number>();
    let provenNext = false;
    const r = await sweepWith({
      keywords: 'cafe\nbakery\ntea',
      places: 3,
      searched: (url) => {
        const q = parseListUrl(url)!.query!;
        looks.set(q, (looks.get(q) ?? 0) + 1);
        if (provenNext) {
          provenNext = false;
          return echoed(url);
        }
        if (looks.get(q) === 2 && ![...looks.values()].some((n) => n > 2)) provenNext = [...looks.values()].filter((n) => n === 2).length === 1;
        return { kind: 'unknown', why: 'mid-load' };
      },
    });
    const settled = r.cells.map((c) => `${c.status} ${c.result?.reason}`).sort();
    expect(settled).toEqual(['done end-of-list', 'saturated search-unknown', 'saturated search-unknown']);
    expect(r.exit).toBe('finished');
    expect(r.sweep.counters.unknownSearchStreak).toBe(1);
  });

  it('Retry after the stop searches the unresolved cells again, from a run of 0', async () => {
    const r = await sweepWith({ keywords: 'cafe\nbakery', places: 3, searched: () => ({ kind: 'unknown', why: 'mid-load' }) });
    expect(r.sweep.status).toBe('failed');
    expect(await retryQuarantined(r.store, r.sweep.id, 2_000_000)).toBe(1);
    const cells = (await r.store.listCells(r.sweep.id)).filter((c) => c.role !== 'audit');
    // The unresolved cell is searched afresh (its last error gone: its first unknown look is a retry again).
    expect(cells.map((c) => [c.status, c.lastError?.kind ?? null])).toEqual([
      ['pending', null],
      ['pending', 'extractor'],
    ]);
    const sweep = (await r.store.getSweep(r.sweep.id))!;
    expect(sweep.counters).toMatchObject({ cellsSaturated: 0, cellsQuarantined: 0, unknownSearchStreak: 0 });
  });

  it('a page that reports no box at all is the same as one whose box could not be read', async () => {
    const r = await sweepWith({ keywords: 'cafe', places: 3, searched: () => undefined });
    expect(r.cells.filter((c) => c.status === 'done')).toEqual([]);
    expect(r.cells.some((c) => c.result?.reason === 'search-unknown')).toBe(true);
  });

  it('once is forgiven: the retry that shows its box proves the cell', async () => {
    const r = await sweepWith({ keywords: 'cafe', places: 3, searched: (url, visit) => (visit === 1 ? { kind: 'unknown', why: 'mid-load' } : echoed(url)) });
    expect(r.exit).toBe('finished');
    const searched = r.cells.filter((c) => c.status !== 'outside');
    expect(searched.map((c) => [c.status, c.result?.reason])).toEqual([['done', 'end-of-list']]);
    expect(searched[0]!.attempts).toBe(1);
  });
});

describe('a later page of the list', () => {
  it("cards on page 2 and none read is the extractor's: the sweep stops at once, as on page 1, not after every cell failed three times", async () => {
    const r = await sweepWith({
      keywords: 'cafe',
      places: 3,
      searched: echoed,
      secondPage: { pageKind: 'unknown', cardsVisible: 12, listings: [], endOfList: false, stopReason: 'stalled' },
    });
    expect(r.sweep.status).toBe('failed');
    expect(r.loads).toBe(1);
    expect(r.cells.map((c) => c.lastError?.message)).toEqual(['Page 2 of the list shows 12 result cards but is not recognised as a results page.']);
  });

  it('a page 2 not shown yet is searched again', async () => {
    const r = await sweepWith({
      keywords: 'cafe',
      places: 3,
      searched: echoed,
      secondPage: { pageKind: 'unknown', cardsVisible: 0, listings: [], endOfList: false, stopReason: 'stalled' },
    });
    expect(r.loads).toBe(3);
    expect(r.cells.map((c) => c.status)).toEqual(['quarantined']);
  });
});

describe("a page that listed matches everywhere (the site's own evidence)", () => {
  const unrestricted: SearchedBox = { kind: 'unrestricted', evidence: 'test: the page has no way to restrict its search' };

  it('a short complete list holds every match there is: the cell is done', async () => {
    const r = await sweepWith({ keywords: 'cafe', places: 3, searched: () => unrestricted });
    expect(r.exit).toBe('finished');
    expect(r.cells.filter((c) => c.status === 'done').map((c) => c.result?.searchedBox)).toEqual([null]);
  });

  it('a full list proves nothing and no smaller search can: the sweep stops and says why', async () => {
    const r = await sweepWith({ keywords: 'cafe', places: 300, capHit: true, searched: () => unrestricted });
    expect(r.sweep.status).toBe('failed');
    expect(r.sweep.problem?.message).toBe(NOT_RESTRICTED_MESSAGE);
    expect(r.cells.filter((c) => c.status === 'done' || c.status === 'split')).toEqual([]);
  });
});

describe("Naver's echoed box is trusted less its untrusted edge", () => {
  it('the box asked for is wide enough that its trusted part holds the cell', async () => {
    const r = await sweepWith({ keywords: 'cafe', places: 3, searched: echoed });
    expect(r.exit).toBe('finished');
    const [cell] = r.cells.filter((c) => c.status === 'done');
    expect(cell?.result?.searchedBox).toBeTruthy();
    const trusted = cell!.result!.searchedBox as BBox;
    expect(bboxContainsBBox(trusted, cell!.bbox)).toBe(true);
  });

  it('a site that echoes only a little more than the cell has not proven the cell whole', async () => {
    // The page says it searched the cell plus 2% a side: less the untrusted tenth, that misses the cell's rim.
    const r = await sweepWith({
      keywords: 'cafe',
      places: 3,
      searched: (_url, _visit, cell) => {
        const dLat = (cell.north - cell.south) * 0.02;
        const dLng = (cell.east - cell.west) * 0.02;
        return {
          kind: 'measured',
          box: { south: cell.south - dLat, north: cell.north + dLat, west: cell.west - dLng, east: cell.east + dLng },
          source: 'test: the cell and 2%',
        };
      },
    });
    const first = r.cells.find((c) => c.depth === 0 && c.status !== 'outside')!;
    expect(first.status).toBe('split');
    expect(first.result?.reason).toBe('view-not-covering');
  });
});

describe('a list starts on its first page', () => {
  it('a list that opened on page 2 and ends there proves nothing: retried, then reported', async () => {
    const r = await sweepWith({ keywords: 'cafe', places: 3, firstPage: 2, searched: echoed });
    expect(r.cells.filter((c) => c.status === 'done')).toEqual([]);
    expect(r.cells.filter((c) => c.status === 'quarantined')).toHaveLength(1);
    expect(r.cells[0]!.lastError?.message).toMatch(/opened on page 2/);
  });
});

describe("a list's own count never makes a sweep collect less", () => {
  it('a cell that cannot be split reads every page, though the count says the list is crowded', async () => {
    const random = seededRandom(5);
    const store = await openStore({ name: `search-proof-${++run}` });
    let clock = 1_000_000;
    const sleep = async (ms: number) => {
      clock += Math.max(0, ms);
      await Promise.resolve();
    };
    const viewport = { width: 1280, height: 800, panelWidth: 408 };
    const plan0 = planSweep(
      { areaText: AREA, keywordsText: 'cafe', settings: { ...DEFAULT_SETTINGS }, viewport, origin: null, provider: kakaoProvider },
      'kc',
      clock,
    );
    if (!plan0.ok) throw new Error(plan0.error.message);
    // No room under the cell cap: a crowded cell is kept saturated, never split.
    const settings = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0, maxCells: plan0.cells.length };
    const plan = planSweep({ areaText: AREA, keywordsText: 'cafe', settings, viewport, origin: null, provider: kakaoProvider }, 'kc', clock);
    if (!plan.ok) throw new Error(plan.error.message);
    const sweep = await store.createSweep(plan.sweep, plan.cells);
    const around: BBox = { south: 37.5, west: 126.9, north: 37.65, east: 127.05 };
    const page = createSimListDriver<{ url: string; page: number }>({
      load: (url) => ({ url, page: 1 }),
      observe(tab): Observation {
        if (!tab) throw new Error('nothing loaded');
        const listings = Array.from({ length: 15 }, (_, i) =>
          makeListing(`k${tab.page}-${i}`, {
            key: `kakao:${tab.page * 100 + i}`,
            provider: 'kakao',
            providerId: String(tab.page * 100 + i),
            cid: null,
            lat: 37.5663,
            lng: 126.9782,
          }),
        );
        return resultsObservation({
          url: tab.url,
          listings,
          endOfList: false,
          capHit: tab.page === 3,
          pager: { page: tab.page, more: tab.page < 3 },
          searched: { kind: 'measured', box: around, source: 'test' },
          // The page's own count: far more than a list holds.
          siteTotal: 5000,
        });
      },
      viewport: () => viewport,
    });
    const pacer = createPacer({ now: () => clock, sleep, random, timing: () => settings });
    await runWorker({ store, page, pacer, now: () => clock, sleep, random, attention: () => {} }, sweep.id, 1);
    const cells = (await store.listCells(sweep.id)).filter((c) => c.role !== 'audit' && c.status !== 'outside');
    // At its smallest or out of room under the cell cap: kept saturated, reported.
    expect(cells.map((c) => c.status)).toEqual(['saturated']);
    expect(page.pageTurns).toBe(2);
    expect(cells[0]!.result?.organic).toBe(45);
  });
});
