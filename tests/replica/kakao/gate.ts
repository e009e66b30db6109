/**
 * The 2026 search endpoint's gate token (naver-kakao-notes B4b): the page POSTs
 * `{"method":"GET","url":"/api/v1/mapsearch/map?…","body":""}` to `/api/v1/settings/web/gate-token`
 * and gets `{"token":…}` minted for that exact URL, which its search request then carries in
 * `x-kmap-captcha-token`. The replica's token is a keyed hash of the URL: a request the page did
 * not prepare (any other URL, or none) is refused, as the live endpoint refuses it.
 */
import { createHash } from 'node:crypto';

export const GATE_TOKEN_PATH = '/api/v1/settings/web/gate-token';
export const GATE_TOKEN_HEADER = 'x-kmap-captcha-token';

/** The token for one request path with its query, as the page wrote it. */
export function gateToken(secret: string, pathAndQuery: string): string {
  return createHash('sha256').update(`${secret}\n${pathAndQuery}`).digest('hex').slice(0, 32);
}

/** The gate-token answer for a POST body, or null for a body that does not ask for a GET of a URL. */
export function answerGateRequest(secret: string, body: string): string | null {
  try {
    const data = JSON.parse(body) as { method?: unknown; url?: unknown };
    if (data.method !== 'GET' || typeof data.url !== 'string' || !data.url.startsWith('/')) return null;
    return JSON.stringify({ token: gateToken(secret, data.url) });
  } catch {
    return null;
  }
}

/** Whether a search request carries the token minted for its own path and query. */
export function gateTokenValid(secret: string, pathAndQuery: string, token: string | null | undefined): boolean {
  return typeof token === 'string' && token === gateToken(secret, pathAndQuery);
}
