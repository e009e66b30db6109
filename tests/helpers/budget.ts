/**
 * A test file's time budget, as its head comment states it: `Budget: 120 s` (the file alone, on
 * 2 cores), and for a file over 3 minutes the reason, `… because …`, in the same comment. The
 * suite's sequencer starts the files with the largest budgets first (the longest job first keeps
 * the parallel browser tier from ending on one long file), and a unit test holds every browser
 * file to stating one (tests/unit/test-budgets.test.ts).
 */
import { readFileSync } from 'node:fs';

/** Over this, a file says why it needs so long. */
export const LONG_FILE_S = 180;

export interface Budget {
  seconds: number;
  /** The head comment's reason ("because …"), or null. */
  because: string | null;
}

/** The head comment: the first block comment, when the file starts with one. */
function headComment(text: string): string | null {
  const m = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(text);
  return m ? m[1]!.replace(/^\s*\* ?/gm, '') : null;
}

/** The budget a file's text states, or null when its head comment states none. */
export function statedBudget(text: string): Budget | null {
  const head = headComment(text);
  if (!head) return null;
  const m = /\bBudget:\s*(\d+)\s*s\b/.exec(head);
  if (!m) return null;
  const because = /\bbecause\b\s*([\s\S]*?)(?:\.\s|\.$|$)/.exec(head.replace(/\s+/g, ' '));
  return { seconds: Number(m[1]), because: because?.[1]?.trim() || null };
}

/** The budget of a file on disk, or null (unreadable, or none stated). */
export function budgetOfFile(path: string): Budget | null {
  try {
    return statedBudget(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
