/**
 * Recall on imperfect pages (issue 15, item 3): the REAL driver, planner, queue and store
 * (utils/sweep/driver.ts runWorker, fake-indexeddb) sweep each world while the simulated page
 * has all of the replica's imperfections at once:
 * - Google (tests/helpers/sim-page-driver.ts): cards unread the first time their place shows
 *   (unreadableRate), HTTP 500 loads (errorRate, retried with backoff), the end text shown at the
 *   cap too (endAtCap), the site zooming out on sparse views (sparseZoomOut), signed in, and the
 *   replica's true geometry (right-of-panel, panel 408: REFERENCE_SWITCHES);
 * - Naver (tests/helpers/naver-sim-page.ts) and Kakao (tests/helpers/kakao-sim-page.ts): the
 *   replica's own pages rendered in happy-dom and read by the extension's REAL collectors
 *   (naver/collect.ts, kakao/collect.ts), with unread cards and failed loads on top, under each
 *   replica switch of NAVER_CONFIGS / KAKAO_CONFIGS in turn (one row per switch).
 *
 * Recall = places of the ground truth the store holds for the sweep / ground truth. A missing
 * place is "reported" when it lies in a cell the sweep reported (saturated), or in a cell it
 * never completed (quarantined, or still open when the sweep stopped failed); otherwise it is a
 * SILENT miss: every cell over it is done, and nothing tells the user.
 *
 * When the sweep stops as failed ("the map page changed"), the user presses Resume, up to
 * MAX_RESUMES times (utils/sweep/status-machine.ts: failed → resume → running); each stop is
 * counted (`stops`) and the recall at the first stop is kept too.
 *
 * Grid: REPORTING seeds (REFERENCE_SEEDS) × area shifts (REFERENCE_SHIFTS) × keywords; Google
 * over REFERENCE_KEYWORDS and the three bench worlds, each swept over the square holding its
 * whole disc (scripts/bench/worlds.ts); Naver and Kakao over their in-process tests' worlds and
 * areas (a few km² of central Seoul), one world per seed.
 *
 * Beside the grid, an ablation: Google on one reporting seed with one imperfection at a time,
 * so a stop or a miss can be put down to the imperfection that causes it.
 *
 * Run alone: `npx tsx scripts/bench/recall.ts [--out=<dir>] [--quick] [--korean] [--seeds=41,42] [--configs=kakao]`
 * (merges its figures into <dir>/summary.json under `recall`; --quick: seed 41, no shift, no
 * ablation; --korean: Naver and Kakao only; --seeds: these reporting seeds; --configs: only the
 * Naver and Kakao rows whose name contains it); `npm run bench`
 * runs it unless `--no-recall`.
 */
import './extension-runtime';
import { areaContains, DEFAULT_VIEWPORT, formatCorners, parseAreaText } from '../../utils/geo';
import type { Area, BBox, Viewport } from '../../utils/geo/types';
import { bboxToWcongRect } from '../../utils/geo/wcongnamul';
import type { PageDriver } from '../../utils/browser/page-driver';
import { memoryCalibrationStore } from '../../utils/coverage/calibration';
import type { Cell, Observation } from '../../utils/domain/sweep';
import { isUnresolved } from '../../utils/grid';
import type { MapProvider } from '../../utils/providers/types';
import { kakaoProvider } from '../../utils/providers/kakao/provider';
import { naverProvider, NAVER_PLANNING_VIEWPORT } from '../../utils/providers/naver/provider';
import { openStore } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { transition } from '../../utils/sweep/status-machine';
import { createKakaoSimDriver } from '../../tests/helpers/kakao-sim-page';
import { createNaverSimDriver } from '../../tests/helpers/naver-sim-page';
import type { SimListDriver } from '../../tests/helpers/sim-list-pages';
import { kakaoKeywordWorld, naverKeywordWorld } from '../../tests/helpers/keyword-worlds';
import { seededRandom } from '../../tests/helpers/random';
import { createSimPageDriver } from '../../tests/helpers/sim-page-driver';
import { kakaoWorld } from '../../tests/replica/kakao/places';
import { kakaoGroundTruth } from '../../tests/replica/kakao/search';
import { naverGroundTruth } from '../../tests/replica/naver/search';
import type { NaverSwitches } from '../../tests/replica/naver/switches';
import type { KakaoSwitches } from '../../tests/replica/kakao/switches';
import { groundTruth, type SearchSwitches } from '../../tests/replica/search';
import { createWorld, type ReplicaPlace, type World } from '../../tests/replica/world';
import { REFERENCE_KEYWORDS, REFERENCE_SEEDS, REFERENCE_SHIFTS, REFERENCE_SWITCHES, refuseTuningSeeds, shiftedArea, TUNING_SEEDS } from './reference';
import { median, pct, round, tableRows } from './stats';
import { BENCH_WORLDS, loadBenchWorld, type BenchWorldSpec } from './worlds';
import { installFakeIndexedDb, logLine, numbersOf, optionOf, runSection } from './standalone';

/** The figure the issue asks for: median recall over the grid. */
export const RECALL_TARGET = 0.995;
/** How many times the simulated user presses Resume on a sweep that stopped as failed. */
export const MAX_RESUMES = 5;

/** Google's imperfections, all on together. */
export interface GoogleImperfections {
  unreadableRate: number;
  errorRate: number;
  endAtCap: boolean;
  switches: SearchSwitches;
  /** Persistent unreadable cards (a card shape the extractor does not know); default none. */
  unreadableAlways?: (url: string, place: ReplicaPlace, rank: number) => boolean;
  /** Places the page never shows at all (not even as a card): misses no page can reveal; default none. */
  hide?: (key: string) => boolean;
}

export const GOOGLE_IMPERFECTIONS: GoogleImperfections = {
  unreadableRate: 0.02,
  errorRate: 0.05,
  endAtCap: true,
  // Signed in, zooming out on sparse views, the true geometry right of a 408 px panel.
  switches: { ...REFERENCE_SWITCHES, signedIn: true, sparseZoomOut: true },
};

/** Naver's and Kakao's: as their in-process tests (tests/unit/naver-sweep-inprocess.test.ts, kakao-sweep-inprocess.test.ts). */
export const NAVER_KAKAO_UNREADABLE_RATE = 0.02;
export const NAVER_KAKAO_FAIL_RATE = 0.05;
/** One row per replica switch (issue 21: recall, searches and stops per switch), each with the imperfections above on too. */
export const NAVER_CONFIGS: readonly { name: string; switches: Partial<NaverSwitches> }[] = [
  { name: 'naver default', switches: {} },
  { name: 'naver cap 280', switches: { resultCap: 280 } },
  { name: 'naver cap 330/40', switches: { resultCap: 330, pageSize: 40 } },
  { name: 'naver box spills', switches: { boundsMode: 'spill' } },
  { name: 'naver button pager', switches: { pagerMarkup: 'buttons' } },
  { name: 'naver inset 5%', switches: { searchInset: 0.05 } },
  { name: 'naver state rendered', switches: { apolloHolds: 'rendered' } },
  { name: 'naver batch 3 fails', switches: { lazyFail: 3 } },
];
export const KAKAO_CONFIGS: readonly { name: string; switches: Partial<KakaoSwitches> }[] = [
  { name: 'kakao default', switches: {} },
  { name: 'kakao rect inset 5%', switches: { rectMode: 'inset' } },
  { name: 'kakao map.daum', switches: { endpoint: 'map.daum', transport: 'jsonp' } },
  { name: 'kakao button control', switches: { boundsMarkup: 'toggle-button' } },
  { name: 'kakao forged coords', switches: { forged: 'coords' } },
  // Restricted by a control no reader can name, the box in a parameter no source gives, the everywhere flag kept: never proof.
  { name: 'kakao box unreadable', switches: { boundsMarkup: 'unlabelled', boundsSearchDefault: true, rectParam: 'renamed-unflagged' } },
];
export const KOREAN_KEYWORDS: readonly string[] = ['카페', '약국'];
const SEOUL = { lat: 37.5665, lng: 126.978 };

export interface RecallRun {
  provider: 'google' | 'naver' | 'kakao';
  world: string;
  seed: number;
  shift: readonly [number, number];
  keyword: string;
  /** Ground truth size. */
  places: number;
  found: number;
  recall: number;
  /** Recall when the sweep first stopped (finished, or failed before any Resume). */
  recall_at_first_stop: number;
  /** Requests of pages: page loads + page turns (Google: loads only). */
  searches: number;
  page_loads: number;
  page_turns: number;
  failed_loads: number;
  /** Cards shown but not read (the imperfection happening), counted on every page. */
  unread_cards: number;
  /** Times the sweep stopped as failed and the user pressed Resume (up to MAX_RESUMES). */
  stops: number;
  /** Why it stopped the first time, when it failed. */
  stop_message: string | null;
  status: string;
  cells_done: number;
  cells_split: number;
  cells_saturated: number;
  /** Of the saturated cells, the ones not proven for another reason than crowding (isUnresolved). */
  cells_unresolved: number;
  cells_quarantined: number;
  /** Missing places inside a saturated cell: reported to the user. */
  missing_in_saturated: number;
  /** Missing places inside a quarantined cell (failed maxAttempts times; the dashboard offers "retry failed"): reported. */
  missing_in_quarantined: number;
  /** Missing places inside a cell still open when the sweep stopped failed after the last Resume: reported. */
  missing_in_open: number;
  /** Missing places whose every cell is done (or that no cell of the sweep covers): nothing tells the user. */
  missing_silent: number;
  /** Up to 5 silent misses, for the diagnosis: the place, its cells, and whether any page showed it. */
  silent_examples: SilentMiss[];
  /** The cells the sweep stopped on (up to 3): each failed attempt's URL and what went wrong with it. */
  stop_cells: CellHistory[];
  /** The quarantined cells (up to 3), the same way. */
  quarantined_examples: CellHistory[];
  seconds: number;
}

export interface SilentMiss {
  key: string;
  lat: number;
  lng: number;
  /** The done cells over it, with their decision. */
  cells: { id: string; reason: string | null; organic: number | null; capHit: boolean | null; endOfList: boolean | null }[];
  /** Listed (read) by some page of the sweep. */
  listed: boolean;
}

export interface CellHistory {
  cell: string;
  /** The failed attempts, oldest first: the URL searched and the error the sweep recorded. */
  failed_attempts: { url: string; what: string }[];
  /** How many different URLs those attempts loaded (the view follows the calibration, so a retry may search another view). */
  distinct_urls: number;
}

/** What a case and an ablation row both count over their sweeps (totalsOf). */
export interface RunTotals {
  runs: number;
  recall_median: number;
  recall_worst: number;
  searches_median: number;
  failed_loads: number;
  unread_cards: number;
  /** Failed stops the user resumed. */
  stops: number;
  cells_quarantined: number;
  missing_reported: number;
  missing_silent: number;
}

export interface RecallCase extends RunTotals {
  provider: string;
  world: string;
  keyword: string;
  runs_not_finished: number;
  cells_saturated: number;
  cells_unresolved: number;
}

/** Google with one imperfection at a time (or all but a lower unread rate): which one costs what. */
export interface AblationRow extends RunTotals {
  imperfections: string;
  /** The sweeps that had any failed stop. */
  runs_with_stops: number;
}

/** The ablation's keywords: the densest and a sparse one (a third of the grid's time). */
export const ABLATION_KEYWORDS: readonly string[] = ['cafe', 'pharmacy'];

export const ABLATIONS: readonly { name: string; imperfections: GoogleImperfections }[] = [
  { name: 'none (perfect pages)', imperfections: { ...GOOGLE_IMPERFECTIONS, unreadableRate: 0, errorRate: 0, endAtCap: false } },
  { name: 'unread 2% only', imperfections: { ...GOOGLE_IMPERFECTIONS, errorRate: 0, endAtCap: false } },
  { name: 'HTTP 500 5% only', imperfections: { ...GOOGLE_IMPERFECTIONS, unreadableRate: 0, endAtCap: false } },
  { name: 'end text at cap only', imperfections: { ...GOOGLE_IMPERFECTIONS, unreadableRate: 0, errorRate: 0 } },
  { name: 'all, unread 0.3%', imperfections: { ...GOOGLE_IMPERFECTIONS, unreadableRate: 0.003 } },
  { name: 'all, no sparse zoom-out', imperfections: { ...GOOGLE_IMPERFECTIONS, switches: { ...GOOGLE_IMPERFECTIONS.switches, sparseZoomOut: false } } },
];

export interface RecallFigures {
  seeds: readonly number[];
  tuning_seeds_not_used: readonly number[];
  shifts: readonly (readonly [number, number])[];
  google_keywords: readonly string[];
  korean_keywords: readonly string[];
  imperfections: {
    google: { unreadable_rate: number; error_rate: number; end_at_cap: boolean; switches: SearchSwitches };
    naver: { unreadable_rate: number; fail_rate: number; configs: typeof NAVER_CONFIGS };
    kakao: { unreadable_rate: number; fail_rate: number; configs: typeof KAKAO_CONFIGS };
  };
  max_resumes: number;
  target: number;
  areas: Record<string, string>;
  note: string;
  /** Per provider/world/keyword, per provider/world ('all'), per provider ('all'), then everything. */
  cases: RecallCase[];
  /** Google's figure: median recall over its grid, and whether it meets RECALL_TARGET. */
  google_recall_median: number;
  google_target_met: boolean;
  silent_misses_total: number;
  /** Google, one reporting seed and no shift, one imperfection at a time (null when skipped). */
  ablation: { seed: number; keywords: readonly string[]; rows: AblationRow[] } | null;
  runs: RecallRun[];
  seconds: number;
  seconds_by_provider: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------
// One sweep with the real driver, queue and store.

/** A page driver that counts what the imperfections did, and what it listed. */
interface Watched {
  page: PageDriver;
  failedLoads: () => number;
  unreadCards: () => number;
  listed: Set<string>;
}

function watch(inner: PageDriver, o: { hide?: (key: string) => boolean } = {}): Watched {
  let failed = 0;
  let unread = 0;
  // Whether the page loaded last has been counted as failed (a list shown a page at a time is collected once per page).
  let counted = true;
  const listed = new Set<string>();
  const page: PageDriver = {
    ...inner,
    async load(tabId, url, timeoutMs) {
      counted = false;
      return inner.load(tabId, url, timeoutMs);
    },
    async collect(tabId, options, timeoutMs) {
      let obs = await inner.collect(tabId, options, timeoutMs);
      if (o.hide) obs = hidden(obs, o.hide);
      const isFailed = (obs.httpStatus ?? 200) >= 400 || obs.pageKind === 'unknown';
      const shown = obs.pageKind === 'results' ? (obs.organicShown ?? obs.cardsVisible) : 0;
      const unreadHere = obs.pageKind === 'results' ? Math.max(0, shown - obs.listings.filter((l) => !l.sponsored).length) : 0;
      if (isFailed && !counted) failed++;
      counted ||= isFailed;
      unread += unreadHere;
      for (const l of obs.listings) listed.add(l.key);
      return obs;
    },
  };
  return { page, failedLoads: () => failed, unreadCards: () => unread, listed };
}

/** The observation without the hidden places: neither their cards nor their listings (a miss no count can reveal). */
function hidden(obs: Observation, hide: (key: string) => boolean): Observation {
  const kept = obs.listings.filter((l) => !hide(l.key));
  const gone = obs.listings.length - kept.length;
  if (gone === 0) return obs;
  return {
    ...obs,
    listings: kept,
    cardsVisible: Math.max(0, obs.cardsVisible - gone),
    ...(obs.organicShown !== undefined ? { organicShown: Math.max(0, obs.organicShown - gone) } : {}),
  };
}

interface SweepSpec {
  provider: MapProvider | null;
  areaText: string;
  keyword: string;
  viewport: Viewport;
  page: Watched;
  random: () => number;
  /** Ground truth: key → coordinates. */
  truth: Map<string, { lat: number; lng: number }>;
  pageLoads: () => number;
  pageTurns?: () => number;
}

type RunCore = Omit<RecallRun, 'provider' | 'world' | 'seed' | 'shift' | 'keyword' | 'seconds'>;

let dbCounter = 0;
/** The events a failed attempt of a cell leaves (utils/store/schema.ts EventKind). */
const FAILURE_EVENTS: ReadonlySet<string> = new Set(['cell-retry', 'cell-quarantined', 'cell-released']);

async function sweepAndCount(s: SweepSpec): Promise<RunCore> {
  const name = `recall-${++dbCounter}-${Date.now()}`;
  const store = await openStore({ name });
  let clock = 1_000_000;
  const sleep = async (ms: number) => {
    clock += Math.max(0, ms);
    await Promise.resolve();
  };
  const settings = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0 };
  const plan = planSweep(
    { areaText: s.areaText, keywordsText: s.keyword, settings, viewport: s.viewport, origin: null, ...(s.provider ? { provider: s.provider } : {}) },
    'recall',
    clock,
  );
  if (!plan.ok) throw new Error(`recall: ${plan.error.message}`);
  const sweep = await store.createSweep(plan.sweep, plan.cells);
  const pacer = createPacer({ now: () => clock, sleep, random: s.random, timing: () => settings });
  // One calibration for the whole sweep, Resumes included (the extension keeps it in storage).
  const deps = { store, page: s.page.page, pacer, now: () => clock, sleep, random: s.random, attention: () => {}, calibration: memoryCalibrationStore() };
  const foundNow = async () => {
    const keys = new Set<string>();
    for await (const batch of store.iterateListings(1000, sweep.id)) for (const l of batch) keys.add(l.key);
    return keys;
  };
  // A cell's failed attempts, from the sweep's own log: each failure's event carries the URL and the error.
  const history = async (cellId: string): Promise<CellHistory> => {
    const events = (await store.listEvents(sweep.id, 1_000_000)).filter((e) => e.cellId === cellId && FAILURE_EVENTS.has(e.kind)).reverse();
    const failedAttempts = events.map((e) => ({ url: e.url ?? '', what: e.message }));
    return { cell: cellId, failed_attempts: failedAttempts, distinct_urls: new Set(failedAttempts.map((a) => a.url)).size };
  };
  let stops = 0;
  let stopMessage: string | null = null;
  let firstStopFound: Set<string> | null = null;
  const stopCells: CellHistory[] = [];
  for (;;) {
    const exit = await runWorker(deps, sweep.id, 1);
    if (exit !== 'failed') break;
    const problem = (await store.getSweep(sweep.id))?.problem ?? null;
    if (firstStopFound === null) {
      firstStopFound = await foundNow();
      stopMessage = problem?.message ?? null;
    }
    if (stopCells.length < 3 && problem?.url) {
      const at = (await store.listEvents(sweep.id, 1_000_000)).find((e) => e.url === problem.url && e.cellId && FAILURE_EVENTS.has(e.kind));
      if (at?.cellId) stopCells.push(await history(at.cellId));
    }
    if (stops >= MAX_RESUMES) break;
    stops++;
    const resumed = await transition(store, sweep.id, { event: 'resume' });
    if (!resumed.ok) break;
  }
  const found = await foundNow();
  const final = (await store.getSweep(sweep.id))!;
  const cells = await store.listCells(sweep.id);
  const quarantined: CellHistory[] = [];
  for (const c of cells.filter((x) => x.status === 'quarantined').slice(0, 3)) quarantined.push(await history(c.id));
  store.close();
  indexedDB.deleteDatabase(name);

  const count = (keys: Set<string>) => [...s.truth.keys()].filter((k) => keys.has(k)).length;
  const n = s.truth.size;
  const got = count(found);
  const leaves = cells.filter((c) => c.status !== 'split' && c.status !== 'outside' && c.role !== 'audit');
  const over = (p: { lat: number; lng: number }) => leaves.filter((c) => inBox(c.bbox, p));
  let inSaturated = 0;
  let inQuarantined = 0;
  let inOpen = 0;
  let silent = 0;
  const examples: SilentMiss[] = [];
  for (const [key, p] of s.truth) {
    if (found.has(key)) continue;
    const mine = over(p);
    if (mine.some((c) => c.status === 'saturated')) inSaturated++;
    else if (mine.some((c) => c.status === 'quarantined')) inQuarantined++;
    else if (mine.some((c) => c.status !== 'done')) inOpen++;
    else {
      silent++;
      if (examples.length < 5) examples.push({ key, lat: p.lat, lng: p.lng, cells: mine.map(cellNote), listed: s.page.listed.has(key) });
    }
  }
  return {
    places: n,
    found: got,
    recall: n === 0 ? 1 : round(got / n, 5),
    recall_at_first_stop: n === 0 ? 1 : round(count(firstStopFound ?? found) / n, 5),
    searches: s.pageLoads() + (s.pageTurns?.() ?? 0),
    page_loads: s.pageLoads(),
    page_turns: s.pageTurns?.() ?? 0,
    failed_loads: s.page.failedLoads(),
    unread_cards: s.page.unreadCards(),
    stops,
    stop_message: stopMessage,
    status: final.status,
    cells_done: cells.filter((c) => c.status === 'done').length,
    cells_split: cells.filter((c) => c.status === 'split').length,
    cells_saturated: cells.filter((c) => c.status === 'saturated').length,
    cells_unresolved: cells.filter((c) => c.status === 'saturated' && isUnresolved(c.result?.reason)).length,
    cells_quarantined: cells.filter((c) => c.status === 'quarantined').length,
    missing_in_saturated: inSaturated,
    missing_in_quarantined: inQuarantined,
    missing_in_open: inOpen,
    missing_silent: silent,
    silent_examples: examples,
    stop_cells: stopCells,
    quarantined_examples: quarantined,
  };
}

function cellNote(c: Cell): SilentMiss['cells'][number] {
  return {
    id: c.id,
    reason: c.result?.reason ?? null,
    organic: c.result?.organic ?? null,
    capHit: c.result?.capHit ?? null,
    endOfList: c.result?.endOfList ?? null,
  };
}

function inBox(b: BBox, p: { lat: number; lng: number }): boolean {
  return p.lat >= b.south && p.lat <= b.north && p.lng >= b.west && p.lng <= b.east;
}

// ---------------------------------------------------------------------------------------------
// Google.

export interface GoogleRecallInput {
  world: World;
  area: Area;
  keyword: string;
  seed: number;
  viewport?: Viewport;
  imperfections?: GoogleImperfections;
}

/** One Google sweep on the imperfect sim page: recall and what happened. */
export async function googleRecallRun(i: GoogleRecallInput): Promise<RunCore> {
  const imp = i.imperfections ?? GOOGLE_IMPERFECTIONS;
  const viewport = i.viewport ?? DEFAULT_VIEWPORT;
  const random = seededRandom(i.seed);
  const sim = createSimPageDriver(i.world, {
    viewport,
    switches: imp.switches,
    random,
    unreadableRate: imp.unreadableRate,
    errorRate: imp.errorRate,
    endAtCap: imp.endAtCap,
    ...(imp.unreadableAlways ? { unreadableAlways: imp.unreadableAlways } : {}),
  });
  const truth = new Map(groundTruth(i.world, i.keyword, i.area).map((p) => [`google:${p.cid}`, { lat: p.lat, lng: p.lng }]));
  return sweepAndCount({
    provider: null,
    areaText: formatCorners(i.area.bbox),
    keyword: i.keyword,
    viewport,
    page: watch(sim, imp.hide ? { hide: imp.hide } : {}),
    random,
    truth,
    pageLoads: () => sim.loads,
  });
}

// ---------------------------------------------------------------------------------------------
// Naver and Kakao: their tests' worlds (30,000 places within 5 km of Seoul City Hall) per seed.

const NAVER_AREA: BBox = { south: SEOUL.lat - 0.014, west: SEOUL.lng - 0.018, north: SEOUL.lat + 0.014, east: SEOUL.lng + 0.018 };
const KAKAO_AREA: BBox = { south: SEOUL.lat - 0.007, west: SEOUL.lng - 0.009, north: SEOUL.lat + 0.007, east: SEOUL.lng + 0.009 };

function koreanWorld(seed: number): World {
  return createWorld({ seed, places: 30_000, centre: SEOUL, radiusKm: 5 });
}

function areaOf(bbox: BBox, shift: readonly [number, number]): Area {
  const text = formatCorners(shiftedArea({ kind: 'bbox', bbox }, shift).bbox);
  const parsed = parseAreaText(text);
  if (!parsed.ok) throw new Error(`recall: area ${text}: ${parsed.error.message}`);
  return parsed.area;
}

export { kakaoKeywordWorld, naverKeywordWorld };

export async function naverRecallRun(fullWorld: World, area: Area, keyword: string, seed: number, switches: Partial<NaverSwitches>): Promise<RunCore> {
  const random = seededRandom(seed);
  const world = naverKeywordWorld(fullWorld, keyword);
  const sim = createNaverSimDriver(world, { random, switches, unreadableRate: NAVER_KAKAO_UNREADABLE_RATE, failRate: NAVER_KAKAO_FAIL_RATE });
  const truth = new Map(naverGroundTruth(world, keyword, area.bbox).map((p) => [`naver:${p.id}`, { lat: Number(p.y), lng: Number(p.x) }]));
  return simSweep(sim, { provider: naverProvider, area, keyword, viewport: NAVER_PLANNING_VIEWPORT, random, truth });
}

export async function kakaoRecallRun(world: World, area: Area, keyword: string, seed: number, switches: Partial<KakaoSwitches>): Promise<RunCore> {
  const random = seededRandom(seed);
  const kw = kakaoKeywordWorld(kakaoWorld(world), keyword);
  const sim = createKakaoSimDriver(kw, { random, switches, unreadableRate: NAVER_KAKAO_UNREADABLE_RATE, failRate: NAVER_KAKAO_FAIL_RATE });
  // As the Kakao test: the truth from a wider rect, cut to the box by each place's coordinates.
  const b = area.bbox;
  const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
  const truth = new Map(
    kakaoGroundTruth(kw, keyword, wider)
      .filter((k) => areaContains(area, k))
      .map((k) => [`kakao:${k.confirmId}`, { lat: k.lat, lng: k.lng }]),
  );
  return simSweep(sim, { provider: kakaoProvider, area, keyword, viewport: await sim.viewport(1), random, truth });
}

/** A sweep on a sim's rendered pages (the real collectors), counted against the truth; the sim closed after, whatever happens. */
async function simSweep(sim: SimListDriver, s: Pick<SweepSpec, 'provider' | 'keyword' | 'viewport' | 'random' | 'truth'> & { area: Area }): Promise<RunCore> {
  try {
    return await sweepAndCount({
      provider: s.provider,
      areaText: formatCorners(s.area.bbox),
      keyword: s.keyword,
      viewport: s.viewport,
      page: watch(sim),
      random: s.random,
      truth: s.truth,
      pageLoads: () => sim.loads,
      pageTurns: () => sim.pageTurns,
    });
  } finally {
    await sim.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The grid.

export interface RecallOptions {
  worlds?: readonly BenchWorldSpec[];
  seeds?: readonly number[];
  shifts?: readonly (readonly [number, number])[];
  keywords?: readonly string[];
  koreanKeywords?: readonly string[];
  /** Only the Naver and Kakao rows whose name contains this (`--configs=…`). */
  configsMatching?: string;
  /** Skip Naver and Kakao. */
  googleOnly?: boolean;
  /** Skip Google (and its ablation): Naver and Kakao only. */
  koreanOnly?: boolean;
  /** Run the one-imperfection-at-a-time table (default true). */
  ablation?: boolean;
  log?: (line: string) => void;
}

export async function measureRecall(o: RecallOptions = {}): Promise<RecallFigures> {
  const started = Date.now();
  const worlds = o.worlds ?? BENCH_WORLDS;
  const seeds = o.seeds ?? REFERENCE_SEEDS;
  const shifts = o.shifts ?? REFERENCE_SHIFTS;
  const keywords = o.keywords ?? REFERENCE_KEYWORDS;
  const korean = o.koreanKeywords ?? KOREAN_KEYWORDS;
  const log = o.log ?? (() => {});
  refuseTuningSeeds('recall', seeds);
  const runs: RecallRun[] = [];
  const areas: Record<string, string> = {};
  const secondsBy: Record<string, number> = {};
  const push = (meta: Pick<RecallRun, 'provider' | 'world' | 'seed' | 'shift' | 'keyword'>, core: RunCore, t0: number) => {
    const run: RecallRun = { ...meta, ...core, seconds: round((Date.now() - t0) / 1000, 2) };
    runs.push(run);
    if (run.missing_silent > 0 || run.stops > 0 || run.recall < RECALL_TARGET) {
      log(
        `  ${run.world} seed ${run.seed} shift ${run.shift.join(',')} "${run.keyword}": recall ${pct(run.recall)} (${run.found}/${run.places}), ` +
          `${run.stops} stops${run.stop_message ? ` (${run.stop_message})` : ''}, ${run.missing_silent} silent, ${run.missing_in_saturated + run.missing_in_quarantined + run.missing_in_open} reported, status ${run.status}`,
      );
    }
  };

  const tGoogle = Date.now();
  for (const spec of o.koreanOnly ? [] : worlds) {
    for (const seed of seeds) {
      const t1 = Date.now();
      const bw = loadBenchWorld(spec, seed);
      areas[`google ${spec.name}`] ??= `the square holding the whole ${bw.world.radiusKm} km disc (${bw.areaText} at seed ${seed}), shifted by each shift`;
      for (const [si, shift] of shifts.entries()) {
        const area = shiftedArea(bw.area, shift);
        for (const [ki, keyword] of keywords.entries()) {
          const t0 = Date.now();
          const core = await googleRecallRun({ world: bw.world, area, keyword, seed: seed * 1000 + si * 10 + ki });
          push({ provider: 'google', world: spec.name, seed, shift, keyword }, core, t0);
        }
      }
      log(`  recall: google ${spec.name} seed ${seed}: ${shifts.length * keywords.length} sweeps in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    }
  }
  if (!o.koreanOnly) secondsBy.google = round((Date.now() - tGoogle) / 1000, 1);

  /** Every seed × config × shift × Korean keyword of one provider, each sweep pushed; the seconds it took. */
  const koreanGrid = async <C extends { name: string }>(
    provider: 'naver' | 'kakao',
    bbox: BBox,
    configs: readonly C[],
    run: (world: World, area: Area, keyword: string, seed: number, config: C) => Promise<RunCore>,
  ): Promise<number> => {
    const tStart = Date.now();
    for (const seed of seeds) {
      const t1 = Date.now();
      const world = koreanWorld(seed);
      for (const [ci, config] of configs.entries()) {
        for (const [si, shift] of shifts.entries()) {
          const area = areaOf(bbox, shift);
          for (const [ki, keyword] of korean.entries()) {
            const t0 = Date.now();
            const core = await run(world, area, keyword, seed * 1000 + ci * 100 + si * 10 + ki, config);
            push({ provider, world: config.name, seed, shift, keyword }, core, t0);
          }
        }
      }
      log(`  recall: ${provider} seed ${seed}: ${configs.length * shifts.length * korean.length} sweeps in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    }
    return round((Date.now() - tStart) / 1000, 1);
  };

  if (!o.googleOnly) {
    areas.naver = `${formatCorners(NAVER_AREA)} (about 3 x 3 km of central Seoul, tests/unit/naver-sweep-inprocess.test.ts), shifted by each shift; world: 30,000 places within 5 km, seeded per seed`;
    const only = <T extends { name: string }>(configs: readonly T[]) => configs.filter((c) => !o.configsMatching || c.name.includes(o.configsMatching));
    secondsBy.naver = await koreanGrid('naver', NAVER_AREA, only(NAVER_CONFIGS), (world, area, keyword, seed, config) =>
      naverRecallRun(world, area, keyword, seed, config.switches),
    );
    areas.kakao = `${formatCorners(KAKAO_AREA)} (about 1.5 x 1.6 km of central Seoul, tests/unit/kakao-sweep-inprocess.test.ts), shifted by each shift; world: 30,000 places within 5 km, seeded per seed`;
    secondsBy.kakao = await koreanGrid('kakao', KAKAO_AREA, only(KAKAO_CONFIGS), (world, area, keyword, seed, config) =>
      kakaoRecallRun(world, area, keyword, seed, config.switches),
    );
  }

  let ablation: RecallFigures['ablation'] = null;
  if ((o.ablation ?? true) && !o.koreanOnly) {
    const tAbl = Date.now();
    const seed = seeds[0]!;
    const rows: AblationRow[] = [];
    const loaded = worlds.map((spec) => loadBenchWorld(spec, seed));
    const ablationKeywords = keywords.filter((k) => ABLATION_KEYWORDS.includes(k));
    for (const a of ABLATIONS) {
      const rs: RunCore[] = [];
      for (const bw of loaded) {
        for (const [ki, keyword] of ablationKeywords.entries())
          rs.push(await googleRecallRun({ world: bw.world, area: bw.area, keyword, seed: seed * 1000 + ki, imperfections: a.imperfections }));
      }
      rows.push({ imperfections: a.name, ...totalsOf(rs), runs_with_stops: rs.filter((r) => r.stops > 0).length });
      log(`  recall ablation: ${a.name}: ${rs.length} sweeps`);
    }
    ablation = { seed, keywords: ablationKeywords, rows };
    secondsBy.google_ablation = round((Date.now() - tAbl) / 1000, 1);
  }

  const cases: RecallCase[] = [];
  const providers = [...new Set(runs.map((r) => r.provider))];
  for (const provider of providers) {
    const pr = runs.filter((r) => r.provider === provider);
    const names = [...new Set(pr.map((r) => r.world))];
    for (const w of names) {
      const wr = pr.filter((r) => r.world === w);
      for (const k of [...new Set(wr.map((r) => r.keyword))])
        cases.push(
          caseOf(
            provider,
            w,
            k,
            wr.filter((r) => r.keyword === k),
          ),
        );
    }
    for (const w of names)
      cases.push(
        caseOf(
          provider,
          w,
          'all',
          pr.filter((r) => r.world === w),
        ),
      );
    cases.push(caseOf(provider, 'all', 'all', pr));
  }
  cases.push(caseOf('all', 'all', 'all', runs));
  const google = runs.filter((r) => r.provider === 'google');
  const googleMedian = google.length ? round(median(google.map((r) => r.recall)), 5) : Number.NaN;
  const imp = GOOGLE_IMPERFECTIONS;
  return {
    seeds,
    tuning_seeds_not_used: TUNING_SEEDS,
    shifts,
    google_keywords: keywords,
    korean_keywords: korean,
    imperfections: {
      google: { unreadable_rate: imp.unreadableRate, error_rate: imp.errorRate, end_at_cap: imp.endAtCap, switches: imp.switches },
      naver: { unreadable_rate: NAVER_KAKAO_UNREADABLE_RATE, fail_rate: NAVER_KAKAO_FAIL_RATE, configs: NAVER_CONFIGS },
      kakao: { unreadable_rate: NAVER_KAKAO_UNREADABLE_RATE, fail_rate: NAVER_KAKAO_FAIL_RATE, configs: KAKAO_CONFIGS },
    },
    max_resumes: MAX_RESUMES,
    target: RECALL_TARGET,
    areas,
    note:
      'The real driver, planner, queue and store (runWorker, fake-indexeddb) against the sim pages with every imperfection on at once. ' +
      'recall = ground-truth places the store holds / ground truth, after the user pressed Resume on each failed stop (at most max_resumes); ' +
      'missing_reported = inside a saturated cell or a cell never completed; missing_silent = every cell over the place is done. Median / worst over seeds x shifts (x keywords for "all").',
    cases,
    google_recall_median: googleMedian,
    google_target_met: googleMedian >= RECALL_TARGET,
    silent_misses_total: runs.reduce((s, r) => s + r.missing_silent, 0),
    ablation,
    runs,
    seconds: round((Date.now() - started) / 1000, 1),
    seconds_by_provider: secondsBy,
  };
}

function caseOf(provider: string, world: string, keyword: string, rs: readonly RecallRun[]): RecallCase {
  const sum = (f: (r: RecallRun) => number) => rs.reduce((s, r) => s + f(r), 0);
  return {
    provider,
    world,
    keyword,
    ...totalsOf(rs),
    runs_not_finished: rs.filter((r) => r.status !== 'finished').length,
    cells_saturated: sum((r) => r.cells_saturated),
    cells_unresolved: sum((r) => r.cells_unresolved),
  };
}

function totalsOf(rs: readonly RunCore[]): RunTotals {
  const sum = (f: (r: RunCore) => number) => rs.reduce((s, r) => s + f(r), 0);
  return {
    runs: rs.length,
    recall_median: round(median(rs.map((r) => r.recall)), 5),
    recall_worst: Math.min(...rs.map((r) => r.recall)),
    searches_median: median(rs.map((r) => r.searches)),
    failed_loads: sum((r) => r.failed_loads),
    unread_cards: sum((r) => r.unread_cards),
    stops: sum((r) => r.stops),
    cells_quarantined: sum((r) => r.cells_quarantined),
    missing_reported: sum((r) => r.missing_in_saturated + r.missing_in_quarantined + r.missing_in_open),
    missing_silent: sum((r) => r.missing_silent),
  };
}

export function formatRecallTable(f: RecallFigures): string {
  const lines: string[] = [];
  const g = f.imperfections.google;
  lines.push(
    `recall on imperfect pages (issue 15 item 3): real driver + store; seeds ${f.seeds.join(', ')} (tuning seeds ${f.tuning_seeds_not_used.join(', ')} not used), ${f.shifts.length} area shifts; ` +
      `Google: ${pct(g.unreadable_rate)} cards unread, ${pct(g.error_rate)} loads HTTP 500, end text at the cap, sparse zoom-out, right-of-panel 408; ` +
      `Naver and Kakao: the replica's rendered pages read by the real collectors, one row per switch (world = the switch), ${pct(f.imperfections.naver.unreadable_rate)} cards unread, ${pct(f.imperfections.naver.fail_rate)} loads failed; ` +
      `Resume pressed up to ${f.max_resumes}x on a failed stop; ${f.seconds} s`,
  );
  const cols: [string, number][] = [
    ['provider', 8],
    ['world', 22],
    ['keyword', 10],
    ['runs', 5],
    ['recall med / worst', 19],
    ['searches', 9],
    ['failed', 7],
    ['unread', 7],
    ['stops', 6],
    ['unfin.', 7],
    ['quar.', 6],
    ['sat/unres', 10],
    ['reported', 9],
    ['silent', 7],
  ];
  const { header, row } = tableRows(cols, 3);
  lines.push(header);
  for (const c of f.cases) {
    lines.push(
      row([
        c.provider,
        c.world,
        c.keyword,
        String(c.runs),
        `${pct(c.recall_median)} / ${pct(c.recall_worst)}`,
        String(c.searches_median),
        String(c.failed_loads),
        String(c.unread_cards),
        String(c.stops),
        String(c.runs_not_finished),
        String(c.cells_quarantined),
        `${c.cells_saturated}/${c.cells_unresolved}`,
        String(c.missing_reported),
        String(c.missing_silent),
      ]),
    );
  }
  if (f.ablation) {
    lines.push(
      `  Google, one imperfection at a time (seed ${f.ablation.seed}, no shift, keywords ${f.ablation.keywords.join(' / ')}, ${f.ablation.rows[0]?.runs ?? 0} sweeps each):`,
    );
    const acols: [string, number][] = [
      ['imperfections', 26],
      ['recall med / worst', 19],
      ['searches', 9],
      ['failed', 7],
      ['unread', 7],
      ['stops (sweeps)', 15],
      ['quar.', 6],
      ['reported', 9],
      ['silent', 7],
    ];
    const ablationTable = tableRows(acols, 1, '  ');
    lines.push(ablationTable.header);
    for (const r of f.ablation.rows) {
      lines.push(
        ablationTable.row([
          r.imperfections,
          `${pct(r.recall_median)} / ${pct(r.recall_worst)}`,
          String(r.searches_median),
          String(r.failed_loads),
          String(r.unread_cards),
          `${r.stops} (${r.runs_with_stops})`,
          String(r.cells_quarantined),
          String(r.missing_reported),
          String(r.missing_silent),
        ]),
      );
    }
  }
  lines.push(
    `  ${Number.isNaN(f.google_recall_median) ? 'Google not run' : `Google median recall ${pct(f.google_recall_median)} (target >= ${pct(f.target)}: ${f.google_target_met ? 'met' : 'NOT met'})`}; silent misses in all: ${f.silent_misses_total}; ` +
      `searches = median page loads + page turns per sweep; stops = failed stops the user resumed; unfin. = sweeps not finished after the resumes; quar. = cells quarantined; sat/unres = cells saturated / of them unresolved; reported / silent = missing places`,
  );
  return lines.join('\n');
}

runSection(
  import.meta.url,
  'recall',
  async (argv) => {
    const quick = argv.includes('--quick');
    await installFakeIndexedDb();
    return measureRecall({
      seeds: numbersOf(argv, 'seeds') ?? (quick ? REFERENCE_SEEDS.slice(0, 1) : REFERENCE_SEEDS),
      ...(quick ? { shifts: REFERENCE_SHIFTS.slice(0, 1), ablation: false } : {}),
      koreanOnly: argv.includes('--korean'),
      configsMatching: optionOf(argv, 'configs'),
      log: logLine,
    });
  },
  formatRecallTable,
);
