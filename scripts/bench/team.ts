/**
 * Sweep as a team (issue 26): cells per hour with 1, 2 and 3 browsers on one district at the
 * same pacing, and the database's cost per cell. Each "browser" is the shipped driver, queue,
 * store and team gate with its own IndexedDB and pacer (tests/helpers/team-sim.ts), against a
 * real CouchDB-compatible server (pouchdb-server, started here) on real time; the pages answer
 * with the replica's search semantics through the content script's own observation builder.
 * The district is shifted per seed; medians over seeds × keywords.
 * `node --import tsx scripts/bench/team.ts [--seeds=101,102,103] [--keywords=cafe+pharmacy+bakery,cafe] [--delay=500] [--visit=1000] [--counts=1,2,3] [--area=south,west,north,east]`
 * (a `+` joins keywords of one sweep; a comma separates sweeps)
 */
import { cellDocPrefix } from '../../utils/team/docs';
import { startCouchServer } from '../../tests/helpers/couch-server';
import { world } from '../../tests/helpers/sim-world';
import { startTeamSim } from '../../tests/helpers/team-sim';
import { installFakeIndexedDb, logLine as log, numbersOf, optionOf, runSection } from './standalone';
import { median, round, tableRows } from './stats';

/** Most of the sim world (tests/helpers/sim-world.ts: 6,000 places within 6 km of Seoul City Hall), about 9 × 9 km. */
const BASE = { south: 37.525, west: 126.925, north: 37.605, east: 127.03 };

/**
 * What `npm run bench` measures: one sweep of three keywords (three trees of cells the browsers
 * share) over reporting seeds (district shifts); pages that take a second to load and read, as a
 * real visit takes seconds, beside a 500 ms pacing delay.
 */
export const TEAM_BENCH = { seeds: [101, 102, 103], keywords: ['cafe\npharmacy\nbakery'], delayMs: 500, visitMs: 1000 };

export interface TeamRun {
  browsers: number;
  seed: number;
  keyword: string;
  seconds: number;
  cells: number;
  cellsPerHour: number;
  loads: number;
  requestsPerCell: number;
  kBytesPerCell: number;
}

export interface TeamFigures {
  delayMs: number;
  visitMs: number;
  runs: TeamRun[];
  /** Per browser count: medians over seeds × keywords, and the speed-up over one browser (median of the per-seed ratios). */
  summary: { browsers: number; cellsPerHour: number; speedup: number; finishedSooner: number; requestsPerCell: number; kBytesPerCell: number }[];
}

function areaOf(seed: number): string {
  // A shift of up to ±400 m per seed: the same kind of district, other cells.
  const d = ((seed * 7919) % 9) / 9 - 0.5;
  const lat = d * 0.0072;
  const lng = -d * 0.009;
  return [BASE.south + lat, BASE.west + lng, BASE.north + lat, BASE.east + lng].map((v) => v.toFixed(5)).join(',');
}

export async function measureTeam(o: {
  seeds: number[];
  keywords: string[];
  /** One area for every seed (`south,west,north,east`) instead of the district shifted per seed. */
  area?: string;
  delayMs: number;
  visitMs: number;
  counts: number[];
  log: (l: string) => void;
}): Promise<TeamFigures> {
  await installFakeIndexedDb();
  const server = await startCouchServer();
  const runs: TeamRun[] = [];
  try {
    for (const seed of o.seeds) {
      for (const keyword of o.keywords) {
        for (const browsers of o.counts) {
          const target = await server.database(`bench-${seed}-${keyword}-${browsers}`);
          const started = Date.now();
          const sim = await startTeamSim({
            world,
            areaText: o.area ?? areaOf(seed),
            keywordsText: keyword,
            target,
            browsers,
            delayMs: o.delayMs,
            visitMs: o.visitMs,
            leaseMs: 90_000,
            seed,
          });
          const exits = await Promise.all(sim.browsers.map((b) => b.done));
          const seconds = (Date.now() - started) / 1000;
          if (exits.some((e) => e !== 'finished')) throw new Error(`seed ${seed} ${keyword} ×${browsers}: ${exits.join(', ')}`);
          const docs = await sim.browsers[0]!.couch.byPrefix<{ _id: string; type: string; settle: unknown }>(cellDocPrefix(sim.sweep.id));
          const cells = docs.filter((d) => d.type === 'cell' && d.settle).length;
          const meters = sim.browsers.map((b) => b.couch.meter);
          const requests = meters.reduce((n, m) => n + m.requests, 0);
          const bytes = meters.reduce((n, m) => n + m.bytesSent + m.bytesReceived, 0);
          const run: TeamRun = {
            browsers,
            seed,
            keyword,
            seconds: round(seconds, 1),
            cells,
            cellsPerHour: Math.round((cells / seconds) * 3600),
            loads: sim.browsers.reduce((n, b) => n + b.loads(), 0),
            requestsPerCell: round(requests / cells, 1),
            kBytesPerCell: round(bytes / cells / 1024, 1),
          };
          runs.push(run);
          o.log(
            `team ×${browsers} seed ${seed} ${keyword.replaceAll('\n', '+')}: ${cells} cells in ${run.seconds} s (${run.cellsPerHour}/h), ${run.loads} page loads, ${run.requestsPerCell} requests and ${run.kBytesPerCell} kB per cell`,
          );
        }
      }
    }
  } finally {
    await server.close();
  }
  const summary = o.counts.map((browsers) => {
    const mine = runs.filter((r) => r.browsers === browsers);
    // Ratios need the same seed's run alone (absent with --counts that leave 1 out: NaN).
    const solo = (r: TeamRun) => runs.find((s) => s.browsers === 1 && s.seed === r.seed && s.keyword === r.keyword);
    const ratios = mine.map((r) => r.cellsPerHour / (solo(r)?.cellsPerHour ?? Number.NaN));
    // Cells per hour flatters a team a little: each browser learns its own window's geometry,
    // and the team searches a few more cells. How much sooner the district is done does not.
    const sooner = mine.map((r) => (solo(r)?.seconds ?? Number.NaN) / r.seconds);
    return {
      browsers,
      cellsPerHour: Math.round(median(mine.map((r) => r.cellsPerHour))),
      speedup: round(median(ratios), 2),
      finishedSooner: round(median(sooner), 2),
      requestsPerCell: round(median(mine.map((r) => r.requestsPerCell)), 1),
      kBytesPerCell: round(median(mine.map((r) => r.kBytesPerCell)), 1),
    };
  });
  return { delayMs: o.delayMs, visitMs: o.visitMs, runs, summary };
}

export function formatTeamTable(f: TeamFigures): string {
  const { header, row } = tableRows(
    [
      ['browsers', 8],
      ['cells/hour', 11],
      ['speed-up', 9],
      ['done sooner', 12],
      ['requests/cell', 14],
      ['kB/cell', 8],
    ],
    0,
  );
  const seeds = [...new Set(f.runs.map((r) => r.seed))].join(', ');
  const keywords = [...new Set(f.runs.map((r) => r.keyword))].join(', ');
  return [
    `Sweep as a team: one district (keywords ${keywords.replaceAll('\n', ' + ')}), each browser paced at ${f.delayMs} ms, each page ${f.visitMs} ms to load and read; medians over seeds ${seeds}`,
    header,
    ...f.summary.map((s) =>
      row([String(s.browsers), String(s.cellsPerHour), `${s.speedup}×`, `${s.finishedSooner}×`, String(s.requestsPerCell), String(s.kBytesPerCell)]),
    ),
  ].join('\n');
}

runSection(
  import.meta.url,
  'team',
  (argv) =>
    measureTeam({
      seeds: numbersOf(argv, 'seeds') ?? TEAM_BENCH.seeds,
      keywords:
        optionOf(argv, 'keywords')
          ?.split(',')
          .map((k) => k.replaceAll('+', '\n')) ?? TEAM_BENCH.keywords,
      delayMs: Number(optionOf(argv, 'delay') ?? TEAM_BENCH.delayMs),
      visitMs: Number(optionOf(argv, 'visit') ?? TEAM_BENCH.visitMs),
      counts: numbersOf(argv, 'counts') ?? [1, 2, 3],
      ...(optionOf(argv, 'area') ? { area: optionOf(argv, 'area') } : {}),
      log,
    }),
  formatTeamTable,
);
