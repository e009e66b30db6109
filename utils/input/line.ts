/**
 * One entry of a place list → a place, a share link or a reason. The checks a link passes, in
 * order, each with its own reason, because a list is pasted from anywhere (a spreadsheet, a chat,
 * a web page) and a person fixes a line only when told what is wrong with it:
 *
 *   length ≤ 4,096 → not a formula, not HTML → `site:id` → a URL alone on its line → http(s)
 *   → no `user@` before the host → no port → a host of the site itself (exact names, never a
 *   suffix match: google.com.evil.example is not Google) → that site's own link forms.
 *
 * A link is only ever read for its ids (the place's own page is built from them); only a share
 * link is opened, rebuilt on its service's host (shares.ts). http links of the sites are read
 * like https ones (Kakao's REST API gives `http://place.map.kakao.com/…`), since nothing of
 * them but the id is used.
 */
import type { ProviderId } from '../domain/place';
import { isGoogleHost } from '../providers/google/hosts';
import { readGoogleId, readGoogleUrl } from './google';
import { isKakaoHost, readKakaoId, readKakaoUrl } from './kakao';
import { count, MAX_LINE_CHARS } from './limits';
import { isNaverHost, readNaverId, readNaverUrl } from './naver';
import { isShareHost, readShareUrl } from './shares';
import type { LineVerdict } from './types';

export const NOT_A_PLACE = 'not a Google, Naver or Kakao place link';

const bad = (reason: string): LineVerdict => ({ kind: 'bad', reason });

const SITE_ID = /^(google|naver|kakao)\s*:\s*(.*)$/is;
/** Invisible characters a chat app or a web page leaves around a copied link. */
const EDGE_INVISIBLES = /^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/g;
const WEB_URL = /^https?:\/\//i;
const ANY_SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Schemes that are never a web page: `javascript:alert(1)` has no `//`. */
const OTHER_SCHEME = /^(javascript|vbscript|data|file|blob|about|chrome|chrome-extension|moz-extension|mailto|tel|sms|intent|ftp|ws|wss)\s*:/i;
/** A host name first, as in `place.map.kakao.com/27388604` (no scheme). */
const BARE_HOST = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+(?=[/?#:@]|$)/i;

/**
 * One entry (a line's text, or a CSV cell). `site`: the row's site column, which a bare id needs
 * and a link must agree with.
 */
export function readLine(raw: string, site: ProviderId | null = null): LineVerdict {
  const text = raw.replace(EDGE_INVISIBLES, '');
  if (text.length > MAX_LINE_CHARS) return bad(`line is ${count(text.length)} characters long (a place link is at most ${count(MAX_LINE_CHARS)})`);
  if (text.startsWith('=')) return bad('a spreadsheet formula, not a link: paste the link itself');
  if (text.startsWith('<')) return bad('HTML, not a link: paste the link itself');
  const verdict = readEntry(text, site);
  if (site && verdict.kind !== 'bad') {
    const provider = verdict.kind === 'place' ? verdict.place.provider : verdict.share.provider;
    if (provider !== site) return bad(`the row's site is ${site}, but this is a ${siteName(provider)} link`);
  }
  return verdict;
}

function readEntry(text: string, site: ProviderId | null): LineVerdict {
  const prefixed = SITE_ID.exec(text);
  if (prefixed) {
    const provider = prefixed[1]!.toLowerCase() as ProviderId;
    if (site && provider !== site) return bad(`the row's site is ${site}, but the id says ${provider}`);
    return readSiteId(provider, prefixed[2]!);
  }
  if (OTHER_SCHEME.test(text)) return bad(`a ${text.split(':')[0]!.trim().toLowerCase()}: link, not a web link`);
  if (/\s/.test(text)) {
    return /https?:\/\/|\.(?:com|me|to|gl)\//i.test(text) ? bad('a link must be alone on its line, with nothing before or after it') : bad(NOT_A_PLACE);
  }
  if (WEB_URL.test(text)) return readUrl(text);
  if (ANY_SCHEME_URL.test(text)) return bad(`a ${text.split(':')[0]!.toLowerCase()}: link, not a web link`);
  if (BARE_HOST.test(text)) return readUrl(`https://${text}`);
  if (site && !text.includes('/')) return readSiteId(site, text);
  if (/^\d+$/.test(text)) return bad('a bare id needs its site: write naver:{id}, kakao:{id} or google:cid:{cid}');
  return bad(NOT_A_PLACE);
}

function readSiteId(provider: ProviderId, value: string): LineVerdict {
  if (provider === 'google') return readGoogleId(value);
  if (provider === 'naver') return readNaverId(value);
  return readKakaoId(value);
}

function readUrl(href: string): LineVerdict {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return bad('not a valid link');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return bad(`a ${url.protocol} link, not a web link`);
  if (url.username || url.password) return bad(`a link with a name before its host (…@${url.hostname}) is not read: it hides where the link goes`);
  if (url.port) return bad(`a link with a port (:${url.port}) is not a map site's own link`);
  const host = url.hostname.toLowerCase();
  if (isShareHost(host)) return readShareUrl(url);
  if (isGoogleHost(host)) return readGoogleUrl(url);
  if (isNaverHost(host)) return readNaverUrl(url);
  if (isKakaoHost(host)) return readKakaoUrl(url);
  return bad(`${NOT_A_PLACE} (the link goes to ${host})`);
}

function siteName(provider: ProviderId): string {
  return provider === 'google' ? 'Google' : provider === 'naver' ? 'Naver' : 'Kakao';
}

/**
 * The place a share link landed on: the worker tab's URL after opening it, read like a pasted
 * link and held to the share's site (a naver.me link that ends on another site names no place of
 * the list). A share that lands on no place page (a search, a removed place) is a bad entry with
 * its reason, reported under the share's line.
 */
export function placeFromLandingUrl(provider: ProviderId, landedUrl: string): LineVerdict {
  if (!WEB_URL.test(landedUrl)) return bad('the share link led to no web page');
  const verdict = readLine(landedUrl);
  if (verdict.kind === 'share') return bad('the share link led to another share link');
  if (verdict.kind === 'place' && verdict.place.provider !== provider)
    return bad(`the ${siteName(provider)} share link led to a ${siteName(verdict.place.provider)} page`);
  if (verdict.kind === 'bad') return bad(`the share link led to no place page (${verdict.reason})`);
  return verdict;
}
