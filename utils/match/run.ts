/**
 * A linking run over the store: every stored place read batch by batch into the matcher's
 * projection, linked (utils/match/link.ts), and the result written as a difference: only the
 * businesses and candidates that are new or changed are put, only those gone are deleted, so
 * a re-run after a sweep that changed little writes little. One transaction: a run killed
 * half-way leaves the previous result whole.
 */
import type { Store } from '../store';
import type { StoredListing } from '../domain/listing';
import { PROVIDERS } from '../providers/registry';
import { siteE164 } from './phones';
import { linkBusinesses } from './link';
import type { BusinessRecord, LinkRunRecord } from './records';
import { LINK_THRESHOLD } from './score';
import type { Ambiguity, MatchPlace } from './types';

const READ_BATCH = 2000;

export async function linkStoredPlaces(store: Store, now: () => number): Promise<LinkRunRecord> {
  const startedAt = now();
  const decisions = await store.transact(['linkDecisions'], 'readonly', (tx) => tx.objectStore('linkDecisions').getAll());
  const places: MatchPlace[] = [];
  for await (const batch of store.iterateListings(READ_BATCH)) for (const l of batch) places.push(matchPlaceOf(l));
  const result = linkBusinesses(places, {
    sites: PROVIDERS.map((p) => p.id),
    toE164: siteE164,
    decisions,
  });

  return store.transact(['businesses', 'ambiguities', 'linkRuns'], 'readwrite', async (tx) => {
    const at = now();
    const businesses = tx.objectStore('businesses');
    const ambiguities = tx.objectStore('ambiguities');
    const before = new Map((await businesses.getAll()).map((b) => [b.id, b]));
    let written = 0;
    let deleted = 0;
    for (const b of result.businesses) {
      const old = before.get(b.id);
      before.delete(b.id);
      const record: BusinessRecord = { ...b, since: old && sameBusiness(old, b) ? old.since : at };
      if (old && JSON.stringify(old) === JSON.stringify(record)) continue;
      void businesses.put(record);
      written++;
    }
    for (const id of before.keys()) {
      void businesses.delete(id);
      deleted++;
    }
    const oldAmbiguities = new Map((await ambiguities.getAll()).map((a) => [a.id, a]));
    for (const a of result.ambiguities) {
      const old = oldAmbiguities.get(a.id);
      oldAmbiguities.delete(a.id);
      if (old && JSON.stringify(old) === JSON.stringify(a satisfies Ambiguity)) continue;
      void ambiguities.put(a);
      written++;
    }
    for (const id of oldAmbiguities.keys()) {
      void ambiguities.delete(id);
      deleted++;
    }
    const run: LinkRunRecord = {
      id: 'latest',
      startedAt,
      finishedAt: at,
      places: places.length,
      businesses: result.businesses.length,
      ambiguities: result.ambiguities.length,
      pairsScored: result.pairsScored,
      threshold: LINK_THRESHOLD,
      written,
      deleted,
    };
    await tx.objectStore('linkRuns').put(run);
    return run;
  });
}

/** Only what the matcher reads: a 100,000-place run holds this much, not whole records. */
export function matchPlaceOf(l: StoredListing): MatchPlace {
  return {
    key: l.key,
    provider: l.provider,
    name: l.name,
    category: l.category,
    categories: l.categories,
    lat: l.lat,
    lng: l.lng,
    address: l.address,
    roadAddress: l.roadAddress,
    phoneE164: l.phoneE164,
    otherPhones: l.otherPhones,
    closed: l.closed ?? null,
  };
}

function sameBusiness(a: BusinessRecord, b: { members: string[] }): boolean {
  return a.members.length === b.members.length && a.members.every((m, i) => m === b.members[i]);
}
