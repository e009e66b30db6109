/**
 * Site builders and web hosts whose own addresses and domains sit in their customers' pages (a
 * template's footer, a shop's "hosting by" line, an error tracker's key): an address at one of
 * these domains is the builder's, never the business's (issue 36). Kept as data, each with where
 * its domains were taken from; a builder that is missing here is still learnt across the pass
 * (shared-values.ts: one address on the sites of many unrelated businesses).
 */
export interface Builder {
  name: string;
  /** Registrable domains the builder writes its own addresses at. */
  domains: readonly string[];
  /** Where the domains come from: the builder's own site, or where its mail is seen in customers' pages. */
  source: string;
}

export const BUILDERS: readonly Builder[] = [
  { name: 'Wix', domains: ['wix.com', 'wixpress.com'], source: 'https://www.wix.com (wixpress.com: the domain of its Sentry keys and mail in every Wix page)' },
  { name: 'Squarespace', domains: ['squarespace.com'], source: 'https://www.squarespace.com' },
  { name: 'GoDaddy', domains: ['godaddy.com', 'secureserver.net'], source: 'https://www.godaddy.com (secureserver.net: its mail and hosting domain)' },
  { name: 'Weebly', domains: ['weebly.com'], source: 'https://www.weebly.com' },
  { name: 'Cafe24', domains: ['cafe24.com', 'cafe24corp.com'], source: 'https://www.cafe24.com (every Cafe24 shop footer names it as hosting provider)' },
  { name: 'imweb', domains: ['imweb.me'], source: 'https://imweb.me (sites at *.imweb.me)' },
  { name: 'NHN Commerce (Godomall)', domains: ['godo.co.kr', 'nhn-commerce.com'], source: 'https://www.nhn-commerce.com' },
  { name: 'MakeShop', domains: ['makeshop.co.kr'], source: 'https://www.makeshop.co.kr' },
  { name: 'Sixshop', domains: ['sixshop.com'], source: 'https://www.sixshop.com' },
  { name: 'Gabia (Firstmall)', domains: ['gabia.com', 'firstmall.kr'], source: 'https://www.gabia.com' },
  { name: 'Dothome', domains: ['dothome.co.kr'], source: 'https://www.dothome.co.kr' },
  { name: 'Hosting.kr', domains: ['hosting.kr'], source: 'https://www.hosting.kr' },
  { name: 'Whois', domains: ['whois.co.kr'], source: 'https://whois.co.kr' },
  { name: 'Naver modoo!', domains: ['modoo.at'], source: 'https://www.modoo.at (closed 2022; its pages are still cached and copied)' },
];

/** Error trackers whose keys look like addresses in page markup (`key@o1.ingest.sentry.io`). */
const TRACKERS = ['sentry.io'];

const DOMAINS = [...BUILDERS.flatMap((b) => b.domains), ...TRACKERS];

/** Whether an e-mail domain is a builder's, a host's or a tracker's (the domain or any subdomain of it). */
export function isBuilderDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  return DOMAINS.some((b) => d === b || d.endsWith(`.${b}`));
}
