/**
 * One visit of a business website (issue 23): robots.txt, the home page, then at most
 * `maxPages` same-site pages whose links look like contact details (breadth first, so a contact
 * page two links deep, home → about → contact, is reached), each request in its host's lane.
 * What the pages give is merged: e-mails deduplicated case-insensitively, one social profile per
 * network, every value with the page it came from. The home page decides the visit (it failing
 * is the site failing). A further page that answered with a permanent refusal (404, robots.txt,
 * a redirect out of bounds) is a note; one that did not answer (5xx, 429, a timeout, a network
 * error) makes the visit partial: done only when every page it chose answered (issue 36).
 */
import { decodePage } from './decode';
import { PAGE_BOUNDS, ROBOTS_BOUNDS, type FetchFn, type Fetched } from './fetch-page';
import { fetchFollowing } from './follow';
import type { NetworkWatch } from './network-watch';
import { hostLane, type HostLanes } from './host-lanes';
import { pickContactPages } from './contact-links';
import { readPage } from './read-page';
import { emptyFindings, OTHER_SOCIALS_KEPT, type ContactFindings } from './records';
import type { SiteFailure } from './queue';
import { robotsRulesOf, robotsUrlOf, type RobotsRules } from './robots';
import type { PageReading } from './types';

export interface VisitDeps {
  fetch: FetchFn;
  lanes: HostLanes;
  /** Aborted when the pass pauses or loses its permission: the visit ends without a verdict. */
  signal?: AbortSignal;
  /** What the browser's network saw of these requests (redirect targets, answers' addresses). */
  watch?: NetworkWatch;
}

export type VisitResult =
  | { kind: 'found'; findings: ContactFindings }
  /** What was read, and the first page that did not answer: retried after a backoff, then recorded partial. */
  | { kind: 'partial'; findings: ContactFindings; failure: Extract<SiteFailure, { kind: 'transient' }> }
  | { kind: 'failed'; failure: SiteFailure }
  | { kind: 'stopped' };

/** Pages read beyond the home page, at most. */
export const MAX_CONTACT_PAGES = 3;
/** Frames or a refresh target read as part of the home page, at most. */
const MAX_INNER_PAGES = 3;

export async function visitSite(deps: VisitDeps, siteUrl: string, maxPages = MAX_CONTACT_PAGES): Promise<VisitResult> {
  // One visit's robots.txt answers, per origin: a site's pages rarely span more than two.
  const robots = new Map<string, Promise<RobotsRules>>();
  const rulesFor = (url: string): Promise<RobotsRules> => {
    const robotsUrl = robotsUrlOf(url);
    let rules = robots.get(robotsUrl);
    if (!rules) {
      // robots.txt's own redirects are followed (RFC 9309 2.3.1.2), each hop's host checked as any.
      rules = fetchFollowing(deps, robotsUrl, ROBOTS_BOUNDS, 'text').then((f) => robotsRulesOf(robotsUrl, f));
      robots.set(robotsUrl, rules);
    }
    return rules;
  };
  const stopped = () => deps.signal?.aborted === true;

  const homeRules = await rulesFor(siteUrl);
  if (stopped()) return { kind: 'stopped' };
  if (homeRules.kind === 'unreachable') return { kind: 'failed', failure: { kind: homeRules.lasting ? 'permanent' : 'transient', message: homeRules.reason } };
  if (!homeRules.allows(siteUrl)) {
    const findings = emptyFindings('robots');
    findings.notes.push('robots.txt does not allow the home page');
    return { kind: 'found', findings };
  }
  const home = await paced(deps, siteUrl, rulesFor);
  if (stopped()) return { kind: 'stopped' };
  if (!home.ok) return { kind: 'failed', failure: home.failure };

  const findings = emptyFindings('read');
  const seen = new Set<string>([siteUrl, home.url]);
  /** The chosen pages that did not answer (worth another visit), with why. */
  const unanswered: string[] = [];
  /** One more page of the site, robots.txt asked first; null (with a note) when it cannot be read. */
  let read = 0;
  const readAt = async (url: string, counted: boolean): Promise<{ url: string; reading: PageReading } | null> => {
    const rules = await rulesFor(url);
    if (stopped()) return null;
    if (rules.kind === 'unreachable') {
      note(findings, `${url.slice(0, 300)}: ${rules.reason}`);
      if (!rules.lasting) unanswered.push(`${url.slice(0, 300)}: ${rules.reason}`);
      return null;
    }
    if (!rules.allows(url)) {
      note(findings, `${url.slice(0, 300)}: not allowed by robots.txt`);
      return null;
    }
    if (counted) read++;
    const page = await paced(deps, url, rulesFor);
    if (stopped()) return null;
    if (!page.ok) {
      note(findings, `${url.slice(0, 300)}: ${page.failure.message}`);
      if (page.failure.kind === 'transient') unanswered.push(`${url.slice(0, 300)}: ${page.failure.message}`);
      return null;
    }
    seen.add(page.url);
    return { url: page.url, reading: readFetched(page) };
  };

  const homeReading = readFetched(home);
  merge(findings, homeReading, home.url);
  const homeLinks = [...homeReading.links];
  // A frameset, or a page that only refreshes to another, has the home page's content elsewhere
  // on the site (common on older Korean hosting): that page is read as part of the home page.
  const inner = [...homeReading.frames, ...(homeReading.refreshTo ? [homeReading.refreshTo] : [])].filter(
    (u) => hostLane(u) === hostLane(home.url) && !seen.has(u),
  );
  for (const url of [...new Set(inner)].slice(0, MAX_INNER_PAGES)) {
    seen.add(url);
    const got = await readAt(url, false);
    if (stopped()) return { kind: 'stopped' };
    if (!got) continue;
    merge(findings, got.reading, got.url);
    homeLinks.push(...got.reading.links);
  }
  const homePages = new Set(findings.pages);
  const candidates = pickContactPages(homeLinks, home.url, maxPages);
  while (candidates.length > 0 && read < maxPages) {
    const next = candidates.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const got = await readAt(next, true);
    if (stopped()) return { kind: 'stopped' };
    if (!got) continue;
    merge(findings, got.reading, got.url);
    findings.contactPage ??= got.url;
    for (const more of pickContactPages(got.reading.links, home.url, maxPages)) if (!seen.has(more) && !candidates.includes(more)) candidates.push(more);
  }
  // The contact page is where the first e-mail beyond the home page was, else the first page read.
  const beyondHome = findings.emails.find((e) => !homePages.has(e.page));
  if (beyondHome) findings.contactPage = beyondHome.page;
  if (unanswered.length > 0) {
    const more = unanswered.length > 1 ? ` (and ${unanswered.length - 1} more)` : '';
    return { kind: 'partial', findings, failure: { kind: 'transient', message: `a page did not answer: ${unanswered[0]}${more}` } };
  }
  return { kind: 'found', findings };
}

/**
 * A page, its redirects followed by hand (follow.ts): each hop in its own host's lane, its
 * target's host checked, and the target host's robots.txt read and obeyed before it is asked.
 */
function paced(deps: VisitDeps, url: string, rulesFor: (url: string) => Promise<RobotsRules>): Promise<Fetched> {
  return fetchFollowing(deps, url, PAGE_BOUNDS, 'html', async (target) => {
    const rules = await rulesFor(target);
    if (rules.kind === 'unreachable') return { kind: rules.lasting ? 'permanent' : 'transient', message: rules.reason };
    return rules.allows(target) ? null : { kind: 'permanent', message: 'not allowed by robots.txt' };
  });
}

function readFetched(f: Extract<Fetched, { ok: true }>): PageReading {
  return readPage(decodePage(f.bytes, f.contentType).text, f.url);
}

/**
 * What one website's record may hold: a business lists a handful of addresses and numbers; a
 * page with thousands (a directory, a spam trap, a hostile page) must not make a record of
 * megabytes that every export and the popup's coverage read. Past a bound the rest is left out
 * and a note says so.
 */
export const FINDINGS_BOUNDS = { emails: 50, phones: 20, notes: 20, text: 2000 } as const;

function merge(into: ContactFindings, reading: PageReading, page: string): void {
  into.pages.push(page);
  if (page.length > FINDINGS_BOUNDS.text) return;
  const emails = new Set(into.emails.map((e) => e.value.toLowerCase()));
  for (const e of reading.emails) {
    if (emails.has(e.email.toLowerCase()) || e.email.length > FINDINGS_BOUNDS.text) continue;
    if (into.emails.length >= FINDINGS_BOUNDS.emails) {
      note(into, `more than ${FINDINGS_BOUNDS.emails} e-mail addresses: the rest left out`);
      break;
    }
    emails.add(e.email.toLowerCase());
    into.emails.push({ value: e.email, page: e.page });
  }
  for (const s of reading.socials) {
    if (s.url.length > FINDINGS_BOUNDS.text) continue;
    const first = into.socials[s.network];
    if (!first) into.socials[s.network] = { value: s.url, page: s.page };
    else if (first.value !== s.url) {
      into.otherSocials ??= [];
      const others = into.otherSocials;
      if (others.length < OTHER_SOCIALS_KEPT && !others.some((o) => o.value === s.url)) others.push({ network: s.network, value: s.url, page: s.page });
    }
  }
  const phones = new Set(into.phones.map((p) => digitsOf(p.value)));
  for (const p of reading.phones) {
    if (phones.has(digitsOf(p)) || p.length > FINDINGS_BOUNDS.text) continue;
    if (into.phones.length >= FINDINGS_BOUNDS.phones) {
      note(into, `more than ${FINDINGS_BOUNDS.phones} phone numbers: the rest left out`);
      break;
    }
    phones.add(digitsOf(p));
    into.phones.push({ value: p, page });
  }
}

/** A note, once, and never more than the bound. */
function note(into: ContactFindings, text: string): void {
  if (into.notes.length < FINDINGS_BOUNDS.notes && !into.notes.includes(text)) into.notes.push(text);
}

function digitsOf(phone: string): string {
  return phone.replace(/\D/g, '');
}
