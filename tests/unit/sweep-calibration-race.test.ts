import { describe, expect, it } from 'vitest';
import { isCalibration } from '../../utils/coverage/calibration';
import { CALIBRATION_PREFIX, storageCalibrationStore, type KeyValueArea } from '../../utils/coverage/calibration-storage';
import { seededRandom } from '../helpers/random';
import { simSweep } from '../helpers/sim-sweep';
import { AREA, world } from '../helpers/sim-world';

// Two tabs of one worker window share one calibration record (one per window size). Each visit
// that learns must learn on top of every visit before it: the real driver, two tabs, and a
// storage.local whose reads and writes are round trips (so the tabs' visits interleave).

/**
 * storage.local as the background sees it: the browser handles calls in the order they are
 * made (a get answers with what was stored when it was asked, a set stores at once), but each
 * answer comes back after its own round trip, some slow. So one tab's visit can read the
 * calibration while another tab's read-then-write of it is under way, as when two tabs finish
 * collecting at about the same moment.
 */
function recordingArea(): KeyValueArea & { writes: { key: string; searches: number }[] } {
  const data: Record<string, unknown> = {};
  const writes: { key: string; searches: number }[] = [];
  const random = seededRandom(7);
  const answer = <T>(value: T) => new Promise<T>((r) => setTimeout(() => r(value), 1 + Math.floor(random() * 40)));
  return {
    writes,
    get(keys) {
      const list = keys === null ? Object.keys(data) : Array.isArray(keys) ? keys : [keys];
      return answer(Object.fromEntries(list.filter((k) => k in data).map((k) => [k, structuredClone(data[k])])));
    },
    set(items) {
      for (const [key, v] of Object.entries(items)) if (isCalibration(v)) writes.push({ key: key.slice(CALIBRATION_PREFIX.length), searches: v.searches });
      Object.assign(data, structuredClone(items));
      return answer(undefined);
    },
    async remove(keys) {
      for (const k of Array.isArray(keys) ? keys : [keys]) delete data[k];
    },
  };
}

describe('two tabs of one worker window learning into one calibration', () => {
  it('every write holds the evidence of every visit before it: no visit is overwritten', async () => {
    const area = recordingArea();
    const { sweep } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', workers: 2, seed: 3, calibration: storageCalibrationStore(area) });
    expect(sweep.status).toBe('finished');
    const byKey = new Map<string, number[]>();
    for (const w of area.writes) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w.searches]);
    expect(area.writes.length).toBeGreaterThan(10);
    // Each search that taught something counts once: 1, 2, 3, … A lost update shows as a count
    // written twice (two visits learnt from the same stored value, the later one dropped the other).
    for (const counts of byKey.values()) expect(counts).toEqual(counts.map((_, i) => i + 1));
  });
});
