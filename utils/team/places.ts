/**
 * The team's places: one `place:{key}` document per place, each written by whichever browser
 * found it and merged by the same field rule as the local store (utils/listing/merge-fields.ts:
 * the more complete value wins, a null never erases). A write that conflicts (another browser
 * merged the same place meanwhile) is merged again on the newer document and retried.
 */
import type { Listing, StoredListing } from '../domain/listing';
import { mergeListingFields } from '../listing/merge-fields';
import { CouchError, type Couch } from './couch';
import { isPlaceDoc, placeDocId, TEAM_SCHEMA, type PlaceDoc } from './docs';
import { placeToken, type ProgressLedger } from './progress';

/** Documents per request: a crowded cell's places in one or two. */
const CHUNK = 200;
const MAX_ROUNDS = 4;

/** Who writes (named in the places it adds the sweep to), and the progress its writes count in. */
export interface PushAs {
  browser: string;
  ledger: ProgressLedger;
}

/**
 * Writes `listings` (one per key) as found by `sweepId`; unchanged places are not written.
 * `created`: places this sweep had not had before (the team's count of the sweep's distinct
 * places grows by it), each counted by the one browser whose write added the sweep.
 */
export async function pushPlaces(couch: Couch, sweepId: string, listings: readonly Listing[], as?: PushAs): Promise<{ written: number; created: number }> {
  const total = { written: 0, created: 0 };
  for (let i = 0; i < listings.length; i += CHUNK) {
    const r = await pushChunk(couch, sweepId, listings.slice(i, i + CHUNK), as);
    total.written += r.written;
    total.created += r.created;
  }
  return total;
}

async function pushChunk(couch: Couch, sweepId: string, listings: readonly Listing[], as?: PushAs): Promise<{ written: number; created: number }> {
  let todo = [...listings];
  let written = 0;
  let created = 0;
  for (let round = 0; round < MAX_ROUNDS && todo.length > 0; round++) {
    const current = await couch.getMany<PlaceDoc>(todo.map((l) => placeDocId(l.key)));
    const writes: PlaceDoc[] = [];
    const of: Listing[] = [];
    /** Whether each write adds the sweep to the place: that happens once per place and sweep, whoever wins. */
    const adds: boolean[] = [];
    /** This write's own id, in each place it adds the sweep to (progress.ts counts an unanswered write by it). */
    const write = crypto.randomUUID();
    todo.forEach((listing, i) => {
      const doc = current[i];
      const existing = doc && isPlaceDoc(doc) ? doc : null;
      const next = mergedDoc(existing, listing, sweepId, doc?._rev, as ? { browser: as.browser, write } : undefined);
      if (next) {
        writes.push(next);
        of.push(listing);
        adds.push(!existing?.sweeps.includes(sweepId));
      }
    });
    // The places this write may add the sweep to are announced first, so a browser that dies
    // before it counts them, or whose answer never comes, is counted from the documents
    // themselves (progress.ts): an unanswered write stays announced.
    const announced = of.filter((_, i) => adds[i]).map((l) => placeToken(l.key, write));
    await as?.ledger.announce(sweepId, announced);
    const results = await couch.bulk(writes);
    const createdNow = results.filter((r, i) => r.ok && adds[i]).length;
    void as?.ledger.answered(sweepId, announced, { places: createdNow });
    written += results.filter((r) => r.ok).length;
    created += createdNow;
    todo = of.filter((_, i) => !results[i]!.ok);
  }
  if (todo.length > 0) throw new CouchError('server', `${todo.length} places kept conflicting in the team database; they are sent again with the next cell.`);
  return { written, created };
}

/**
 * The place alone, as a site showed it: a stored listing also says which of this user's other
 * sweeps, keywords and cells found it and when, and none of that goes to the team.
 */
export function placeOf(listing: Listing | StoredListing): Listing {
  const { firstSeen: _f, lastSeen: _l, collections: _c, keywords: _k, cells: _cells, ...place } = listing as StoredListing;
  return place;
}

/** The document to write, or null when the stored one already says all this listing says. */
export function mergedDoc(existing: PlaceDoc | null, found: Listing, sweepId: string, rev?: string, by?: { browser: string; write: string }): PlaceDoc | null {
  const listing = placeOf(found);
  const merged = existing ? mergeListingFields(existing.listing, listing) : listing;
  const adding = !existing?.sweeps.includes(sweepId);
  const sweeps = adding ? [...(existing?.sweeps ?? []), sweepId] : (existing?.sweeps ?? []);
  if (existing && !adding && JSON.stringify(merged) === JSON.stringify(existing.listing)) return null;
  const addedBy = adding && by ? { ...existing?.addedBy, [sweepId]: by.browser } : existing?.addedBy;
  const addedIn = adding && by ? { ...existing?.addedIn, [sweepId]: by.write } : existing?.addedIn;
  return {
    _id: placeDocId(listing.key),
    ...(rev ? { _rev: rev } : {}),
    type: 'place',
    schema: TEAM_SCHEMA,
    listing: merged,
    sweeps,
    ...(addedBy ? { addedBy } : {}),
    ...(addedIn ? { addedIn } : {}),
  };
}

/** The team's copies of these places (those the database has, shape-checked). */
export async function readPlaces(couch: Couch, keys: readonly string[]): Promise<Listing[]> {
  const out: Listing[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) {
    for (const doc of await couch.getMany<PlaceDoc>(keys.slice(i, i + CHUNK).map(placeDocId))) if (doc && isPlaceDoc(doc)) out.push(doc.listing);
  }
  return out;
}
