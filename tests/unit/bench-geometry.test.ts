import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import { BENCH_SWITCHES, runSweepLoop } from '../../scripts/bench/sweep-loop';
import { recallOf } from '../../scripts/bench/uniform';
import { frozenCalibration, simSweep } from '../helpers/sim-sweep';
import { AREA, parsed, storedKeys, truthKeys, world } from '../helpers/sim-world';
import { SEARCH_GEOMETRIES } from '../replica/geometry';

// The bench's geometry section (scripts/bench/geometry.ts) reports the loop's figures under
// each replica geometry, calibrated and not: they describe the extension only if the loop
// makes the real driver's page loads there too (the driver's end-of-sweep audit aside).

const cases = SEARCH_GEOMETRIES.flatMap((geometry) => [true, false].map((learn) => [geometry, learn] as const));

describe('the bench sweep loop under each search geometry (panel 460 px)', () => {
  it.each(cases)("%s, learning %s: the real driver's page loads and places, and the whole ground truth", async (geometry, learn) => {
    const switches = { ...BENCH_SWITCHES, geometry, panelWidth: 460 };
    const real = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', switches, ...(learn ? {} : { calibration: frozenCalibration() }) });
    expect(real.sweep.status).toBe('finished');
    const loop = await runSweepLoop({ world, area: parsed(AREA), keyword: 'cafe', viewport: DEFAULT_VIEWPORT, switches, learn });
    expect(loop.searches).toBe(real.loads - (real.sweep.audit?.searched ?? 0));
    expect([...loop.found].sort()).toEqual((await storedKeys(real.store, real.sweep.id)).sort());
    expect(loop.saturated).toBe(0);
    expect(recallOf(loop.found, truthKeys('cafe'))).toBe(1);
    if (!learn) expect(loop.calibration).toBeNull();
  });

  it('costs more searches uncalibrated than calibrated', async () => {
    const switches = { ...BENCH_SWITCHES, geometry: 'right-of-panel' as const, panelWidth: 408 };
    const run = (learn: boolean) => runSweepLoop({ world, area: parsed(AREA), keyword: 'cafe', viewport: DEFAULT_VIEWPORT, switches, learn });
    expect((await run(false)).searches).toBeGreaterThan((await run(true)).searches);
  });
});
