/**
 * The hosts Google Maps is served on: www.google.com and Google's country domains
 * (www.google.co.kr/maps, www.google.de/maps, …), where people's own map tabs are. Chrome's match
 * patterns cannot wildcard a top-level domain, so the domains are listed, once, here; the
 * manifest (wxt.config.ts's host_permissions, the content scripts' `matches`) and every URL test
 * of the Google provider (its tabs, block pages, the page's own search requests) read this list.
 *
 * The list is https://www.google.com/supported_domains (191 domains) as of 2026-08, taken
 * from its copy in v2fly/domain-list-community (data/google), the live page being out of reach
 * from here. maps.google.com (and maps.google.{tld}) is not listed: it only redirects to
 * www.google.{tld}/maps, where the tab ends up and the content script runs.
 */

/** What follows `google.` in each of Google's domains (`com`, `co.kr`, `de`, …). */
const GOOGLE_SUFFIXES = [
  'ad',
  'ae',
  'al',
  'am',
  'as',
  'at',
  'az',
  'ba',
  'be',
  'bf',
  'bg',
  'bi',
  'bj',
  'bs',
  'bt',
  'by',
  'ca',
  'cat',
  'cd',
  'cf',
  'cg',
  'ch',
  'ci',
  'cl',
  'cm',
  'cn',
  'co',
  'co.ao',
  'co.bw',
  'co.ck',
  'co.cr',
  'co.id',
  'co.il',
  'co.in',
  'co.jp',
  'co.ke',
  'co.kr',
  'co.ls',
  'co.ma',
  'co.mz',
  'co.nz',
  'co.th',
  'co.tz',
  'co.ug',
  'co.uk',
  'co.uz',
  'co.ve',
  'co.vi',
  'co.za',
  'co.zm',
  'co.zw',
  'com',
  'com.af',
  'com.ag',
  'com.ai',
  'com.ar',
  'com.au',
  'com.bd',
  'com.bh',
  'com.bn',
  'com.bo',
  'com.br',
  'com.bz',
  'com.co',
  'com.cu',
  'com.cy',
  'com.do',
  'com.ec',
  'com.eg',
  'com.et',
  'com.fj',
  'com.gh',
  'com.gi',
  'com.gt',
  'com.hk',
  'com.jm',
  'com.kh',
  'com.kw',
  'com.lb',
  'com.ly',
  'com.mm',
  'com.mt',
  'com.mx',
  'com.my',
  'com.na',
  'com.ng',
  'com.ni',
  'com.np',
  'com.om',
  'com.pa',
  'com.pe',
  'com.pg',
  'com.ph',
  'com.pk',
  'com.pr',
  'com.py',
  'com.qa',
  'com.sa',
  'com.sb',
  'com.sg',
  'com.sl',
  'com.sv',
  'com.tj',
  'com.tr',
  'com.tw',
  'com.ua',
  'com.uy',
  'com.vc',
  'com.vn',
  'cv',
  'cz',
  'de',
  'dj',
  'dk',
  'dm',
  'dz',
  'ee',
  'es',
  'fi',
  'fm',
  'fr',
  'ga',
  'ge',
  'gg',
  'gl',
  'gm',
  'gr',
  'gy',
  'hn',
  'hr',
  'ht',
  'hu',
  'ie',
  'im',
  'iq',
  'is',
  'it',
  'je',
  'jo',
  'kg',
  'ki',
  'kz',
  'la',
  'li',
  'lk',
  'lt',
  'lu',
  'lv',
  'md',
  'me',
  'mg',
  'mk',
  'ml',
  'mn',
  'ms',
  'mu',
  'mv',
  'mw',
  'ne',
  'nl',
  'no',
  'nr',
  'nu',
  'pl',
  'pn',
  'ps',
  'pt',
  'ro',
  'rs',
  'ru',
  'rw',
  'sc',
  'se',
  'sh',
  'si',
  'sk',
  'sm',
  'sn',
  'so',
  'sr',
  'st',
  'td',
  'tg',
  'tl',
  'tm',
  'tn',
  'to',
  'tt',
  'vg',
  'vu',
  'ws',
] as const;

/** google.com, google.co.kr, google.de, …: every domain of https://www.google.com/supported_domains. */
export const GOOGLE_DOMAINS: readonly string[] = GOOGLE_SUFFIXES.map((s) => `google.${s}`);

const DOMAINS = new Set(GOOGLE_DOMAINS);
const MAPS_HOSTS = new Set(GOOGLE_DOMAINS.map((d) => `www.${d}`));

/**
 * The maps pages of every Google domain, as match patterns: `/maps/…` only, never the rest of
 * the host (web search, mail, accounts). The page's own requests the network hook reads
 * (`/search?tbm=map`) need no permission: the hook sees them from inside the page.
 */
export const GOOGLE_MAPS_PATTERNS: readonly string[] = [...MAPS_HOSTS].map((h) => `https://${h}/maps/*`);

/**
 * Where the content scripts run: the map pages, and `/maps?…` itself — a place known only by its
 * CID is opened at `/maps?cid={cid}` (../shared/map-pages-spec.md: "By CID"), a page whose address
 * the site may rewrite to `/maps/place/…` in place (history), which injects no content script: it
 * must be there from the load. Host permissions stay the map pages' (a host permission's path is
 * not a limit anyway).
 */
export const GOOGLE_MAPS_CONTENT_PATTERNS: readonly string[] = [...MAPS_HOSTS].flatMap((h) => [`https://${h}/maps/*`, `https://${h}/maps?*`]);

/** www.google.com, www.google.co.kr, …: a host Google Maps pages are served on. */
export function isGoogleMapsHost(hostname: string): boolean {
  return MAPS_HOSTS.has(hostname.toLowerCase());
}

/** A Google domain or any host under one (www., consent., ipv4., …); never a look-alike such as google.com.evil.example. */
export function isGoogleHost(hostname: string): boolean {
  const labels = hostname.toLowerCase().split('.');
  return labels.some((_, i) => DOMAINS.has(labels.slice(i).join('.')));
}

/** A Google Maps page (https, a maps host, `/maps` or under it) on any of Google's domains. */
export function isGoogleMapsUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && isGoogleMapsHost(u.hostname) && (u.pathname === '/maps' || u.pathname.startsWith('/maps/'));
  } catch {
    return false;
  }
}
