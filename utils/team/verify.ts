/**
 * Another browser's settlement of a cell, checked as page content is before it decides anything
 * here (issue 36). A well-shaped document is not yet evidence: it is applied only when
 * - it is this very cell's: its id, sweep, keyword and box exactly the local cell's;
 * - its generation is at most one above the local one (a document from far ahead is no reading
 *   of this cell's last search);
 * - its result is itself a proof under the local rules: `done` only on a list that ended below
 *   the cap (decideCell's "not crowded"), `split` only into the children this browser's planner
 *   makes of the cell (the quarters that tile it, or the widened search of the same box), and
 *   `saturated` only where the local planner could not split further; which children lie
 *   outside the area is decided here, never copied;
 * - its places are all readable and lie where a search of the cell could have listed them (in
 *   the area, and not far outside the cell).
 * Anything else decides nothing: the cell is searched here, and the refusal is counted with its
 * reason for the popup. Pure.
 */
import { widenedCell, splitCell, minCellReached } from '../grid';
import { CAP_MARGIN } from '../grid/decide';
import type { PlannerOptions } from '../grid/types';
import { areaContains } from '../geo';
import { bboxContains, bboxContainsBBox } from '../geo/bbox';
import type { BBox } from '../geo/types';
import type { Cell, CellResult, Sweep } from '../domain/sweep';
import type { Listing } from '../domain/listing';
import { childCells, plannedOf } from '../sweep/plan';
import { nearSearched } from '../sweep/bounds-proof';
import { providerFor } from '../providers/registry';
import { cellDocId, type CellDoc, type Settlement } from './docs';

export type SettlementCheck = { ok: true; children: Cell[] } | { ok: false; reason: string };

const sameBox = (a: BBox, b: BBox) => a.south === b.south && a.west === b.west && a.north === b.north && a.east === b.east;

/**
 * Whether `doc`'s settlement may settle the local `cell` of `sweep`, and the children to commit
 * for a split (this browser's own, `outside` as this area has it).
 */
export function checkSettlement(doc: CellDoc, local: { sweep: Sweep; cell: Cell; planner: PlannerOptions }): SettlementCheck {
  const { sweep, cell, planner } = local;
  const s = doc.settle;
  if (!s) return { ok: false, reason: 'it settles nothing' };
  const identity = identityProblem(doc, cell);
  if (identity) return { ok: false, reason: identity };
  const generation = cell.reopened ?? 0;
  if (s.generation > generation + 1) return { ok: false, reason: `its generation ${s.generation} is beyond this browser's ${generation} + 1` };
  const r = s.result;
  if (!Number.isInteger(r.organic) || r.organic < 0 || typeof r.endOfList !== 'boolean' || typeof r.capHit !== 'boolean')
    return { ok: false, reason: 'its result is not a reading of a list' };
  if (s.places.length > r.organic) return { ok: false, reason: `it names ${s.places.length} places for a list of ${r.organic}` };
  if (s.status === 'done') {
    const why = doneProblem(r, cell, planner);
    return why ? { ok: false, reason: why } : { ok: true, children: [] };
  }
  if (s.status === 'saturated') {
    return minCellReached(cell.bbox, planner) ? { ok: true, children: [] } : { ok: false, reason: 'it gives up on a cell this browser would still split' };
  }
  return splitChildren(s, sweep, cell, planner);
}

/**
 * Why a `done` is no proof under this browser's rules (grid/decide.ts decideCell): a list with no
 * place, or one place's own page, or a list that ended below the cap; an audit search (which
 * decides nothing of its own) only on an audit cell. The box the page surely searched must hold
 * the cell: a result that names none (a search everywhere, on the page's word) is not taken from
 * another browser, whose page this browser never saw; it searches the cell itself.
 */
function doneProblem(r: CellResult, cell: Cell, planner: PlannerOptions): string | null {
  if (cell.role === 'audit') return r.reason === 'audit' ? null : `it settles an audit search for the reason "${String(r.reason)}"`;
  if (!(r.searchedBox && bboxContainsBBox(r.searchedBox, cell.bbox))) return 'the box it searched does not hold the cell';
  switch (r.reason) {
    case 'audit':
      return 'it calls an ordinary cell an audit';
    case 'no-results':
      return r.organic === 0 ? null : `it calls a list of ${r.organic} places empty`;
    case 'single-result':
      return r.organic <= 1 ? null : `it calls a list of ${r.organic} places one place's page`;
    case 'end-of-list':
      return r.endOfList && !r.capHit && r.organic < planner.cap - CAP_MARGIN ? null : 'it calls done a list that did not end below the cap';
    default:
      return `it calls done a list for the reason "${String(r.reason)}"`;
  }
}

function identityProblem(doc: CellDoc, cell: Cell): string | null {
  if (doc._id !== cellDocId(cell)) return `its id ${doc._id} is not the cell's`;
  if (doc.sweepId !== cell.sweepId || doc.cell.sweepId !== cell.sweepId) return 'it is another sweep\u2019s';
  if (doc.cell.id !== cell.id) return `it describes cell ${doc.cell.id}`;
  if (doc.cell.keyword !== cell.keyword || doc.cell.keywordIndex !== cell.keywordIndex) return 'it searched another keyword';
  if (!sameBox(doc.cell.bbox, cell.bbox)) return 'it searched another box';
  if ((doc.cell.role ?? null) !== (cell.role ?? null)) return 'it is another kind of cell';
  return null;
}

/** The split's children must be exactly the ones this browser's planner makes of the cell. */
function splitChildren(s: Settlement, sweep: Sweep, cell: Cell, planner: PlannerOptions): SettlementCheck {
  const planned = plannedOf(cell);
  const candidates: Cell[][] = [childCells(sweep, cell, [widenedCell(planned)])];
  if (!minCellReached(cell.bbox, planner)) candidates.push(childCells(sweep, cell, splitCell(planned, sweep.area, planner)));
  const childKey = (c: Pick<Cell, 'id' | 'bbox' | 'zoomOffset'>) =>
    `${c.id}|${c.bbox.south},${c.bbox.west},${c.bbox.north},${c.bbox.east}|${c.zoomOffset ?? 0}`;
  const theirs = s.children.map(childKey).sort();
  const mine = candidates.find((cells) => {
    const ours = cells.map(childKey).sort();
    return ours.length === theirs.length && ours.every((k, i) => k === theirs[i]);
  });
  return mine ? { ok: true, children: mine } : { ok: false, reason: 'its children are not the cells this browser would split it into' };
}

/**
 * The settlement's places, read from their documents, as a search of the cell could have
 * listed them: every one readable, of the sweep's site, in the area and not far outside the box
 * the search covered (a place without a pin cannot be placed, and is kept as a page's would be;
 * one whose pin is doubted is not taken from another browser: the cell is searched here).
 */
export function checkPlaces(
  keys: readonly string[],
  read: readonly Listing[],
  local: { sweep: Sweep; cell: Cell; searchedBox?: BBox | null },
): { ok: true; listings: Listing[] } | { ok: false; reason: string } {
  const byKey = new Map(read.map((l) => [l.key, l]));
  const missing = keys.filter((k) => !byKey.has(k));
  if (missing.length > 0) return { ok: false, reason: `${missing.length} of its places have no readable document (${missing[0]})` };
  const site = providerFor(local.sweep.provider).id;
  // Where the list could have shown a place: around the box the search covered (checkSettlement: it holds the cell).
  const near = nearSearched(local.searchedBox ?? local.cell.bbox);
  const listings: Listing[] = [];
  for (const k of new Set(keys)) {
    const l = byKey.get(k)!;
    if (l.provider !== site) return { ok: false, reason: `its place ${k} is not a ${site} place` };
    if (l.lat !== null && l.lng !== null && !(bboxContains(near, { lat: l.lat, lng: l.lng }) && areaContains(local.sweep.area, { lat: l.lat, lng: l.lng })))
      return { ok: false, reason: `its place ${k} lies outside the cell's reach or the area` };
    listings.push(l);
  }
  return { ok: true, listings };
}
