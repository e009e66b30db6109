/**
 * Vitest's sequencer, with one change: within a project, the files that state a budget
 * (tests/helpers/budget.ts) run first, largest budget first. On a clean clone vitest has no
 * timings of its own and would start files by size, so a long browser file could start last and
 * keep the whole tier waiting on it.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { budgetOfFile } from './budget.ts';

export class BudgetSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const budgets = new Map(base.map((f) => [f, budgetOfFile(f.moduleId)?.seconds ?? 0]));
    const position = new Map(base.map((f, i) => [f, i]));
    return [...base].sort((a, b) => {
      if (a.project.name !== b.project.name) return position.get(a)! - position.get(b)!;
      return budgets.get(b)! - budgets.get(a)! || position.get(a)! - position.get(b)!;
    });
  }
}
