/**
 * npm run bench: search efficiency of the planner in-process (issue 7, part 1), commit cost
 * in Node, recall and searches under each replica search geometry (issue 10), and the
 * real-Chromium figures (part 2, needs `npm run build`), then each entry point's size in the
 * build and the overhead ratio beside their figures before issue 25 (scripts/bench/bundle.ts).
 * The contacts pass on the replica web (scripts/bench/contacts.ts: precision, recall, sites per
 * hour, memory over 10,000 sites). The business matcher on replica worlds whose sites disagree
 * (scripts/bench/match.ts: precision, recall, ambiguities, look-alikes merged; time and heap at
 * 10k and 100k places). Sweep as a team (scripts/bench/team.ts: cells per hour with 1, 2 and 3
 * browsers on one district, requests and bytes per cell). The reviews pass (scripts/bench/reviews.ts:
 * reviews per hour at the default pacing, a place of 1,000 reviews).
 * Prints a table and writes bench-output/summary.json. Options: --no-commit, --no-driver-check, --no-geometry, --no-reference, --no-recall, --no-audit, --no-contacts, --no-match, --no-team, --no-reviews, --no-chromium,
 * --no-export-scaling (the CSV export at 10k / 100k / 200k places, scripts/bench/chromium-export.ts), --out=<dir>.
 */
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_VIEWPORT } from '../utils/geo';
import { collectChromiumFigures, type ChromiumResult } from './bench/chromium';
import { EXPORT_SCALING_RUNS, EXPORT_SCALING_SIZES, measureExportScaling, type ExportScaling } from './bench/chromium-export';
import { benchBrowsingCost, benchDashboard100k } from './bench/ui-cost';
import { benchCommit, type BenchFigures } from './bench/commit';
import { checkDriver, type DriverCheck } from './bench/driver-check';
import { measureWorld, TARGETS, type WorldFigures } from './bench/efficiency';
import { measureGeometries, type GeometryFigures } from './bench/geometry';
import { measureAudit, type AuditScenario } from './bench/audit';
import { measureReference, type ReferenceFigures } from './bench/reference';
import { measureRecall, type RecallFigures } from './bench/recall';
import { commitRatio, formatTable, type Summary } from './bench/report';
import { measureBundle, type BundleFigures } from './bench/bundle';
import { installFakeIndexedDb, logLine as log, outDirOf, runIfMain, writeJson } from './bench/standalone';
import { BENCH_WORLDS, loadBenchWorld } from './bench/worlds';
import { measureContacts, type ContactsFigures } from './bench/contacts';
import { formatMatchTable, measureMatch, type MatchFigures } from './bench/match';
import { formatTeamTable, measureTeam, TEAM_BENCH, type TeamFigures } from './bench/team';
import { formatReviewsTable, measureReviews, type ReviewsFigures } from './bench/reviews';

const COMMIT_SIZES: Record<string, number> = { '1k': 1_000, '100k': 100_000 };
const COMMIT_SAMPLES = 50;

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => argv.includes(`--${name}`);
  const outDir = outDirOf(argv);
  const viewport = DEFAULT_VIEWPORT;
  await installFakeIndexedDb();

  const worlds: Record<string, WorldFigures> = {};
  let driverCheck: DriverCheck | null = null;
  for (const spec of BENCH_WORLDS) {
    log(`${spec.name}: building the world`);
    const bw = loadBenchWorld(spec);
    worlds[spec.name] = await measureWorld(bw, viewport, log);
    if (spec.name === 'denseCentre' && !flag('no-driver-check')) {
      log('denseCentre: the real driver, queue and store (simSweep)');
      driverCheck = await checkDriver(bw, viewport);
    }
  }

  let geometry: GeometryFigures | null = null;
  if (!flag('no-geometry')) {
    log('search geometries: every world under each geometry and panel width, calibrated and uncalibrated');
    geometry = await measureGeometries({ viewport, log });
  }

  let reference: ReferenceFigures | null = null;
  if (!flag('no-reference')) {
    log('reference: sweep searches against a greedy omniscient cover, over reporting seeds, area shifts and keywords');
    reference = await measureReference({ viewport, log });
  }

  let recall: RecallFigures | null = null;
  if (!flag('no-recall')) {
    log('recall on imperfect pages: the real driver and store, every imperfection on, over reporting seeds, area shifts and keywords (Google, Naver, Kakao)');
    recall = await measureRecall({ log });
  }

  let audit: AuditScenario[] | null = null;
  if (!flag('no-audit')) {
    log('closing audit: its cost, and what it catches when the site searches less than any rule foresees');
    audit = await measureAudit(log);
  }

  let contacts: ContactsFigures | null = null;
  if (!flag('no-contacts')) {
    log('contacts from websites: the real pass on the replica web, over reporting seeds');
    contacts = await measureContacts({ seeds: [101, 102, 103], sites: 1000, paceSites: 60, memorySites: 10_000, log });
  }

  let match: MatchFigures | null = null;
  if (!flag('no-match')) {
    log('business matching: the matcher on replica worlds whose sites disagree, over reporting seeds; time and heap at 10k and 100k places');
    match = await measureMatch({ seeds: [101, 102, 103, 104, 105], places: 5000, sizes: [10_000, 100_000], log });
  }

  let team: TeamFigures | null = null;
  if (!flag('no-team')) {
    log('sweep as a team: cells per hour with 1, 2 and 3 browsers sharing one sweep through a CouchDB-compatible server, and its cost per cell');
    team = await measureTeam({ ...TEAM_BENCH, counts: [1, 2, 3], log });
  }

  let reviews: ReviewsFigures | null = null;
  if (!flag('no-reviews')) {
    log('reviews: the shipped pass at the default pacing on a virtual clock, a modelled Reviews tab');
    reviews = await measureReviews();
  }

  let commit: Record<string, BenchFigures> | null = null;
  if (!flag('no-commit')) {
    const { IDBFactory } = await import('fake-indexeddb');
    commit = {};
    for (const [label, size] of Object.entries(COMMIT_SIZES)) {
      const figures = await benchCommit(new IDBFactory(), [size], COMMIT_SAMPLES, log);
      commit[label] = figures[String(size)]!;
    }
  }

  const chromium: ChromiumResult = flag('no-chromium')
    ? {
        figures: { commit_ms: null, resume_to_lease_s: null, export_100k: null, overhead_ratio: null },
        details: {},
        pending: ['commit_ms', 'resume_to_lease_s', 'export_100k', 'overhead_ratio'],
        errors: { all: '--no-chromium' },
      }
    : await collectChromiumFigures(log);
  const errors = chromium.errors;
  const attempt = async <T>(key: string, fn: () => Promise<T>): Promise<T | null> => {
    if (flag('no-chromium')) return null;
    try {
      return await fn();
    } catch (e) {
      errors[key] = e instanceof Error ? e.message : String(e);
      return null;
    }
  };
  const dashboard = await attempt('dashboard_100k', () => benchDashboard100k(log));
  const browsing = await attempt('browsing_cost', () => benchBrowsingCost(log));
  // Whether the export's memory grows with the collection: the same export at three sizes, each in a fresh profile.
  const exportScaling = flag('no-export-scaling')
    ? null
    : await attempt('export_scaling', () => measureExportScaling(EXPORT_SCALING_SIZES, EXPORT_SCALING_RUNS, log));
  let bundle: BundleFigures | null = null;
  try {
    bundle = measureBundle();
  } catch (e) {
    errors.bundle = e instanceof Error ? e.message : String(e);
  }
  // The issue's commit_ms is Chromium's; Node's fake-indexeddb figures stay as commit_ms_node.
  const commitMs = chromium.figures.commit_ms ?? commit;
  const summary: Summary & {
    export_scaling: ExportScaling | null;
    contacts: ContactsFigures | null;
    match: MatchFigures | null;
    team: TeamFigures | null;
    reviews: ReviewsFigures | null;
  } = {
    generated_at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
    worlds,
    targets: TARGETS,
    commit_ms: commitMs,
    commit_ms_environment: chromium.figures.commit_ms
      ? "Chromium's IndexedDB in an extension page (on disk, durability 'strict')"
      : 'Node + fake-indexeddb (in memory), not Chromium',
    commit_ms_ratio_largest_to_smallest: commitRatio(commitMs),
    commit_ms_node: commit,
    chromium: chromium.figures,
    chromium_details: chromium.details,
    chromium_errors: chromium.errors,
    resume_to_lease_s: chromium.figures.resume_to_lease_s,
    export_100k: chromium.figures.export_100k,
    overhead_ratio: chromium.figures.overhead_ratio,
    pending: chromium.pending,
    driver_check: driverCheck,
    dashboard_100k: dashboard,
    browsing_cost: browsing,
    export_scaling: exportScaling,
    geometry,
    reference,
    recall,
    audit,
    contacts,
    match,
    team,
    reviews,
    bundle,
  };
  const file = path.join(outDir, 'summary.json');
  await writeJson(file, summary);
  console.log(formatTable(summary));
  if (exportScaling) {
    for (const [places, d] of Object.entries(exportScaling.sizes)) {
      console.log(
        `CSV export, ${places} places (${d.runs[0]?.path}): ${d.seconds_median} s median, peak RSS +${d.peak_over_baseline_mb_median} MB over idle (median of ${d.runs.length})`,
      );
    }
  }
  if (contacts) {
    console.log(
      `contacts: e-mail precision ${contacts.precision.median}, recall ${contacts.recall.median}, profiles ${contacts.profiles.median} (medians of seeds ${contacts.seeds.join(', ')}, ${contacts.sitesPerSeed} sites each); ${contacts.sitesPerHour} sites/hour at the default pace; heap ${contacts.memory.map((m) => `${m.heapMb} MB at ${m.sites}`).join(', ')}`,
    );
  }
  if (match) console.log(`\n${formatMatchTable(match)}`);
  if (team) console.log(`\n${formatTeamTable(team)}`);
  if (reviews) console.log(`\n${formatReviewsTable(reviews)}`);
  console.log(`\nwritten: ${file}`);
}

runIfMain(import.meta.url, main);
