import { DAY } from '../schedule/slots';
import type { SavedSearch } from '../domain/saved-search';
import { auditConfirmsQuiet } from '../domain/audit-page';
import type { PageAudit } from '../domain/page-audit';

/**
 * - 'fresh': a new place within the threshold (or the search is younger than it);
 * - 'quiet': nothing new for longer than the threshold, and the latest audit shows why: the
 *   page was read well and its first results were all stored already;
 * - 'needs-a-look': nothing new for that long and nothing shows it is real. A site that
 *   changed its page also produces "no new places", so silence alone is never trusted.
 */
export type StalenessState = 'fresh' | 'quiet' | 'needs-a-look';

export type NeedsALookReason =
  | 'never-finished' // no run of it ever finished
  | 'no-audit' // no page of its runs was audited
  | 'audit-unconfirmed'; // the latest audit was read badly, or showed places not stored

export interface Staleness {
  state: StalenessState;
  reason: NeedsALookReason | null;
  /** Over the threshold without a new place. */
  candidate: boolean;
  /** Since the last new place (or since the search was saved, before any). */
  quietForMs: number;
  lastNewPlaceAt: number | null;
  lastSuccessfulRunAt: number | null;
  auditAt: number | null;
}

export interface StalenessInput {
  search: Pick<SavedSearch, 'thresholdDays' | 'createdAt' | 'lastNewPlaceAt' | 'lastSuccessfulRunAt'>;
  /** The newest audited page of the search's runs. */
  latestAudit: { at: number; audit: PageAudit } | null;
}

export function staleness({ search, latestAudit }: StalenessInput, now: number): Staleness {
  const since = search.lastNewPlaceAt ?? search.createdAt;
  const quietForMs = Math.max(0, now - since);
  const candidate = quietForMs > search.thresholdDays * DAY;
  const base = {
    candidate,
    quietForMs,
    lastNewPlaceAt: search.lastNewPlaceAt,
    lastSuccessfulRunAt: search.lastSuccessfulRunAt,
    auditAt: latestAudit?.at ?? null,
  };
  if (!candidate) return { ...base, state: 'fresh', reason: null };
  if (search.lastSuccessfulRunAt === null) return { ...base, state: 'needs-a-look', reason: 'never-finished' };
  if (!latestAudit) return { ...base, state: 'needs-a-look', reason: 'no-audit' };
  if (!auditConfirmsQuiet(latestAudit.audit)) return { ...base, state: 'needs-a-look', reason: 'audit-unconfirmed' };
  return { ...base, state: 'quiet', reason: null };
}
