/**
 * The Kakao replica's search page (its own script, tests/replica/kakao/client/search-page.js) in
 * happy-dom, reached the way the extension reaches the live page: the page fetches map.daum with
 * its own JSONP or XHR code, the MAIN-world hook (utils/providers/kakao/network-hook.ts) copies
 * the answers, and the browser's resource timing (here: the fake network's log, filled when an
 * answer finishes) lists the requests. The fake network answers in-process with the replica
 * server's own function (answerMapDaum) and its block modes, on a virtual clock that the
 * collector's `sleep` advances.
 */
import { createKakaoNetwork, type KakaoNetwork } from '../../utils/providers/kakao/network';
import { installKakaoNetworkHook, type KakaoHookMessage } from '../../utils/providers/kakao/network-hook';
import { collectKakaoPage, kakaoFirstPageReady, kakaoPreparation, pressKakaoControl, pressNextPage, type KakaoCollectEnv } from '../../utils/content/collect-kakao';
import type { CollectOptions } from '../../utils/messaging/protocol';
import type { Observation } from '../../utils/domain/sweep';
import { combinePages } from '../../utils/sweep/pages';
import { type KakaoView, parseMapDaumUrl, searchPageUrl } from '../../utils/providers/kakao/urls';
import { kakaoRateLimitHtml, kakaoSearchPageConfig, kakaoSearchPageHtml, kakaoSearchPageScript } from '../replica/kakao/pages';
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
  /** Every map.daum request the page sent, in order (what the fake server saw). */
  sent: string[];
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
  const measured: string[] = [];
  let served = 0;
  /** What the fake server answers (the replica server's order: block, then the answer). */
  const serve = (url: string): { kind: 'block-redirect' } | { kind: 'html' } | { kind: 'ok'; data: unknown; body: string } => {
    sent.push(url);
    served++;
    if (switches.blockAfter !== null && served > switches.blockAfter) return switches.blockMode === 'redirect-500' ? { kind: 'block-redirect' } : { kind: 'html' };
    const req = parseMapDaumUrl(url)!;
    const answer = answerMapDaum(places, switches, req);
    return { kind: 'ok', data: JSON.parse(answerMapDaum(places, switches, { ...req, callback: null }).body), body: answer.body };
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
        measured.push(url);
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
    status = 0;
    responseText = '';
    responseURL = '';
    responseType = '';
    withCredentials = false;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private type: string | null = null;
    open(_m: string, url: string) {
      this.url = new URL(url, 'https://map.kakao.com/').href;
    }
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? this.type : null;
    }
    send() {
      later(LATENCY_MS, () => {
        const r = serve(this.url);
        measured.push(this.url);
        if (r.kind === 'block-redirect') {
          // The 302 goes to www.kakao.com, which allows no CORS: a network error.
          this.status = 0;
          this.dispatchEvent(new Event('error'));
          this.onerror?.();
        } else {
          this.status = 200;
          this.responseURL = this.url;
          this.type = r.kind === 'html' ? 'text/html; charset=UTF-8' : 'application/json; charset=utf-8';
          this.responseText = r.kind === 'html' ? kakaoRateLimitHtml() : r.body;
          this.dispatchEvent(new Event('load'));
          this.onload?.();
        }
        this.dispatchEvent(new Event('loadend'));
      });
    }
  }
  win.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;

  const network = createKakaoNetwork();
  const messages: KakaoHookMessage[] = [];
  const unhook = installKakaoNetworkHook(window, (m) => {
    messages.push(m);
    later(0, () => network.accept(m));
  });
  const run = new Function('window', `${kakaoSearchPageScript()}\nreturn replicaKakaoSearchPage;`)(window) as (c: unknown, w: unknown) => unknown;
  run(JSON.parse(/replicaKakaoSearchPage\((\{[\s\S]*\})\, window\);\}\)\(\);<\/script>/.exec(html)![1]!), window);

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
    messages,
    advance,
    now: () => now,
    close() {
      unhook();
      proto.appendChild = realAppend;
      win.XMLHttpRequest = RealXhr;
      tasks = [];
    },
  };
}

/**
 * What the driver does before page 1 (utils/sweep/driver.ts prepareFirstPage): wait for the
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
