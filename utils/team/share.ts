/**
 * Share and Join. Share writes a local sweep's definition and first cells to the database (and,
 * through the gate's reconcile, whatever this browser already searched of it); Join makes the
 * same sweep here from the database: the same id, plan and cells, this browser's own pacing, in
 * a window of its own. From then on every member's loops take cells through the database.
 */
import type { Sweep, SweepSettings } from '../domain/sweep';
import { initialCounters } from '../domain/counters';
import type { Store } from '../store';
import { normaliseSettings } from '../config/settings';
import { formatCorners } from '../geo';
import type { Couch } from './couch';
import { cellDocId, isSweepDoc, planSettingsOf, localCellOf, sharedCellOf, sharedSweepOf, sweepDocId, TEAM_SCHEMA, type CellDoc, type SweepDoc } from './docs';
import type { TeamSettings } from './settings';

export type ShareReply = { ok: true; already: boolean } | { ok: false; message: string };

export async function shareSweep(store: Store, couch: Couch, me: TeamSettings, sweepId: string, leaseMs: number, now: number): Promise<ShareReply> {
  const sweep = await store.getSweep(sweepId);
  if (!sweep) return { ok: false, message: 'There is no such sweep here.' };
  if (sweep.status === 'stopped') return { ok: false, message: 'A stopped sweep cannot be shared: start a new one.' };
  const cells = await store.listCells(sweepId);
  const roots = cells.filter((c) => c.parentId === null && c.role !== 'audit');
  const doc: SweepDoc = {
    _id: sweepDocId(sweepId),
    type: 'sweep',
    schema: TEAM_SCHEMA,
    sweep: sharedSweepOf(sweep),
    cells: roots.map((c) => sharedCellOf({ ...c, reopened: undefined })),
    leaseMs,
    sharedBy: me.name,
    sharedAt: now,
  };
  const put = await couch.put(doc);
  // A cell this browser is searching right now (a sweep shared while it runs) is held by this
  // browser in the database too: a browser that joins at once must not search it as well.
  for (const c of cells.filter((k) => k.status === 'leased' && k.leaseUntil > now && k.leaseHolder)) {
    await couch.put<CellDoc>({
      _id: cellDocId(c),
      type: 'cell',
      schema: TEAM_SCHEMA,
      sweepId,
      cell: sharedCellOf(c),
      lease: { browser: me.browserId, holder: c.leaseHolder!, until: now + leaseMs },
      settle: null,
      generation: c.reopened ?? 0,
    });
  }
  if (!put.ok) {
    const existing = await couch.get<SweepDoc>(doc._id);
    if (!existing || !isSweepDoc(existing)) return { ok: false, message: 'The database holds something else under this sweep\u2019s id.' };
    return { ok: true, already: true };
  }
  return { ok: true, already: false };
}

export interface SharedSweepSummary {
  id: string;
  provider: string;
  keywords: string[];
  /** The area's corners, as the popup's area field takes them. */
  area: string;
  sharedBy: string;
  sharedAt: number;
  cells: number;
}

export async function listSharedSweeps(couch: Couch): Promise<SharedSweepSummary[]> {
  const docs = (await couch.byPrefix<SweepDoc>('sweep:')).filter(isSweepDoc);
  return docs
    .map((d) => ({
      id: d.sweep.id,
      provider: d.sweep.provider ?? 'google',
      keywords: d.sweep.keywords,
      area: formatCorners(d.sweep.area.bbox),
      sharedBy: d.sharedBy,
      sharedAt: d.sharedAt,
      cells: d.cells.length,
    }))
    .sort((a, b) => b.sharedAt - a.sharedAt);
}

export type JoinReply = { ok: true; sweep: Sweep; leaseMs: number; created: boolean } | { ok: false; message: string };

/** The shared sweep, made here (or found here already), running with this browser's pacing. */
export async function joinSweep(store: Store, couch: Couch, sweepId: string, local: SweepSettings, now: number): Promise<JoinReply> {
  const doc = await couch.get<SweepDoc>(sweepDocId(sweepId));
  if (!doc || !isSweepDoc(doc)) return { ok: false, message: 'The database has no shared sweep of that id (or one of a newer MapSweep).' };
  const existing = await store.getSweep(sweepId);
  if (existing) return { ok: true, sweep: existing, leaseMs: doc.leaseMs, created: false };
  const cells = doc.cells.map((c) => localCellOf({ ...c, sweepId }));
  if (cells.some((c) => !c.id.startsWith(`${sweepId}/`)))
    return { ok: false, message: 'The shared sweep\u2019s cells do not belong to it; nothing was joined.' };
  const shared = doc.sweep;
  const sweep: Sweep = {
    id: shared.id,
    ...(shared.provider ? { provider: shared.provider } : {}),
    createdAt: shared.createdAt,
    area: shared.area,
    keywords: shared.keywords,
    // The plan's settings are the team's, and only those: the pacing is this browser's own (its
    // own address to the site), whatever a sweep document says.
    settings: { ...normaliseSettings({ ...local, ...planSettingsOf(shared.settings) }), dedicatedWindow: true },
    status: 'running',
    pauseReason: null,
    problem: null,
    origin: shared.origin,
    counters: initialCounters(cells),
    lastNewListingAt: null,
    updatedAt: now,
  };
  // createSweep validates the sweep and its cells like any new sweep: a malformed document changes nothing here.
  return { ok: true, sweep: await store.createSweep(sweep, cells), leaseMs: doc.leaseMs, created: true };
}
