import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/**
 * Two tiers: `unit` (pure modules, fake IndexedDB, happy-dom; seconds) and `browser`
 * (the production build in Debian's Chromium against the replica map site; minutes).
 * Browser tests run two files at a time: they mostly wait (pacing delays, page loads; a whole
 * run used 6 CPU-minutes in 27 minutes), so two browsers share the two cores without starving
 * each other, and each file has its own replica server and profile.
 */
export default defineConfig({
  plugins: [WxtVitest()],
  test: {
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
          maxWorkers: 2,
          // After the unit tests (vitest runs projects with different worker counts as groups).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
