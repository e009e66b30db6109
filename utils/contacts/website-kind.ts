/**
 * What a listing's "website" is, before anything is fetched: the business's own site, a social
 * profile, a platform page (map, booking, link-in-bio) that says nothing the map did not, or
 * something never to fetch.
 *
 * A local or private host is refused outright: the pass fetches from the user's own browser,
 * which can reach the user's router and intranet, and a listing's text decides the URL. A host is
 * fetched only when it ends in a public suffix of the Public Suffix List's ICANN section (tldts),
 * below it (not the suffix itself), and is not a name known to lead into the user's network
 * (own-network-names.ts: wildcard DNS such as nip.io, routers' own names such as
 * router.asus.com). So IP literals (no business site is served from a bare IP), `localhost`,
 * single-label hosts, `.corp`, `.home`, `.lan` and the like are never fetched. What a public name
 * resolves to is checked again when the answer comes (the response's address: wire.ts).
 */
import { parse } from 'tldts';
import { ownNetworkName } from './own-network-names';
import { socialNetworkOf, socialProfile } from './social';
import type { SocialNetwork, WebsiteKind, WebsitePlatform } from './types';

const NETWORK_NAMES: Record<SocialNetwork, WebsitePlatform> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  x: 'X',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  linkedin: 'LinkedIn',
  kakao_channel: 'Kakao Channel',
  naver_blog: 'Naver Blog',
  naver_cafe: 'Naver Cafe',
  naver_smartstore: 'Naver Smartstore',
  band: 'Band',
};

/** Platform hosts (after `www.`/`m.` are dropped), each with its whole site. */
const PLATFORM_HOSTS: Record<string, WebsitePlatform> = {
  'map.naver.com': 'Naver Map',
  'place.naver.com': 'Naver Map',
  'pcmap.place.naver.com': 'Naver Map',
  // Naver's short links are what its map's "share" button gives.
  'naver.me': 'Naver Map',
  'booking.naver.com': 'Naver Booking',
  'map.kakao.com': 'Kakao Map',
  'place.map.kakao.com': 'Kakao Map',
  // Kakao's short links, likewise its map's "share".
  'kko.to': 'Kakao Map',
  'maps.app.goo.gl': 'Google Maps',
  'g.page': 'Google Maps',
  'app.catchtable.co.kr': 'CatchTable',
  'linktr.ee': 'Linktree',
  'litt.ly': 'Litt.ly',
  'instabio.cc': 'Instabio',
  'beacons.ai': 'Beacons',
  'link.inpock.co.kr': 'Inpock',
  'lnk.bio': 'Lnk.Bio',
};

export function websiteKind(website: string): WebsiteKind {
  const trimmed = website.trim();
  // Listings often give a bare host (`www.cafe.co.kr`); a person typing it gets the http site.
  const written = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return { kind: 'invalid', reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'invalid', reason: 'not http(s)' };
  if (url.username || url.password) return { kind: 'invalid', reason: 'a URL with a user name or password' };
  const host = url.hostname.replace(/\.$/, '');
  if (hostRefusal(host)) return { kind: 'invalid', reason: 'a local or private host' };

  const profile = socialProfile(url.href);
  if (profile) return { kind: 'social', profile };
  const network = socialNetworkOf(url.href);
  if (network) return { kind: 'platform', platform: NETWORK_NAMES[network] };
  const platform = platformOf(url, host.replace(/^(?:www|m)\./, ''));
  if (platform) return { kind: 'platform', platform };

  url.hash = '';
  return { kind: 'site', url: url.href };
}

function platformOf(url: URL, host: string): WebsitePlatform | null {
  const listed = PLATFORM_HOSTS[host];
  if (listed) return listed;
  // Google Maps lives on each of Google's country domains, as `maps.google.{tld}` or `google.{tld}/maps`.
  if (/^(?:maps\.)?google\.[a-z]{2,3}(?:\.[a-z]{2})?$/.test(host) && (host.startsWith('maps.') || /^\/maps(?:\/|$)/.test(url.pathname))) return 'Google Maps';
  if (host === 'goo.gl' && /^\/maps(?:\/|$)/.test(url.pathname)) return 'Google Maps';
  return null;
}

/**
 * Why `host` (as the URL parser gives it: lower case, IDNs in punycode, every IPv4 spelling in
 * dotted decimal) is never fetched, or null.
 */
export function hostRefusal(host: string): string | null {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[')) return 'an IP address';
  const named = ownNetworkName(host);
  if (named) return `a name that leads into your own network (${named.name}: ${named.why})`;
  const parsed = parse(host, { allowPrivateDomains: false });
  if (!parsed.isIcann || !parsed.domain || !parsed.publicSuffix) return 'no public suffix (a name of a local network)';
  // .arpa is infrastructure (home.arpa is every home network's name, RFC 8375), never a business's site.
  if (parsed.publicSuffix === 'arpa' || parsed.publicSuffix.endsWith('.arpa')) return 'a name of the network itself (.arpa)';
  return null;
}
