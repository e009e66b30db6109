/**
 * The sites' share-link services as the three replicas answer them: maps.app.goo.gl (./server.ts),
 * naver.me (./naver/server.ts), kko.to (./kakao/server.ts). Every place a site lists has one link,
 * `https://{host}/{token}`; the token is a hash of the host and the place's id (the same on every run,
 * never the id in clear), so a link a test took from one replica still opens in the next.
 *
 * The specs say only "maps.app.goo.gl/… which redirects" (map-pages-spec §1). How the redirect is
 * made is a switch (`shareRedirect`, in each replica's switches):
 * - `302` (default): what public resolvers read a Location from (maps.app.goo.gl for a non-browser
 *   agent, naver.me in resolver tests); the most common form of a short-link service.
 * - `301`: the older goo.gl answer (a public resolver written for it accepts only 301).
 * - `script`: a 200 page whose script replaces the location after a short delay. One public resolver
 *   (2026-05) says maps.app.goo.gl answers browser user agents this way and only others with a 302.
 * - `meta`: a 200 page with `<meta http-equiv="refresh">`.
 * Where it lands is each site's `shareLanding` switch; the landing is always an https URL on the
 * replica's own hosts.
 */
import { createHash } from 'node:crypto';
import type { Headers } from './https-server';

export const SHARE_REDIRECTS = ['302', '301', 'script', 'meta'] as const;
export type ShareRedirect = (typeof SHARE_REDIRECTS)[number];

/** How long the `script` page waits before it moves on (short-link pages show their interstitial a moment). */
export const SHARE_SCRIPT_DELAY_MS = 300;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_PATH = /^\/([0-9A-Za-z]+)\/?$/;

/**
 * A place's token on a share host: base62 of a SHA-256 of the host and the id, `length` characters.
 * A token that happens to hold the id's digits is drawn again, so no link names its place in clear.
 */
export function shareToken(host: string, id: string, length: number): string {
  for (let salt = 0; ; salt++) {
    let n = BigInt(`0x${createHash('sha256').update(`replica share\n${host}\n${id}\n${salt}`).digest('hex')}`);
    let token = '';
    while (token.length < length) {
      token += BASE62[Number(n % 62n)];
      n /= 62n;
    }
    if (!token.includes(id)) return token;
  }
}

export interface ShareService {
  readonly host: string;
  /** `https://{host}/{token}` of a place, by the id the site keys it with. */
  linkOf(id: string): string;
  /** The id a token was issued for, or null for a token the service never issued. */
  idOf(token: string): string | null;
}

/**
 * A share service over the ids a site lists (read once, at the first lookup: a world never changes).
 * Two places with one token would make a link open the wrong place, so that throws.
 */
export function createShareService(host: string, tokenLength: number, listedIds: () => Iterable<string>): ShareService {
  let index: Map<string, string> | null = null;
  const tokenOf = (id: string): string => shareToken(host, id, tokenLength);
  function byToken(): Map<string, string> {
    if (index) return index;
    const built = new Map<string, string>();
    for (const id of listedIds()) {
      const token = tokenOf(id);
      const other = built.get(token);
      if (other !== undefined && other !== id) throw new Error(`replica share links: ${host} token ${token} for both ${other} and ${id}`);
      built.set(token, id);
    }
    index = built;
    return built;
  }
  return {
    host,
    linkOf: (id) => `https://${host}/${tokenOf(id)}`,
    idOf: (token) => byToken().get(token) ?? null,
  };
}

export interface ShareAnswer {
  status: number;
  headers: Headers;
  body: string;
}

const HTML = { 'content-type': 'text/html; charset=UTF-8' };

/**
 * The answer to a request on a share host: the redirect to the token's place (`landingOf` its id), in
 * `how`'s form; 404 with a plain page for a token the service never issued (or no token at all).
 */
export function answerShareRequest(
  service: ShareService,
  request: { method: string; path: string },
  how: ShareRedirect,
  landingOf: (id: string) => string,
): ShareAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return { status: 405, headers: { ...HTML, allow: 'GET, HEAD' }, body: plainPage('405', 'Method Not Allowed') };
  }
  const token = TOKEN_PATH.exec(request.path.split('?')[0]!)?.[1];
  const id = token === undefined ? null : service.idOf(token);
  if (id === null) return { status: 404, headers: HTML, body: plainPage('404', 'Not Found') };
  return shareRedirectAnswer(how, landingOf(id));
}

/** A redirect to `target` in one of the four forms. */
export function shareRedirectAnswer(how: ShareRedirect, target: string): ShareAnswer {
  const link = `<a href="${escapeHtml(target)}">${escapeHtml(target)}</a>`;
  switch (how) {
    case '301':
    case '302':
      return { status: Number(how), headers: { ...HTML, location: target }, body: page('Moved', `<p>${link}</p>`) };
    case 'script':
      return {
        status: 200,
        headers: HTML,
        body: page(
          'Redirecting…',
          `<p>${link}</p><script>setTimeout(function(){location.replace(${JSON.stringify(target).replace(/</g, '\\u003c')});},${SHARE_SCRIPT_DELAY_MS});</script>`,
        ),
      };
    case 'meta':
      return {
        status: 200,
        headers: HTML,
        body: page('Redirecting…', `<p>${link}</p>`, `<meta http-equiv="refresh" content="0;url=${escapeHtml(target)}">`),
      };
  }
}

/** pages.ts has the same; not imported, as pages.ts imports the switches that import this module. */
function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function page(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">${head}<title>${title}</title></head><body>${body}</body></html>`;
}

function plainPage(status: string, text: string): string {
  return page(`${status} ${text}`, `<p>${status} ${text}</p>`);
}
