import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import { quadtreeFloor } from '../../scripts/bench/floor';
import { BENCH_SWITCHES, runSweepLoop } from '../../scripts/bench/sweep-loop';
import { recallOf, runUniformGrid, uniformAtRecall, zoomForCellKm } from '../../scripts/bench/uniform';
import { simSweep } from '../helpers/sim-sweep';
import { AREA, parsed, storedKeys, truthKeys, world } from '../helpers/sim-world';
import { groundTruth } from '../replica/search';
import { worldFromSpecs, type PlaceSpec } from '../replica/world';

describe('the bench sweep loop', () => {
  it.each(['cafe', 'pharmacy'])('makes the same page loads and keeps the same places as the real driver (%s)', async (keyword) => {
    const real = await simSweep({ world, areaText: AREA, keywordsText: keyword, switches: BENCH_SWITCHES });
    expect(real.sweep.status).toBe('finished');
    const loop = await runSweepLoop({ world, area: parsed(AREA), keyword, viewport: DEFAULT_VIEWPORT });
    // The driver also audits its work before Finished; the loop does not (the bench counts it apart).
    expect(real.sweep.audit?.missed).toBe(0);
    expect(loop.searches).toBe(real.loads - real.sweep.audit!.searched);
    expect([...loop.found].sort()).toEqual((await storedKeys(real.store, real.sweep.id)).sort());
    expect(loop.splits).toBe(real.sweep.counters.cellsSplit);
    // And nothing of the area is missing.
    expect(recallOf(loop.found, truthKeys(keyword))).toBe(1);
  });
});

describe('quadtreeFloor', () => {
  it('is a lower bound on the cells the sweep searched without splitting (two independent computations)', async () => {
    // The floor counts, from the ground truth, the final cells of the same quadtree in the
    // site's true geometry; the sweep finds its final cells by searching, inside the smaller
    // box every plausible geometry searches, so it needs at least as many.
    const area = parsed(AREA);
    for (const keyword of ['cafe', 'bakery']) {
      const loop = await runSweepLoop({ world, area, keyword, viewport: DEFAULT_VIEWPORT });
      expect(loop.splits).toBeGreaterThan(0);
      const floor = quadtreeFloor(world, area, keyword, DEFAULT_VIEWPORT);
      expect(floor).toBeGreaterThan(0);
      expect(floor).toBeLessThanOrEqual(loop.searches - loop.splits);
    }
  });
});

describe('uniform grids', () => {
  const cafe = (name: string, lat: number, lng: number, prominence = 0.5): PlaceSpec => ({ name, category: 'cafe', lat, lng, prominence });

  it('sizes cells by the view height (hand-computed)', () => {
    // log2(156543.03392 m · 800 px / 3000 m) = log2(41744.81) = 15.3493 at the equator; cos 60° = 1/2 → one zoom less.
    expect(zoomForCellKm(3, 0, DEFAULT_VIEWPORT)).toBeCloseTo(15.3493, 4);
    expect(zoomForCellKm(3, 60, DEFAULT_VIEWPORT)).toBeCloseTo(14.3493, 4);
    expect(zoomForCellKm(0.75, 0, DEFAULT_VIEWPORT)).toBeCloseTo(17.3493, 4);
  });

  it('searches every cell once and keeps only places inside the area', async () => {
    // 0.3° × 0.2° at the equator is 5 × 3 cells at zoom 14 (hand-computed in grid-plan.test.ts).
    const area = parsed('0,0,0.2,0.3');
    const specs = [cafe('A', 0.05, 0.05), cafe('B', 0.15, 0.25), cafe('C', 0.1, 0.15), cafe('Outside', 0.1, 0.35)];
    const w = worldFromSpecs(specs, { centre: { lat: 0.1, lng: 0.15 } });
    const truth = new Set(groundTruth(w, 'cafe', area).map((p) => `google:${p.cid}`));
    expect(truth.size).toBe(3);
    const figures = await runUniformGrid({ world: w, area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, truth }, 14);
    expect(figures.searches).toBe(15);
    expect(figures.recall).toBe(1);
  });

  it('finds no uniform grid when more places than the cap share one spot, and the cheapest one otherwise', async () => {
    const area = parsed('0,0,0.002,0.002');
    const stack = Array.from({ length: 130 }, (_, i) => cafe(`Stack ${i}`, 0.001, 0.001, i / 130));
    const crowded = worldFromSpecs(stack, { centre: { lat: 0.001, lng: 0.001 } });
    const truth = new Set(groundTruth(crowded, 'cafe', area).map((p) => `google:${p.cid}`));
    expect(await uniformAtRecall({ world: crowded, area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, truth }, 1)).toBeNull();

    const few = worldFromSpecs(stack.slice(0, 100), { centre: { lat: 0.001, lng: 0.001 } });
    const fewTruth = new Set(groundTruth(few, 'cafe', area).map((p) => `google:${p.cid}`));
    const input = { world: few, area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, truth: fewTruth };
    const best = await uniformAtRecall(input, 1);
    expect(best?.recall).toBe(1);
    // The whole area fits one view at zoom 15: one search is all it takes.
    expect(best?.searches).toBe(1);
  });
});
