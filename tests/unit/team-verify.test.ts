/**
 * Another browser's settlement is checked as page content is before it decides anything here
 * (issue 36, utils/team/verify.ts): the reviewer's hostile document (another sweep, another
 * keyword, a 0.001° box, "done" with the cap hit, 500 places, generation 1e9) and each of its
 * faults alone are refused with a reason; a true settlement of the same cell is taken, a split
 * with this browser's own children (their `outside` decided here).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANNER_OPTIONS, splitCell } from '../../utils/grid';
import type { Area } from '../../utils/geo/types';
import type { Cell, CellResult } from '../../utils/domain/sweep';
import { childCells, plannedOf } from '../../utils/sweep/plan';
import { cellDocId, sharedCellOf, TEAM_SCHEMA, type CellDoc, type Settlement } from '../../utils/team/docs';
import { checkPlaces, checkSettlement } from '../../utils/team/verify';
import { makeCell, makeListing, makeSweep } from '../helpers/store-records';

// The area: the cell's east half is inside a polygon, its west half outside, so a split has children outside.
const AREA: Area = {
  kind: 'polygon',
  bbox: { south: 48.8, west: 2.3, north: 48.9, east: 2.4 },
  polygons: [
    [
      [
        { lat: 48.8, lng: 2.3051 },
        { lat: 48.8, lng: 2.4 },
        { lat: 48.9, lng: 2.4 },
        { lat: 48.9, lng: 2.3051 },
        { lat: 48.8, lng: 2.3051 },
      ],
    ],
  ],
};
const sweep = makeSweep('s1', { area: AREA });
const cell: Cell = makeCell('s1', 'r0c0');
const planner = DEFAULT_PLANNER_OPTIONS;
const local = { sweep, cell, planner };

const ended: CellResult = {
  reason: 'end-of-list',
  searchedBox: { south: 48.799, west: 2.299, north: 48.811, east: 2.311 },
  organic: 40,
  newListings: 40,
  endOfList: true,
  capHit: false,
  zoomedOut: false,
  insideShare: 1,
};
const capped: CellResult = { ...ended, reason: 'cap-hit', organic: 120, endOfList: false, capHit: true };

function docOf(settle: Partial<Settlement>, over: Partial<CellDoc> = {}): CellDoc {
  return {
    _id: cellDocId(cell),
    type: 'cell',
    schema: TEAM_SCHEMA,
    sweepId: cell.sweepId,
    cell: sharedCellOf(cell),
    lease: null,
    generation: 0,
    settle: { status: 'done', result: ended, children: [], places: [], by: 'bo', byName: 'Bo', at: 1, generation: 0, ...settle },
    ...over,
  };
}

describe("another browser's settlement", () => {
  it('a true one is taken: done on an ended list, a split into this browser\u2019s own children with `outside` decided here', () => {
    expect(checkSettlement(docOf({}), local)).toEqual({ ok: true, children: [] });
    const mine = childCells(sweep, cell, splitCell(plannedOf(cell), AREA, planner));
    // The other browser said none of them is outside: this browser's area says two are.
    const theirs = mine.map((c) => ({ ...sharedCellOf({ ...c, status: 'pending' }) }));
    const split = checkSettlement(docOf({ status: 'split', result: capped, children: theirs }), local);
    expect(split.ok && split.children.map((c) => c.status)).toEqual(mine.map((c) => c.status));
    expect(mine.some((c) => c.status === 'outside')).toBe(true);
  });

  it("the reviewer's document is refused: another sweep, keyword and box, done with the cap hit, 500 places, generation 1e9", () => {
    const hostile = docOf(
      { status: 'done', result: { ...capped, organic: 500 }, places: Array.from({ length: 500 }, (_, i) => `google:${i + 1}`), generation: 1e9 },
      {
        sweepId: 'other',
        cell: { ...sharedCellOf(cell), sweepId: 'other', keyword: 'sydney', bbox: { south: -33.87, west: 151.2, north: -33.869, east: 151.201 } },
      },
    );
    expect(checkSettlement(hostile, local)).toMatchObject({ ok: false });
  });

  it.each([
    ['another sweep', docOf({}, { sweepId: 'other' }), /another sweep/],
    ['another keyword', docOf({}, { cell: { ...sharedCellOf(cell), keyword: 'florist' } }), /another keyword/],
    ['another box', docOf({}, { cell: { ...sharedCellOf(cell), bbox: { ...cell.bbox, north: 48.8101 } } }), /another box/],
    ['another id', docOf({}, { _id: 'cell:s1/0/r9c9' }), /id/],
    ['a generation far ahead', docOf({ generation: 2 }), /generation/],
    ['done on a capped list', docOf({ result: { ...capped, reason: 'end-of-list' } }), /did not end below the cap/],
    ['an ordinary cell called an audit', docOf({ result: { ...ended, reason: 'audit' } }), /audit/],
    ['an empty list that held places', docOf({ result: { ...ended, reason: 'no-results' } }), /empty/],
    ['done with no searched box ("everywhere", on a page this browser never saw)', docOf({ result: { ...ended, searchedBox: null } }), /does not hold/],
    ['done on a list that did not end', docOf({ result: { ...ended, endOfList: false } }), /did not end below the cap/],
    [
      'done with a box that does not hold the cell',
      docOf({ result: { ...ended, searchedBox: { south: 48.8, west: 2.3, north: 48.805, east: 2.305 } } }),
      /does not hold/,
    ],
    ['done for no reason a search is done', docOf({ result: { ...ended, reason: 'cap-hit' } }), /reason/],
    ['more places than the list held', docOf({ places: Array.from({ length: 41 }, (_, i) => `google:${i}`) }), /41 places for a list of 40/],
    ['saturated where this browser would split', docOf({ status: 'saturated', result: { ...capped, reason: 'min-size' } }), /still split/],
    [
      'a split into other children',
      docOf({ status: 'split', result: capped, children: [{ ...sharedCellOf(cell), id: `${cell.id}.0`, parentId: cell.id, depth: 1 }] }),
      /children/,
    ],
  ] as const)('%s: refused with its reason', (_what, doc, reason) => {
    const check = checkSettlement(doc, local);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(reason);
  });
});

describe("another browser's places", () => {
  const inside = { ...makeListing('101'), lat: 48.805, lng: 2.308 };
  it('are taken when every one is readable and where a search of the cell could have listed it', () => {
    expect(checkPlaces([inside.key], [inside], { sweep, cell })).toEqual({ ok: true, listings: [inside] });
  });
  it('a missing place document, a place in Sydney, one outside the area, or another site\u2019s: the whole settlement refused', () => {
    expect(checkPlaces([inside.key, 'google:202'], [inside], { sweep, cell })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no readable document/),
    });
    const sydney = { ...makeListing('303'), name: '=HYPERLINK("http://x")', lat: -33.87, lng: 151.2 };
    expect(checkPlaces([sydney.key], [sydney], { sweep, cell })).toMatchObject({ ok: false });
    const westOfArea = { ...makeListing('404'), lat: 48.805, lng: 2.3021 };
    expect(checkPlaces([westOfArea.key], [westOfArea], { sweep, cell })).toMatchObject({ ok: false });
    const naver = { ...inside, key: 'naver:5', provider: 'naver' as const, providerId: '5', cid: null };
    expect(checkPlaces([naver.key], [naver], { sweep, cell })).toMatchObject({ ok: false });
  });
});
