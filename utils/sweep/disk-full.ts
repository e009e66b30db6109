import type { CellError } from '../domain/sweep';

/**
 * "The disk is full" as recorded outside IndexedDB (storage.local): when the disk is full,
 * IndexedDB refuses writes, and the sweep's own pause (a write) may be refused with them. The
 * driver sets this flag first; the popup reads it and says so; the controller starts no loop
 * for a flagged sweep until Resume (or Stop) clears it.
 */
export const DISK_FULL_KEY = 'diskFull';

export interface DiskFull {
  sweepId: string;
  at: number;
  message: string;
}

export function readDiskFull(value: unknown): DiskFull | null {
  const v = value as Partial<DiskFull> | null | undefined;
  if (!v || typeof v !== 'object' || typeof v.sweepId !== 'string' || !Number.isFinite(v.at) || typeof v.message !== 'string') return null;
  return { sweepId: v.sweepId, at: v.at as number, message: v.message };
}

export function diskFullOf(sweepId: string, error: CellError): DiskFull {
  return { sweepId, at: error.at, message: error.message };
}

/** The flag as the popup shows it: only for the sweep on screen. */
export function diskFullFor(value: unknown, sweepId: string | undefined): DiskFull | null {
  const flag = readDiskFull(value);
  return flag && flag.sweepId === sweepId ? flag : null;
}

type LocalStorage = { get(key: string): Promise<Record<string, unknown>>; remove(key: string): Promise<void> };

/** Whether the disk-full flag stands for this sweep. */
export async function isDiskFull(local: LocalStorage, sweepId: string): Promise<boolean> {
  return readDiskFull((await local.get(DISK_FULL_KEY))[DISK_FULL_KEY])?.sweepId === sweepId;
}

/** Clears the flag if it stands for this sweep (Resume, Stop); whether it did. */
export async function clearDiskFull(local: LocalStorage, sweepId: string): Promise<boolean> {
  if (!(await isDiskFull(local, sweepId))) return false;
  await local.remove(DISK_FULL_KEY);
  return true;
}
