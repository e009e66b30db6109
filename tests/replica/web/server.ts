/**
 * The replica web's server: every site of a `buildWeb` web on one local port that answers both
 * HTTPS and plain HTTP (many Korean business sites are still `http://www.x.co.kr/`). The first
 * byte of a connection decides: 0x16 opens a TLS handshake, anything else is HTTP/1.x.
 * Chromium reaches it through `hostRules()` as `--host-resolver-rules` (with
 * `--ignore-certificate-errors`); unit tests and the bench use `fetch`, the same answers
 * in-process, without sockets.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Socket } from 'node:net';
import { hostOf, replicaCertificate } from '../https-server';
import { buildWeb, type SiteTruth, type Web, type WebAnswer, type WebShares } from './sites';

/** Linux refuses a single command-line argument over 128 KiB (MAX_ARG_STRLEN). */
const MAX_ARG_BYTES = 128 * 1024;
/** What `fetch` follows before failing, as browsers and undici do. */
const FETCH_MAX_REDIRECTS = 20;
const TLS_HANDSHAKE = 0x16;

export interface WebReplicaOptions {
  seed: number;
  /** The sites' hosts (or URLs, whose scheme is kept), or how many to generate. */
  hosts: readonly string[] | number;
  shares?: Partial<WebShares>;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * The addresses it listens on, the first one what `hostRules` sends hosts to (default
   * 127.0.0.1). The contacts pass drops answers from the user's own network (loopback among
   * them), so a browser test serves the web from an address outside those ranges
   * (tests/helpers/public-address.ts) and keeps 127.0.0.1 for the site that must be dropped.
   */
  addresses?: readonly string[];
  now?: () => number;
}

export interface WebRequestRecord {
  host: string;
  /** Path and query. */
  path: string;
  scheme: 'http' | 'https';
  at: number;
  /** The status sent; null for a request left hanging with nothing sent. */
  status: number | null;
  /** Whether it carried a Cookie header (the pass sends none: `credentials: 'omit'`). */
  cookie: boolean;
  /** Whether it came through `fetch` rather than a socket. */
  inProcess: boolean;
}

export interface WebReplica {
  port: number;
  web: Web;
  /** `--host-resolver-rules` value sending every site host to the first address (or `elsewhere[host]`), at {port}. */
  hostRules(elsewhere?: Readonly<Record<string, string>>): string;
  truth(host: string): SiteTruth;
  /** Every request so far, oldest first (politeness checks: per host order and spacing). */
  requests(): readonly WebRequestRecord[];
  /** The same answers without a socket; follows redirects like fetch (20 at most), honours `signal`. */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
  /** Stops listening, drops every open connection (hanging ones included). */
  close(): Promise<void>;
}

export async function startWebReplica(options: WebReplicaOptions): Promise<WebReplica> {
  const web = buildWeb(options.seed, options.hosts, options.shares);
  const now = options.now ?? Date.now;
  const log: WebRequestRecord[] = [];
  const { key, cert } = await replicaCertificate('MapSweep replica web', []);

  const handler =
    (scheme: 'http' | 'https') =>
    (req: IncomingMessage, res: ServerResponse): void => {
      const host = hostOf(req);
      const path = req.url ?? '/';
      const answer = web.answer({ scheme, host, path });
      log.push({ host, path, scheme, at: now(), status: answer === null ? 421 : statusOf(answer), cookie: req.headers.cookie !== undefined, inProcess: false });
      if (answer === null) {
        res.writeHead(421, { 'content-type': 'text/plain' });
        res.end(`replica web: no site ${host}`);
        return;
      }
      send(answer, res);
    };
  const http = createHttpServer(handler('http'));
  const https = createHttpsServer({ key, cert }, handler('https'));
  const sockets = new Set<Socket>();
  const onConnection = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that resets mid-hang is the expected end of a hang, not an error.
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  };
  const addresses = options.addresses?.length ? options.addresses : ['127.0.0.1'];
  const fronts = addresses.map(() => createNetServer(onConnection));
  const listen = (server: ReturnType<typeof createNetServer>, port: number, at: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, at, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const front = fronts[0]!;
  await listen(front, options.port ?? 0, addresses[0]!);
  const address = front.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  for (let i = 1; i < fronts.length; i++) await listen(fronts[i]!, port, addresses[i]!);

  async function fetchInProcess(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const signal = init.signal ?? undefined;
    const mode = init.redirect ?? 'follow';
    let url = new URL(input);
    for (let redirects = 0; ; redirects++) {
      signal?.throwIfAborted();
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`fetch failed: unsupported scheme ${url.protocol}`);
      const scheme = url.protocol === 'http:' ? 'http' : 'https';
      const answer = web.answer({ scheme, host: url.hostname, path: `${url.pathname}${url.search}` });
      log.push({
        host: url.hostname,
        path: `${url.pathname}${url.search}`,
        scheme,
        at: now(),
        status: answer === null ? null : statusOf(answer),
        cookie: new Headers(init.headers).has('cookie'),
        inProcess: true,
      });
      // A host outside the web is a name that does not resolve.
      if (answer === null) throw new TypeError('fetch failed', { cause: new Error(`getaddrinfo ENOTFOUND ${url.hostname}`) });
      const location = answer.kind === 'body' && answer.status >= 300 && answer.status < 400 ? answer.headers.location : undefined;
      if (location !== undefined && mode !== 'manual') {
        if (mode === 'error') throw new TypeError('fetch failed: unexpected redirect');
        if (redirects >= FETCH_MAX_REDIRECTS) throw new TypeError('fetch failed: redirect count exceeded');
        url = new URL(location, url);
        continue;
      }
      return respond(answer, url.href, redirects > 0, signal);
    }
  }

  return {
    port,
    web,
    hostRules(elsewhere = {}) {
      const rules = web.hosts.map((h) => `MAP ${h} ${elsewhere[h] ?? addresses[0]}:${port}`).join(', ');
      if (rules.length + '--host-resolver-rules='.length > MAX_ARG_BYTES)
        throw new Error(`host rules for ${web.hosts.length} hosts exceed one command-line argument (${MAX_ARG_BYTES} bytes): serve fewer hosts to a browser`);
      return rules;
    },
    truth: (host) => web.siteTruth(host),
    requests: () => log,
    fetch: fetchInProcess,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        let open = fronts.length;
        for (const f of fronts) f.close(() => --open === 0 && resolve());
      }),
  };
}

function statusOf(answer: WebAnswer): number | null {
  if (answer.kind !== 'hang') return answer.status;
  return answer.headers === null ? null : 200;
}

function send(answer: WebAnswer, res: ServerResponse): void {
  switch (answer.kind) {
    case 'body':
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.byteLength) });
      res.end(answer.body);
      return;
    case 'hang':
      // Nothing more is ever written: the connection stays open until the client gives up.
      if (answer.headers === null) return;
      res.writeHead(200, answer.headers);
      res.write(answer.start);
      return;
    case 'stream':
      void streamBody(answer, res);
  }
}

/** Writes the huge body a chunk at a time, waiting for the socket to drain: never all in memory. */
async function streamBody(answer: Extract<WebAnswer, { kind: 'stream' }>, res: ServerResponse): Promise<void> {
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(answer.status, answer.headers);
  res.write(answer.start);
  let sent = answer.start.byteLength;
  while (!closed && sent < answer.totalBytes) {
    const piece = answer.chunk.subarray(0, Math.min(answer.chunk.byteLength, answer.totalBytes - sent));
    sent += piece.byteLength;
    if (!res.write(piece))
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
  }
  if (!closed) res.end();
}

function respond(answer: WebAnswer, url: string, redirected: boolean, signal: AbortSignal | undefined): Promise<Response> {
  const finish = (response: Response): Response => {
    // Response's url and redirected are read-only getters; a constructed one has neither.
    Object.defineProperty(response, 'url', { value: url });
    Object.defineProperty(response, 'redirected', { value: redirected });
    return response;
  };
  switch (answer.kind) {
    case 'body':
      return Promise.resolve(
        finish(new Response(answer.body, { status: answer.status, headers: { ...answer.headers, 'content-length': String(answer.body.byteLength) } })),
      );
    case 'hang':
      if (answer.headers === null) {
        // No headers ever: the promise settles only when the caller aborts.
        return new Promise<Response>((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      return Promise.resolve(
        finish(
          new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(answer.start);
                signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
              },
            }),
            { status: 200, headers: answer.headers },
          ),
        ),
      );
    case 'stream': {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
        },
        pull(controller) {
          const piece = sent === 0 ? answer.start : answer.chunk.subarray(0, Math.min(answer.chunk.byteLength, answer.totalBytes - sent));
          sent += piece.byteLength;
          controller.enqueue(piece);
          if (sent >= answer.totalBytes) controller.close();
        },
      });
      return Promise.resolve(finish(new Response(body, { status: answer.status, headers: answer.headers })));
    }
  }
}
