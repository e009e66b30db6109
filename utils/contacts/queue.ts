/**
 * The contacts queue over the store (object store `contactSites`): fill it from a collection's
 * listings, lease a website, settle it. Each operation is one transaction, a site's commit is one
 * `durability: 'strict'` transaction: after a kill a site is either still open (visited again)
 * or done (never fetched again until its re-check date). Never a half.
 */
import type { Listing } from '../domain/listing';
import { afterFailure, checkOf, countOpen, leaseNext, releaseAllLeases, releaseJob, type JobKind, type OpenJobs } from '../queue/jobs';
import { handled, StoreError, type Store } from '../store';
import { websiteKind } from './website-kind';
import {
  emptyFindings,
  fromContactRecord,
  isDue,
  partialOver,
  newContactSite,
  withContactQueueKey,
  type ContactFindings,
  type ContactQueueKey,
  type ContactSite,
  type ContactSiteRecord,
} from './records';

/** The websites to visit, as a queue of the one job machinery (utils/queue/jobs.ts). */
export const SITE_JOBS: JobKind<ContactSite, ContactSiteRecord> = {
  store: 'contactSites',
  noun: 'site',
  toRecord: withContactQueueKey,
  fromRecord: fromContactRecord,
  availableAt: (key) => (key as ContactQueueKey)[0],
  closed: () => 'settled',
  touched: (site, now) => ({ ...site, updatedAt: now }),
};

export interface ContactEnqueueResult {
  /** Places with a website in the collection. */
  places: number;
  /** Sites put in the queue now (new, or due for a re-check). */
  queued: number;
  /** Sites recorded at once as a social profile or platform page (nothing to fetch). */
  recorded: number;
}

/**
 * Queue every website of a collection's listings (`undefined`: every listing), in one
 * transaction. A site already known gains the new places; a settled one is queued again only
 * when `recheckDays` have passed since it was checked. A website that is a social profile or a
 * map/booking page is recorded at once as such.
 */
/** `keep`: the places whose websites are to be read (the filters, utils/filters); the others' are not fetched. */
export async function enqueueContacts(
  store: Store,
  req: { collection?: string; now: number; recheckDays: number; keep?: (l: Listing) => boolean },
): Promise<ContactEnqueueResult> {
  const { collection, now, recheckDays, keep } = req;
  if (!Number.isFinite(now) || !Number.isFinite(recheckDays) || recheckDays < 0) {
    throw new StoreError('invalid', 'Queueing contacts needs a valid time and a re-check period of 0 days or more.');
  }
  return store.transact(
    ['listings', 'contactSites'],
    'readwrite',
    async (tx): Promise<ContactEnqueueResult> => {
      // What each website serves, read first: one write per site, not one per place.
      const sites = new Map<string, { places: string[]; kind: ReturnType<typeof websiteKind> }>();
      let places = 0;
      const listings = tx.objectStore('listings');
      let cursor = collection === undefined ? await listings.openCursor() : await listings.index('byCollection').openCursor(collection);
      while (cursor) {
        const l = cursor.value;
        const url = (keep?.(l) ?? true) ? siteUrlOf(l.website) : null;
        if (url) {
          places++;
          // The kind is read once per website, not once per place that names it.
          const entry = sites.get(url) ?? { places: [], kind: websiteKind(l.website!) };
          entry.places.push(l.key);
          sites.set(url, entry);
        }
        cursor = await cursor.continue();
      }
      const store = tx.objectStore('contactSites');
      let queued = 0;
      let recorded = 0;
      const writes: Promise<unknown>[] = [];
      for (const [url, { places: keys, kind }] of sites) {
        const old = await store.get(url);
        const known = old ? fromContactRecord(old) : null;
        const allPlaces = [...new Set([...(known?.places ?? []), ...keys])];
        let next: ContactSite;
        if (kind.kind !== 'site') {
          if (known?.status === 'done' && known.places.length === allPlaces.length) continue;
          const findings = emptyFindings(kind.kind === 'social' ? 'social' : 'platform');
          if (kind.kind === 'social') findings.socials[kind.profile.network] = { value: kind.profile.url, page: url };
          else if (kind.kind === 'platform') findings.notes.push(`a ${kind.platform} page, not the business's own website`);
          next = { ...newContactSite(url, allPlaces, now), status: 'done', findings, checkedAt: now };
          recorded++;
        } else if (!known) {
          next = newContactSite(url, allPlaces, now);
          queued++;
        } else if (isDue(known, now, recheckDays)) {
          next = { ...known, places: allPlaces, status: 'pending', attempts: 0, nextAttemptAt: now, leaseHolder: null, leaseUntil: 0, updatedAt: now };
          queued++;
        } else if (allPlaces.length !== known.places.length) {
          next = { ...known, places: allPlaces, updatedAt: now };
        } else continue;
        writes.push(handled(store.put(withContactQueueKey(next))));
      }
      await Promise.all(writes);
      return { places, queued, recorded };
    },
    { durability: 'strict' },
  );
}

/**
 * Lease the site available soonest, or null when none is available at `now` (utils/queue/jobs.ts
 * leaseNext). `except` are sites this session is visiting or must not visit now (a host whose
 * turn has not come): skipped.
 */
export function leaseSite(store: Store, req: { holder: string; now: number; leaseMs: number; except?: (url: string) => boolean }): Promise<ContactSite | null> {
  const except = req.except;
  return leaseNext(store, SITE_JOBS, {
    // Only the keys available at `now` (their first part is when).
    range: IDBKeyRange.upperBound([req.now, []]),
    holder: req.holder,
    now: req.now,
    leaseMs: req.leaseMs,
    ...(except && { skip: (key: IDBValidKey) => except((key as ContactQueueKey)[1]) }),
  });
}

/** Settles a site `holder` may settle (utils/domain/job.ts maySettle), in one strict transaction; false when it may not. */
async function settle(store: Store, url: string, holder: string, now: number, change: (site: ContactSite) => ContactSite): Promise<boolean> {
  return store.transact(
    ['contactSites'],
    'readwrite',
    async (tx) => {
      const record = await tx.objectStore('contactSites').get(url);
      const site = record ? fromContactRecord(record) : null;
      if (!site || !checkOf(SITE_JOBS, site, holder, now).ok) return false;
      await tx.objectStore('contactSites').put(withContactQueueKey({ ...change(site), leaseHolder: null, leaseUntil: 0, updatedAt: now }));
      return true;
    },
    { durability: 'strict' },
  );
}

/** A visit read to its end: the site is done with what it found. False when the site was not this holder's to settle. */
export function commitSite(store: Store, req: { url: string; holder: string; now: number; findings: ContactFindings }): Promise<boolean> {
  return settle(store, req.url, req.holder, req.now, (site) => ({ ...site, status: 'done', findings: req.findings, lastError: null, checkedAt: req.now }));
}

/** Give a lease back without counting an attempt (the pass paused, the permission withdrawn). */
export function releaseSite(store: Store, req: { url: string; holder: string; now: number }): Promise<boolean> {
  return releaseJob(store, SITE_JOBS, { id: req.url, holder: req.holder, now: req.now, until: req.now });
}

/**
 * A website that failed is tried again after up to a minute, then up to two, four…, at most an
 * hour: a small site that answered 503 or 429 is usually overloaded, and the pass is in no hurry.
 */
export const SITE_BACKOFF_BASE_MS = 60_000;

export const SITE_BACKOFF_CAP_MS = 3_600_000;

export type SiteFailure =
  /** Worth another visit after a backoff: a timeout, a network error, a 5xx, a 429. */
  | { kind: 'transient'; message: string }
  /** Will answer the same next time: a 404, a PDF, a file too large, a redirect loop. */
  | { kind: 'permanent'; message: string };

/**
 * A visit that failed, or (`partial`) read only in part. A transient failure below `maxAttempts`
 * waits out a backoff (exponential, full jitter) and goes back to the queue; otherwise the site
 * is left failed with its reason, or partial with what was read and the reason, which is not a
 * check (`checkedAt` stays null: the coverage does not count it, the next pass tries it again).
 * What an earlier visit found is kept until a visit gives something in its place.
 */
export function failSite(
  store: Store,
  req: { url: string; holder: string; now: number; failure: SiteFailure; partial?: ContactFindings; maxAttempts: number; random: () => number },
): Promise<boolean> {
  const draw = req.random();
  return settle(store, req.url, req.holder, req.now, (site) => {
    const failed = afterFailure(site, {
      now: req.now,
      maxAttempts: req.maxAttempts,
      draw,
      retryable: req.failure.kind === 'transient',
      backoff: { baseMs: SITE_BACKOFF_BASE_MS, capMs: SITE_BACKOFF_CAP_MS },
    });
    const { attempts } = failed;
    if (failed.retry) return { ...site, status: 'pending', attempts, lastError: req.failure.message, nextAttemptAt: failed.nextAttemptAt };
    if (req.partial)
      return { ...site, status: 'partial', attempts, lastError: req.failure.message, findings: partialOver(site.findings, req.partial), checkedAt: null };
    return { ...site, status: 'failed', attempts, lastError: req.failure.message, checkedAt: req.now };
  });
}

/** After a restart no loop of the old session is alive: every lease is given back at once. */
export function releaseContactLeases(store: Store, now: number): Promise<number> {
  return releaseAllLeases(store, SITE_JOBS, now);
}

/** The open sites: how many, and when the soonest is available. */
export const countOpenSites = (store: Store): Promise<OpenJobs> => countOpen(store, SITE_JOBS);

/**
 * The key a website is kept under in `contactSites`: the URL the pass fetches for a site, the
 * website as stored for a profile or platform page; null when it is no website at all.
 */
export function siteUrlOf(website: string | null | undefined): string | null {
  if (typeof website !== 'string' || !website) return null;
  const kind = websiteKind(website);
  return kind.kind === 'invalid' ? null : kind.kind === 'site' ? kind.url : website;
}
