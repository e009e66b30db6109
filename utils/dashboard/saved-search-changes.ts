import { exportFileName } from '../export/csv';
import type { ChangeRecord } from '../domain/saved-search';

/** A run can change thousands of places; the page lists this many, the export has them all. */
export const CHANGES_SHOWN = 500;

const KIND_ORDER: Record<ChangeRecord['kind'], number> = { added: 0, changed: 1, gone: 2 };

/**
 * A run's changes as the page lists them: new places first, then changed, then gone, each
 * by name (the store keeps them by place key, which means nothing to a person), at most `limit`.
 */
export function changesForDisplay(changes: readonly ChangeRecord[], limit = CHANGES_SHOWN): { shown: ChangeRecord[]; total: number } {
  const sorted = [...changes].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.fields.name.localeCompare(b.fields.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return { shown: sorted.slice(0, limit), total: changes.length };
}

/** "mapsweep_changes+Cafes-near-City-Hall_2026-03-20.csv": the saved search and the day its run started. */
export function changesFileName(searchName: string, runStartedAt: number): string {
  return exportFileName(['changes', searchName], new Date(runStartedAt), 'csv');
}
