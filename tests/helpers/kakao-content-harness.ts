/**
 * The Kakao replica's search page (its own script, tests/replica/kakao/client/search-page.js) in
 * happy-dom, reached the way the extension reaches the live page: the page sends its search with
 * its own code (the 2026 endpoint behind a gate token by XHR or fetch, or map.daum by JSONP, XHR
 * or fetch), the MAIN-world hook (utils/providers/kakao/network-hook.ts) copies the answers, and
 * the browser's resource timing (here: the fake network's log, filled when an answer finishes)
 * lists the requests. The fake network answers in-process with the replica server's own
 * functions (answerMapDaum, gate.ts) and its block modes, on a virtual clock that the
 * collector's `sleep` advances. Window messages a page script posts (`forged`) reach the
 * network as kakao/content.ts lets them: any message in the hook's shape.
 */
import { createKakaoNetwork, type KakaoNetwork } from '../../utils/providers/kakao/network';
import { installKakaoNetworkHook, readKakaoHookMessage, type KakaoHookMessage } from '../../utils/providers/kakao/network-hook';
import { collectKakaoPage, type KakaoCollectEnv, type MeasuredRequest } from '../../utils/providers/kakao/collect';
import { kakaoFirstPageReady, kakaoPreparation, pressKakaoControl, pressNextPage } from '../../utils/providers/kakao/first-page';
import type { CollectOptions } from '../../utils/messaging/protocol';
import type { Observation } from '../../utils/domain/sweep';
import { combinePages } from '../../utils/sweep/pages';
import { type KakaoView, parseMapDaumUrl, searchPageUrl } from '../../utils/providers/kakao/urls';
import { kakaoRateLimitHtml, kakaoSearchPageConfig, kakaoSearchPageHtml, kakaoSearchPageScript } from '../replica/kakao/pages';
import { answerGateRequest, GATE_TOKEN_HEADER, GATE_TOKEN_PATH, gateTokenValid } from '../replica/kakao/gate';
import { kakaoWorld, type KakaoWorld } from '../replica/kakao/places';
import { answerMapDaum } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches, mergeKakaoSwitches } from '../replica/kakao/switches';
import { createWorld } from '../replica/world';

export const SEOUL = { lat: 37.5665, lng: 126.978 };
export const world = createWorld({ seed: 21, places: 6000, centre: SEOUL, radiusKm: 4 });
export const kw = kakaoWorld(world);
/** happy-dom's window is 1024 × 768; the map is what is right of the panel. */
export const CANVAS = { width: 1024 - DEFAULT_KAKAO_SWITCHES.panelWidth, height: 768 };

/** Virtual milliseconds between a request and its answer. */
const LATENCY_MS = 40;

export interface KakaoPageHarness {
  env: KakaoCollectEnv;
  network: KakaoNetwork;
  switches: KakaoSwitches;
  /** Every search request the page sent (either endpoint), in order (what the fake server saw). */
  sent: string[];
  /** Gate-token requests the page sent (the 2026 endpoint). */
  gates: number;
  /** What the hook posted, in order. */
  messages: KakaoHookMessage[];
  /** Run due tasks up to virtual time + ms. */
  advance(ms: number): void;
  now(): number;
  close(): void;
}

interface Task {
  at: number;
  fn: () => void;
}

type Win = Window & Record<string, unknown>;

/** `places`: the Kakao world the fake server answers from (default: this harness's `kw`). */
export function openKakaoPage(query: string, view: KakaoView, partial: Partial<KakaoSwitches> = {}, places: KakaoWorld = kw): KakaoPageHarness {
  const switches = mergeKakaoSwitches(DEFAULT_KAKAO_SWITCHES, partial);
  const html = kakaoSearchPageHtml(kakaoSearchPageConfig(switches, { query, view, boundsSearch: switches.boundsSearchDefault, jqueryId: '1124000000000001' }));
  document.head.innerHTML = '';
  document.body.innerHTML = /<body>([\s\S]*)<script>/.exec(html)![1]!;
  const win = window as unknown as Win;
  delete win.__replicaKakaoTransport;

  let now = 0;
  let tasks: Task[] = [];
  const later = (ms: number, fn: () => void) => tasks.push({ at: now + ms, fn });
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      tasks.sort((a, b) => a.at - b.at);
      const next = tasks[0];
      if (!next || next.at > until) break;
      tasks.shift();
      now = Math.max(now, next.at);
      next.fn();
    }
    now = until;
  };
  const sent: string[] = [];
  /** What the browser's resource timing lists: finished requests, with the status a CORS-readable answer shows (an opaque JSONP script: none). */
  const measured: MeasuredRequest[] = [];
  let served = 0;
  let gates = 0;
  const GATE_SECRET = 'harness';
  type Served = { kind: 'block-redirect' } | { kind: 'html' } | { kind: 'refused'; status: number; body: string } | { kind: 'ok'; data: unknown; body: string };
  /** What the fake server answers (the replica server's order: token, block, then the answer). */
  const serve = (url: string, headers: Record<string, string> = {}): Served => {
    sent.push(url);
    const req = parseMapDaumUrl(url)!;
    if (req.endpoint === 'mapsearch') {
      const u = new URL(url);
      if (!gateTokenValid(GATE_SECRET, u.pathname + u.search, headers[GATE_TOKEN_HEADER]))
        return { kind: 'refused', status: 403, body: '{"code":403,"message":"invalid gate token"}' };
    }
    served++;
    if (switches.blockAfter !== null && served > switches.blockAfter)
      return switches.blockMode === 'redirect-500' ? { kind: 'block-redirect' } : { kind: 'html' };
    const answer = answerMapDaum(places, switches, req, url);
    return { kind: 'ok', data: JSON.parse(answerMapDaum(places, switches, { ...req, callback: null }, url).body), body: answer.body };
  };
  /** A gate-token POST (gate.ts); null: not one. */
  const serveGate = (url: string, body: string): { status: number; body: string } | null => {
    if (new URL(url).pathname !== GATE_TOKEN_PATH) return null;
    gates++;
    const answer = answerGateRequest(GATE_SECRET, body);
    return answer ? { status: 200, body: answer } : { status: 400, body: '{"code":400}' };
  };

  // The network below the hook: JSONP scripts are "loaded" by the fake (never by happy-dom).
  const proto = Node.prototype;
  const realAppend = proto.appendChild;
  proto.appendChild = function (this: Node, child: Node) {
    const script = child as HTMLScriptElement;
    if (script.nodeName === 'SCRIPT' && script.src && parseMapDaumUrl(script.src)) {
      const url = script.src;
      const callback = parseMapDaumUrl(url)!.callback!;
      later(LATENCY_MS, () => {
        const r = serve(url);
        measured.push({ url, status: null });
        // A blocked JSONP script runs no callback (the body is HTML: blocked, or a syntax error).
        if (r.kind === 'ok') (win[callback] as (d: unknown) => void)?.(r.data);
        script.dispatchEvent(new Event('load'));
      });
      return child; // never inserted: happy-dom must not fetch it
    }
    return realAppend.call(this, child) as Node;
  } as typeof proto.appendChild;

  const RealXhr = win.XMLHttpRequest;
  class FakeXhr extends EventTarget {
    url = '';
    method = 'GET';
    headers: Record<string, string> = {};
    status = 0;
    responseText = '';
    responseURL = '';
    responseType = '';
    withCredentials = false;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private type: string | null = null;
    open(method: string, url: string) {
      this.method = method.toUpperCase();
      this.url = new URL(url, 'https://map.kakao.com/').href;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? this.type : null;
    }
    private answer(status: number, type: string, text: string) {
      this.status = status;
      this.responseURL = this.url;
      this.type = type;
      this.responseText = text;
      // happy-dom's dispatchEvent calls `onload` too.
      this.dispatchEvent(new Event('load'));
    }
    send(body?: string) {
      later(LATENCY_MS, () => {
        const gate = this.method === 'POST' ? serveGate(this.url, String(body ?? '')) : null;
        if (gate) {
          this.answer(gate.status, 'application/json; charset=utf-8', gate.body);
          this.dispatchEvent(new Event('loadend'));
          return;
        }
        const r = serve(this.url, this.headers);
        // A network error (the block's cross-origin redirect) is no finished request.
        if (r.kind !== 'block-redirect') measured.push({ url: this.url, status: r.kind === 'refused' ? r.status : 200 });
        if (r.kind === 'refused') this.answer(r.status, 'application/json; charset=utf-8', r.body);
        else if (r.kind === 'block-redirect') {
          // The 302 goes to www.kakao.com, which allows no CORS: a network error.
          this.status = 0;
          this.dispatchEvent(new Event('error'));
        } else if (r.kind === 'html') this.answer(200, 'text/html; charset=UTF-8', kakaoRateLimitHtml());
        else this.answer(200, 'application/json; charset=utf-8', r.body);
        this.dispatchEvent(new Event('loadend'));
      });
    }
  }
  win.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;

  /** fetch as the page and the hook use it: a status, a URL, a content type and the text (happy-dom's own streams run on real timers). */
  const response = (status: number, url: string, type: string, text: string) => {
    const r = {
      status,
      ok: status >= 200 && status < 300,
      url,
      headers: { get: (n: string) => (n.toLowerCase() === 'content-type' ? type : null) },
      text: () => Promise.resolve(text),
      json: () => Promise.resolve(JSON.parse(text)),
      clone: () => r,
    };
    return r;
  };
  const realFetch = win.fetch;
  win.fetch = ((input: unknown, init?: { method?: string; headers?: Record<string, string>; body?: string }) =>
    new Promise((resolve, reject) => {
      const url = new URL(String(input), 'https://map.kakao.com/').href;
      const headers = Object.fromEntries(Object.entries(init?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      later(LATENCY_MS, () => {
        const gate = (init?.method ?? 'GET').toUpperCase() === 'POST' ? serveGate(url, String(init?.body ?? '')) : null;
        if (gate) return resolve(response(gate.status, url, 'application/json; charset=utf-8', gate.body));
        const r = serve(url, headers);
        if (r.kind !== 'block-redirect') measured.push({ url, status: r.kind === 'refused' ? r.status : 200 });
        // The 302 goes to www.kakao.com, which allows no CORS: fetch rejects.
        if (r.kind === 'block-redirect') return reject(new TypeError('Failed to fetch'));
        if (r.kind === 'refused') return resolve(response(r.status, url, 'application/json; charset=utf-8', r.body));
        resolve(
          r.kind === 'html'
            ? response(200, url, 'text/html; charset=UTF-8', kakaoRateLimitHtml())
            : response(200, url, 'application/json; charset=utf-8', r.body),
        );
      });
    })) as unknown as typeof fetch;

  // A page script's window messages (the replica's `forged`): delivered as the content script takes them.
  const realPostMessage = win.postMessage;
  win.postMessage = ((data: unknown) => {
    later(0, () => {
      const m = readKakaoHookMessage(data);
      if (m) network.accept(m);
    });
  }) as typeof win.postMessage;

  const network = createKakaoNetwork();
  const messages: KakaoHookMessage[] = [];
  const unhook = installKakaoNetworkHook(window, (m) => {
    messages.push(m);
    later(0, () => network.accept(m));
  });
  const run = new Function('window', `${kakaoSearchPageScript()}\nreturn replicaKakaoSearchPage;`)(window) as (c: unknown, w: unknown) => unknown;
  run(JSON.parse(/replicaKakaoSearchPage\((\{[\s\S]*\}), window\);\}\)\(\);<\/script>/.exec(html)![1]!), window);

  const url = searchPageUrl(query, view);
  const env: KakaoCollectEnv = {
    doc: document,
    url: () => url,
    now: () => now,
    sleep: async (ms) => advance(ms),
    requests: () => measured,
    network,
    httpStatus: () => 200,
    hidden: () => false,
  };
  return {
    env,
    network,
    switches,
    sent,
    get gates() {
      return gates;
    },
    messages,
    advance,
    now: () => now,
    close() {
      unhook();
      proto.appendChild = realAppend;
      win.XMLHttpRequest = RealXhr;
      win.fetch = realFetch;
      win.postMessage = realPostMessage;
      tasks = [];
    },
  };
}

/**
 * One replica page open at a time, for a test file: `page` closes the one before it; `close`
 * (in `afterEach`) the last one.
 */
export function kakaoPageOpener(view: KakaoView): { page(query: string, sw?: Partial<KakaoSwitches>): KakaoPageHarness; close(): void } {
  let open: KakaoPageHarness | null = null;
  return {
    page(query, sw = {}) {
      open?.close();
      open = openKakaoPage(query, view, sw);
      return open;
    },
    close() {
      open?.close();
      open = null;
    },
  };
}

/**
 * What the driver does before page 1 (utils/sweep/paged-visit.ts prepareFirstPage): wait for the
 * page, press the one control it still needs (in the driver, in its pacing turn), again; then read.
 */
export async function kakaoFirstPage(env: KakaoCollectEnv, options: CollectOptions): Promise<Observation> {
  const prep = kakaoPreparation();
  for (let i = 0; !(await kakaoFirstPageReady(env, options, prep)).ready && i < 3; i++) {
    if (!(await pressKakaoControl(env, prep)).clicked) throw new Error('a first-page control the page asked for did not respond');
  }
  return collectKakaoPage(env, options);
}

export interface KakaoWalk {
  pages: Observation[];
  combined: Observation;
  /** Next-page presses. */
  clicks: number;
}

/** What the driver does (walkPages): from the first page, next page + collect(expectPage) while the pager offers one. */
export async function walkKakaoPages(h: KakaoPageHarness, options: CollectOptions, first?: Observation, maxPages = 40): Promise<KakaoWalk> {
  const pages = [first ?? (await kakaoFirstPage(h.env, options))];
  let clicks = 0;
  let last = pages[0]!;
  while (last.pageKind === 'results' && last.pager?.more && pages.length < maxPages) {
    if (!pressNextPage(h.env.doc).clicked) throw new Error(`the next-page control did not respond on page ${last.pager.page}`);
    clicks++;
    last = await collectKakaoPage(h.env, { ...options, expectPage: last.pager.page + 1 });
    pages.push(last);
  }
  return { pages, combined: combinePages(pages), clicks };
}
