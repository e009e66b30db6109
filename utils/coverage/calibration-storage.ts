import { calibrationStoreOver, isCalibration, keyedSerialiser, type CalibrationStore } from './calibration';
import type { GeometryCalibration } from './geometry';

/** Where calibrations live in storage.local: one key per provider and window size. */
export const CALIBRATION_PREFIX = 'calibration:';

/** The storage area the extension keeps calibrations in (browser.storage.local's shape). */
export interface KeyValueArea {
  get(keys: string | string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

/**
 * One lock per storage area, shared by every store made over it: storage.local has no
 * transactions, so the background's per-key lock is what keeps two tabs' updates apart.
 */
const locks = new WeakMap<KeyValueArea, ReturnType<typeof keyedSerialiser>>();

/** Calibrations in storage.local; a stored value of another shape is ignored (and learnt again), never trusted. */
export function storageCalibrationStore(area: KeyValueArea): CalibrationStore {
  let serialise = locks.get(area);
  if (!serialise) {
    serialise = keyedSerialiser();
    locks.set(area, serialise);
  }
  return calibrationStoreOver(
    {
      read: async (key) => (await area.get(CALIBRATION_PREFIX + key))[CALIBRATION_PREFIX + key],
      write: (key, cal) => area.set({ [CALIBRATION_PREFIX + key]: cal }),
    },
    serialise,
  );
}

/** Every stored calibration, for the options page. */
export async function listCalibrations(area: KeyValueArea): Promise<{ key: string; calibration: GeometryCalibration }[]> {
  const all = await area.get(null);
  return Object.entries(all)
    .filter(([k, v]) => k.startsWith(CALIBRATION_PREFIX) && isCalibration(v))
    .map(([k, v]) => ({ key: k.slice(CALIBRATION_PREFIX.length), calibration: v as GeometryCalibration }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Forget what was learnt: the next searches start again from the bounds every geometry allows. */
export async function resetCalibrations(area: KeyValueArea): Promise<number> {
  const keys = Object.keys(await area.get(null)).filter((k) => k.startsWith(CALIBRATION_PREFIX));
  if (keys.length) await area.remove(keys);
  return keys.length;
}
