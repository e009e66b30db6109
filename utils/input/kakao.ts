/**
 * Kakao lines of a place list. The confirmid is read by the provider's own parsers
 * (providers/kakao/ids.ts confirmIdFromPlaceUrl, parseConfirmId), so the key is the sweep's:
 * `kakao:{confirmid}`.
 *
 * Accepted (naver-kakao-notes B1): `place.map.kakao.com/{confirmid}` (https, and the REST API's
 * `http://` form), `m.place.map.kakao.com/{confirmid}`, the retired `/main/v/{confirmid}` (the
 * id still names the place), `map.kakao.com/link/map/{confirmid}`, Kakao's documented
 * "open this place" link, and `map.kakao.com/?itemId={confirmid}`, the map opened on a place.
 */
import { confirmIdFromPlaceUrl, parseConfirmId } from '../providers/kakao/ids';
import { placeUrl } from '../providers/kakao/urls';
import type { LineVerdict, ListedPlace } from './types';

const PLACE_HOSTS: ReadonlySet<string> = new Set(['place.map.kakao.com', 'm.place.map.kakao.com']);

export const KAKAO_ID_RULE = 'a Kakao place id (confirmid) must be digits (4 to 12 of them, not starting with 0)';

const bad = (reason: string): LineVerdict => ({ kind: 'bad', reason });

export function isKakaoHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'kakao.com' || h.endsWith('.kakao.com');
}

function placeOf(id: string, from: ListedPlace['from']): LineVerdict {
  return {
    kind: 'place',
    place: { provider: 'kakao', providerId: id, key: `kakao:${id}`, cid: null, featureId: null, placeId: null, url: placeUrl(id), from },
  };
}

/** `kakao:` ids: the confirmid's digits. */
export function readKakaoId(value: string): LineVerdict {
  const id = parseConfirmId(value);
  return id ? placeOf(id, 'id') : bad(KAKAO_ID_RULE);
}

/** A link on a *.kakao.com host (already checked: http(s), no user name, no port). */
export function readKakaoUrl(url: URL): LineVerdict {
  const host = url.hostname;
  const path = url.pathname;
  if (PLACE_HOSTS.has(host)) {
    const id = confirmIdFromPlaceUrl(url.href);
    if (id) return placeOf(id, 'link');
    return /^\/(?:main\/v\/)?[^/]+\/?$/.test(path) && path !== '/' ? bad(KAKAO_ID_RULE) : bad('a Kakao place page link that names no place');
  }
  if (host === 'map.kakao.com') {
    const linked = /^\/link\/map\/([^/]+)\/?$/.exec(path)?.[1];
    if (linked !== undefined) {
      if (linked.includes(',')) return bad('a Kakao map pin (name, latitude, longitude), not a place');
      const id = parseConfirmId(linked);
      return id ? placeOf(id, 'link') : bad(KAKAO_ID_RULE);
    }
    if (/^\/link\/to\//.test(path)) return bad('a Kakao directions link, not a place');
    // `?itemId={confirmid}`: the map page opened on a place, as older share links land [~].
    const itemId = url.searchParams.get('itemId');
    if (itemId !== null && path === '/') {
      const id = parseConfirmId(itemId);
      return id ? placeOf(id, 'link') : bad(KAKAO_ID_RULE);
    }
    if (url.searchParams.has('q')) return bad('a Kakao search link, not a place');
    return bad('a Kakao map link that names no place');
  }
  return bad(`a Kakao link that is not a map place (${host})`);
}
