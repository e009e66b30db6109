/**
 * Cell commit latency in Chromium's own IndexedDB: benchCommit (commit.ts) run inside an
 * extension page, on a scratch database of the extension's origin, on disk.
 */
import { newProfileDir, openPopup } from '../../tests/browser/harness';
import type { BenchFigures } from './commit';
import { dispose, extensionBrowser, type BenchContext } from './chromium-context';
import { callBench, installBench } from './chromium-session';

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

export async function measureCommit(
  ctx: BenchContext,
  samples: number,
): Promise<{ figures: Record<CommitSize, BenchFigures>; details: CommitDetails }> {
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
