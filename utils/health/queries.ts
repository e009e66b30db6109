import { listRuns } from '../schedule/runs';
import { listSavedSearches } from '../schedule/saved-searches';
import { dueRun, nextSlotAfter, DAY, type DueRun, type TzOffset } from '../schedule/slots';
import type { Run, SavedSearch } from '../domain/saved-search';
import type { Store } from '../store';
import type { Sweep } from '../domain/sweep';
import { summariseAudits, type AuditSummary } from '../domain/audit-page';
import { listFailedAttempts } from './errors';
import { staleness, type Staleness } from './staleness';
import type { FailedAttempt, PageAudit } from '../domain/page-audit';

export interface AuditedPage {
  sweepId: string;
  at: number;
  cellId: string | null;
  url: string | null;
  audit: PageAudit;
}

/** A sweep's audited pages, newest first, at most `limit`. */
export function listAudits(store: Store, sweepId: string, limit = 500): Promise<AuditedPage[]> {
  return store.transact(['events'], 'readonly', async (tx) => {
    const out: AuditedPage[] = [];
    let cursor = await tx
      .objectStore('events')
      .index('bySweepKind')
      .openCursor(IDBKeyRange.only([sweepId, 'audit']), 'prev');
    while (cursor && out.length < limit) {
      const e = cursor.value;
      if (e.audit) out.push({ sweepId, at: e.at, cellId: e.cellId ?? null, url: e.url ?? null, audit: e.audit });
      cursor = await cursor.continue();
    }
    return out;
  });
}

/** The newest audited page of the first of these sweeps that has one (pass newest sweeps first). */
export async function latestAudit(store: Store, sweepIds: readonly string[]): Promise<AuditedPage | null> {
  for (const id of sweepIds) {
    const [page] = await listAudits(store, id, 1);
    if (page) return page;
  }
  return null;
}

export interface SavedSearchHealth {
  search: SavedSearch;
  /** Newest first, at most `runsShown`. */
  runs: Run[];
  latestAudit: AuditedPage | null;
  staleness: Staleness;
  /** Scheduled times passed that no run took care of yet (the scheduler's next tick will). */
  due: DueRun;
  nextRunAt: number | null;
}

/** Everything the health line and the Health panel show, read at `now`. */
export interface HealthData {
  now: number;
  /** Errors are counted from here (a day back by default). */
  since: number;
  errors: FailedAttempt[];
  /** Pages audited in sweeps active since `since`. */
  coverage: AuditSummary;
  /** The newest sweep stopped because the page changed, unless a later sweep finished fine. */
  pageChanged: { sweepId: string; at: number; message: string } | null;
  lastNewPlaceAt: number | null;
  searches: SavedSearchHealth[];
}

export interface LoadHealthOptions {
  windowMs?: number;
  runsShown?: number;
  errorsShown?: number;
}

export async function loadHealth(store: Store, now: number, tz: TzOffset, opts: LoadHealthOptions = {}): Promise<HealthData> {
  const since = now - (opts.windowMs ?? DAY);
  const sweeps = await store.listSweeps();
  const active = sweeps.filter((s) => s.updatedAt >= since || s.status === 'running');
  const errors = await listFailedAttempts(
    store,
    active.map((s) => s.id),
    { since, limit: opts.errorsShown ?? 200 },
  );
  const audits = (await Promise.all(active.map((s) => listAudits(store, s.id)))).flat();

  const searches: SavedSearchHealth[] = [];
  for (const search of await listSavedSearches(store)) {
    const runs = (await listRuns(store, { savedSearchId: search.id })).reverse();
    const audit = await latestAudit(
      store,
      runs.map((r) => r.sweepId),
    );
    searches.push({
      search,
      runs: runs.slice(0, opts.runsShown ?? 10),
      latestAudit: audit,
      staleness: staleness({ search, latestAudit: audit }, now),
      due: dueRun(search, now, tz),
      nextRunAt: nextSlotAfter(search, now, tz),
    });
  }

  const lastNew = [...sweeps.map((s) => s.lastNewListingAt), ...searches.map((s) => s.search.lastNewPlaceAt)].filter((t): t is number => t !== null);
  return {
    now,
    since,
    errors,
    coverage: summariseAudits(audits),
    pageChanged: pageChangedOf(sweeps),
    lastNewPlaceAt: lastNew.length > 0 ? Math.max(...lastNew) : null,
    searches,
  };
}

/**
 * "The map page changed" stands until a sweep finishes after it (the extension reads the
 * page again), or the user stops or deletes the failed sweep.
 */
export function pageChangedOf(sweeps: readonly Sweep[]): HealthData['pageChanged'] {
  const failed = sweeps.filter((s) => s.status === 'failed' && s.problem?.kind === 'extractor').sort((a, b) => b.updatedAt - a.updatedAt)[0];
  if (!failed) return null;
  if (sweeps.some((s) => s.status === 'finished' && s.updatedAt > failed.updatedAt)) return null;
  return { sweepId: failed.id, at: failed.problem?.at ?? failed.updatedAt, message: failed.problem?.message ?? '' };
}
