/**
 * Google lines of a place list: every link form that names one place, and the bare ids. The
 * ids are read by the provider's own parsers (providers/google/urls.ts parsePlaceUrl, ids.ts
 * resolveIds), so a place from a list gets exactly the key a sweep gives it: `google:{cid}`,
 * whichever form named it.
 *
 * Accepted, on google.{tld}, www.google.{tld} and maps.google.{tld} of Google's own domains:
 * - `/maps/place/{name}/…data=…!1s0x…:0x…` (a place's link; `!19sChIJ…` too);
 * - `/maps?cid={cid}`, `maps.google.com/?cid={cid}`;
 * - `/maps?q={text}&ftid=0x…:0x…` (older share and "open in Maps" links);
 * - `/maps/place/?q=place_id:ChIJ…` and `/maps/search/?api=1&query=…&query_place_id=ChIJ…`
 *   (Google's documented Maps URLs).
 * A link whose ids name two different places is refused: one of them is forged or corrupt.
 */
import { GOOGLE_DOMAINS, isGoogleMapsHost } from '../providers/google/hosts';
import { normaliseCid, parseFeatureId, placeIdToFeatureId, resolveIds } from '../providers/google/ids';
import { cidUrl, parsePlaceUrl } from '../providers/google/urls';
import type { LineVerdict, ListedPlace } from './types';

const DOMAINS: ReadonlySet<string> = new Set(GOOGLE_DOMAINS);

const bad = (reason: string): LineVerdict => ({ kind: 'bad', reason });

export const GOOGLE_ID_FORMS = 'a Google id is a CID (digits), a feature id (0x…:0x…) or a ChIJ… place_id';
const CHIJ_WITHOUT_CID = "a Google place_id of a form that does not carry the place's CID: paste the place's link instead";

/** google.com, www.google.co.kr, maps.google.de …: where a Maps link may point; not mail., consent., a look-alike. */
export function isGoogleMapsLinkHost(host: string): boolean {
  const h = host.toLowerCase();
  return DOMAINS.has(h) || isGoogleMapsHost(h) || (h.startsWith('maps.') && DOMAINS.has(h.slice(5)));
}

function placeOf(ids: { cid: string; featureId: string | null; placeId: string | null }, from: ListedPlace['from']): LineVerdict {
  return {
    kind: 'place',
    place: {
      provider: 'google',
      providerId: ids.cid,
      key: `google:${ids.cid}`,
      cid: ids.cid,
      featureId: ids.featureId,
      placeId: ids.placeId,
      url: cidUrl(ids.cid),
      from,
    },
  };
}

/** `google:` ids: `cid:{digits}`, `{digits}` (the product's own key form), `0x…:0x…`, `ChIJ…`. */
export function readGoogleId(value: string): LineVerdict {
  const v = value.trim();
  const cidText = /^cid\s*:\s*(.*)$/i.exec(v)?.[1] ?? (/^\d+$/.test(v) ? v : null);
  if (cidText !== null) {
    const cid = normaliseCid(cidText);
    return cid ? placeOf({ cid, featureId: null, placeId: null }, 'id') : bad('a Google CID must be digits (a number below 2^64)');
  }
  if (/^0x/i.test(v)) {
    const ids = parseFeatureId(v) ? resolveIds({ featureId: v }) : null;
    return ids ? placeOf(ids, 'id') : bad('a Google feature id is two hexadecimal numbers, 0x…:0x…');
  }
  if (/^ChIJ/.test(v)) {
    const ids = resolveIds({ placeId: v });
    return ids ? placeOf(ids, 'id') : bad(CHIJ_WITHOUT_CID);
  }
  return bad(GOOGLE_ID_FORMS);
}

/** A link on a Google host (already checked: http(s), no user name, no port). */
export function readGoogleUrl(url: URL): LineVerdict {
  if (!isGoogleMapsLinkHost(url.hostname)) return bad(`a Google link that is not a Maps place (${url.hostname})`);
  const path = url.pathname;
  const onMapsHost = url.hostname.startsWith('maps.');
  const inMaps = path === '/maps' || path.startsWith('/maps/') || (onMapsHost && path === '/');
  if (!inMaps) {
    if (path === '/search') return bad('a Google web search link, not a Maps place');
    if (path === '/url') return bad('a Google redirect link: paste the link it leads to');
    return bad('a Google link that is not a Maps place');
  }
  const rest = path.replace(/^\/maps/, '') || '/';
  if (rest.startsWith('/dir/') || rest === '/dir') return bad('a Google directions link, not a place');
  if (rest.startsWith('/@')) return bad('a Google map view, not a place');

  const copy = new URL(url.href);
  copy.hash = '';
  // A copied `data=` blob sometimes has its colon escaped (`!1s0x…%3A0x…`); nothing else is decoded.
  const href = copy.href.replace(/(!1s0x[0-9a-f]+)%3A(0x[0-9a-f]+)/gi, '$1:$2');
  const cidParam = url.searchParams.get('cid');
  if (cidParam !== null && !normaliseCid(cidParam)) return bad('a Google CID must be digits (a number below 2^64)');
  const ftid = url.searchParams.get('ftid');
  if (ftid !== null && !parseFeatureId(ftid)) return bad('the ftid of a Google link must be a feature id, 0x…:0x…');

  const parts = parsePlaceUrl(href);
  // Ids mentioned but none resolved: they disagree, or a ChIJ carries no CID.
  const why = parts.key ? null : whyNoIds(href);
  if (why) return bad(why);
  let ids = parts.key && parts.cid ? { cid: parts.cid, featureId: parts.featureId, placeId: parts.placeId } : null;
  if (ftid !== null) {
    const fromFtid = resolveIds({ featureId: ftid, cid: cidParam });
    if (!fromFtid || (ids && ids.cid !== fromFtid.cid)) return bad("the link's place ids name different places");
    ids = ids?.featureId ? ids : fromFtid;
  }
  if (ids && (rest.startsWith('/place') || rest === '/' || rest.startsWith('/search'))) return placeOf(ids, 'link');
  if (rest.startsWith('/search') || url.searchParams.has('q')) return bad('a Google search link, not a place');
  if (rest.startsWith('/place'))
    return bad("a Google place link without the place's id (no !1s0x…:0x…, cid= or place_id): copy the link from the place's own page");
  return bad('a Google Maps link that names no place');
}

/** Why a link that mentions ids gave none: they disagree, or the only one is a ChIJ without a CID. Null if it mentions none. */
function whyNoIds(href: string): string | null {
  const feature = /!1s(0x[0-9a-f]+:0x[0-9a-f]+)/i.exec(href)?.[1] ?? null;
  const chij = /(?:!19s|[?&]query_place_id=|[?&]q=place_id(?::|%3A))(ChIJ[A-Za-z0-9_-]+)/i.exec(href)?.[1] ?? null;
  const cid = /[?&]cid=(\d+)/.exec(href)?.[1] ?? null;
  if (!feature && !chij && !cid) return null;
  if (chij && !placeIdToFeatureId(chij) && !feature && !cid) return CHIJ_WITHOUT_CID;
  return "the link's place ids name different places";
}
