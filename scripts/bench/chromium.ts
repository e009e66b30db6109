/**
 * The figures only a real browser gives (issue 7, part 2), measured in Debian's Chromium with
 * the production build (.output/chrome-mv3) against the replica map site. Each figure keeps its
 * hook name and return shape; how each is measured is told in its module:
 * chromium-commit.ts, chromium-resume.ts, chromium-export.ts, chromium-overhead.ts.
 *
 * A figure that cannot be measured (no build, no Chromium, a failure) is null, listed in
 * `pending` with the reason in `errors`; the others are still measured.
 *
 * Run alone: `npx tsx scripts/bench/chromium.ts [commit|resume|export|overhead]...`
 */
import type { Replica } from '../../tests/replica/server';
import type { BenchFigures } from './commit';
import { startBenchReplica, type BenchContext } from './chromium-context';
import { measureCommit, measureCrowdedCommit, type CommitDetails, type CommitSize } from './chromium-commit';
import { measureExport, type ExportDetails } from './chromium-export';
import { measureOverhead, type OverheadDetails } from './chromium-overhead';
import { measureResume, type ResumeDetails } from './chromium-resume';
import { chromiumUnavailable } from './chromium-session';
import { logLine, runPrinted } from './standalone';

export interface ChromiumFigures {
  /** commitCell of 20 listings with 1k, 100k and 500k stored, in Chromium's IndexedDB. */
  commit_ms: Record<CommitSize, BenchFigures> | null;
  /** A crowded cell's commit (120 listings, 4 children, audit event) at the same sizes, each in a fresh profile. */
  crowded_commit_ms?: Record<CommitSize, BenchFigures> | null;
  /** Browser start to the next cell leased, 200k listings stored (resume must not read the whole store). */
  resume_to_lease_s: number | null;
  /** CSV export of 100k places: wall time and the browser's peak memory. */
  export_100k: { seconds: number; peak_mb: number } | null;
  /** Sweep time per cell over a plain Playwright visit of the same cells, pacing delay 0. */
  overhead_ratio: number | null;
}

/** How each figure was obtained: samples, spreads, controls. */
export interface ChromiumDetails {
  commit?: CommitDetails;
  crowdedCommit?: CommitDetails;
  resume?: ResumeDetails;
  export?: ExportDetails;
  overhead?: OverheadDetails;
}

/**
 * How many samples each figure takes: enough to see the spread, few enough that the whole
 * `npm run bench` stays within ~8 minutes on 2 shared cores.
 */
export const SAMPLES = {
  commitPerSize: 50,
  /** Issue 15 §5: at least 200 samples per size. */
  crowdedCommitPerSize: 200,
  resumeListings: 200_000,
  resumeRounds: 3,
  exportPlaces: 100_000,
  exportRuns: 3,
  overheadRounds: 2,
};

type Measure = 'commit' | 'crowded' | 'resume' | 'export' | 'overhead';
const ALL: Measure[] = ['commit', 'crowded', 'resume', 'export', 'overhead'];

/** benchCommit (commit.ts) run in an extension page with the real `indexedDB`, sizes 1k/100k/500k. */
export async function chromiumCommitMs(ctx: BenchContext, details: ChromiumDetails): Promise<ChromiumFigures['commit_ms']> {
  const { figures, details: d } = await measureCommit(ctx, SAMPLES.commitPerSize);
  details.commit = d;
  return figures;
}

/** Fill 200k listings, close the browser, relaunch with the extension, time until the next cell's search loads. */
export async function chromiumResumeToLeaseSeconds(ctx: BenchContext, details: ChromiumDetails): Promise<number | null> {
  const { seconds, details: d } = await measureResume(ctx, SAMPLES.resumeListings, SAMPLES.resumeRounds);
  details.resume = d;
  return seconds;
}

/** Export 100k stored places to CSV from the popup; seconds, and the peak memory of the browser's processes. */
export async function chromiumExport100k(ctx: BenchContext, details: ChromiumDetails): Promise<ChromiumFigures['export_100k']> {
  const { figures, details: d } = await measureExport(ctx, SAMPLES.exportPlaces, SAMPLES.exportRuns);
  details.export = d;
  return figures;
}

/** Against the replica server: the extension's sweep vs. a bare Playwright loop over the same cell URLs. */
export async function chromiumOverheadRatio(ctx: BenchContext, details: ChromiumDetails): Promise<number | null> {
  const { ratio, details: d } = await measureOverhead(ctx, SAMPLES.overheadRounds);
  details.overhead = d;
  return ratio;
}

export interface ChromiumResult {
  figures: ChromiumFigures;
  details: ChromiumDetails;
  /** Figures not measured, by their summary key. */
  pending: string[];
  /** Why, by summary key. */
  errors: Record<string, string>;
}

export async function collectChromiumFigures(log: (line: string) => void = () => {}, only: readonly Measure[] = ALL): Promise<ChromiumResult> {
  const figures: ChromiumFigures = { commit_ms: null, crowded_commit_ms: null, resume_to_lease_s: null, export_100k: null, overhead_ratio: null };
  const details: ChromiumDetails = {};
  const errors: Record<string, string> = {};
  const unavailable = chromiumUnavailable();
  const keys: Record<Measure, keyof ChromiumFigures> = {
    commit: 'commit_ms',
    crowded: 'crowded_commit_ms',
    resume: 'resume_to_lease_s',
    export: 'export_100k',
    overhead: 'overhead_ratio',
  };
  let replica: Replica | null = null;
  try {
    if (!unavailable) replica = await startBenchReplica();
    for (const measure of only) {
      const key = keys[measure];
      if (!replica) {
        errors[key] = unavailable ?? 'no replica';
        continue;
      }
      const ctx: BenchContext = { replica, log };
      const start = Date.now();
      log(`chromium: ${measure}`);
      try {
        if (measure === 'commit') figures.commit_ms = await chromiumCommitMs(ctx, details);
        if (measure === 'crowded') {
          const { figures: f, details: d } = await measureCrowdedCommit(ctx, SAMPLES.crowdedCommitPerSize);
          figures.crowded_commit_ms = f;
          details.crowdedCommit = d;
        }
        if (measure === 'resume') figures.resume_to_lease_s = await chromiumResumeToLeaseSeconds(ctx, details);
        if (measure === 'export') figures.export_100k = await chromiumExport100k(ctx, details);
        if (measure === 'overhead') figures.overhead_ratio = await chromiumOverheadRatio(ctx, details);
      } catch (e) {
        errors[key] = e instanceof Error ? e.message : String(e);
        log(`chromium: ${measure} failed: ${errors[key]}`);
      }
      log(`chromium: ${measure} took ${Math.round((Date.now() - start) / 1000)} s`);
    }
  } finally {
    await replica?.close();
  }
  const pending = (Object.keys(figures) as (keyof ChromiumFigures)[]).filter((k) => figures[k] === null);
  return { figures, details, pending, errors };
}

runPrinted(import.meta.url, (argv) => {
  const only = argv.filter((a): a is Measure => (ALL as string[]).includes(a));
  return collectChromiumFigures(logLine, only.length ? only : ALL);
});
