/**
 * The contacts pass's bounded fetch (utils/contacts/fetch-page.ts) and its politeness
 * (utils/contacts/host-lanes.ts): no cookies, HTML only, 2 MB read at most however large the
 * file, 10 s for the whole answer; one request at a time per host, ≥ the gap apart, a global cap.
 */
import { describe, expect, it } from 'vitest';
import { fetchBounded, PAGE_BOUNDS, ROBOTS_BOUNDS, type FetchFn } from '../../utils/contacts/fetch-page';
import { createHostLanes } from '../../utils/contacts/host-lanes';
import { limitRedirects, type RedirectEvent } from '../../utils/contacts/redirect-limit';
import { abortableSleep } from '../../utils/contacts/sleep';

const html = (body: string, headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }, status = 200) =>
  new Response(body, { status, headers });

/** A body that streams `total` bytes in 64 KiB chunks, counting what was pulled. */
function streamed(total: number, pulled: { bytes: number }): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  return new ReadableStream({
    pull(c) {
      if (pulled.bytes >= total) return c.close();
      pulled.bytes += chunk.byteLength;
      c.enqueue(chunk);
    },
  });
}

describe('a bounded page fetch', () => {
  it('sends no cookies, no referrer, nothing cached, and reads an HTML page whole', async () => {
    let init: RequestInit | undefined;
    const fetchFn: FetchFn = async (_url, i) => {
      init = i;
      return html('<p>hi</p>');
    };
    const got = await fetchBounded(fetchFn, 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(got.ok && new TextDecoder().decode(got.bytes)).toBe('<p>hi</p>');
    expect([init?.credentials, init?.referrerPolicy, init?.cache, init?.redirect]).toEqual(['omit', 'no-referrer', 'no-store', 'follow']);
  });

  it('tells a failure worth retrying (5xx, 429, 408, network) from one that will answer the same (404, a PDF, too large)', async () => {
    const kind = async (r: Response | Error) => {
      const got = await fetchBounded(async () => (r instanceof Error ? Promise.reject(r) : r), 'https://a.kr/', PAGE_BOUNDS, 'html');
      return got.ok ? 'ok' : `${got.failure.kind}: ${got.failure.message}`;
    };
    expect(await kind(html('', undefined, 503))).toBe('transient: HTTP 503');
    expect(await kind(html('', undefined, 429))).toBe('transient: HTTP 429');
    expect(await kind(html('', undefined, 408))).toBe('transient: HTTP 408');
    expect(await kind(new TypeError('Failed to fetch'))).toBe('transient: network error: Failed to fetch');
    expect(await kind(html('', undefined, 404))).toBe('permanent: HTTP 404');
    expect(await kind(html('%PDF-1.7', { 'content-type': 'application/pdf' }))).toBe('permanent: not a web page (application/pdf)');
    expect(await kind(html('x', { 'content-type': 'text/html', 'content-length': String(3 * 1024 * 1024) }))).toBe('permanent: larger than 2097152 bytes');
    // No type at all: HTML only if it looks like HTML.
    expect(await kind(new Response(new TextEncoder().encode('<!DOCTYPE html><p>x</p>')))).toBe('ok');
    expect(await kind(new Response(new TextEncoder().encode('%PDF-1.7 binary')))).toBe('permanent: not a web page (no type, not HTML)');
  });

  it('stops reading a 50 MB body at 2 MB, whatever its headers claim', async () => {
    const pulled = { bytes: 0 };
    const got = await fetchBounded(
      async () => new Response(streamed(50 * 1024 * 1024, pulled), { headers: { 'content-type': 'text/html' } }),
      'https://big.kr/',
      PAGE_BOUNDS,
      'html',
    );
    expect(got.ok).toBe(false);
    expect(!got.ok && got.failure).toEqual({ kind: 'permanent', message: 'larger than 2097152 bytes' });
    // The stream may read ahead a chunk or two; never the whole file.
    expect(pulled.bytes).toBeLessThan(PAGE_BOUNDS.maxBytes + 4 * 64 * 1024);
  });

  it('gives up on an answer whose body never ends, within the time bound', async () => {
    const hanging: FetchFn = async (_url, init) =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('<html>'));
            init.signal?.addEventListener('abort', () => c.error(init.signal!.reason));
          },
        }),
        { headers: { 'content-type': 'text/html' } },
      );
    const started = Date.now();
    const got = await fetchBounded(hanging, 'https://slow.kr/', { timeoutMs: 200, maxBytes: 1024 }, 'html');
    expect(!got.ok && got.failure).toEqual({ kind: 'transient', message: 'no answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('host lanes', () => {
  /** A clock the lanes' sleeps advance. */
  function clock() {
    let t = 0;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
        await Promise.resolve();
      },
    };
  }

  it('one request at a time per host, each starting ≥ the gap after the last one ENDED (a slow answer does not shorten it); other hosts do not wait', async () => {
    const c = clock();
    const lanes = createHostLanes({ gapMs: 1000, concurrency: 4, ...c });
    const spans: [string, number, number][] = [];
    let inFlightA = 0;
    let maxInFlightA = 0;
    const request = async (host: string) => {
      const release = await lanes.acquire(host);
      const start = c.now();
      if (host === 'a') maxInFlightA = Math.max(maxInFlightA, ++inFlightA);
      // The answer takes 600 ms.
      await c.sleep(600);
      if (host === 'a') inFlightA--;
      spans.push([host, start, c.now()]);
      release();
    };
    await Promise.all([request('a'), request('a'), request('b'), request('a')]);
    const a = spans.filter(([h]) => h === 'a').sort((x, y) => x[1] - y[1]);
    expect(maxInFlightA).toBe(1);
    for (let i = 1; i < a.length; i++) expect(a[i]![1] - a[i - 1]![2]).toBeGreaterThanOrEqual(1000);
    // b has a lane of its own: it starts before a's second request, whose gap it does not wait out.
    expect(spans.find(([h]) => h === 'b')![1]).toBeLessThan(a[1]![1]);
  });

  it('never more than the global cap in flight over all hosts', async () => {
    const c = clock();
    const lanes = createHostLanes({ gapMs: 0, concurrency: 2, ...c });
    let inFlight = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const request = async (host: string) => {
      const release = await lanes.acquire(host);
      most = Math.max(most, ++inFlight);
      await new Promise<void>((r) => gates.push(r));
      inFlight--;
      release();
    };
    const all = Promise.all(['a', 'b', 'c', 'd', 'e'].map(request));
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 5));
      gates.shift()?.();
    }
    await all;
    expect(most).toBe(2);
  });

  it('a wait given up (the pass paused) frees the lane for the next request', async () => {
    const c = clock();
    const lanes = createHostLanes({
      gapMs: 1000,
      concurrency: 1,
      now: c.now,
      sleep: (ms, signal) => (signal?.aborted ? Promise.reject(new Error('aborted')) : c.sleep(ms)),
    });
    (await lanes.acquire('a'))();
    const stop = new AbortController();
    stop.abort();
    await expect(lanes.acquire('a', stop.signal)).rejects.toThrow();
    const release = await lanes.acquire('a');
    release();
  });
});

describe('at most 5 redirects', () => {
  /** A fetch that walks a redirect chain of `hops`, reporting each hop as webRequest would, then answers. */
  function chain(hops: number) {
    const listeners: ((e: RedirectEvent) => void)[] = [];
    const source = { addListener: (l: (e: RedirectEvent) => void) => void listeners.push(l) };
    const fetchFn: FetchFn = async (url, init) => {
      let at = url;
      for (let i = 0; i < hops; i++) {
        const next = `${url}r${i}`;
        // A tab's redirect of the same URL is not the worker's.
        for (const l of listeners) l({ url: at, redirectUrl: next, tabId: 7 });
        for (const l of listeners) l({ url: at, redirectUrl: next, tabId: -1 });
        init.signal?.throwIfAborted();
        at = next;
      }
      return html('<p>end</p>');
    };
    return { fetchFn, source };
  }

  it("a redirect into the user's own network (a router, localhost) is not followed", async () => {
    const listeners: ((e: RedirectEvent) => void)[] = [];
    const fetchFn: FetchFn = async (url, init) => {
      for (const l of listeners) l({ url, redirectUrl: 'http://192.168.0.1/admin', tabId: -1 });
      init.signal?.throwIfAborted();
      return html('<p>router</p>');
    };
    const got = await fetchBounded(limitRedirects(fetchFn, { addListener: (l) => void listeners.push(l) }), 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(!got.ok && got.failure).toEqual({ kind: 'permanent', message: 'redirected to a private or invalid address' });
  });

  it('a chain of 5 is followed; of 6, the fetch stops and the site is left failed (permanent), not retried', async () => {
    const five = chain(5);
    expect((await fetchBounded(limitRedirects(five.fetchFn, five.source), 'https://a.kr/', PAGE_BOUNDS, 'html')).ok).toBe(true);
    const six = chain(6);
    const got = await fetchBounded(limitRedirects(six.fetchFn, six.source), 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(!got.ok && got.failure).toEqual({ kind: 'permanent', message: 'more than 5 redirects' });
  });
});

describe("the pass's wait", () => {
  it('ends at once on a pause, and leaves no listener behind when it ends on its own', async () => {
    const stop = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = stop.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...a: Parameters<typeof add>) => {
      added++;
      add(...a);
    }) as typeof add;
    signal.removeEventListener = ((...a: Parameters<typeof remove>) => {
      removed++;
      remove(...a);
    }) as typeof remove;
    for (let i = 0; i < 5; i++) await abortableSleep(1, signal);
    expect([added, removed]).toEqual([5, 5]);
    const waiting = abortableSleep(60_000, signal);
    stop.abort(new Error('paused'));
    await expect(waiting).rejects.toThrow('paused');
  });
});

describe('a large robots.txt', () => {
  it('is read to its first 500 KiB (RFC 9309), not failed', async () => {
    const pulled = { bytes: 0 };
    const got = await fetchBounded(
      async () => new Response(streamed(3 * 1024 * 1024, pulled), { headers: { 'content-type': 'text/plain' } }),
      'https://a.kr/robots.txt',
      ROBOTS_BOUNDS,
      'text',
    );
    expect(got.ok && got.bytes.byteLength).toBe(ROBOTS_BOUNDS.maxBytes);
  });
});
