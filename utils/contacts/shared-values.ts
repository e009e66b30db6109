/**
 * Addresses and profiles that are not the business's because they are on the sites of many
 * unrelated businesses (issue 36): a site builder's `webmaster@…` in a template's footer, a web
 * agency's Instagram in its credit, a host's support address. Learnt across every website the
 * pass has read, whatever builder it is (builders.ts lists the known ones): a value seen on the
 * sites of SHARED_BY_SITES or more owners (ownerOf), an e-mail not counting on a site of its own
 * owner. A franchise whose branches each have a domain of their own and show the brand's address
 * or channel loses it here: told apart from a builder's only by the places' names, which this
 * does not read (docs/ARCHITECTURE.md says so). The export leaves them out, and where the
 * first profile of a network was one, the business's next profile of that network takes its
 * place. Pure.
 */
import { getDomain, getDomainWithoutSuffix } from 'tldts';
import { isBuilderDomain } from './builders';
import type { ContactFindings, ContactSite } from './records';
import type { SocialNetwork } from './types';

/** Sites of different owners (registrable domains) one value must be on to be nobody's own. */
export const SHARED_BY_SITES = 3;

const emailKey = (address: string) => `e:${address.toLowerCase()}`;
const profileKey = (url: string) => `p:${url.toLowerCase().replace(/\/+$/, '')}`;
/**
 * Who a site or an e-mail domain belongs to: its registrable name without the suffix, in ASCII
 * (`cafeharu.kr`, `cafeharu.co.kr` and `cafeharu.com` are one owner; `카페하루.한국` is its
 * punycode), except on a builder's or host's domain, where each customer's subdomain is its own
 * (`a.imweb.me` and `b.imweb.me` are two businesses).
 */
function ownerOf(host: string): string {
  let ascii = host.toLowerCase();
  try {
    ascii = new URL(`http://${host}/`).hostname;
  } catch {
    // Not a host name a URL takes: compared as written.
  }
  const domain = getDomain(ascii);
  if (!domain) return ascii;
  if (isBuilderDomain(domain)) return ascii;
  return getDomainWithoutSuffix(ascii) ?? domain;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export interface SharedCounter {
  /** One website's record (read as a cursor walks the store: nothing is held but the counts). */
  add(site: Pick<ContactSite, 'url' | 'findings'>): void;
  /** The keys of the values found on SHARED_BY_SITES or more owners' sites. */
  shared(): Set<string>;
}

export function countShared(): SharedCounter {
  // Most values are on one site only: a value keeps its first owner as a string, and a set only
  // once a second owner shows (a 100,000-site store holds one string per value, not one set).
  const owners = new Map<string, string | Set<string>>();
  const seen = (key: string, owner: string) => {
    const known = owners.get(key);
    if (known === undefined) owners.set(key, owner);
    else if (typeof known === 'string') {
      if (known !== owner) owners.set(key, new Set([known, owner]));
    } else if (known.size < SHARED_BY_SITES) known.add(owner);
  };
  return {
    add(site) {
      const f = site.findings;
      const host = hostOf(site.url);
      // A profile recorded as the website itself (outcome 'social') is the business's by definition.
      if (!f || !host || f.outcome !== 'read') return;
      const owner = ownerOf(host);
      for (const e of f.emails) {
        const domain = e.value.slice(e.value.lastIndexOf('@') + 1).toLowerCase();
        if (ownerOf(domain) !== owner) seen(emailKey(e.value), owner);
      }
      for (const p of [...Object.values(f.socials), ...(f.otherSocials ?? [])]) if (p) seen(profileKey(p.value), owner);
    },
    shared() {
      const out = new Set<string>();
      for (const [key, set] of owners) if (typeof set !== 'string' && set.size >= SHARED_BY_SITES) out.add(key);
      return out;
    },
  };
}

/** The keys of the values found on SHARED_BY_SITES or more owners' sites, over these records. */
export function sharedValues(sites: Iterable<Pick<ContactSite, 'url' | 'findings'>>): Set<string> {
  const counter = countShared();
  for (const site of sites) counter.add(site);
  return counter.shared();
}

/** The findings without the shared values; a network whose first profile was shared gets the next one that is not. */
export function withoutShared(f: ContactFindings, shared: ReadonlySet<string>): ContactFindings {
  if (shared.size === 0) return f;
  const socials: ContactFindings['socials'] = {};
  const others = f.otherSocials ?? [];
  for (const [network, first] of Object.entries(f.socials) as [SocialNetwork, ContactFindings['socials'][SocialNetwork]][]) {
    if (!first) continue;
    const own = !shared.has(profileKey(first.value)) ? first : others.find((o) => o.network === network && !shared.has(profileKey(o.value)));
    if (own) socials[network] = { value: own.value, page: own.page };
  }
  return {
    ...f,
    emails: f.emails.filter((e) => !shared.has(emailKey(e.value))),
    socials,
    otherSocials: others.filter((o) => !shared.has(profileKey(o.value)) && socials[o.network]?.value !== o.value),
  };
}
