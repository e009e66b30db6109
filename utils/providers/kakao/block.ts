/**
 * Kakao's block signals (naver-kakao-notes B6, spec §3.3): a redirect to
 * `https://www.kakao.com/500.ko.html`, or an HTML page where map.daum's JSON was expected (its
 * rate limit). Both mean "stop and let the person look", not "retry this cell": retrying a block
 * only lengthens it.
 */

export type KakaoResponseVerdict =
  /** A body that may be JSON or JSONP: hand it to mapdaum.ts. */
  | { kind: 'ok' }
  /** The block page, or HTML instead of JSON. */
  | { kind: 'blocked'; reason: 'redirect-500' | 'html-instead-of-json' }
  /** Any other non-200: the cell's attempt failed, the sweep may retry with backoff. */
  | { kind: 'http-error'; status: number };

export interface KakaoResponseInfo {
  status: number;
  /** The final URL after redirects (a fetch's `response.url`), or the Location of a 302. */
  url?: string | null;
  location?: string | null;
  contentType?: string | null;
  body?: string | null;
}

/** Whether a URL is Kakao's error/block page (`kakao.com/500.ko.html`, any subdomain). */
export function isKakaoBlockUrl(href: string | null | undefined): boolean {
  if (!href) return false;
  try {
    const u = new URL(href);
    return (u.hostname === 'kakao.com' || u.hostname.endsWith('.kakao.com')) && /\/500(\.[a-z]{2})?\.html$/i.test(u.pathname);
  } catch {
    return false;
  }
}

/** A body that starts like a page (`<!DOCTYPE`, `<html`, or any tag), not like JSON or a JSONP call. */
export function looksLikeHtml(body: string | null | undefined): boolean {
  if (!body) return false;
  return /^\s*</.test(body.replace(/^\uFEFF/, ''));
}

/** What a map.daum (or other Kakao JSON) response means before its body is parsed. */
export function classifyKakaoResponse(r: KakaoResponseInfo): KakaoResponseVerdict {
  if (isKakaoBlockUrl(r.url) || isKakaoBlockUrl(r.location)) return { kind: 'blocked', reason: 'redirect-500' };
  if (r.status >= 300 && r.status < 400) return { kind: 'http-error', status: r.status };
  if (r.status !== 200) return { kind: 'http-error', status: r.status };
  if (looksLikeHtml(r.body) || /^text\/html/i.test(r.contentType ?? '')) return { kind: 'blocked', reason: 'html-instead-of-json' };
  return { kind: 'ok' };
}

/**
 * Whether a tab is on the block page. Only the URL is trusted: the block page's own markup was
 * never captured, and a Kakao page the extractors cannot read is reported by observe.ts as
 * "page changed", never as a block (which would pause a sweep on a mere layout change).
 */
export function isKakaoBlockTab(url: string | null | undefined): boolean {
  return isKakaoBlockUrl(url);
}
