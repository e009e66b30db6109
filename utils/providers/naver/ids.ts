/**
 * Naver place ids (naver-kakao-notes A2): a string of digits, 7–10 long in 2025–26 data; older
 * v5/static data wrote the same id with an `s` prefix (`s38742570`). The dedup key is
 * `naver:{digits}`. Every reader here returns null rather than guess: a wrong id would merge two
 * businesses into one listing, which is worse than a card left unread.
 */
import { placeKey } from '../../domain/place';

/**
 * Accepted lengths. Live ids run 7–10 digits (the captures hold 8- and 10-digit ids); the bounds
 * are a little wider so a new range still reads, and tight enough that a page number, a price or
 * a phone fragment never passes for an id.
 */
const ID = /^[1-9]\d{4,11}$/;
/** The path segments a place id follows in every URL form seen (A1, A2; rankfree's regex). */
const VERTICALS = 'place|restaurant|hairshop|nailshop|hospital|accommodation|beauty|attraction|shopping|cafe';
const PATH_ID = new RegExp(`/(?:${VERTICALS})/(s?\\d+)(?=[/?#]|$)`);
/** Hosts whose URLs may carry a place id. Anything else (an ad network, a blog) is not trusted. */
const NAVER_HOST = /(^|\.)naver\.com$/;
/** Ad links go through a click tracker whose `fu` parameter holds the real place URL (the 2025 m.place capture). */
const CLICK_TRACKER_HOSTS = new Set(['tivan.naver.com', 'adcr.naver.com']);

/** The digits of an id value as the page holds it (`"1813533684"`, `1813533684`, `"s38742570"`), or null. */
export function normaliseNaverId(value: unknown): string | null {
  let s: string;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) return null;
    s = String(value);
  } else if (typeof value === 'string') {
    s = value.trim();
  } else {
    return null;
  }
  if (/^s\d+$/.test(s)) s = s.slice(1);
  return ID.test(s) ? s : null;
}

export function naverKey(id: string): string {
  return placeKey('naver', id);
}

/**
 * The place id in any Naver URL form: `map.naver.com/p/entry/place/{id}`,
 * `/p/search/{q}/place/{id}?…`, `pcmap.place.naver.com/{vertical}/{id}/home`, `m.place.naver.com/…`,
 * a relative card href (`/restaurant/20246834?entry=pll`, resolved against `base`), or an ad's
 * click-tracker link with the place URL in `fu`. Null for anything else.
 */
export function naverIdFromUrl(href: string, base = 'https://pcmap.place.naver.com/'): string | null {
  if (typeof href !== 'string' || href.length === 0 || href.length > 8192) return null;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  if (!NAVER_HOST.test(host)) return null;
  if (CLICK_TRACKER_HOSTS.has(host)) {
    const target = url.searchParams.get('fu');
    // One level only: a tracker pointing at a tracker is not a place link.
    return target && !CLICK_TRACKER_HOSTS.has(hostOf(target)) ? naverIdFromUrl(target, base) : null;
  }
  const m = PATH_ID.exec(url.pathname);
  return m ? normaliseNaverId(m[1]) : null;
}

function hostOf(href: string): string {
  try {
    return new URL(href).hostname.toLowerCase();
  } catch {
    return '';
  }
}
