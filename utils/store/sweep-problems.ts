import type { Cell, Sweep, SweepSettings, SweepStatus } from '../domain/sweep';
import { isNonEmptyString, newCellProblem } from './validate';

/** What a new sweep, or a change to one, must be before the store takes it; each says what is wrong, or null. */

/** What may be changed on a sweep from outside. Counters change only with the cells they count. */
export interface SweepPatch {
  status?: SweepStatus;
  pauseReason?: Sweep['pauseReason'];
  problem?: Sweep['problem'];
  settings?: Partial<SweepSettings>;
}

const SWEEP_STATUSES: readonly SweepStatus[] = ['running', 'paused', 'stopped', 'failed', 'finished'];
const PAUSE_REASONS: readonly Sweep['pauseReason'][] = ['user', 'captcha', 'consent', 'restart', 'quota', 'signed-out', 'team', 'host-access', null];
const PATCHABLE = new Set(['status', 'pauseReason', 'problem', 'settings']);

export function sweepProblem(sweep: Sweep, cells: readonly Cell[]): string | null {
  if (typeof sweep !== 'object' || sweep === null) return 'no sweep';
  if (!isNonEmptyString(sweep.id)) return 'the id is empty';
  if (!Array.isArray(sweep.keywords) || sweep.keywords.length === 0) return 'no keywords';
  if (typeof sweep.settings !== 'object' || sweep.settings === null) return 'no settings';
  if (!SWEEP_STATUSES.includes(sweep.status)) return `unknown status ${JSON.stringify(sweep.status)}`;
  if (!Array.isArray(cells) || cells.length === 0) return 'no cells';
  const ids = new Set<string>();
  for (const cell of cells) {
    const p = newCellProblem(cell, sweep.id);
    if (p) return p;
    if (ids.has(cell.id)) return `cell ${cell.id} appears twice`;
    ids.add(cell.id);
  }
  return null;
}

export function patchProblem(patch: SweepPatch): string | null {
  if (typeof patch !== 'object' || patch === null) return 'no patch';
  const extra = Object.keys(patch).filter((k) => !PATCHABLE.has(k));
  if (extra.length > 0) return `${extra.join(', ')} cannot be changed from outside`;
  if (patch.status !== undefined && !SWEEP_STATUSES.includes(patch.status)) return `unknown status ${JSON.stringify(patch.status)}`;
  if (patch.pauseReason !== undefined && !PAUSE_REASONS.includes(patch.pauseReason)) {
    return `unknown pause reason ${JSON.stringify(patch.pauseReason)}`;
  }
  if (patch.problem !== undefined && patch.problem !== null && typeof patch.problem !== 'object') return 'problem is not an error';
  return null;
}

export function settingsPatchProblem(current: SweepSettings, patch: Partial<SweepSettings>): string | null {
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in current)) return `unknown setting ${key}`;
    const was = current[key as keyof SweepSettings];
    if (typeof value !== typeof was) return `${key} must be a ${typeof was}`;
    if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) return `${key} must be a finite number ≥ 0`;
  }
  return null;
}
