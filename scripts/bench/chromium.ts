/**
 * Hooks for the figures that only a real browser gives (issue 7, part 2). Not measured yet:
 * each returns null, and the summary says which are pending. Whoever implements one keeps its
 * name and return shape, so bench.ts and summary.json need no change.
 */
import type { BenchFigures } from './commit';

export interface ChromiumFigures {
  /** commitCell of 20 listings with 1k, 100k and 500k stored, in Chromium's IndexedDB. */
  commit_ms: Record<'1k' | '100k' | '500k', BenchFigures> | null;
  /** Browser start to the next cell leased, 200k listings stored (resume must not read the whole store). */
  resume_to_lease_s: number | null;
  /** CSV export of 100k places: wall time and the browser's peak memory. */
  export_100k: { seconds: number; peak_mb: number } | null;
  /** Sweep time per cell over a plain Playwright visit of the same cells, pacing delay 0. */
  overhead_ratio: number | null;
}

/** benchCommit (commit.ts) run in an extension page with the real `indexedDB`, sizes 1k/100k/500k. */
export async function chromiumCommitMs(): Promise<ChromiumFigures['commit_ms']> {
  return null;
}

/** Fill 200k listings, close the browser, relaunch with the extension, time until leaseNextCell returns. */
export async function chromiumResumeToLeaseSeconds(): Promise<number | null> {
  return null;
}

/** Export 100k stored places to CSV; seconds, and peak memory from the browser's process metrics. */
export async function chromiumExport100k(): Promise<ChromiumFigures['export_100k']> {
  return null;
}

/** Against the replica server: the extension's sweep vs. a bare Playwright loop over the same cell URLs. */
export async function chromiumOverheadRatio(): Promise<number | null> {
  return null;
}

export async function collectChromiumFigures(): Promise<{ figures: ChromiumFigures; pending: string[] }> {
  const figures: ChromiumFigures = {
    commit_ms: await chromiumCommitMs(),
    resume_to_lease_s: await chromiumResumeToLeaseSeconds(),
    export_100k: await chromiumExport100k(),
    overhead_ratio: await chromiumOverheadRatio(),
  };
  const pending = Object.entries(figures)
    .filter(([, value]) => value === null)
    .map(([key]) => key);
  return { figures, pending };
}
