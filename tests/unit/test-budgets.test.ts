/**
 * CONTRIBUTING's rule for browser tests, held here: every browser test file states its time
 * budget in its head comment, and one over 3 minutes says why. The sequencer reads the same line
 * to start the longest files first (tests/helpers/budget-sequencer.ts).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetOfFile, LONG_FILE_S, statedBudget } from '../helpers/budget';

const BROWSER_DIR = path.resolve(__dirname, '../browser');
const browserFiles = readdirSync(BROWSER_DIR).filter((f) => f.endsWith('.test.ts'));

describe('test budgets', () => {
  it('reads a budget from the head comment only, with its reason', () => {
    expect(statedBudget('/**\n * A file.\n * Budget: 90 s alone on 2 cores.\n */\nimport x;')).toEqual({ seconds: 90, because: null });
    expect(statedBudget('/**\n * Budget: 240 s, over 3 minutes because three browsers wait out a 30 s outage.\n */')).toEqual({
      seconds: 240,
      because: 'three browsers wait out a 30 s outage',
    });
    expect(statedBudget('/** A file. */\n// Budget: 90 s\n')).toBeNull();
    expect(statedBudget('import x;\n/** Budget: 90 s */')).toBeNull();
    expect(statedBudget('/** Budget: ninety seconds */')).toBeNull();
  });

  it('every browser test file states its budget, and one over 3 minutes says why', () => {
    expect(browserFiles.length).toBeGreaterThan(10);
    const missing = browserFiles.filter((f) => budgetOfFile(path.join(BROWSER_DIR, f)) === null);
    expect(missing).toEqual([]);
    const longWithoutReason = browserFiles.filter((f) => {
      const b = budgetOfFile(path.join(BROWSER_DIR, f))!;
      return b.seconds > LONG_FILE_S && !b.because;
    });
    expect(longWithoutReason).toEqual([]);
  });
});
