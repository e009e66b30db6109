/**
 * What a team sweep keeps in the database, one document per thing that changes on its own:
 * - `sweep:{id}`: the sweep's definition (area, keywords, the site, the plan's settings) and its
 *   first cells, written once by Share;
 * - `cell:{cell id}`: one cell of the queue, with its lease and, once searched, its settlement;
 * - `place:{key}`: one place, the team's merged copy (each place exactly once, by its key).
 *
 * Nothing else goes there: no pacing, no browsing history, no settings beyond the plan's.
 */
import type { BBox } from '../geo/types';
import type { Cell, CellResult, Sweep, SweepSettings } from '../domain/sweep';
import type { Listing } from '../domain/listing';
import type { CouchDoc } from './couch';

/** Bumped when a document's shape changes; a browser refuses documents of a shape it does not know. */
export const TEAM_SCHEMA = 1;

/** The plan's settings every member must share: what decides the cells, not how fast they are searched. */
export const PLAN_SETTINGS = ['cellTimeoutMs', 'scrollPauseMs', 'maxAttempts', 'maxCells', 'lang'] as const satisfies readonly (keyof SweepSettings)[];

export type SharedSweep = Pick<Sweep, 'id' | 'provider' | 'createdAt' | 'area' | 'keywords' | 'origin'> & {
  settings: Pick<SweepSettings, (typeof PLAN_SETTINGS)[number]>;
};

export interface SweepDoc extends CouchDoc {
  type: 'sweep';
  schema: typeof TEAM_SCHEMA;
  sweep: SharedSweep;
  /** The sweep's first cells (its tiling), as every member starts from them. */
  cells: SharedCell[];
  /** How long a cell's lease lasts without a heartbeat. */
  leaseMs: number;
  sharedBy: string;
  sharedAt: number;
}

/** A cell as the plan made it: no queue state (each browser keeps its own). */
export type SharedCell = Pick<
  Cell,
  'id' | 'sweepId' | 'keyword' | 'keywordIndex' | 'bbox' | 'depth' | 'zoomOffset' | 'role' | 'auditOf' | 'distance' | 'parentId'
> & {
  /** 'outside': wholly outside the area, never searched. */
  outside?: true;
};

export interface Lease {
  /** The browser (TeamIdentity.browserId) and its loop that hold the cell. */
  browser: string;
  holder: string;
  /** Epoch ms (the holder's clock); past it anyone may take the cell. */
  until: number;
}

export interface Settlement {
  status: 'done' | 'split' | 'saturated';
  result: CellResult;
  /** The children of a split, as the planner made them. */
  children: SharedCell[];
  /** The places the search kept: their `place:` documents hold them. */
  places: string[];
  by: string;
  /** The browser's name as its user gave it, for the team's progress. */
  byName: string;
  at: number;
  /** The cell's generation when it was settled (Cell.reopened): a settlement of an older one is stale. */
  generation: number;
}

export interface CellDoc extends CouchDoc {
  type: 'cell';
  schema: typeof TEAM_SCHEMA;
  sweepId: string;
  cell: SharedCell;
  lease: Lease | null;
  settle: Settlement | null;
  /** Times the cell was opened again after a settlement (the closing audit found it unproven). */
  generation: number;
}

export interface PlaceDoc extends CouchDoc {
  type: 'place';
  schema: typeof TEAM_SCHEMA;
  listing: Listing;
  /** The team sweeps that found it. */
  sweeps: string[];
  /**
   * Per sweep, the browser whose write added the sweep here (and counted the place in the
   * team's progress). Display bookkeeping only: read to count a place whose write's answer
   * never came (progress.ts), never to decide anything else.
   */
  addedBy?: Record<string, string>;
  /** Per sweep, the id of the very write that added the sweep here (progress.ts counts an unanswered write by it). */
  addedIn?: Record<string, string>;
}

export const sweepDocId = (sweepId: string) => `sweep:${sweepId}`;
export const placeDocId = (key: string) => `place:${key}`;
/** Every cell document of a sweep starts so (cell ids are `{sweepId}/{keywordIndex}/{path}`). */
export const cellDocPrefix = (sweepId: string) => `cell:${sweepId}/`;

/**
 * An audit cell's id names its round and place in the sample (`a1-0`), not its box: two browsers
 * whose samples differed would give two different searches one id. The box is part of its
 * document's id, so the same id means the same search.
 */
export function cellDocId(cell: Pick<Cell, 'id' | 'role' | 'bbox'>): string {
  return cell.role === 'audit' ? `cell:${cell.id}@${boxTag(cell.bbox)}` : `cell:${cell.id}`;
}

function boxTag(b: BBox): string {
  return [b.south, b.west, b.north, b.east].map((v) => v.toFixed(6)).join(',');
}

export function sharedCellOf(cell: Cell): SharedCell {
  return {
    id: cell.id,
    sweepId: cell.sweepId,
    keyword: cell.keyword,
    keywordIndex: cell.keywordIndex,
    bbox: cell.bbox,
    depth: cell.depth,
    ...(cell.zoomOffset ? { zoomOffset: cell.zoomOffset } : {}),
    ...(cell.role ? { role: cell.role } : {}),
    ...(cell.auditOf ? { auditOf: cell.auditOf } : {}),
    distance: cell.distance,
    parentId: cell.parentId,
    ...(cell.status === 'outside' ? { outside: true as const } : {}),
  };
}

/**
 * The local queue's record of a shared cell: fresh, as the plan made it. Built field by field:
 * a document from another browser brings nothing else into IndexedDB.
 */
export function localCellOf(shared: SharedCell): Cell {
  return {
    id: shared.id,
    sweepId: shared.sweepId,
    keyword: shared.keyword,
    keywordIndex: shared.keywordIndex,
    bbox: shared.bbox,
    depth: shared.depth,
    ...(shared.zoomOffset ? { zoomOffset: shared.zoomOffset } : {}),
    ...(shared.role === 'audit' ? { role: 'audit' as const } : {}),
    ...(shared.auditOf ? { auditOf: shared.auditOf } : {}),
    distance: shared.distance,
    parentId: shared.parentId,
    status: shared.outside ? 'outside' : 'pending',
    leaseUntil: 0,
    leaseHolder: null,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    result: null,
  };
}

/** Of some settings, the plan's only (PLAN_SETTINGS). */
export function planSettingsOf(settings: Partial<SweepSettings>): SharedSweep['settings'] {
  return Object.fromEntries(PLAN_SETTINGS.flatMap((k) => (settings[k] === undefined ? [] : [[k, settings[k]]]))) as SharedSweep['settings'];
}

export function sharedSweepOf(sweep: Sweep): SharedSweep {
  const settings = planSettingsOf(sweep.settings);
  return {
    id: sweep.id,
    ...(sweep.provider ? { provider: sweep.provider } : {}),
    createdAt: sweep.createdAt,
    area: sweep.area,
    keywords: sweep.keywords,
    origin: sweep.origin,
    settings,
  };
}

/** Lease lengths a sweep document may ask for: a shorter one would let cells change hands mid-visit, a longer one keeps a dead browser's cells for too long. */
export const LEASE_LIMITS_MS = { min: 10_000, max: 10 * 60_000 } as const;

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBox = (b: unknown): b is BBox => {
  const x = b as BBox | null;
  return !!x && [x.south, x.west, x.north, x.east].every(isFiniteNumber) && x.south < x.north && x.west < x.east;
};
const isSharedCell = (c: unknown): c is SharedCell => {
  const x = c as SharedCell | null;
  return (
    !!x &&
    typeof x.id === 'string' &&
    typeof x.sweepId === 'string' &&
    typeof x.keyword === 'string' &&
    Number.isInteger(x.keywordIndex) &&
    isBox(x.bbox) &&
    Number.isInteger(x.depth) &&
    isFiniteNumber(x.distance) &&
    (x.parentId === null || typeof x.parentId === 'string')
  );
};

/**
 * A document read from the database is input from other browsers, as untrusted as a page:
 * shape-checked before use. A settlement's children must be the cell's own (its id's children,
 * one level deeper, inside its box): another browser's document cannot plant cells elsewhere.
 */
export function isCellDoc(doc: unknown): doc is CellDoc {
  const d = doc as CellDoc | null;
  if (d?.type !== 'cell' || d.schema !== TEAM_SCHEMA || typeof d._id !== 'string' || !isSharedCell(d.cell) || !isFiniteNumber(d.generation)) return false;
  if (d.lease !== null && !(typeof d.lease?.browser === 'string' && typeof d.lease.holder === 'string' && isFiniteNumber(d.lease.until))) return false;
  return d.settle === null || isSettlementOf(d.settle, d.cell);
}

function isSettlementOf(s: Settlement, cell: SharedCell): boolean {
  if (!s || !['done', 'split', 'saturated'].includes(s.status) || !s.result || !isFiniteNumber(s.result.organic) || !isFiniteNumber(s.generation)) return false;
  if (!Array.isArray(s.places) || !s.places.every((k) => typeof k === 'string') || !Array.isArray(s.children) || typeof s.by !== 'string') return false;
  if (s.status !== 'split' && s.children.length > 0) return false;
  const b = cell.bbox;
  const eps = 1e-9;
  // A split's children and a widened search's one child (the same box, searched wider) lie in the cell.
  return s.children.every(
    (c) =>
      isSharedCell(c) &&
      c.parentId === cell.id &&
      c.id.startsWith(`${cell.id}.`) &&
      c.depth === cell.depth + 1 &&
      c.keywordIndex === cell.keywordIndex &&
      c.bbox.south >= b.south - eps &&
      c.bbox.north <= b.north + eps &&
      c.bbox.west >= b.west - eps &&
      c.bbox.east <= b.east + eps,
  );
}

export function isSweepDoc(doc: unknown): doc is SweepDoc {
  const d = doc as SweepDoc | null;
  if (d?.type !== 'sweep' || d.schema !== TEAM_SCHEMA || typeof d.sweep?.id !== 'string' || !Array.isArray(d.cells) || !d.cells.every(isSharedCell))
    return false;
  if (!isFiniteNumber(d.leaseMs) || d.leaseMs < LEASE_LIMITS_MS.min || d.leaseMs > LEASE_LIMITS_MS.max) return false;
  return (
    isBox(d.sweep.area?.bbox) &&
    Array.isArray(d.sweep.keywords) &&
    d.sweep.keywords.every((k) => typeof k === 'string') &&
    typeof d.sweep.settings === 'object' &&
    d.sweep.settings !== null
  );
}

export function isPlaceDoc(doc: unknown): doc is PlaceDoc {
  const d = doc as PlaceDoc | null;
  return (
    !!d &&
    d.type === 'place' &&
    d.schema === TEAM_SCHEMA &&
    typeof d.listing?.key === 'string' &&
    d._id === placeDocId(d.listing.key) &&
    Array.isArray(d.sweeps)
  );
}
