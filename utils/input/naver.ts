/**
 * Naver lines of a place list. The id is read by the provider's own parsers
 * (providers/naver/ids.ts naverIdFromUrl, urls.ts placeIdOf), so the key is the sweep's:
 * `naver:{place id}`. Only the map's own hosts are read: naverIdFromUrl trusts any *.naver.com
 * (a page's own links), but a pasted blog.naver.com/…/place/123 is not a place link.
 *
 * Accepted (naver-kakao-notes A1): `map.naver.com/p/entry/place/{id}` (and `/p/search/{q}/place/{id}`,
 * the older `/v5/…/place/{id}`), `pcmap.place.naver.com/{type}/{id}[/home…]`,
 * `m.place.naver.com/{type}/{id}[/…]`, `place.naver.com/{type}/{id}`, `m.map.naver.com/…/place/{id}`.
 */
import { naverIdFromUrl, normaliseNaverId } from '../providers/naver/ids';
import { naverPlaceUrl, placeIdOf } from '../providers/naver/urls';
import type { LineVerdict, ListedPlace } from './types';

const MAP_HOSTS: ReadonlySet<string> = new Set(['map.naver.com', 'm.map.naver.com']);
const PLACE_HOSTS: ReadonlySet<string> = new Set(['pcmap.place.naver.com', 'm.place.naver.com', 'place.naver.com']);
const TRACKER_HOSTS: ReadonlySet<string> = new Set(['tivan.naver.com', 'adcr.naver.com']);

export const NAVER_ID_RULE = 'a Naver place id must be digits (5 to 12 of them, not starting with 0)';

const bad = (reason: string): LineVerdict => ({ kind: 'bad', reason });

export function isNaverHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'naver.com' || h.endsWith('.naver.com');
}

function placeOf(id: string, from: ListedPlace['from']): LineVerdict {
  return {
    kind: 'place',
    place: { provider: 'naver', providerId: id, key: `naver:${id}`, cid: null, featureId: null, placeId: null, url: naverPlaceUrl(id), from },
  };
}

/** `naver:` ids: the digits, or the older `s`-prefixed form (`s38742570`). */
export function readNaverId(value: string): LineVerdict {
  const id = normaliseNaverId(value);
  return id ? placeOf(id, 'id') : bad(NAVER_ID_RULE);
}

/** A link on a *.naver.com host (already checked: http(s), no user name, no port). */
export function readNaverUrl(url: URL): LineVerdict {
  const host = url.hostname;
  if (TRACKER_HOSTS.has(host)) return bad("a Naver ad link: open it and paste the place's own link");
  const onMap = MAP_HOSTS.has(host);
  const onPlaceSite = PLACE_HOSTS.has(host);
  if (!onMap && !onPlaceSite) return bad(`a Naver link that is not a map place (${host})`);
  const id = naverIdFromUrl(url.href) ?? (onPlaceSite ? placeIdOf(url.href) : null);
  if (id) return placeOf(id, 'link');
  const path = url.pathname;
  if (/^\/[a-z]+\/list\/?$/.test(path)) return bad('a Naver search list, not a place');
  const named = onMap ? /\/place\/([^/?#]+)/.exec(path)?.[1] : /^\/[a-z]+\/([^/?#]+)/.exec(path)?.[1];
  if (named !== undefined && (onMap || /\d/.test(named))) return bad(NAVER_ID_RULE);
  if (onMap && /^\/(?:p|v5)\/search\//.test(path)) return bad('a Naver search link, not a place');
  return bad('a Naver map link that names no place');
}
