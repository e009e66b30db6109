/**
 * What a listing's "website" is, before anything is fetched: the business's own site, a social
 * profile, a platform page (map, booking, link-in-bio) that says nothing the map did not, or
 * something never to fetch.
 *
 * A local or private host is refused outright: the pass fetches from the user's own browser,
 * which can reach the user's router and intranet, and a listing's text decides the URL. So
 * `localhost`, IP literals (no business site is served from a bare IP; telling public from
 * private ranges is not worth the risk), single-label hosts and the special-use local names are
 * never fetched.
 */
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

/** Names that only ever mean this machine or its network (RFC 6761, RFC 8375, common intranet use). */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'lan', 'home.arpa'];

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
  if (isLocalHost(host)) return { kind: 'invalid', reason: 'a local or private host' };

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

function isLocalHost(host: string): boolean {
  if (!host.includes('.')) return true;
  // The URL parser already turned every IPv4 spelling (`127.1`, `0x7f.0.0.1`) into dotted decimal.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[')) return true;
  return LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
