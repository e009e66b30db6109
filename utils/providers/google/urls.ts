import type { MapView } from '../../geo/types';
import { isGoogleHost } from './hosts';
import { resolveIds } from './ids';

export const GOOGLE_ORIGIN = 'https://www.google.com';

/**
 * `/maps/search/{q}/@{lat},{lng},{zoom}z?hl={lang}` — the search a sweep cell loads (spec §1.1),
 * its results in `lang` (Google's `hl`; English when not given or not a language tag).
 */
export function searchUrl(query: string, view: MapView, lang?: string): string {
  const q = encodeURIComponent(query.trim()).replace(/%20/g, '+');
  const hl = lang && /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(lang) ? lang : 'en';
  return `${GOOGLE_ORIGIN}/maps/search/${q}/@${view.lat.toFixed(7)},${view.lng.toFixed(7)},${roundZoom(view.zoom)}z?hl=${hl}`;
}

function roundZoom(zoom: number): string {
  return String(Math.round(zoom * 100) / 100);
}

/** The `@lat,lng,zoomz` part of a maps URL, or null. */
export function parseView(url: string): MapView | null {
  const m = /\/@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(\d+(?:\.\d+)?)z/.exec(url);
  if (!m) return null;
  return { lat: Number(m[1]), lng: Number(m[2]), zoom: Number(m[3]) };
}

/** The query of a `/maps/search/{q}` URL, decoded, or null. */
export function parseSearchQuery(url: string): string | null {
  const m = /\/maps\/search\/([^/?#@]+)/.exec(url);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

export interface PlaceUrlParts {
  key: string | null;
  cid: string | null;
  featureId: string | null;
  placeId: string | null;
  /** The exact pin from `!3d…!4d…` (not the `@` viewport centre). */
  lat: number | null;
  lng: number | null;
  /** The `/maps/place/{Name}` segment, decoded. */
  name: string | null;
}

/**
 * Ids, pin and name from any place URL form of spec §1.4: card hrefs (`!1s0x…:0x…`,
 * `!3d…!4d…`, `!19sChIJ…`), `?cid=`, `query_place_id=` and `q=place_id:`.
 * Contradicting id forms make the ids null (a forged or corrupt href).
 */
export function parsePlaceUrl(href: string): PlaceUrlParts {
  const feature = /!1s(0x[0-9a-f]+:0x[0-9a-f]+)/i.exec(href)?.[1] ?? null;
  const chij =
    /!19s(ChIJ[A-Za-z0-9_-]+)/.exec(href)?.[1] ??
    /[?&]query_place_id=(ChIJ[A-Za-z0-9_-]+)/.exec(href)?.[1] ??
    /[?&]q=place_id(?::|%3A)(ChIJ[A-Za-z0-9_-]+)/i.exec(href)?.[1] ??
    null;
  const cid = /[?&]cid=(\d+)/.exec(href)?.[1] ?? null;
  const ids = resolveIds({ featureId: feature, placeId: chij, cid });
  const pin = /!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)/.exec(href);
  const nameSeg = /\/maps\/place\/([^/?#@]+)/.exec(href)?.[1];
  let name: string | null = null;
  if (nameSeg) {
    try {
      name = decodeURIComponent(nameSeg.replace(/\+/g, ' '));
    } catch {
      name = null;
    }
  }
  return {
    key: ids?.key ?? null,
    cid: ids?.cid ?? null,
    featureId: ids?.featureId ?? null,
    placeId: ids?.placeId ?? null,
    lat: pin ? Number(pin[1]) : null,
    lng: pin ? Number(pin[2]) : null,
    name,
  };
}

/** The link the CSV gives for a place: stable across Google's URL changes. */
export function cidUrl(cid: string): string {
  return `${GOOGLE_ORIGIN}/maps?cid=${cid}`;
}

/**
 * Block pages the content script never runs on (they are not under /maps/), judged from the
 * tab's URL: the captcha (`/sorry/`, spec §1.7) and the consent interstitial, on any host of
 * Google's domains (www.google.co.kr, ipv4.google.com, consent.google.com …: a user's tab may be
 * on a country domain), never on a look-alike (notgoogle.com, google.com.evil.example).
 */
export function blockedPageKind(url: string): 'captcha' | 'consent' | null {
  try {
    const u = new URL(url);
    if (!isGoogleHost(u.hostname)) return null;
    if (u.hostname.toLowerCase().startsWith('consent.')) return 'consent';
    if (u.pathname.startsWith('/sorry/')) return 'captcha';
  } catch {
    return null;
  }
  return null;
}
