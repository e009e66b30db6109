import { describe, expect, it } from 'vitest';
import type { BBox } from '../../utils/geo';
import { DEFAULT_PLANNER_OPTIONS, decideCell, visibleShare } from '../../utils/grid';
import type { CellDecision, CellDecisionInput } from '../../utils/grid';

/** A cell filling the default view (872 × 800 px) at `zoom`, at the equator. */
function boxFittingAt(zoom: number): BBox {
  const deg = 360 / (256 * 2 ** zoom);
  return { south: -400 * deg, north: 400 * deg, west: 0, east: 872 * deg };
}

/** The west half of boxFittingAt(zoom): 436 × 800 px, searched at the same zoom. */
function halfWidth(zoom: number): BBox {
  const b = boxFittingAt(zoom);
  return { ...b, east: b.east / 2 };
}

const base: CellDecisionInput = {
  pageKind: 'results',
  organic: 120,
  capHit: true,
  endOfList: false,
  requestedZoom: 15,
  finalZoom: 15,
  insideShare: 1,
  bbox: boxFittingAt(15),
  cellsKnown: 100,
};

const cases: [string, Partial<CellDecisionInput>, CellDecision][] = [
  ['a no-results page', { pageKind: 'no-results', organic: 0, capHit: false }, { verdict: 'done', reason: 'no-results' }],
  ['a single place', { pageKind: 'place', organic: 1, capHit: false }, { verdict: 'done', reason: 'single-result' }],
  ['a feed with no organic result', { organic: 0, capHit: false }, { verdict: 'done', reason: 'no-results' }],
  ['the site zoomed out by more than 0.5', { finalZoom: 14.4 }, { verdict: 'done', reason: 'site-zoomed-out' }],
  ['the site zoomed out by less than 0.5', { finalZoom: 14.6 }, { verdict: 'split', reason: 'cap-hit' }],
  ['an unknown final zoom', { finalZoom: null }, { verdict: 'split', reason: 'cap-hit' }],
  ['most results outside the cell', { insideShare: 0.49 }, { verdict: 'done', reason: 'results-outside' }],
  ['half the results inside', { insideShare: 0.5 }, { verdict: 'split', reason: 'cap-hit' }],
  ['the end of the list reached below the cap', { organic: 37, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
  ['no end marker below the cap', { organic: 37, capHit: false, endOfList: false }, { verdict: 'split', reason: 'no-end-marker' }],
  ['the cap reached, end marker shown too', { endOfList: true }, { verdict: 'split', reason: 'cap-hit' }],
  ['120 organic though the flag was missed', { capHit: false, endOfList: true }, { verdict: 'split', reason: 'cap-hit' }],
  ['crowded at the minimum size (children past zoom 20)', { bbox: boxFittingAt(19.5), requestedZoom: 19.5, finalZoom: 19.5 }, { verdict: 'saturated', reason: 'min-size' }],
  ['crowded one level above the minimum', { bbox: boxFittingAt(18.5), requestedZoom: 18.5, finalZoom: 18.5 }, { verdict: 'split', reason: 'cap-hit' }],
  // Half the view's width: an even spread puts half the results inside, so 0.3 is no stray.
  ['a half-width cell with 30% inside', { bbox: halfWidth(15), insideShare: 0.3 }, { verdict: 'split', reason: 'cap-hit' }],
  ['a half-width cell with 24% inside', { bbox: halfWidth(15), insideShare: 0.24 }, { verdict: 'done', reason: 'results-outside' }],
  ['crowded with room for exactly 4 more cells', { cellsKnown: 19_996 }, { verdict: 'split', reason: 'cap-hit' }],
  ['crowded with room for only 3 more cells', { cellsKnown: 19_997 }, { verdict: 'saturated', reason: 'cell-cap' }],
  ['crowded at minimum size and at the cap', { bbox: boxFittingAt(19.5), cellsKnown: 19_999 }, { verdict: 'saturated', reason: 'min-size' }],
  ['sparse at minimum size', { bbox: boxFittingAt(19.5), organic: 3, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
];

describe('decideCell', () => {
  it.each(cases)('%s', (_name, change, expected) => {
    expect(decideCell({ ...base, ...change }, DEFAULT_PLANNER_OPTIONS)).toEqual(expected);
  });

  it('never splits a cell the site did not find crowded', () => {
    // Over a grid of inputs: a split always has the cap reached or the end marker missing,
    // the requested zoom kept, and most results inside.
    for (const organic of [0, 1, 19, 20, 119, 120]) {
      for (const capHit of [false, true]) {
        for (const endOfList of [false, true]) {
          for (const finalZoom of [null, 13, 14.6, 15, 16]) {
            for (const insideShare of [0, 0.3, 0.5, 1]) {
              const input = { ...base, organic, capHit, endOfList, finalZoom, insideShare };
              const d = decideCell(input, DEFAULT_PLANNER_OPTIONS);
              if (d.verdict !== 'done') {
                expect(organic).toBeGreaterThan(0);
                expect(capHit || organic >= 120 || !endOfList).toBe(true);
                expect(finalZoom === null || finalZoom >= 14.5).toBe(true);
                expect(insideShare).toBeGreaterThanOrEqual(0.5);
              }
            }
          }
        }
      }
    }
  });
});

describe('visibleShare', () => {
  it('is the part of the 872 × 800 px visible map the cell covers (hand-computed)', () => {
    expect(visibleShare(boxFittingAt(15), 15, DEFAULT_PLANNER_OPTIONS.viewport)).toBeCloseTo(1, 6);
    expect(visibleShare(halfWidth(15), 15, DEFAULT_PLANNER_OPTIONS.viewport)).toBeCloseTo(0.5, 6);
    // A quarter-size cell searched one zoom lower than it fits: (436·400)/(872·800) = 1/4.
    expect(visibleShare(boxFittingAt(16), 15, DEFAULT_PLANNER_OPTIONS.viewport)).toBeCloseTo(0.25, 6);
    // Never above 1, even for a cell larger than the view.
    expect(visibleShare(boxFittingAt(14), 15, DEFAULT_PLANNER_OPTIONS.viewport)).toBe(1);
  });
});
