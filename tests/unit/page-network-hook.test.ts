/**
 * The shared MAIN-world wrapper of fetch and XHR (utils/providers/page-network-hook.ts) on its
 * own, against a fake window: what a provider's hook gets, and what the page must never notice
 * (its own response and promise, no exceptions, no reads it did not make, the originals back).
 * Each provider's use of it is tested with its own messages (google-network-hook, naver-page-data,
 * kakao-content*).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  boundedString,
  installPageNetworkHook,
  MAX_MESSAGE_URL,
  requestUrl,
  taggedMessage,
  type PageAnswer,
  type PageNetworkHook,
} from '../../utils/providers/page-network-hook';

const KEY = 'mapsweep.test.pageNetworkHook';
const flush = () => new Promise((r) => setTimeout(r, 0));
const matches = (_url: string, absolute: string) => (new URL(absolute).pathname.startsWith('/api') ? absolute : null);

/** A response whose clone() is counted. */
function countedResponse(body: string, init?: ResponseInit) {
  const response = new Response(body, init);
  const clone = vi.spyOn(response, 'clone');
  return { response, clone };
}

/**
 * An XHR that answers `/api*` with `text`, `/fail*` with a network error; reads of responseText
 * are counted. As a browser's: open() drops a request in flight without an event, a synchronous
 * request answers inside send() and throws there when it fails (no event), listeners may be once.
 */
class FakeXhr {
  static textReads = 0;
  responseType = '';
  status = 0;
  responseURL = '';
  url = '';
  text = '';
  headerCalls = 0;
  private async = true;
  private inFlight: ReturnType<typeof setTimeout> | undefined;
  private listeners: Array<{ type: string; fn: () => void; once: boolean }> = [];
  get responseText() {
    FakeXhr.textReads++;
    return this.text;
  }
  open(_method: string, url: string, async = true) {
    clearTimeout(this.inFlight);
    this.url = String(url);
    this.async = async;
    this.status = 0;
    this.text = '';
  }
  send() {
    if (!this.async) {
      if (this.url.includes('fail')) throw new Error('NetworkError');
      this.answer();
      return;
    }
    this.inFlight = setTimeout(() => this.answer(), 0);
  }
  private answer() {
    if (this.url.includes('fail')) {
      this.fire('error');
    } else {
      this.status = 200;
      this.responseURL = new URL(this.url, 'https://example.test/').href;
      this.text = `T:${this.url}`;
      this.fire('load');
    }
    this.fire('loadend');
  }
  getResponseHeader(name: string) {
    this.headerCalls++;
    return name === 'content-type' ? 'text/plain' : null;
  }
  addEventListener(type: string, fn: () => void, options?: { once?: boolean }) {
    this.listeners.push({ type, fn, once: options?.once === true });
  }
  listenerCount() {
    return this.listeners.length;
  }
  private fire(type: string) {
    const now = this.listeners.filter((l) => l.type === type);
    this.listeners = this.listeners.filter((l) => l.type !== type || !l.once);
    for (const l of now) l.fn();
  }
}

function fakeWindow(answer: (url: string) => Response | Promise<Response> = (url) => new Response(`B:${url}`)) {
  // Async: a bad input rejects, as with a real fetch.
  const fetch = vi.fn(async (input: unknown) => {
    const url = typeof input === 'string' ? input : String((input as { url?: string }).url ?? (input as URL).href);
    if (url.includes('fail')) throw new TypeError('network down');
    return answer(url);
  });
  class Xhr extends FakeXhr {}
  const raw = { fetch, XMLHttpRequest: Xhr, location: { href: 'https://example.test/page' } };
  return { win: raw as unknown as Window, raw, fetch, Xhr };
}

/** The hook's callbacks, recorded; answers copied field by field as the callback saw them. */
function recorder(extra: Partial<PageNetworkHook<string>> = {}) {
  const got: Array<{ target: string; body: string | null; status: number; finalUrl: string; via: string }> = [];
  const failed: Array<{ target: string; answer: PageAnswer | null }> = [];
  const sent: string[] = [];
  const hook: PageNetworkHook<string> = {
    key: KEY,
    fallbackBase: 'https://fallback.test/',
    match: matches,
    sent: (t) => sent.push(t),
    received: (target, a) => got.push({ target, body: a.body, status: a.status, finalUrl: a.finalUrl, via: a.via }),
    failed: (target, answer) => failed.push({ target, answer }),
    ...extra,
  };
  return { hook, got, failed, sent };
}

const restores: Array<() => void> = [];
afterEach(() => {
  for (const r of restores.splice(0)) r();
  FakeXhr.textReads = 0;
});
function install(win: Window, hook: PageNetworkHook<string>) {
  const restore = installPageNetworkHook(win, hook);
  restores.push(restore);
  return restore;
}

describe('fetch', () => {
  it('hands a matching answer on once, read from a clone: the page gets its own promise and an unread body', async () => {
    const { response, clone } = countedResponse('the page body', { status: 201 });
    const { win, fetch } = fakeWindow(() => response);
    const { hook, got, sent } = recorder();
    install(win, hook);

    const pending = win.fetch('/api?q=1');
    expect(pending).toBe(fetch.mock.results[0]!.value); // the very promise fetch gave
    const res = await pending;
    expect(res).toBe(response);
    await flush();
    expect(clone).toHaveBeenCalledTimes(1);
    expect(res.bodyUsed).toBe(false);
    expect(await res.text()).toBe('the page body');
    expect(sent).toEqual(['https://example.test/api?q=1']);
    expect(got).toEqual([{ target: 'https://example.test/api?q=1', body: 'the page body', status: 201, finalUrl: '', via: 'fetch' }]);
  });

  it('leaves other requests alone: not cloned, nothing handed on', async () => {
    const { response, clone } = countedResponse('other');
    const { win } = fakeWindow(() => response);
    const { hook, got, sent } = recorder();
    install(win, hook);
    expect(await (await win.fetch('/elsewhere')).text()).toBe('other');
    await flush();
    expect(clone).not.toHaveBeenCalled();
    expect([got, sent]).toEqual([[], []]);
  });

  it('understands URL and Request-like inputs, and resolves against the fallback when location cannot be read', async () => {
    const { win, raw } = fakeWindow();
    Object.defineProperty(raw, 'location', {
      get() {
        throw new Error('cross-origin');
      },
    });
    const match = vi.fn(matches);
    const { hook, got } = recorder({ match });
    install(win, hook);
    await win.fetch(new URL('https://example.test/api?u'));
    await win.fetch({ url: 'https://example.test/api?r' } as unknown as Request);
    await win.fetch('/api?rel');
    await win.fetch('http://[').catch(() => {}); // does not parse: not even asked about
    await flush();
    expect(got.map((g) => g.target)).toEqual(['https://example.test/api?u', 'https://example.test/api?r', 'https://fallback.test/api?rel']);
    expect(match.mock.calls[2]).toEqual(['/api?rel', 'https://fallback.test/api?rel']); // as written, and resolved
    expect(match).toHaveBeenCalledTimes(3);
  });

  it('a failed request still fails for the page; the hook hears of it', async () => {
    const { win } = fakeWindow();
    const { hook, got, failed } = recorder();
    install(win, hook);
    await expect(win.fetch('/api/fail')).rejects.toThrow('network down');
    await flush();
    expect(got).toEqual([]);
    expect(failed).toEqual([{ target: 'https://example.test/api/fail', answer: null }]);
  });

  it('maxBody: a declared length that cannot fit is not even cloned, a longer text is dropped', async () => {
    const big = countedResponse('x'.repeat(10), { headers: { 'content-length': '41' } });
    const long = countedResponse('x'.repeat(11));
    const fits = countedResponse('x'.repeat(10), { headers: { 'content-length': '40' } });
    const answers = [big.response, long.response, fits.response];
    const { win } = fakeWindow(() => answers.shift()!);
    const { hook, got, failed, sent } = recorder({ maxBody: 10 });
    install(win, hook);
    for (let i = 0; i < 3; i++) await win.fetch('/api');
    await flush();
    expect(big.clone).not.toHaveBeenCalled();
    expect(long.clone).toHaveBeenCalledTimes(1);
    expect(got.map((g) => g.body)).toEqual(['x'.repeat(10)]);
    // The two not handed on still ended: each start has its end, neither with a body.
    expect(sent).toHaveLength(3);
    expect(failed.map((f) => [f.answer?.status, f.answer?.body])).toEqual([
      [200, null],
      [200, null],
    ]);
  });

  it('an answer that cannot be cloned, or whose headers throw, still ends: `failed` hears it', async () => {
    const unclonable = new Response('u');
    vi.spyOn(unclonable, 'clone').mockImplementation(() => {
      throw new TypeError('body used');
    });
    const hostileHeaders = new Response('h');
    Object.defineProperty(hostileHeaders, 'headers', {
      get: () => ({
        get() {
          throw new Error('gotcha');
        },
      }),
    });
    const answers = [unclonable, hostileHeaders];
    const { win } = fakeWindow(() => answers.shift()!);
    const { hook, got, failed, sent } = recorder({ maxBody: 10 });
    install(win, hook);
    expect(await win.fetch('/api?clone')).toBe(unclonable);
    expect(await win.fetch('/api?headers')).toBe(hostileHeaders);
    await flush();
    expect(got).toEqual([]);
    expect(sent).toEqual(['https://example.test/api?clone', 'https://example.test/api?headers']);
    expect(failed.map((f) => [f.target, f.answer?.body])).toEqual([
      ['https://example.test/api?clone', null],
      ['https://example.test/api?headers', null],
    ]);
  });
});

describe('XMLHttpRequest', () => {
  it('hands on text answers of matching requests at load, reading nothing the hook does not ask for', async () => {
    const { win, Xhr } = fakeWindow();
    const seen: PageAnswer[] = [];
    const { hook, got, sent } = recorder({ received: (_t, a) => seen.push(a) });
    install(win, hook);
    const a = new Xhr();
    a.open('GET', '/api?x');
    a.send();
    const b = new Xhr();
    b.open('GET', '/elsewhere');
    b.send();
    await flush();
    expect(sent).toEqual(['https://example.test/api?x']);
    expect(got).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(a.headerCalls).toBe(0); // contentType is read only when asked
    expect([seen[0]!.via, seen[0]!.status, seen[0]!.body, seen[0]!.contentType]).toEqual(['xhr', 200, 'T:/api?x', 'text/plain']);
    expect(a.headerCalls).toBe(1);
  });

  it("an XHR whose responseType is 'json' is handed on without a body, and its text is never read", async () => {
    const { win, Xhr } = fakeWindow();
    const { hook, got } = recorder();
    install(win, hook);
    const x = new Xhr();
    x.responseType = 'json';
    x.open('GET', '/api?json');
    x.send();
    await flush();
    expect(got).toEqual([{ target: 'https://example.test/api?json', body: null, status: 200, finalUrl: 'https://example.test/api?json', via: 'xhr' }]);
    expect(FakeXhr.textReads).toBe(0);
  });

  it("'load' hands answers only to `received`, a failure to `failed`; 'loadend' both to `received` (status 0); open() is matched on its URL as a string", async () => {
    for (const xhrEvent of ['load', 'loadend'] as const) {
      const { win, Xhr } = fakeWindow();
      const { hook, got, failed } = recorder({ xhrEvent });
      const restore = install(win, hook);
      const x = new Xhr();
      x.open('GET', new URL('https://example.test/api/fail') as unknown as string);
      x.send();
      await flush();
      const answer = { target: 'https://example.test/api/fail', body: '', status: 0, finalUrl: '', via: 'xhr' };
      expect(got).toEqual(xhrEvent === 'load' ? [] : [answer]);
      const heard = failed.map(({ target, answer: a }) => a && { target, body: a.body, status: a.status, finalUrl: a.finalUrl, via: a.via });
      expect(heard).toEqual(xhrEvent === 'load' ? [answer] : []);
      restore();
    }
  });

  it.each(['load', 'loadend'] as const)("(%s) a reused XHR: a later, unrelated answer is never taken for the first request's", async (xhrEvent) => {
    const { win, Xhr } = fakeWindow();
    const { hook, got, failed, sent } = recorder({ xhrEvent });
    install(win, hook);
    const x = new Xhr();
    x.open('GET', '/api?first');
    x.send();
    await flush();
    x.open('GET', '/other');
    x.send();
    await flush();
    expect(sent).toEqual(['https://example.test/api?first']);
    expect(got.map((g) => [g.target, g.body])).toEqual([['https://example.test/api?first', 'T:/api?first']]);
    expect(failed).toEqual([]);
    // Nothing of the first request is left listening.
    expect(x.listenerCount()).toBe(0);
  });

  it('an XHR opened again while its request is in flight: that request ends unanswered, the new one gets its own answer', async () => {
    const { win, Xhr } = fakeWindow();
    const { hook, got, failed, sent } = recorder({ xhrEvent: 'loadend' });
    install(win, hook);
    const x = new Xhr();
    x.open('GET', '/api?dropped');
    x.send();
    x.open('GET', '/api?dropped'); // the same URL: another request all the same
    x.send();
    await flush();
    expect(sent).toEqual(['https://example.test/api?dropped', 'https://example.test/api?dropped']);
    expect(failed).toEqual([{ target: 'https://example.test/api?dropped', answer: null }]);
    expect(got.map((g) => g.body)).toEqual(['T:/api?dropped']);
  });

  it('a synchronous XHR: its answer is handed on inside send(); a failure that throws there ends the request too', () => {
    const { win, Xhr } = fakeWindow();
    const { hook, got, failed, sent } = recorder();
    install(win, hook);
    const ok = new Xhr();
    ok.open('GET', '/api?sync', false);
    ok.send();
    expect(got.map((g) => g.body)).toEqual(['T:/api?sync']);
    const down = new Xhr();
    down.open('GET', '/api/fail', false);
    expect(() => down.send()).toThrow('NetworkError');
    expect(sent).toEqual(['https://example.test/api?sync', 'https://example.test/api/fail']);
    expect(failed).toEqual([{ target: 'https://example.test/api/fail', answer: null }]);
  });

  it('maxBody: a longer XHR text is not handed on, and the request still ends', async () => {
    const { win, Xhr } = fakeWindow();
    const { hook, got, failed } = recorder({ maxBody: 5, xhrEvent: 'loadend' });
    install(win, hook);
    const x = new Xhr();
    x.open('GET', '/api?long');
    x.send();
    await flush();
    expect(got).toEqual([]);
    expect(failed.map((f) => [f.target, f.answer?.status, f.answer?.body])).toEqual([['https://example.test/api?long', 200, null]]);
  });

  it('a reused XHR opened on another URL is no longer copied', async () => {
    const { win, Xhr } = fakeWindow();
    const { hook, got } = recorder();
    install(win, hook);
    const x = new Xhr();
    x.open('GET', '/api');
    x.open('GET', '/elsewhere');
    x.send();
    await flush();
    expect(got).toEqual([]);
  });
});

describe('never into the page', () => {
  it('callbacks that throw reach neither the page nor its promises', async () => {
    const { win, Xhr } = fakeWindow();
    const boom = vi.fn(() => {
      throw new Error('boom');
    });
    const match = vi.fn(matches);
    install(win, { key: KEY, fallbackBase: 'https://fallback.test/', match, sent: boom, received: boom, failed: boom });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(win.fetch('/api').then((r) => r.text())).resolves.toBe('B:/api');
      await expect(win.fetch('/api/fail')).rejects.toThrow('network down');
      const x = new Xhr();
      expect(() => {
        x.open('GET', '/api');
        x.send();
      }).not.toThrow();
      await flush();
      await flush();
      expect(x.responseText).toBe('T:/api');
      expect(match).toHaveBeenCalledTimes(3);
      // Each request reached both its callbacks: a throwing `sent` did not stop the answer being read.
      expect(boom).toHaveBeenCalledTimes(6);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('a match that throws, and a hostile input, leave the request as the page made it', async () => {
    const { win, fetch, Xhr } = fakeWindow();
    install(win, {
      key: KEY,
      fallbackBase: 'https://fallback.test/',
      match: () => {
        throw new Error('match');
      },
      received: () => {},
    });
    expect(await (await win.fetch('/api')).text()).toBe('B:/api');
    const hostile = {
      get href(): string {
        throw new Error('gotcha');
      },
    };
    await expect(win.fetch(hostile as unknown as URL)).rejects.toThrow('gotcha');
    expect(fetch).toHaveBeenCalledTimes(2);
    const x = new Xhr();
    x.open('GET', '/api');
    x.send();
    await flush();
    expect(x.status).toBe(200);
  });
});

describe('install once, restore', () => {
  it('a second install with the same key is a no-op; restore puts the originals back and allows a new install', async () => {
    const { win, raw, fetch, Xhr } = fakeWindow();
    const { open, send } = Xhr.prototype;
    const first = recorder();
    const second = recorder();
    const restore = install(win, first.hook);
    expect(raw.fetch).not.toBe(fetch);
    expect(Xhr.prototype.open).not.toBe(open);
    install(win, second.hook)();
    expect(raw.fetch).not.toBe(fetch); // the no-op's restore restores nothing
    await win.fetch('/api');
    await flush();
    expect([first.got.length, second.got.length]).toEqual([1, 0]);

    restore();
    expect(raw.fetch).toBe(fetch);
    expect([Xhr.prototype.open, Xhr.prototype.send]).toEqual([open, send]);
    await win.fetch('/api');
    await flush();
    expect(first.got).toHaveLength(1);

    install(win, second.hook);
    await win.fetch('/api');
    await flush();
    expect(second.got).toHaveLength(1);
  });

  it('another key installs beside it; wrapMore is wrapped and restored with the rest', async () => {
    const { win } = fakeWindow();
    const a = recorder();
    const unwrap = vi.fn();
    const wrapMore = vi.fn((base: () => string) => {
      expect(base()).toBe('https://example.test/page');
      return unwrap;
    });
    const b = recorder({ key: `${KEY}.other`, wrapMore });
    install(win, a.hook);
    const restoreB = install(win, b.hook);
    await win.fetch('/api');
    await flush();
    expect([a.got.length, b.got.length]).toEqual([1, 1]);
    expect(wrapMore).toHaveBeenCalledTimes(1);
    restoreB();
    expect(unwrap).toHaveBeenCalledTimes(1);
  });
});

describe('the envelope', () => {
  it('taggedMessage: an object with our tag, nothing else', () => {
    const m = { source: 'mapsweep:x', body: 'B' };
    expect(taggedMessage(m, 'mapsweep:x')).toBe(m);
    expect(taggedMessage({ ...m, source: 'mapsweep:y' }, 'mapsweep:x')).toBeNull();
    expect(taggedMessage('mapsweep:x', 'mapsweep:x')).toBeNull();
    expect(taggedMessage(null, 'mapsweep:x')).toBeNull();
  });

  it('boundedString: a string within the bound', () => {
    expect(boundedString('u'.repeat(MAX_MESSAGE_URL), MAX_MESSAGE_URL)).toHaveLength(MAX_MESSAGE_URL);
    expect(boundedString('u'.repeat(MAX_MESSAGE_URL + 1), MAX_MESSAGE_URL)).toBeNull();
    expect(boundedString(42, 10)).toBeNull();
  });

  it('requestUrl: strings, URL and Request objects (no instanceof), else null', () => {
    expect([requestUrl('/a'), requestUrl(new URL('https://x.test/b')), requestUrl({ url: 'https://x.test/c' }), requestUrl({}), requestUrl(7)]).toEqual([
      '/a',
      'https://x.test/b',
      'https://x.test/c',
      null,
      null,
    ]);
  });
});
