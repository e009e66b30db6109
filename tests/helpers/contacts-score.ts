/**
 * The contacts pass scored against the replica web's truth (tests/replica/web/sites.ts), for the
 * in-process test and the bench alike. Precision: of the addresses the pass kept, those the site
 * really holds (findable or not: a real address found where the truth did not expect it is still
 * the business's). Recall: of the addresses a reader honouring robots.txt can find, those kept.
 * Social profiles compared as the truth writes them (canonical https URL).
 */
import type { ContactSite } from '../../utils/contacts/records';
import type { SiteTruth } from '../replica/web/sites';

export interface ContactScore {
  sites: number;
  foundEmails: number;
  correctEmails: number;
  findableEmails: number;
  recalledEmails: number;
  /** Kept addresses the site does not hold (traps, misreadings): each `host: address`. */
  wrong: string[];
  /** Findable addresses not kept: each `host: address (writing)`. */
  missed: string[];
  socialsExpected: number;
  socialsFound: number;
  socialsWrong: string[];
}

const lower = (a: string) => a.toLowerCase();

export function scoreContacts(sites: readonly { truth: SiteTruth; record: ContactSite | undefined }[]): ContactScore {
  const s: ContactScore = {
    sites: 0,
    foundEmails: 0,
    correctEmails: 0,
    findableEmails: 0,
    recalledEmails: 0,
    wrong: [],
    missed: [],
    socialsExpected: 0,
    socialsFound: 0,
    socialsWrong: [],
  };
  for (const { truth, record } of sites) {
    s.sites++;
    const found = new Set((record?.findings?.emails ?? []).map((e) => lower(e.value)));
    const real = new Set([...truth.emails.map((e) => lower(e.address)), ...truth.hiddenEmails.map((e) => lower(e.address))]);
    for (const f of found) {
      s.foundEmails++;
      if (real.has(f)) s.correctEmails++;
      else s.wrong.push(`${truth.host}: ${f}`);
    }
    for (const e of truth.emails) {
      s.findableEmails++;
      if (found.has(lower(e.address))) s.recalledEmails++;
      else s.missed.push(`${truth.host}: ${e.address} (${e.occurrences.map((o) => o.writing).join(', ')}, depth ${e.depth})`);
    }
    const socials = record?.findings?.socials ?? {};
    for (const [network, url] of Object.entries(truth.socials)) {
      s.socialsExpected++;
      const got = socials[network as keyof typeof socials]?.value;
      if (got === url) s.socialsFound++;
      else s.socialsWrong.push(`${truth.host} ${network}: ${got ?? '—'} ≠ ${url}`);
    }
  }
  return s;
}

export const precisionOf = (s: ContactScore) => (s.foundEmails === 0 ? 1 : s.correctEmails / s.foundEmails);
export const recallOf = (s: ContactScore) => (s.findableEmails === 0 ? 1 : s.recalledEmails / s.findableEmails);
