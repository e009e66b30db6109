/**
 * Cell commit latency in Chromium's own IndexedDB: benchCommit (commit.ts) run inside an
 * extension page, on a scratch database of the extension's origin, on disk.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { newProfileDir, openPopup } from '../../tests/browser/harness';
import type { BenchFigures } from './commit';
import type { Breakdown } from './commit-breakdown';
import { dispose, extensionBrowser, startBenchReplica, type BenchContext } from './chromium-context';
import { callBench, installBench } from './chromium-session';
import { logLine, runPrinted } from './standalone';

export const COMMIT_SIZES = { '1k': 1_000, '100k': 100_000, '500k': 500_000 } as const;
export type CommitSize = keyof typeof COMMIT_SIZES;

export interface CommitDetails {
  samples: number;
  seconds: number;
}

/**
 * A crowded cell's commit (120 listings, 4 children, an audit event) at each size, each size in
 * a browser profile of its own (a fresh on-disk database: no size inherits another's compaction).
 */
export async function measureCrowdedCommit(ctx: BenchContext, samples: number): Promise<{ figures: Record<CommitSize, BenchFigures>; details: CommitDetails }> {
  const start = Date.now();
  const figures = {} as Record<CommitSize, BenchFigures>;
  for (const [label, size] of Object.entries(COMMIT_SIZES) as [CommitSize, number][]) {
    const b = await extensionBrowser(ctx, newProfileDir());
    try {
      const popup = await openPopup(b.context);
      await installBench(popup, ctx.log);
      const f = (await callBench(popup, 'crowdedCommitLatency', [size], samples))[String(size)];
      if (!f) throw new Error(`crowded commit bench: no figure for ${size}`);
      figures[label] = f;
      ctx.log(`crowded commit at ${label}: median ${f.median} ms, p95 ${f.p95} ms (${samples} samples)`);
    } finally {
      await dispose(b);
    }
  }
  return { figures, details: { samples, seconds: Math.round((Date.now() - start) / 1000) } };
}

export async function measureCommit(ctx: BenchContext, samples: number): Promise<{ figures: Record<CommitSize, BenchFigures>; details: CommitDetails }> {
  const b = await extensionBrowser(ctx, newProfileDir());
  try {
    const popup = await openPopup(b.context);
    await installBench(popup, ctx.log);
    const start = Date.now();
    const bySize = await callBench(popup, 'commitLatency', Object.values(COMMIT_SIZES), samples);
    const figures = {} as Record<CommitSize, BenchFigures>;
    for (const [label, size] of Object.entries(COMMIT_SIZES) as [CommitSize, number][]) {
      const f = bySize[String(size)];
      if (!f) throw new Error(`commit bench: no figure for ${size}`);
      figures[label] = f;
    }
    return { figures, details: { samples, seconds: Math.round((Date.now() - start) / 1000) } };
  } finally {
    await dispose(b);
  }
}

/**
 * Where the crowded commit's time goes (commit-breakdown.ts) at each size: the product's store
 * and a store without index, each size and each target in a fresh profile. Diagnostic only, run
 * directly: `npx tsx scripts/bench/chromium-commit.ts breakdown [samples] [sizes,…]`.
 */
export async function measureCrowdedBreakdown(
  ctx: BenchContext,
  samples: number,
  sizes: readonly CommitSize[] = Object.keys(COMMIT_SIZES) as CommitSize[],
  targets: readonly ('store' | 'plain')[] = ['store', 'plain'],
  settleMs = 10_000,
): Promise<Record<string, Breakdown>> {
  const out: Record<string, Breakdown> = {};
  for (const label of sizes) {
    for (const target of targets) {
      const b = await extensionBrowser(ctx, newProfileDir());
      try {
        const popup = await openPopup(b.context);
        let timedFrom = Number.POSITIVE_INFINITY;
        await installBench(popup, (line) => {
          // The page settles after the fill before it times anything.
          if (line.includes('listings filled')) timedFrom = Date.now() + settleMs;
          ctx.log(line);
        });
        const f = await callBench(popup, 'crowdedCommitBreakdown', COMMIT_SIZES[label], samples, target, settleMs);
        out[`${label} ${target}`] = f;
        for (const [variant, phases] of Object.entries(f)) {
          ctx.log(
            `${label} ${target} ${variant}: ${Object.entries(phases)
              .map(([p, v]) => `${p} ${v.median}/${v.p95}`)
              .join(', ')}`,
          );
        }
        ctx.log(`${label} ${target}: on disk ${indexedDbLayout(b.profileDir, timedFrom)}`);
      } finally {
        await dispose(b);
      }
    }
  }
  return out;
}

/** The profile's IndexedDB files: which engine Chromium used, and how big it got. */
function indexedDbLayout(profileDir: string, timedFrom: number): string {
  const root = path.join(profileDir, 'Default', 'IndexedDB');
  if (!existsSync(root)) return '(no IndexedDB directory)';
  const sizes = new Map<string, number>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const ext = path.extname(e.name) || e.name;
        sizes.set(ext, (sizes.get(ext) ?? 0) + statSync(p).size);
      }
    }
  };
  walk(root);
  const files = [...sizes].map(([ext, bytes]) => `${ext} ${(bytes / 1e6).toFixed(1)} MB`).join(', ');
  return `${files}; ${leveldbLog(root, timedFrom)}`;
}

/**
 * From LevelDB's own LOG: how many memtable flushes and compactions ran in all and while the
 * samples were timed (lines stamped after `timedFrom`), and the last files-per-level line.
 */
function leveldbLog(root: string, timedFrom: number): string {
  const logs: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'LOG') logs.push(readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  const lines = logs.join('\n').split('\n');
  // LevelDB stamps its lines in local time: 2026/12/01-19:14:00.123456
  const at = (line: string) => {
    const m = /^(\d{4})\/(\d\d)\/(\d\d)-(\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
    return m ? new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!).getTime() : Number.NaN;
  };
  const count = (pattern: RegExp) => {
    const hits = lines.filter((l) => pattern.test(l));
    return `${hits.length} (${hits.filter((l) => at(l) >= timedFrom).length} while timed)`;
  };
  const text = lines.join('\n');
  const flushes = count(/Level-0 table #\d+: started/);
  const compactions = count(/Compacting /);
  const levels = [...text.matchAll(/compacted to: (files\[[^\]]*\])/g)].at(-1)?.[1] ?? 'no compaction';
  return `LevelDB LOG: ${flushes} memtable flushes, ${compactions} compactions, last ${levels}`;
}

runPrinted(import.meta.url, async (argv) => {
  if (argv[0] !== 'breakdown') throw new Error('usage: chromium-commit.ts breakdown [samples] [1k,100k,500k] [store,plain] [settle seconds]');
  const samples = Number(argv[1] ?? 100);
  const sizes = (argv[2]?.split(',') ?? Object.keys(COMMIT_SIZES)) as CommitSize[];
  const targets = (argv[3]?.split(',') ?? ['store', 'plain']) as ('store' | 'plain')[];
  const settleMs = Number(argv[4] ?? 10) * 1000;
  const replica = await startBenchReplica();
  try {
    return await measureCrowdedBreakdown({ replica, log: logLine }, samples, sizes, targets, settleMs);
  } finally {
    await replica.close();
  }
});
