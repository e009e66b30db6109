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
