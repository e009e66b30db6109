import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { BudgetSequencer } from './tests/helpers/budget-sequencer.ts';

/**
 * Two tiers, one after the other: `unit` (pure modules, fake IndexedDB, happy-dom) and `browser`
 * (the production build in Debian's Chromium against the replica sites). Where the time goes,
 * and why these numbers: docs/TESTING.md.
 *
 * - unit: CPU-bound, so one worker per core (vitest's own default leaves one core idle).
 * - browser: the files mostly wait (pacing, page loads, idle list pages): measured alone, a file
 *   keeps about a third of one core busy, so BROWSER_WORKERS files share the two cores. Each file
 *   has its own replica server(s) and Chromium profile(s), so any number may run side by side.
 * Files that state a budget in their head comment start first, longest first (BudgetSequencer).
 */
const BROWSER_WORKERS = Number(process.env.MAPSWEEP_BROWSER_WORKERS) || 5;

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    sequence: { sequencer: BudgetSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // A unit test's budget is its work, not the machine's mood: vitest's 5 s default failed
          // data-heavy tests (exports, in-process sweeps) on a 2-core machine busy with other
          // work (issue 22). 30 s still ends a hung test; slower tests give their own, explained.
          testTimeout: 30_000,
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          setupFiles: ['tests/helpers/setup-unit.ts'],
          maxWorkers: 3,
          // A larger young generation: the in-process sweeps render thousands of list pages in
          // happy-dom, and with node's default a quarter of their time went to minor GCs (measured:
          // the Naver and Kakao sweep files 112 s → 84 s together at 128 MB; 256 MB no better).
          execArgv: ['--max-semi-space-size=128'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: BROWSER_WORKERS,
          // After the unit tests (vitest runs projects with different worker counts as groups).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
