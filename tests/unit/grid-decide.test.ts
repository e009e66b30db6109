import { describe, expect, it } from 'vitest';
import type { BBox } from '../../utils/geo';
import { DEFAULT_PLANNER_OPTIONS, decideCell } from '../../utils/grid';
import type { CellDecision, CellDecisionInput } from '../../utils/grid';

/** A cell filling the default view (872 × 800 px) at `zoom`, at the equator. */
function boxFittingAt(zoom: number): BBox {
  const deg = 360 / (256 * 2 ** zoom);
  return { south: -400 * deg, north: 400 * deg, west: 0, east: 872 * deg };
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
  // A capped list after the site widened its view proves nothing: search the cell once more
  // with a wider view; if the site widens that one too and caps it, report it as unresolved.
  ['the site zoomed out by more than 0.5 and hit the cap', { finalZoom: 14.4 }, { verdict: 'widen', reason: 'zoomed-out-capped' }],
  [
    'zoomed out and capped again on the widened re-search',
    { finalZoom: 13.4, requestedZoom: 14.5, zoomOffset: -0.5 },
    { verdict: 'saturated', reason: 'zoomed-out-capped' },
  ],
  [
    'the widened re-search listed the whole of its view',
    { finalZoom: 14.5, requestedZoom: 14.5, zoomOffset: -0.5, organic: 60, capHit: false, endOfList: true },
    { verdict: 'done', reason: 'end-of-list' },
  ],
  ['zoomed out, the wider list complete', { finalZoom: 13, organic: 40, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
  ['the site zoomed out by less than 0.5', { finalZoom: 14.6 }, { verdict: 'split', reason: 'cap-hit' }],
  ['an unknown final zoom', { finalZoom: null }, { verdict: 'split', reason: 'cap-hit' }],
  // Results beside the cell do not make a capped list complete, nor a complete one incomplete.
  ['most results outside the cell, capped', { insideShare: 0.1 }, { verdict: 'split', reason: 'cap-hit' }],
  ['most results outside the cell, complete', { insideShare: 0.1, organic: 30, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
  ['the end of the list reached below the cap', { organic: 37, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
  ['the end of the list within the margin of the cap', { organic: 116, capHit: false, endOfList: true }, { verdict: 'split', reason: 'cap-hit' }],
  ['the end of the list just below the margin', { organic: 114, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
  ['no end marker below the cap', { organic: 37, capHit: false, endOfList: false }, { verdict: 'split', reason: 'no-end-marker' }],
  ['the cap reached, end marker shown too', { endOfList: true }, { verdict: 'split', reason: 'cap-hit' }],
  ['120 organic though the flag was missed', { capHit: false, endOfList: true }, { verdict: 'split', reason: 'cap-hit' }],
  [
    'the measured view did not hold the cell',
    { organic: 10, capHit: false, endOfList: true, covered: false },
    { verdict: 'split', reason: 'view-not-covering' },
  ],
  [
    'the view did not hold a minimum-size cell',
    { bbox: boxFittingAt(20.5), organic: 10, capHit: false, endOfList: true, covered: false },
    { verdict: 'saturated', reason: 'view-not-covering' },
  ],
  [
    'a no-results page whose view did not hold the cell',
    { pageKind: 'no-results', organic: 0, capHit: false, covered: false },
    { verdict: 'split', reason: 'view-not-covering' },
  ],
  [
    'crowded at the minimum size (children past zoom 21)',
    { bbox: boxFittingAt(20.5), requestedZoom: 20.5, finalZoom: 20.5 },
    { verdict: 'saturated', reason: 'min-size' },
  ],
  ['crowded one level above the minimum', { bbox: boxFittingAt(19.5), requestedZoom: 19.5, finalZoom: 19.5 }, { verdict: 'split', reason: 'cap-hit' }],
  ['crowded with room for exactly 4 more cells', { cellsKnown: 19_996 }, { verdict: 'split', reason: 'cap-hit' }],
  ['crowded with room for only 3 more cells', { cellsKnown: 19_997 }, { verdict: 'saturated', reason: 'cell-cap' }],
  ['crowded at minimum size and at the cap', { bbox: boxFittingAt(20.5), cellsKnown: 19_999 }, { verdict: 'saturated', reason: 'min-size' }],
  ['sparse at minimum size', { bbox: boxFittingAt(20.5), organic: 3, capHit: false, endOfList: true }, { verdict: 'done', reason: 'end-of-list' }],
];

describe('decideCell', () => {
  it.each(cases)('%s', (_name, change, expected) => {
    expect(decideCell({ ...base, ...change }, DEFAULT_PLANNER_OPTIONS)).toEqual(expected);
  });

  it('is done only with proof: the view held the cell and the page showed the whole list', () => {
    for (const organic of [0, 1, 19, 20, 114, 115, 119, 120]) {
      for (const capHit of [false, true]) {
        for (const endOfList of [false, true]) {
          for (const finalZoom of [null, 13, 14.6, 15, 16]) {
            for (const covered of [false, true]) {
              for (const pageKind of ['results', 'place', 'no-results'] as const) {
                const d = decideCell({ ...base, pageKind, organic, capHit, endOfList, finalZoom, covered }, DEFAULT_PLANNER_OPTIONS);
                if (d.verdict === 'done') {
                  expect(covered).toBe(true);
                  if (pageKind === 'results' && organic > 0) {
                    expect(endOfList).toBe(true);
                    expect(capHit || organic >= 115).toBe(false);
                  }
                }
              }
            }
          }
        }
      }
    }
  });
});
