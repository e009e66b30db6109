/**
 * The contacts pass's records (issue 23): one record per website, the queue and the result in
 * one. Pure: no store, no browser.
 *
 * A record lives in the `contactSites` object store (utils/store/schema.ts, version 7) under the
 * website's URL as the pass fetches it, and names every place whose website it is (`places`,
 * a multi-entry index): fifty branches of a franchise that share one website cost one visit, and
 * a place's contacts are found by its key. As for a cell (utils/queue/lease.ts), a lease is only a
 * time: a site leased until `leaseUntil` and never committed is available again once that passes.
 */
import type { SocialNetwork } from './types';

/**
 * `partial`: the home page was read but a page the visit chose (a contact page, a frame) did not
 * answer after every attempt: what was read is kept and exported, but the site is not counted
 * as checked and the next pass tries it again.
 */
export type ContactSiteStatus = 'pending' | 'leased' | 'done' | 'failed' | 'partial';

/** One e-mail address with the page it was read on (its source: `website:{page}`). */
export interface SourcedValue {
  value: string;
  page: string;
}

/** What a visit of a website found. */
export interface ContactFindings {
  /**
   * - `read`: the pages were fetched and read (what they hold may be nothing);
   * - `robots`: robots.txt forbids the home page, nothing was fetched beyond robots.txt;
   * - `social` / `platform`: the "website" is a social profile or a map, booking or link-in-bio
   *   page, recorded as such and never fetched.
   */
  outcome: 'read' | 'robots' | 'social' | 'platform';
  emails: SourcedValue[];
  /** One profile per network, the first found. */
  socials: Partial<Record<SocialNetwork, SourcedValue>>;
  /**
   * The other profiles found, in order (a few): where the first of a network turns out to be a
   * site builder's (shared-values.ts), the next of that network is the business's. Absent in
   * records written before issue 36.
   */
  otherSocials?: (SourcedValue & { network: SocialNetwork })[];
  phones: SourcedValue[];
  /** The page beyond the home page where the first e-mail, or else the first contact page read. */
  contactPage: string | null;
  /** Every page fetched and read, final URLs, in order. */
  pages: string[];
  /** What a person should know about the visit (a page robots.txt kept out, a page that failed). */
  notes: string[];
}

export interface ContactSite {
  /** The website as fetched (utils/contacts/website-kind.ts's normalised URL): the key. */
  url: string;
  /** The keys of the places whose website this is (`google:{cid}`, …), without duplicates. */
  places: string[];
  status: ContactSiteStatus;
  /** Failed visits so far. */
  attempts: number;
  /** A pending site is not handed out before this time (its backoff, or its re-check date). */
  nextAttemptAt: number;
  leaseHolder: string | null;
  /** A leased site is available again after this time. 0 when not leased. */
  leaseUntil: number;
  /** Why the last visit failed, or null. */
  lastError: string | null;
  /** On done: what the visit found. Kept while the site is re-checked, so exports never lose it. */
  findings: ContactFindings | null;
  /** When the site was last settled (done or failed), or null (never, or only partly read). */
  checkedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * The lease-order key of an open site: [availableAt, url]. availableAt is nextAttemptAt for a
 * pending site and leaseUntil for a leased one, so the index's first key is the site available
 * soonest. Done and failed sites carry no key and cost the queue nothing.
 */
export type ContactQueueKey = [number, string];

export interface ContactSiteRecord extends ContactSite {
  queue?: ContactQueueKey;
}

export function contactQueueKey(site: ContactSite): ContactQueueKey | undefined {
  if (site.status === 'leased') return [site.leaseUntil, site.url];
  if (site.status === 'pending') return [site.nextAttemptAt, site.url];
  return undefined;
}

/** The site as it must be stored: with its lease-order key while open, without one otherwise. */
export function withContactQueueKey(site: ContactSite): ContactSiteRecord {
  const { queue: _old, ...plain } = site as ContactSiteRecord;
  const key = contactQueueKey(plain);
  return key ? { ...plain, queue: key } : plain;
}

export function fromContactRecord(record: ContactSiteRecord): ContactSite {
  const { queue: _queue, ...site } = record;
  return site;
}

export function newContactSite(url: string, places: string[], now: number): ContactSite {
  return {
    url,
    places: [...new Set(places)],
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseHolder: null,
    leaseUntil: 0,
    lastError: null,
    findings: null,
    checkedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function emptyFindings(outcome: ContactFindings['outcome']): ContactFindings {
  return { outcome, emails: [], socials: {}, phones: [], contactPage: null, pages: [], notes: [] };
}

/** Whether a settled site is due for a new visit `recheckDays` after it was checked. */
export function isDue(site: Pick<ContactSite, 'status' | 'checkedAt'>, now: number, recheckDays: number): boolean {
  if (site.status === 'pending' || site.status === 'leased') return false;
  if (site.checkedAt === null) return true;
  return now - site.checkedAt >= recheckDays * 86_400_000;
}

/**
 * A partial visit's findings over what an earlier visit found: what this visit read comes first,
 * and what it could not reach this time (a contact page that answered 503) is kept from before,
 * so a re-check that fails half-way never erases an address.
 */
export function partialOver(earlier: ContactFindings | null, partial: ContactFindings): ContactFindings {
  if (!earlier) return partial;
  const union = (a: SourcedValue[], b: SourcedValue[], key: (v: string) => string) => {
    const seen = new Set(a.map((v) => key(v.value)));
    return [...a, ...b.filter((v) => !seen.has(key(v.value)))];
  };
  return {
    ...partial,
    emails: union(partial.emails, earlier.emails, (v) => v.toLowerCase()),
    socials: { ...earlier.socials, ...partial.socials },
    otherSocials: otherSocialsAfter(earlier, partial),
    phones: union(partial.phones, earlier.phones, (v) => v.replace(/\D/g, '')),
    contactPage: partial.contactPage ?? earlier.contactPage,
  };
}

/** The other profiles of both visits, once each, with an earlier first profile the partial one replaced. */
function otherSocialsAfter(earlier: ContactFindings, partial: ContactFindings): NonNullable<ContactFindings['otherSocials']> {
  const firsts = { ...earlier.socials, ...partial.socials };
  const replaced = (Object.entries(earlier.socials) as [SocialNetwork, SourcedValue | undefined][])
    .filter(([network, v]) => v && firsts[network]?.value !== v.value)
    .map(([network, v]) => ({ network, value: v!.value, page: v!.page }));
  const out: NonNullable<ContactFindings['otherSocials']> = [];
  for (const o of [...(partial.otherSocials ?? []), ...replaced, ...(earlier.otherSocials ?? [])])
    if (out.length < OTHER_SOCIALS_KEPT && firsts[o.network]?.value !== o.value && !out.some((x) => x.value === o.value)) out.push(o);
  return out;
}

/** Other profiles kept in one record, at most. */
export const OTHER_SOCIALS_KEPT = 10;
