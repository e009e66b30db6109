/**
 * Share links: the short links the sites' apps hand out ("Share" → copy link). They name their
 * place only once opened, so a list keeps them apart, to be opened one by one in the worker tab
 * (paced like any load) and the page they land on read again with placeFromLandingUrl (list.ts).
 *
 * Only each service's own host and path shape are kept, rebuilt as `https://{host}/{token}`:
 * no query, no fragment, nothing the line added. So what the worker opens is a link of the
 * service, never a URL a list chose.
 *
 * - Google: `maps.app.goo.gl/{token}` (the app's share), `goo.gl/maps/{token}` (older).
 * - Naver: `naver.me/{token}`.
 * - Kakao: `kko.to/{token}`, `kko.kakao.com/{token}`.
 */
import type { ProviderId } from '../domain/place';
import type { LineVerdict } from './types';

interface ShareService {
  provider: ProviderId;
  /** The path the token sits under ('' for the root). */
  prefix: string;
}

const SERVICES: ReadonlyMap<string, ShareService> = new Map([
  ['maps.app.goo.gl', { provider: 'google', prefix: '' }],
  ['goo.gl', { provider: 'google', prefix: '/maps' }],
  ['naver.me', { provider: 'naver', prefix: '' }],
  ['kko.to', { provider: 'kakao', prefix: '' }],
  ['kko.kakao.com', { provider: 'kakao', prefix: '' }],
]);

const TOKEN = /^[A-Za-z0-9_-]{3,64}$/;

export function isShareHost(host: string): boolean {
  return SERVICES.has(host.toLowerCase()) || host.toLowerCase() === 'g.co';
}

/** A link on a share host (already checked: http(s), no user name, no port). */
export function readShareUrl(url: URL): LineVerdict {
  const host = url.hostname.toLowerCase();
  if (host === 'g.co') return { kind: 'bad', reason: "a Google search share link (g.co), not a Maps place: open it and paste the place's Maps link" };
  const service = SERVICES.get(host);
  if (!service) return { kind: 'bad', reason: 'not a share link of Google Maps, Naver Map or Kakao Map' };
  const path = url.pathname.replace(/\/$/, '');
  const token = path.startsWith(`${service.prefix}/`) ? path.slice(service.prefix.length + 1) : null;
  if (token === null || !TOKEN.test(token)) {
    return { kind: 'bad', reason: host === 'goo.gl' ? 'a goo.gl link that is not a Google Maps share' : `a ${host} link without its share code` };
  }
  return { kind: 'share', share: { provider: service.provider, url: `https://${host}${service.prefix}/${token}` } };
}
