/**
 * A happy-dom browser tab on the Naver replica, in-process: every request the tab makes is
 * answered by the replica's own handler (tests/replica/naver/server.ts), the pages' own script
 * runs (the lazy list grows only when its container is scrolled, the pager's links navigate to
 * `&page=N`), and each document gets what the extension puts in it: the pcmap hook
 * (network-hook.ts, as the MAIN-world script) and the content script's listener for it
 * (naver/content.ts). Shared by the collector's tests and the in-process sweep's sim page
 * (naver-sim-page.ts), so both read the same rendered pages.
 *
 * Cross-origin requests (the list page's GraphQL calls to pcmap-api) are held to CORS as Chromium
 * holds them (happy-dom's interceptor would skip it): a preflight for the JSON POST, the answer's
 * Access-Control-Allow-Origin and -Credentials checked, else the page's fetch fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Browser, type BrowserPage } from 'happy-dom';
import { listenToNaverHook } from '../../utils/providers/naver/content';
import { installNaverNetworkHook } from '../../utils/providers/naver/network-hook';
import { createNaverPageData, type NaverPageData } from '../../utils/providers/naver/page-data';
import { createNaverHandler, type NaverHandler } from '../replica/naver/server';
import type { NaverSwitches } from '../replica/naver/switches';
import type { World } from '../replica/world';

export interface NaverTab {
  page: BrowserPage;
  handler: NaverHandler;
  /** Every request the tab made (preflights too), in order; kept only with `log: true`. */
  log: { method: string; url: string; status: number }[];
  /** The page data the current document's listener collected (null without the hook). */
  pageData(): NaverPageData | null;
  /** HTTP status of the last document the replica answered. */
  lastStatus(): number | null;
  goto(url: string): Promise<void>;
  /**
   * Let the tab run what it has pending (its timers, its fetches, a navigation a click started:
   * happy-dom replaces the frame's window as the click navigates), then give a new document its
   * hook and listener.
   */
  settle(): Promise<void>;
  doc(): Document;
  window(): Window;
  close(): Promise<void>;
}

export interface NaverTabOptions {
  switches?: Partial<NaverSwitches>;
  /** The replica's clock (its rolling block window); default Date.now. */
  now?: () => number;
  /** Rewrite a body the replica answered before the page gets it. */
  rewrite?: (url: URL, body: string) => string;
  /** Install the pcmap hook and its listener on each document (default true); 'listener': the content script's listener alone. */
  hook?: boolean | 'listener';
  /**
   * Page timers fire at once instead of after their delay (happy-dom's `timer.maxTimeout: 0`):
   * for a caller whose collection runs on a virtual clock, so a lazy batch the page schedules
   * lands at the collector's next pause, as it would in a pause longer than the page's delay.
   */
  immediateTimers?: boolean;
  /** Keep the request log (default true). */
  log?: boolean;
}

/** A happy-dom browser tab whose every request is answered by the replica's handler, in-process. */
export function openNaverTab(world: World, opts: NaverTabOptions = {}): NaverTab {
  const handler = createNaverHandler(world, { switches: opts.switches ?? {}, ...(opts.now ? { now: opts.now } : {}) });
  const keepLog = opts.log ?? true;
  let lastStatus: number | null = null;
  const log: NaverTab['log'] = [];
  const logged = (entry: NaverTab['log'][number]) => {
    if (keepLog) log.push(entry);
  };
  const browser = new Browser({
    settings: {
      enableJavaScriptEvaluation: true,
      suppressInsecureJavaScriptEnvironmentWarning: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      navigation: { disableChildFrameNavigation: true },
      ...(opts.immediateTimers ? { timer: { maxTimeout: 0, maxIntervalTime: 0, maxIntervalIterations: -1, preventTimerLoops: false } } : {}),
      fetch: {
        interceptor: {
          beforeAsyncRequest: async ({ request, window }) => {
            const url = new URL(request.url);
            const pageOrigin = window.location.origin;
            const crossOrigin = url.origin !== pageOrigin;
            const method = request.method.toUpperCase();
            const headers: Record<string, string> = {};
            request.headers.forEach((value: string, key: string) => {
              headers[key.toLowerCase()] = value;
            });
            const body = method === 'GET' || method === 'HEAD' ? '' : await request.text();
            const withCredentials = request.credentials === 'include';
            if (crossOrigin) {
              headers.origin = pageOrigin;
              // A JSON POST is not a "simple" request: Chromium asks first.
              const simple = (method === 'GET' || method === 'POST') && !/application\/json/i.test(headers['content-type'] ?? '');
              if (!simple) {
                const pre = await serve(handler, url, {
                  method: 'OPTIONS',
                  headers: {
                    origin: pageOrigin,
                    'access-control-request-method': method,
                    'access-control-request-headers': Object.keys(headers)
                      .filter((h) => h !== 'origin')
                      .sort()
                      .join(','),
                  },
                });
                logged({ method: 'OPTIONS', url: url.href, status: pre.status });
                const allowed = (pre.headers['access-control-allow-headers'] ?? '')
                  .toLowerCase()
                  .split(',')
                  .map((h) => h.trim());
                const ok =
                  pre.status >= 200 &&
                  pre.status < 300 &&
                  corsAllows(pre.headers, pageOrigin, withCredentials) &&
                  (pre.headers['access-control-allow-methods'] ?? '')
                    .toUpperCase()
                    .split(',')
                    .map((m) => m.trim())
                    .includes(method) &&
                  Object.keys(headers)
                    .filter((h) => h !== 'origin')
                    .every((h) => allowed.includes(h));
                if (!ok) throw new TypeError('Failed to fetch (CORS preflight refused)');
              }
            }
            const answer = await serve(handler, url, { method, headers, body });
            logged({ method, url: url.href, status: answer.status });
            if (crossOrigin && !corsAllows(answer.headers, pageOrigin, withCredentials)) throw new TypeError('Failed to fetch (CORS)');
            if (!crossOrigin) lastStatus = answer.status;
            const text = opts.rewrite ? opts.rewrite(url, answer.body) : answer.body;
            return new window.Response(text, { status: answer.status, headers: answer.headers });
          },
        },
      },
    },
  });
  const page = browser.newPage();
  const hooked = new WeakMap<object, NaverPageData>();
  /** The hook and the content script's listener on the document now shown (once per document). */
  const hookDocument = () => {
    const win = page.mainFrame.window as unknown as Window;
    if (opts.hook === false || hooked.has(win)) return;
    const data = createNaverPageData();
    hooked.set(win, data);
    if (opts.hook !== 'listener') installNaverNetworkHook(win, (m) => win.postMessage(m, win.location.origin));
    listenToNaverHook(win, data);
  };
  return {
    page,
    handler,
    log,
    lastStatus: () => lastStatus,
    async goto(url) {
      await page.goto(url);
      await page.waitUntilComplete();
      hookDocument();
    },
    async settle() {
      await page.waitUntilComplete();
      hookDocument();
    },
    doc: () => page.mainFrame.window.document as unknown as Document,
    window: () => page.mainFrame.window as unknown as Window,
    pageData: () => hooked.get(page.mainFrame.window as unknown as object) ?? null,
    close: () => browser.close(),
  };
}

/** What a CORS answer must say for the page to read it: its own origin (never `*` with credentials), credentials allowed when sent. */
function corsAllows(headers: Record<string, string>, origin: string, withCredentials: boolean): boolean {
  const allow = headers['access-control-allow-origin'];
  if (withCredentials) return allow === origin && headers['access-control-allow-credentials'] === 'true';
  return allow === origin || allow === '*';
}

/** One request to the replica's handler, in-process: its status, headers (lower-cased) and body. */
export async function serve(
  handler: Pick<NaverHandler, 'handle'>,
  url: URL,
  request: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  let status = 0;
  let headers: Record<string, string> = {};
  let body = '';
  const req = Object.assign(Readable.from(request.body ? [Buffer.from(request.body, 'utf8')] : []), {
    method: request.method ?? 'GET',
    url: url.pathname + url.search,
    headers: { ...request.headers, host: url.host },
  }) as unknown as IncomingMessage;
  const res = {
    writeHead(s: number, h: Record<string, string>) {
      status = s;
      headers = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
    },
    write(b: string) {
      body += b;
    },
    end(b?: string) {
      body += b ?? '';
    },
  } as unknown as ServerResponse;
  await handler.handle(req, res);
  return { status, headers, body };
}
