/**
 * One bounded, cookie-less fetch of a business website's page for the contacts pass (issue 23).
 * The user's browser is the fetcher, so what it sends must be the least a site needs to answer:
 * no cookies or credentials, no referrer, nothing cached; and what it accepts is bounded: HTML
 * only, its first 2 MB, 10 s for the whole answer, body included. A site can only make a visit fail, with
 * its reason; it can never make the pass read more than the bounds.
 */
import type { NetworkWatch } from './network-watch';
import type { SiteFailure } from './queue';

export interface FetchBounds {
  /** The whole answer, headers and body, within this time. */
  timeoutMs: number;
  /** A body larger than this is not read… */
  maxBytes: number;
  /** …or, with `cut`, read up to it and the rest left (robots.txt: RFC 9309 2.5 asks for the first 500 KiB). */
  cut?: boolean;
}

/**
 * A page larger than 2 MB is read to 2 MB and the rest left (issue 36): an address sits near the
 * top or in the footer of a page far more often than in its middle, and a site that pads its
 * home page with megabytes of inline data still shows its header.
 */
export const PAGE_BOUNDS: FetchBounds = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, cut: true };
/** robots.txt is small by nature (Google reads the first 500 KiB of one). */
export const ROBOTS_BOUNDS: FetchBounds = { timeoutMs: 10_000, maxBytes: 500 * 1024, cut: true };

export type Fetched =
  | { ok: true; url: string; status: number; contentType: string | null; bytes: Uint8Array }
  | { ok: false; url: string; status: number | null; failure: SiteFailure };

/** One request's answer: a page (or its failure), or a redirect, which the caller follows by hand (follow.ts). */
export type Answered = Fetched | { ok: 'redirect'; url: string; status: number | null; location: string };

export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

/** The media types read as HTML. A missing Content-Type is sniffed from the first bytes. */
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * One request for `url` within `bounds`, its redirect not followed (`redirect: 'manual'`): the
 * caller checks where it points and asks for it in its own turn (follow.ts). `accept` says what
 * a body may be: `html` (a page) or `text` (robots.txt, any text type). `watch` tells what the
 * browser's network saw (network-watch.ts): a redirect's target, which a manual fetch does not
 * show, and the address the answer came from: one in the user's own network is dropped unread.
 */
export async function fetchOnce(
  fetchFn: FetchFn,
  url: string,
  bounds: FetchBounds,
  accept: 'html' | 'text',
  signal?: AbortSignal,
  watch?: NetworkWatch,
): Promise<Answered> {
  const timeout = AbortSignal.timeout(bounds.timeoutMs);
  const abort = signal ? AbortSignal.any([timeout, signal]) : timeout;
  const since = watch?.mark() ?? 0;
  let response: Response;
  try {
    response = await fetchFn(url, {
      credentials: 'omit',
      redirect: 'manual',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      headers: { Accept: accept === 'html' ? 'text/html,application/xhtml+xml;q=0.9' : 'text/plain,*/*;q=0.5' },
      signal: abort,
    });
  } catch (e) {
    return { ok: false, url, status: null, failure: { kind: 'transient', message: failureText(e, timeout, bounds) } };
  }
  const finalUrl = response.url || url;
  const failed = (failure: SiteFailure): Fetched => {
    // The body is not wanted: let the connection go rather than download it.
    void response.body?.cancel().catch(() => {});
    return { ok: false, url: finalUrl, status: response.status, failure };
  };
  const redirected = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400 && response.status !== 304);
  if (redirected) {
    void response.body?.cancel().catch(() => {});
    const location = response.headers.get('location') ?? (await watch?.locationOf(url, since, abort)) ?? null;
    if (!location)
      return { ok: false, url, status: response.status || null, failure: { kind: 'transient', message: 'a redirect whose target the browser did not show' } };
    return { ok: 'redirect', url, status: response.status || null, location };
  }
  // A public name that resolved into the user's own network (a router's name, a rebinding DNS):
  // never read. Behind a proxy in that network every answer shows the proxy's address: the watch
  // tells the two apart over the answers it has seen (answer-address.ts).
  const address = watch ? await watch.addressOf(finalUrl, since, abort) : null;
  const refusal = address && watch ? watch.refusal(hostOf(finalUrl), address) : null;
  if (refusal) return failed(refusal);
  if (!response.ok) {
    const transient = response.status === 408 || response.status === 429 || response.status >= 500;
    return failed({ kind: transient ? 'transient' : 'permanent', message: `HTTP ${response.status}` });
  }
  const contentType = response.headers.get('content-type');
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
  if (accept === 'html' && mediaType !== null && !HTML_TYPES.has(mediaType)) return failed({ kind: 'permanent', message: `not a web page (${mediaType})` });
  const declared = Number(response.headers.get('content-length'));
  if (!bounds.cut && Number.isFinite(declared) && declared > bounds.maxBytes)
    return failed({ kind: 'permanent', message: `larger than ${bounds.maxBytes} bytes` });
  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(response, bounds.maxBytes, bounds.cut === true);
  } catch (e) {
    return { ok: false, url: finalUrl, status: response.status, failure: { kind: 'transient', message: failureText(e, timeout, bounds) } };
  }
  if (!bytes) return { ok: false, url: finalUrl, status: response.status, failure: { kind: 'permanent', message: `larger than ${bounds.maxBytes} bytes` } };
  if (accept === 'html' && mediaType === null && !looksLikeHtml(bytes))
    return { ok: false, url: finalUrl, status: response.status, failure: { kind: 'permanent', message: 'not a web page (no type, not HTML)' } };
  return { ok: true, url: finalUrl, status: response.status, contentType, bytes };
}

/** The body, or null when it is larger than `max` (reading stops there: a 50 MB file costs 2 MB); with `cut`, its first `max` bytes. */
async function readAtMost(response: Response, max: number, cut: boolean): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      await reader.cancel().catch(() => {});
      if (!cut) return null;
      chunks.push(value.subarray(0, max - size));
      size = max;
      break;
    }
    size += value.byteLength;
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** HTML's own sniffing, in short: after a BOM and white space, a tag. */
function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8')
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<head') || head.startsWith('<body') || head.startsWith('<!--');
}

function failureText(e: unknown, timeout: AbortSignal, bounds: FetchBounds): string {
  if (timeout.aborted) return `no answer within ${bounds.timeoutMs / 1000} s`;
  const name = e instanceof Error ? e.name : '';
  if (name === 'AbortError') return 'stopped';
  return `network error: ${e instanceof Error ? e.message : String(e)}`;
}
