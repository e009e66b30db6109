/**
 * Reading the matcher's result back: which business each place belongs to, and the user's
 * decisions. Small reads in their own transactions, for the exports and the dashboard.
 */
import type { Store } from '../store';
import { pairId } from './assign';
import { PROVIDERS } from '../providers/registry';
import { businessIdOf } from './groups';
import type { AmbiguityRecord, BusinessRecord, LinkRunRecord } from './records';
import type { LinkDecision, LinkDecisionRecord } from './types';

/** A place key's site, as its position in the registry; -1 for none this version knows. */
function siteIndexOf(key: string): number {
  const colon = key.indexOf(':');
  return colon > 0 && colon < key.length - 1 ? PROVIDERS.findIndex((p) => p.id === key.slice(0, colon)) : -1;
}

/**
 * Place key → its business, every business read in one transaction: an export reads it once,
 * before its first batch, so a linking run that commits while the export reads its batches
 * neither joins a place already written alone to one read later (its row lost) nor splits one
 * already written (its row repeated). A place in none is a business of one.
 */
export async function businessesByPlace(store: Store): Promise<Map<string, BusinessRecord>> {
  const byPlace = new Map<string, BusinessRecord>();
  for (const b of await listBusinesses(store)) for (const k of b.members) byPlace.set(k, b);
  return byPlace;
}

/** The business id a place is exported under: its business's, or its own as a business of one. */
export function businessIdFor(key: string, business: BusinessRecord | undefined): string {
  return business?.id ?? businessIdOf([key]);
}

/** Whether any run has linked anything: most stores never were, and their exports read nothing more. */
export async function hasBusinesses(store: Store): Promise<boolean> {
  return (await store.transact(['businesses'], 'readonly', (tx) => tx.objectStore('businesses').count())) > 0;
}

export function listBusinesses(store: Store): Promise<BusinessRecord[]> {
  return store.transact(['businesses'], 'readonly', (tx) => tx.objectStore('businesses').getAll());
}

export function listAmbiguities(store: Store): Promise<AmbiguityRecord[]> {
  return store.transact(['ambiguities'], 'readonly', (tx) => tx.objectStore('ambiguities').getAll());
}

export function lastLinkRun(store: Store): Promise<LinkRunRecord | undefined> {
  return store.transact(['linkRuns'], 'readonly', (tx) => tx.objectStore('linkRuns').get('latest'));
}

export function listDecisions(store: Store): Promise<LinkDecisionRecord[]> {
  return store.transact(['linkDecisions'], 'readonly', (tx) => tx.objectStore('linkDecisions').getAll());
}

/**
 * The user's word on a pair, or null to take it back. The next run applies it; the caller
 * starts one. The pair is put in the registry's order of sites (the order every run looks
 * decisions up in), so either order means the same pair; two listings of one site, or of a
 * site this version does not know, are refused.
 */
export function decideLink(store: Store, first: string, second: string, decision: LinkDecision | null, now: number): Promise<void> {
  const [sa, sb] = [siteIndexOf(first), siteIndexOf(second)];
  if (sa < 0 || sb < 0 || sa === sb) return Promise.reject(new Error('A link joins listings of two different map sites.'));
  const [a, b] = sa < sb ? [first, second] : [second, first];
  const id = pairId(a, b);
  return store.transact(['linkDecisions'], 'readwrite', async (tx) => {
    if (decision === null) await tx.objectStore('linkDecisions').delete(id);
    else await tx.objectStore('linkDecisions').put({ id, a, b, decision, at: now });
  });
}
