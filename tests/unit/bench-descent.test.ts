import { describe, expect, it } from 'vitest';
import {
  DESCENT_MIN_SAMPLES,
  descentOutcome,
  descentSamples,
  descentThreshold,
  hitsFromParent,
  predictedCrowded,
  quadrantHits,
  type DescentCell,
  type DescentSample,
} from '../../scripts/bench/descent';

const map = (cells: DescentCell[]) => new Map(cells.map((c) => [c.path, c]));
const samples = (depth: number, pairs: [number, boolean][]): DescentSample[] => pairs.map(([hits, crowded]) => ({ depth, hits, crowded }));

describe('predicted descent (the bench experiment)', () => {
  it('counts points per quadrant in NW, NE, SW, SE order and ignores points outside', () => {
    const box = { south: 0, west: 0, north: 2, east: 2 };
    expect(quadrantHits(box, [{ lat: 1.5, lng: 0.5 }, { lat: 1.5, lng: 1.5 }, { lat: 0.5, lng: 1.5 }, { lat: 0.5, lng: 1.6 }, { lat: 3, lng: 1 }])).toEqual([1, 1, 0, 2]);
  });

  it('predicts nothing before enough quadrants of the same depth were seen', () => {
    const few = samples(2, Array.from({ length: DESCENT_MIN_SAMPLES - 1 }, (_, i) => [50 + i, true] as [number, boolean]));
    expect(descentThreshold(few, 2)).toBeNull();
    // Plenty of evidence one level up says nothing about this level.
    const otherDepth = samples(1, Array.from({ length: 20 }, (_, i) => [10 + i, true] as [number, boolean]));
    expect(descentThreshold([...few, ...otherDepth], 2)).toBeNull();
  });

  it('takes the lowest threshold whose quadrants were nearly all crowded', () => {
    const s = samples(3, [
      [80, true], [70, true], [60, true], [55, true], [50, true], [45, true], [40, false], [35, true], [30, false], [20, false], [10, false],
    ]);
    // ≥ 45: 6 of 6 crowded; ≥ 35: 7 of 8 (0.875 < 0.9); so 45 with 4 samples needed.
    expect(descentThreshold(s, 3)).toBe(45);
    expect(descentThreshold(samples(3, [[9, false], [8, false], [7, false], [6, false], [5, false]]), 3)).toBeNull();
  });

  it('learns from predicted quadrants through their children, wrong predictions included', () => {
    const cells = map([
      { path: 'r0c0', outcome: { crowded: true, inside: 118 }, quadrantHits: [60, 30, 20, 10] },
      { path: 'r0c0.0', outcome: null, predicted: true },
      { path: 'r0c0.0.0', outcome: { crowded: false, inside: 20 } },
      { path: 'r0c0.0.1', outcome: { crowded: false, inside: 20 } },
      { path: 'r0c0.0.2', outcome: { crowded: false, inside: 20 } },
      { path: 'r0c0.0.3', outcome: { crowded: false, inside: 20 } },
      { path: 'r0c0.1', outcome: { crowded: true, inside: 116 } },
      { path: 'r0c0.2', outcome: null }, // not searched yet
    ]);
    expect(hitsFromParent('r0c0.1', cells)).toBe(30);
    expect(hitsFromParent('r0c0', cells)).toBeNull();
    // 80 places in the predicted quadrant's children: below 115, so the prediction was wrong.
    expect(descentSamples(cells, 115).sort((a, b) => b.hits - a.hits)).toEqual([
      { depth: 1, hits: 60, crowded: false },
      { depth: 1, hits: 30, crowded: true },
    ]);
    expect(descentSamples(new Map([...cells, ['r0c0.0.3', { path: 'r0c0.0.3', outcome: { crowded: false, inside: 60 } }]]), 115)[0]).toEqual({ depth: 1, hits: 60, crowded: true });
  });

  it('predicts a quadrant only at or over its depth’s threshold', () => {
    const parent: DescentCell = { path: 'r0c1', outcome: { crowded: true, inside: 118 }, quadrantHits: [70, 5, 5, 5] };
    const siblings: DescentCell[] = Array.from({ length: 6 }, (_, i) => ({ path: `r1c${i}`, outcome: { crowded: true, inside: 119 }, quadrantHits: [65, 0, 0, 0] }));
    const searched: DescentCell[] = siblings.map((s) => ({ path: `${s.path}.0`, outcome: { crowded: true, inside: 117 } }));
    const cells = map([parent, ...siblings, ...searched]);
    expect(predictedCrowded('r0c1.0', cells, 115)).toBe(true);
    expect(predictedCrowded('r0c1.1', cells, 115)).toBe(false);
  });

  it('reads crowding from the decision reason only when it says something', () => {
    expect(descentOutcome('cap-hit', 120, 0.9)).toEqual({ crowded: true, inside: 108 });
    expect(descentOutcome('end-of-list', 40, 0.5)).toEqual({ crowded: false, inside: 20 });
    expect(descentOutcome('view-not-covering', 120, 1)).toBeNull();
    expect(descentOutcome(undefined, 3, 1)).toBeNull();
  });
});
