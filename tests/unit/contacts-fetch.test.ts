/**
 * The contacts pass's bounded fetch (utils/contacts/fetch-page.ts) and its politeness
 * (utils/contacts/host-lanes.ts): no cookies, HTML only, 2 MB read at most however large the
 * file, 10 s for the whole answer; one request at a time per host, ≥ the gap apart, a global cap.
 */
import { describe, expect, it } from 'vitest';
import { visitSite } from '../../utils/contacts/visit';
import { fetchOnce, PAGE_BOUNDS, ROBOTS_BOUNDS, type FetchFn, type Fetched, type FetchBounds } from '../../utils/contacts/fetch-page';
import { fetchFollowing } from '../../utils/contacts/follow';
import { createNetworkWatch, type NetworkEvent } from '../../utils/contacts/network-watch';
import { createAddressJudge } from '../../utils/contacts/answer-address';
import { createHostLanes } from '../../utils/contacts/host-lanes';
import { abortableSleep } from '../../utils/contacts/sleep';

/** One request, as a page fetch sends it (no redirect in these tests). */
async function fetchPage(fetchFn: FetchFn, url: string, bounds: FetchBounds, accept: 'html' | 'text'): Promise<Fetched> {
  const got = await fetchOnce(fetchFn, url, bounds, accept);
  if (got.ok === 'redirect') throw new Error('unexpected redirect');
  return got;
}

const html = (body: string, headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }, status = 200) =>
  new Response(body, { status, headers });

/** A body that streams `top`, then `total` bytes in 64 KiB chunks, counting what was pulled. */
function streamed(total: number, pulled: { bytes: number }, top?: Uint8Array): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  return new ReadableStream({
    start(c) {
      if (top) c.enqueue(top);
    },
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
    const got = await fetchPage(fetchFn, 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(got.ok && new TextDecoder().decode(got.bytes)).toBe('<p>hi</p>');
    expect([init?.credentials, init?.referrerPolicy, init?.cache, init?.redirect]).toEqual(['omit', 'no-referrer', 'no-store', 'manual']);
  });

  it('tells a failure worth retrying (5xx, 429, 408, network) from one that will answer the same (404, a PDF, a robots.txt too large)', async () => {
    const kind = async (r: Response | Error) => {
      const got = await fetchPage(async () => (r instanceof Error ? Promise.reject(r) : r), 'https://a.kr/', PAGE_BOUNDS, 'html');
      return got.ok ? 'ok' : `${got.failure.kind}: ${got.failure.message}`;
    };
    expect(await kind(html('', undefined, 503))).toBe('transient: HTTP 503');
    expect(await kind(html('', undefined, 429))).toBe('transient: HTTP 429');
    expect(await kind(html('', undefined, 408))).toBe('transient: HTTP 408');
    expect(await kind(new TypeError('Failed to fetch'))).toBe('transient: network error: Failed to fetch');
    expect(await kind(html('', undefined, 404))).toBe('permanent: HTTP 404');
    expect(await kind(html('%PDF-1.7', { 'content-type': 'application/pdf' }))).toBe('permanent: not a web page (application/pdf)');
    // A page that declares more than the bound is read to it (the next test), not refused by its header.
    expect(await kind(html('<p>x</p>', { 'content-type': 'text/html', 'content-length': '8' }))).toBe('ok');
    // No type at all: HTML only if it looks like HTML.
    expect(await kind(new Response(new TextEncoder().encode('<!DOCTYPE html><p>x</p>')))).toBe('ok');
    expect(await kind(new Response(new TextEncoder().encode('%PDF-1.7 binary')))).toBe('permanent: not a web page (no type, not HTML)');
  });

  it('reads a 50 MB page to its first 2 MB and stops there, whatever its headers claim: the address at its top is kept (issue 36)', async () => {
    for (const declared of [true, false]) {
      const pulled = { bytes: 0 };
      const top = new TextEncoder().encode('<!DOCTYPE html><p>info@big.kr</p>');
      const body = streamed(50 * 1024 * 1024, pulled, top);
      const headers: Record<string, string> = { 'content-type': 'text/html', ...(declared ? { 'content-length': String(50 * 1024 * 1024) } : {}) };
      const got = await fetchPage(async () => new Response(body, { headers }), 'https://big.kr/', PAGE_BOUNDS, 'html');
      expect(got.ok, `content-length declared: ${declared}`).toBe(true);
      expect(got.ok && got.bytes.byteLength).toBe(PAGE_BOUNDS.maxBytes);
      expect(got.ok && new TextDecoder().decode(got.bytes.subarray(0, top.byteLength))).toContain('info@big.kr');
      // The stream may read ahead a chunk or two; never the whole file.
      expect(pulled.bytes).toBeLessThan(PAGE_BOUNDS.maxBytes + 4 * 64 * 1024);
    }
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
    const got = await fetchPage(hanging, 'https://slow.kr/', { timeoutMs: 200, maxBytes: 1024 }, 'html');
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

describe('redirects, followed by hand (issue 36)', () => {
  /** A site whose every page redirects to the next, `hops` times, then answers; every request is logged. */
  function chain(hops: number, target: (i: number) => string = (i) => `https://a.kr/r${i}`) {
    const asked: string[] = [];
    const fetchFn: FetchFn = async (url, init) => {
      asked.push(url);
      expect(init.redirect).toBe('manual');
      const i = url === 'https://a.kr/' ? 0 : Number(/r(\d+)$/.exec(url)?.[1] ?? -1) + 1;
      if (i < hops) return new Response(null, { status: 302, headers: { location: target(i) } });
      return html('<p>end</p>');
    };
    return { fetchFn, asked };
  }
  const lanes = () => createHostLanes({ gapMs: 0, concurrency: 4, now: Date.now, sleep: abortableSleep });

  it('a chain of 5 is followed, each hop its own request; of 6, the sixth is never asked and the site fails (permanent)', async () => {
    const five = chain(5);
    expect((await fetchFollowing({ fetch: five.fetchFn, lanes: lanes() }, 'https://a.kr/', PAGE_BOUNDS, 'html')).ok).toBe(true);
    expect(five.asked).toHaveLength(6);
    const six = chain(6);
    const got = await fetchFollowing({ fetch: six.fetchFn, lanes: lanes() }, 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(!got.ok && got.failure).toEqual({ kind: 'permanent', message: 'more than 5 redirects' });
    expect(six.asked).toHaveLength(6);
  });

  it('the first URL is checked as every hop is (a record an older version queued), and a URL with a user name or password is never asked', async () => {
    for (const url of ['http://router.asus.com/', 'http://10.0.0.1.nip.io/', 'http://nas.corp/', 'https://x:y@cafe.kr/contact']) {
      const c = chain(0);
      const got = await fetchFollowing({ fetch: c.fetchFn, lanes: lanes() }, url, PAGE_BOUNDS, 'html');
      expect(!got.ok && got.failure.kind, url).toBe('permanent');
      expect(!got.ok && got.failure.message, url).toMatch(/^not fetched: /);
      expect(c.asked, url).toEqual([]);
    }
    const c = chain(1, () => 'https://user:secret@b.kr/');
    const got = await fetchFollowing({ fetch: c.fetchFn, lanes: lanes() }, 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(!got.ok && got.failure.message).toMatch(/a URL with a user name or password/);
    expect(c.asked).toEqual(['https://a.kr/']);
  });

  it("a chain that ends in the user's own network (192.168.1.1, a router's name, localhost): the last hop is never requested", async () => {
    for (const into of ['http://192.168.1.1/admin', 'http://router.asus.com/', 'http://localhost:8080/', 'http://10.0.0.1.nip.io/', 'http://intranet.corp/']) {
      const c = chain(3, (i) => (i < 2 ? `https://b${i}.kr/r${i}` : into));
      const got = await fetchFollowing({ fetch: c.fetchFn, lanes: lanes() }, 'https://a.kr/', PAGE_BOUNDS, 'html');
      expect(!got.ok && got.failure.kind).toBe('permanent');
      expect(!got.ok && got.failure.message).toMatch(/^redirected to a private or invalid address/);
      expect(c.asked).toEqual(['https://a.kr/', 'https://b0.kr/r0', 'https://b1.kr/r1']);
    }
  });

  it("asks the target's robots.txt (the caller's rule) before the hop, and each hop waits its own host's turn", async () => {
    const c = chain(1, () => 'https://moved.kr/home');
    const got = await fetchFollowing({ fetch: c.fetchFn, lanes: lanes() }, 'https://a.kr/', PAGE_BOUNDS, 'html', async (t) =>
      t.startsWith('https://moved.kr/') ? { kind: 'permanent', message: 'not allowed by robots.txt' } : null,
    );
    expect(!got.ok && got.failure).toEqual({ kind: 'permanent', message: 'redirected to https://moved.kr/home: not allowed by robots.txt' });
    // A target whose robots.txt did not answer (503): asked again later, not refused for good.
    const busy = await fetchFollowing(
      { fetch: chain(1, () => 'https://moved.kr/home').fetchFn, lanes: lanes() },
      'https://a.kr/',
      PAGE_BOUNDS,
      'html',
      async () => ({
        kind: 'transient',
        message: 'robots.txt: HTTP 503',
      }),
    );
    expect(!busy.ok && busy.failure).toEqual({ kind: 'transient', message: 'redirected to https://moved.kr/home: robots.txt: HTTP 503' });
    expect(c.asked).toEqual(['https://a.kr/']);
    const hosts: string[] = [];
    const counting = {
      acquire: async (host: string) => {
        hosts.push(host);
        return () => {};
      },
    };
    await fetchFollowing({ fetch: chain(1, () => 'https://moved.kr/r0').fetchFn, lanes: counting }, 'https://a.kr/', PAGE_BOUNDS, 'html');
    expect(hosts).toEqual(['a.kr', 'moved.kr']);
  });

  it("reads a manual fetch's hidden target from what the network saw, and drops unread an answer from the user's own network", async () => {
    const listeners: ((e: NetworkEvent) => undefined)[] = [];
    const watch = createNetworkWatch({ listen: (l) => void listeners.push(l) }, 200);
    const emit = (e: NetworkEvent) => {
      for (const l of listeners) l(e);
    };
    const body = { read: 0 };
    const fetchFn: FetchFn = async (url) => {
      if (url === 'https://a.kr/') {
        // An opaque redirect, as a browser gives a manual fetch: no status, no Location; webRequest saw the header.
        setTimeout(() => emit({ url, tabId: -1, statusCode: 301, responseHeaders: [{ name: 'Location', value: 'https://rebind.example.com/' }] }), 20);
        return { type: 'opaqueredirect', status: 0, url, headers: new Headers(), body: null } as unknown as Response;
      }
      // A public name whose answer came from the router (a rebinding DNS).
      setTimeout(() => emit({ url, tabId: -1, ip: '192.168.1.1' }), 20);
      const stream = new ReadableStream(
        {
          pull: (c) => {
            body.read++;
            c.enqueue(new TextEncoder().encode('<p>router</p>'));
            c.close();
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(stream, {
        headers: { 'content-type': 'text/html' },
      });
    };
    const got = await fetchFollowing({ fetch: fetchFn, lanes: lanes(), watch }, 'https://a.kr/', PAGE_BOUNDS, 'html');
    // Transient: this watch has seen no public answer yet, so a proxy in the user's network is still possible (answer-address.ts).
    expect(!got.ok && got.failure).toEqual({ kind: 'transient', message: 'refused: its address 192.168.1.1 is in your own network' });
    expect(body.read).toBe(0);
  });
});

describe("a site whose robots.txt came from the user's own network", () => {
  it('fails at once, for good, with the reason: never retried as if it were busy', async () => {
    const asked: string[] = [];
    const fetchFn: FetchFn = async (url) => {
      asked.push(url);
      return new Response('User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
    };
    // Public answers were seen before (the judge's word: answer-address.ts), so this one is refused for good.
    const watch = {
      mark: () => 0,
      locationOf: async () => null,
      addressOf: async () => '127.0.0.1',
      refusal: () => ({ kind: 'permanent' as const, message: 'refused: its address 127.0.0.1 is in your own network' }),
    };
    const lanes = createHostLanes({ gapMs: 0, concurrency: 4, now: Date.now, sleep: abortableSleep });
    const got = await visitSite({ fetch: fetchFn, lanes, watch }, 'https://rebind.kr/');
    expect(got).toEqual({ kind: 'failed', failure: { kind: 'permanent', message: 'robots.txt: refused: its address 127.0.0.1 is in your own network' } });
    expect(asked).toEqual(['https://rebind.kr/robots.txt']);
  });
});

describe('the address an answer came from (answer-address.ts)', () => {
  it('a private address among public ones is refused for good; before any public one, only for now', () => {
    const judge = createAddressJudge();
    expect(judge.refusal('rebind.kr', '192.168.1.1')).toEqual({ kind: 'transient', message: 'refused: its address 192.168.1.1 is in your own network' });
    expect(judge.refusal('cafe.kr', '93.184.216.34')).toBeNull();
    expect(judge.refusal('rebind.kr', '192.168.1.1')).toEqual({ kind: 'permanent', message: 'refused: its address 192.168.1.1 is in your own network' });
    for (const ip of ['127.0.0.1', '10.1.2.3', '169.254.1.1', '::1', '::ffff:7f00:1', 'fd00::1']) expect(judge.refusal('x.kr', ip)?.kind).toBe('permanent');
  });

  it("behind a proxy in the user's network (every site answers from it, none from a public address) it is the way out, not a destination", () => {
    const judge = createAddressJudge();
    const proxy = '10.0.0.8';
    expect(judge.refusal('a.kr', proxy)?.kind).toBe('transient');
    expect(judge.refusal('www.a.kr', proxy)?.kind).toBe('transient');
    expect(judge.refusal('b.co.kr', proxy)?.kind).toBe('transient');
    expect(judge.refusal('c.com', proxy)).toBeNull();
    expect(judge.refusal('a.kr', proxy)).toBeNull();
  });
});

describe('what the network saw, per request', () => {
  it("never answers a request with an earlier request's address (a name that answers publicly, then from the router)", async () => {
    const listeners: ((e: NetworkEvent) => undefined)[] = [];
    const watch = createNetworkWatch({ listen: (l) => void listeners.push(l) }, 200);
    const emit = (e: NetworkEvent) => {
      for (const l of listeners) l(e);
    };
    const url = 'https://rebind.kr/';
    const first = watch.mark();
    emit({ url, tabId: -1, ip: '93.184.216.34' });
    expect(await watch.addressOf(url, first)).toBe('93.184.216.34');
    const second = watch.mark();
    setTimeout(() => emit({ url, tabId: -1, ip: '192.168.1.1' }), 30);
    expect(await watch.addressOf(url, second)).toBe('192.168.1.1');
    // No event for a third request: no address, not the last one seen.
    expect(await watch.addressOf(url, watch.mark())).toBeNull();
  });

  it('a question whose fetch was given up (the pass paused) ends at once, not after the wait', async () => {
    const watch = createNetworkWatch({ listen: () => {} }, 2000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 10);
    const started = Date.now();
    expect(await watch.addressOf('https://slow.kr/', watch.mark(), stop.signal)).toBeNull();
    expect(Date.now() - started).toBeLessThan(500);
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
    const got = await fetchPage(
      async () => new Response(streamed(3 * 1024 * 1024, pulled), { headers: { 'content-type': 'text/plain' } }),
      'https://a.kr/robots.txt',
      ROBOTS_BOUNDS,
      'text',
    );
    expect(got.ok && got.bytes.byteLength).toBe(ROBOTS_BOUNDS.maxBytes);
  });
});
