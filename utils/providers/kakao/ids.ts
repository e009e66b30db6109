/**
 * Kakao place ids. A place is known by its `confirmid`: digits, 7–10 long on the live site
 * (`8094954`, `27388604`, `1249470554`; naver-kakao-notes B1). The same number is the map.daum
 * `confirmid`, the REST API's `id` and the last path segment of the place page, so the dedup key
 * is `kakao:{confirmid}` whichever of them a place was read from.
 */
import { placeKey } from '../../domain/place';

/** Wider than the 7–10 digits seen (4–12), so an older or newer id still reads; no leading zero. */
const CONFIRM_ID = /^[1-9]\d{3,11}$/;

/** The confirmid in a page value (string or number), or null when it is not one. */
export function parseConfirmId(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? parseConfirmId(String(value)) : null;
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return CONFIRM_ID.test(v) ? v : null;
}

export function kakaoKey(confirmId: string): string {
  return placeKey('kakao', confirmId);
}

const PLACE_HOSTS = new Set(['place.map.kakao.com', 'm.place.map.kakao.com']);

/**
 * The confirmid of a place page URL: `https://place.map.kakao.com/{id}` (the list's `a.moreview`),
 * the REST API's `http://` form, and the retired `/main/v/{id}` (404 since 2026, still in old links).
 */
export function confirmIdFromPlaceUrl(href: string | null | undefined): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href, 'https://place.map.kakao.com/');
  } catch {
    return null;
  }
  if (!PLACE_HOSTS.has(url.hostname) || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  const m = /^\/(?:main\/v\/)?(\d+)\/?$/.exec(url.pathname);
  return m ? parseConfirmId(m[1]) : null;
}
