import type { CellStatus } from '../domain/sweep';

const CELL_STATUSES: readonly CellStatus[] = ['pending', 'leased', 'done', 'split', 'saturated', 'quarantined', 'outside'];

export function isCellStatus(value: unknown): value is CellStatus {
  return CELL_STATUSES.includes(value as CellStatus);
}

/**
 * Why a cell about to be created cannot be stored, or null. New cells start pending (or
 * outside the polygon) with no history. The numbers are checked because they form the
 * lease-order key, and IndexedDB silently leaves a record with a NaN key part out of an
 * index: such a cell would never be handed out, and the sweep would never finish.
 */
export function newCellProblem(value: unknown, sweepId: string): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const c = value as Record<string, unknown>;
  const id = typeof c.id === 'string' ? c.id : '';
  if (id === '') return 'the id is empty';
  if (c.sweepId !== sweepId) return `cell ${id} belongs to sweep ${String(c.sweepId)}, not ${sweepId}`;
  if (typeof c.keyword !== 'string' || c.keyword === '') return `cell ${id} has no keyword`;
  for (const f of ['keywordIndex', 'depth'] as const) {
    if (!Number.isInteger(c[f]) || (c[f] as number) < 0) return `cell ${id}: ${f} is not a whole number ≥ 0`;
  }
  if (typeof c.distance !== 'number' || !Number.isFinite(c.distance) || c.distance < 0) {
    return `cell ${id}: distance is not a finite number ≥ 0`;
  }
  const bbox = c.bbox as Record<string, unknown> | null | undefined;
  if (!bbox || !['south', 'west', 'north', 'east'].every((k) => typeof bbox[k] === 'number' && Number.isFinite(bbox[k]))) {
    return `cell ${id}: bbox is not four finite numbers`;
  }
  if (c.status !== 'pending' && c.status !== 'outside') return `cell ${id} starts as ${String(c.status)}, not pending or outside`;
  if (c.attempts !== 0 || c.leaseHolder !== null || c.leaseUntil !== 0 || c.nextAttemptAt !== 0) {
    return `cell ${id} starts with a lease or attempts`;
  }
  if (c.parentId !== null && typeof c.parentId !== 'string') return `cell ${id}: parentId is neither text nor null`;
  return null;
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

export function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
