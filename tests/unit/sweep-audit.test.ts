import { describe, expect, it } from 'vitest';
import { AUDIT_MIN_CELLS } from '../../utils/coverage/audit';
import { frozenCalibration, simSweep } from '../helpers/sim-sweep';
import { AREA, inAnyCell, storedKeys, truthKeys, world } from '../helpers/sim-world';

describe('the sweep audits its own work before it says Finished', () => {
  it('re-searches a sample of done cells at an offset, and finds nothing missed when the geometry holds', async () => {
    const { store, sweep } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe' });
    expect(sweep.status).toBe('finished');
    expect(sweep.audit?.round).toBe(1);
    expect(sweep.audit?.searched).toBeGreaterThanOrEqual(AUDIT_MIN_CELLS);
    expect(sweep.audit?.missed).toBe(0);
    const audits = (await store.listCells(sweep.id)).filter((c) => c.role === 'audit');
    expect(audits.length).toBe(sweep.audit?.searched);
    for (const a of audits) expect(a.auditOf).toBeTruthy();
    expect(new Set(await storedKeys(store, sweep.id))).toEqual(truthKeys('cafe'));
  });

  it.each([700, 800])(
    'catches a geometry no rule foresaw (panel %i px), re-opens the cells, and ends with the ground truth (calibration off)',
    async (panelWidth) => {
      // The site leaves out a strip wider than the 408-px panel its page draws (and than the 480 px
      // the extension allows for before any evidence), so every search misses a strip the
      // extension believes it searched. With learning off, only the audit can notice.
      const switches = { signedIn: true, sparseZoomOut: false, geometry: 'right-of-panel' as const, panelWidth };
      const { store, sweep } = await simSweep({
        world,
        areaText: AREA,
        keywordsText: 'cafe',
        switches,
        sim: { drawnPanelWidth: 408 },
        calibration: frozenCalibration(),
      });
      expect(sweep.status).toBe('finished');
      expect(sweep.audit!.missed).toBeGreaterThan(0);
      expect(sweep.audit!.reopened).toBeGreaterThan(0);
      expect(sweep.audit!.round).toBeGreaterThanOrEqual(2);
      const saturated = await store.listCells(sweep.id, 'saturated');
      const stored = new Set(await storedKeys(store, sweep.id));
      const missing = [...truthKeys('cafe')].filter((k) => !stored.has(k));
      const inSaturated = (k: string) => inAnyCell(world.byCid.get(k.slice('google:'.length))!, saturated);
      expect(missing.filter((k) => !inSaturated(k))).toEqual([]);
    },
  );
});
