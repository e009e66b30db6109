import { describe, expect, it, vi } from 'vitest';
import { idsFromPair } from '../../utils/providers/google/ids';
import {
  createNetworkCollector,
  installNetworkHook,
  MAX_OPEN_MS,
  isTbmUrl,
  readTbmMessage,
  readTbmProgress,
  tbmMessage,
  tbmProgressMessage,
} from '../../utils/providers/google/network-hook';

const TBM = '/search?tbm=map&authuser=0&hl=en&q=coffee&pb=!4m12!7i20!8i20';
/** A tbm=map request the fakes below fail (a network error). */
const FAILING = '/search?tbm=map&q=fail';
const flush = () => new Promise((r) => setTimeout(r, 0));

/** A place array P (§1.5) and a response body in the direct framing. */
function placeArray(lo: bigint, name: string): unknown[] {
  const p: unknown[] = new Array(80).fill(null);
  p[10] = idsFromPair(0x14a1a3n, lo).featureId;
  p[11] = name;
  p[9] = [null, null, 38, 23.7];
  return p;
}
function responseBody(places: unknown[]): string {
  const items = places.map((p) => [...new Array(14).fill(null), p]);
  return `)]}'\n${JSON.stringify([['coffee', [[null, 'header'], ...items]]])}`;
}

/** A window with a fake fetch answering from a table, and a fake XMLHttpRequest. */
function fakeWindow(bodies: Record<string, string>) {
  const returned: Array<Promise<Response>> = [];
  const fetch = vi.fn((input: unknown) => {
    let url: string;
    try {
      url = typeof input === 'string' ? input : String((input as { url?: string }).url ?? (input as URL).href);
    } catch (e) {
      return Promise.reject(e as Error); // as a real fetch rejects a bad input
    }
    const p = url.includes('fail') ? Promise.reject(new TypeError('network down')) : Promise.resolve(new Response(bodies[url] ?? 'other'));
    returned.push(p);
    return p;
  });

  /**
   * Answers from the table, or fails as a network error (status 0, no load) for a URL with "fail".
   * As a browser's: open() drops a request in flight without an event; listeners may be once.
   */
  class FakeXhr {
    responseType = '';
    responseText = '';
    responseURL = '';
    status = 0;
    url = '';
    private inFlight: ReturnType<typeof setTimeout> | undefined;
    private listeners: Array<{ type: string; fn: () => void; once: boolean }> = [];
    open(_method: string, url: string) {
      clearTimeout(this.inFlight);
      this.url = url;
      this.status = 0;
      this.responseText = '';
    }
    send() {
      this.inFlight = setTimeout(() => {
        const failed = this.url.includes('fail');
        if (!failed) {
          this.status = 200;
          this.responseText = bodies[this.url] ?? 'other';
        }
        // As a browser fires them: load (answers only), then loadend (every request).
        for (const type of failed ? ['error', 'loadend'] : ['load', 'loadend']) {
          const now = this.listeners.filter((l) => l.type === type);
          this.listeners = this.listeners.filter((l) => l.type !== type || !l.once);
          for (const l of now) l.fn();
        }
      }, 0);
    }
    addEventListener(type: string, fn: () => void, options?: { once?: boolean }) {
      this.listeners.push({ type, fn, once: options?.once === true });
    }
  }
  const win = { fetch, XMLHttpRequest: FakeXhr, location: { href: 'https://www.google.com/maps/search/coffee' } };
  return { win: win as unknown as Window, raw: win, fetch, returned, FakeXhr };
}

describe('isTbmUrl', () => {
  it.each([
    [TBM, true],
    ['https://www.google.com/search?tbm=map&q=x', true],
    ['/search?q=x&tbm=map', true],
    ['/search?tbm=isch&q=x', false],
    ['/maps/search/coffee?tbm=map', false],
    ['/maps/preview/place?pb=x', false],
    ['http://[', false],
  ])('%s → %s', (url, expected) => {
    expect(isTbmUrl(url, 'https://www.google.com/maps')).toBe(expected);
  });
});

describe('installNetworkHook: fetch', () => {
  it('posts tbm=map bodies and leaves the page its own readable response', async () => {
    const body = responseBody([placeArray(1n, 'A')]);
    const { win, returned } = fakeWindow({ [TBM]: body, '/other': 'x' });
    const post = vi.fn();
    installNetworkHook(win, post);

    const pending = win.fetch(TBM);
    expect(pending).toBe(returned[0]); // the page gets the very promise fetch gave
    const res = await pending;
    expect(await res.text()).toBe(body);
    await win.fetch('/other');
    await flush();
    expect(post.mock.calls).toEqual([[body, TBM]]);
  });

  it('understands Request-like and URL inputs', async () => {
    const absolute = `https://www.google.com${TBM}`;
    const { win } = fakeWindow({ [absolute]: 'B' });
    const post = vi.fn();
    installNetworkHook(win, post);
    await win.fetch(new URL(absolute));
    await win.fetch({ url: absolute } as unknown as Request);
    await flush();
    expect(post.mock.calls.map((c) => c[0])).toEqual(['B', 'B']);
  });

  it('never breaks the page: a throwing post, a failing request, a hostile input', async () => {
    const { win } = fakeWindow({ [TBM]: 'B' });
    installNetworkHook(win, () => {
      throw new Error('boom');
    });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(win.fetch(TBM).then((r) => r.text())).resolves.toBe('B');
      await expect(win.fetch('/fail?tbm=map')).rejects.toThrow('network down');
      const hostile = {
        get href(): string {
          throw new Error('gotcha');
        },
      };
      await expect(win.fetch(hostile as unknown as URL)).rejects.toThrow('gotcha');
      await flush();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('installs once, and uninstalling restores the originals', async () => {
    const { win, raw, fetch } = fakeWindow({ [TBM]: 'B' });
    const openBefore = raw.XMLHttpRequest.prototype.open;
    const post = vi.fn();
    const uninstall = installNetworkHook(win, post);
    installNetworkHook(win, post);
    await win.fetch(TBM);
    await flush();
    expect(post).toHaveBeenCalledTimes(1);
    uninstall();
    expect(raw.fetch).toBe(fetch);
    expect(raw.XMLHttpRequest.prototype.open).toBe(openBefore);
  });
});

describe('installNetworkHook: XMLHttpRequest', () => {
  it('posts text responses of tbm=map requests only', async () => {
    const { win, FakeXhr } = fakeWindow({ [TBM]: 'T', '/other': 'O' });
    const post = vi.fn();
    installNetworkHook(win, post);

    const a = new FakeXhr();
    a.open('GET', TBM);
    a.send();
    const b = new FakeXhr();
    b.open('GET', '/other');
    b.send();
    const c = new FakeXhr();
    c.responseType = 'json';
    c.open('GET', TBM);
    c.send();
    await flush();
    await flush();
    expect(post.mock.calls).toEqual([['T', TBM]]);
    expect(a.responseText).toBe('T');
  });
});

describe('installNetworkHook: start and end of each request', () => {
  it('says each tbm=map request started and ended, answered or failed, by fetch or XHR', async () => {
    const { win, FakeXhr } = fakeWindow({ [TBM]: 'B', '/other': 'O' });
    const post = vi.fn();
    const progress = vi.fn();
    installNetworkHook(win, post, progress);

    await win.fetch(TBM);
    await win.fetch('/other');
    await expect(win.fetch(FAILING)).rejects.toThrow('network down');
    const ok = new FakeXhr();
    ok.open('GET', TBM);
    ok.send();
    const failed = new FakeXhr();
    failed.open('GET', FAILING);
    failed.send();
    const json = new FakeXhr();
    json.responseType = 'json';
    json.open('GET', TBM);
    json.send();
    await flush();
    await flush();

    // Five requests of the map's search: every start has its end, the other URL has neither.
    const calls = progress.mock.calls as [string, number][];
    const ids = [...new Set(calls.map(([, id]) => id))];
    expect(ids).toHaveLength(5);
    for (const id of ids) expect(calls.filter(([, i]) => i === id).map(([phase]) => phase)).toEqual(['start', 'end']);
    // A failed XHR posts no body (its empty text is not an answer); a json XHR has none to post.
    expect(post.mock.calls).toEqual([
      ['B', TBM],
      ['B', TBM],
    ]);
  });

  it('a reused XHR: open(tbm), send, open(other), send posts one copy and one end, both of the tbm request', async () => {
    const { win, FakeXhr } = fakeWindow({ [TBM]: 'T', '/other': 'O' });
    const post = vi.fn();
    const progress = vi.fn();
    installNetworkHook(win, post, progress);
    const x = new FakeXhr();
    x.open('GET', TBM);
    x.send();
    await flush();
    x.open('GET', '/other');
    x.send();
    await flush();
    expect(post.mock.calls).toEqual([['T', TBM]]);
    expect(progress.mock.calls).toEqual([
      ['start', 1],
      ['end', 1],
    ]);
  });

  it('an XHR opened again before its answer came: the dropped request ends, the new one is copied once', async () => {
    const { win, FakeXhr } = fakeWindow({ [TBM]: 'T' });
    const post = vi.fn();
    const progress = vi.fn();
    installNetworkHook(win, post, progress);
    const x = new FakeXhr();
    x.open('GET', TBM);
    x.send();
    x.open('GET', TBM);
    x.send();
    await flush();
    expect(post.mock.calls).toEqual([['T', TBM]]);
    expect(progress.mock.calls).toEqual([
      ['start', 1],
      ['end', 1],
      ['start', 2],
      ['end', 2],
    ]);
  });

  it('a fetch answer that cannot be cloned copies nothing and still ends', async () => {
    const { win, fetch } = fakeWindow({});
    const unclonable = new Response('B');
    vi.spyOn(unclonable, 'clone').mockImplementation(() => {
      throw new TypeError('body used');
    });
    fetch.mockImplementationOnce(() => Promise.resolve(unclonable));
    const post = vi.fn();
    const progress = vi.fn();
    installNetworkHook(win, post, progress);
    expect(await win.fetch(TBM)).toBe(unclonable);
    await flush();
    expect(post).not.toHaveBeenCalled();
    expect(progress.mock.calls).toEqual([
      ['start', 1],
      ['end', 1],
    ]);
  });

  it('posts the copy before the end, so the end means the copy is there', async () => {
    const { win } = fakeWindow({ [TBM]: 'B' });
    const order: string[] = [];
    installNetworkHook(
      win,
      () => order.push('copy'),
      (phase) => order.push(phase),
    );
    await win.fetch(TBM);
    await flush();
    expect(order).toEqual(['start', 'copy', 'end']);
  });
});

describe('createNetworkCollector', () => {
  it('counts the requests started and not ended; an end without its start changes nothing', () => {
    const c = createNetworkCollector();
    c.progress('end', 7);
    c.progress('start', 1);
    c.progress('start', 2);
    expect(c.outstanding()).toBe(2);
    c.progress('end', 1);
    c.progress('end', 1);
    expect(c.outstanding()).toBe(1);
    c.progress('end', 2);
    expect(c.outstanding()).toBe(0);
  });

  it('believes a start without its end for MAX_OPEN_MS only, so it cannot hold every later collection to its bound', () => {
    let clock = 0;
    const c = createNetworkCollector(() => clock);
    c.progress('start', 1);
    clock = MAX_OPEN_MS;
    c.progress('start', 2);
    expect(c.outstanding()).toBe(2);
    clock = MAX_OPEN_MS + 1;
    expect(c.outstanding()).toBe(1);
    c.progress('end', 2);
    expect(c.outstanding()).toBe(0);
  });

  it('remembers a bounded number of starts (a page flooding them only makes the wait reach its bound)', () => {
    const c = createNetworkCollector();
    for (let i = 0; i < 10_000; i++) c.progress('start', i);
    expect(c.outstanding()).toBeLessThanOrEqual(100);
  });

  it('counts distinct places across responses and ignores blocked bodies', () => {
    const c = createNetworkCollector();
    expect(c.snapshot().networkItems).toBeNull();
    c.accept(responseBody([placeArray(1n, 'A'), placeArray(2n, 'B')]));
    c.accept(responseBody([placeArray(2n, 'B'), placeArray(3n, 'C')]));
    c.accept('<html>unusual traffic</html>');
    const snap = c.snapshot();
    expect(snap).toMatchObject({ networkItems: 3, responses: 2, blocked: 1, dropped: 0 });
    expect(snap.networkKeys.sort()).toEqual(['google:1', 'google:2', 'google:3']);
    c.reset();
    expect(c.snapshot()).toEqual({ networkItems: null, networkKeys: [], responses: 0, blocked: 0, dropped: 0 });
  });

  it('counts forged items as dropped and keeps only the well-formed ones', () => {
    const c = createNetworkCollector();
    const forged = placeArray(9n, 'x'.repeat(50_000));
    c.accept(responseBody([forged, placeArray(4n, 'D')]));
    expect(c.snapshot()).toMatchObject({ networkItems: 1, networkKeys: ['google:4'], dropped: 1 });
  });
});

describe('hook messages', () => {
  it('round-trips, and refuses anything else', () => {
    expect(readTbmMessage(tbmMessage('B', TBM))).toEqual({ body: 'B', url: TBM });
    expect(readTbmMessage({ source: 'someone-else', body: 'B', url: TBM })).toBeNull();
    expect(readTbmMessage({ ...tbmMessage('B', TBM), body: 42 })).toBeNull();
    expect(readTbmMessage({ ...tbmMessage('B', TBM), url: 'u'.repeat(5000) })).toBeNull();
    expect(readTbmMessage(null)).toBeNull();
    expect(readTbmMessage('mapsweep:google-tbm')).toBeNull();
  });

  it('progress messages round-trip, and anything else is refused', () => {
    expect(readTbmProgress(tbmProgressMessage('start', 3))).toEqual({ phase: 'start', id: 3 });
    expect(readTbmProgress(tbmProgressMessage('end', 3))).toEqual({ phase: 'end', id: 3 });
    expect(readTbmProgress({ ...tbmProgressMessage('end', 3), phase: 'over' })).toBeNull();
    expect(readTbmProgress({ ...tbmProgressMessage('end', 3), id: '3' })).toBeNull();
    expect(readTbmProgress({ ...tbmProgressMessage('end', 3), id: 1.5 })).toBeNull();
    expect(readTbmProgress(tbmMessage('B', TBM))).toBeNull();
    expect(readTbmMessage(tbmProgressMessage('start', 3))).toBeNull();
  });
});
