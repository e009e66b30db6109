import { describe, expect, it } from 'vitest';
import { learnFromSearch, memoryCalibrationStore, type CalibrationStore, type SearchEvidence } from '../../utils/coverage/calibration';
import { CALIBRATION_PREFIX, storageCalibrationStore, type KeyValueArea } from '../../utils/coverage/calibration-storage';
import { initialCalibration, type MeasuredCanvas } from '../../utils/coverage/geometry';
import { worldXToLng, lngToWorldX } from '../../utils/geo/mercator';

// Two tabs of one worker window learn into the one calibration of their window size (issue 22,
// "Smaller holes"). Each visit's evidence must survive the other's, whichever ends first.

const CANVAS: MeasuredCanvas = { width: 1280, height: 800, panelRight: null };
const KEY = 'google:1280x800';
const VIEW = { lat: 37.5, lng: 127.0, zoom: 16 };

/** One search that listed a single place `x` px right of the view's centre. */
function evidenceAt(x: number): SearchEvidence {
  const lng = worldXToLng(lngToWorldX(VIEW.lng, VIEW.zoom) + x, VIEW.zoom);
  return { view: VIEW, canvas: CANVAS, places: [{ lat: VIEW.lat, lng }], complete: false };
}
// A place 300 px left of centre proves the right-of-panel panel is at most 341 px; one 500 px
// right proves the panel-centred panel is at most 281 px. Neither says anything about the other bound.
const TAB_A = evidenceAt(-300);
const TAB_B = evidenceAt(500);

/** storage.local as the background sees it: every get and set is a round trip, so two tabs' calls interleave. */
function slowArea(): KeyValueArea & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = {};
  const tick = () => new Promise((r) => setTimeout(r, 1));
  return {
    data,
    async get(keys) {
      await tick();
      const list = keys === null ? Object.keys(data) : Array.isArray(keys) ? keys : [keys];
      return Object.fromEntries(list.filter((k) => k in data).map((k) => [k, structuredClone(data[k])]));
    },
    async set(items) {
      await tick();
      Object.assign(data, structuredClone(items));
    },
    async remove(keys) {
      for (const k of Array.isArray(keys) ? keys : [keys]) delete data[k];
    },
  };
}

/** One tab's visit: learn its evidence into the stored calibration, as the driver does. */
const visit = (store: CalibrationStore, ev: SearchEvidence) =>
  store.update(KEY, initialCalibration(CANVAS, 0), (current) => ({ calibration: learnFromSearch(current, ev, 1) }));

describe('CalibrationStore.update: two tabs learning at once', () => {
  it('keeps what both visits learnt (storage.local, interleaved round trips)', async () => {
    const area = slowArea();
    const store = storageCalibrationStore(area);
    await Promise.all([visit(store, TAB_A), visit(store, TAB_B)]);
    const stored = (await store.get(KEY))!;
    expect(stored.panelBoundRight).toBeCloseTo(341, 6);
    expect(stored.panelBoundCentred).toBeCloseTo(281, 6);
    expect(stored.searches).toBe(2);
  });

  it('shares one lock between stores made over the same area (one per tab loop, say)', async () => {
    const area = slowArea();
    await Promise.all([visit(storageCalibrationStore(area), TAB_A), visit(storageCalibrationStore(area), TAB_B)]);
    const stored = area.data[CALIBRATION_PREFIX + KEY] as { panelBoundRight: number; panelBoundCentred: number; searches: number };
    expect([Math.round(stored.panelBoundRight), Math.round(stored.panelBoundCentred), stored.searches]).toEqual([341, 281, 2]);
  });

  it('gives each visit the calibration the one before it wrote, and its own verdict back', async () => {
    const store = storageCalibrationStore(slowArea());
    const [a, b] = await Promise.all([visit(store, TAB_A), visit(store, TAB_B)]);
    // The second learns on top of the first: its "before" is exactly what the first kept.
    expect(b.before).toEqual(a.result.calibration);
    expect(b.result.calibration.panelBoundRight).toBeCloseTo(341, 6);
  });

  it('keeps both in the in-memory store too (tests and the bench)', async () => {
    const store = memoryCalibrationStore();
    await Promise.all([visit(store, TAB_A), visit(store, TAB_B)]);
    const kept = store.entries.get(KEY)!;
    expect([Math.round(kept.panelBoundRight), Math.round(kept.panelBoundCentred), kept.searches]).toEqual([341, 281, 2]);
  });

  it('a learn that throws fails its own visit only: the next update of the key still runs, and nothing half-done is written', async () => {
    const area = slowArea();
    const store = storageCalibrationStore(area);
    const bad = store.update(KEY, initialCalibration(CANVAS, 0), () => {
      throw new Error('bad page');
    });
    const good = visit(store, TAB_B);
    await expect(bad).rejects.toThrow('bad page');
    await good;
    const kept = (await store.get(KEY))!;
    expect([Math.round(kept.panelBoundCentred), kept.searches]).toEqual([281, 1]);
  });

  it('writes nothing when the visit learnt nothing', async () => {
    const area = slowArea();
    const store = storageCalibrationStore(area);
    const empty: SearchEvidence = { ...TAB_A, places: [] };
    const { before, result } = await visit(store, empty);
    expect(result.calibration).toBe(before);
    expect(area.data).toEqual({});
  });

  it('a stored value of another shape is learnt again from `fresh`, not trusted', async () => {
    const area = slowArea();
    area.data[CALIBRATION_PREFIX + KEY] = { version: 1, width: 'wide' };
    const { before } = await visit(storageCalibrationStore(area), TAB_A);
    expect(before).toEqual(initialCalibration(CANVAS, 0));
  });
});
