/**
 * What the three replica sites (Google ./server.ts, ./kakao/server.ts, ./naver/server.ts) share:
 * the Chromium flags and self-signed certificate for their hosts, an HTTPS server that closes with
 * its open sockets, the request log with its send/hang helpers, the rolling-minute block, and a few
 * request readers.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { generate } from 'selfsigned';

export type Headers = Record<string, string | string[]>;

/** Chromium flags that send `hosts` to a replica listening on 127.0.0.1:{port}. */
export function hostResolverArgs(hosts: readonly string[], port: number): string[] {
  return [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ')}`, '--ignore-certificate-errors'];
}

export interface Pem {
  key: string;
  cert: string;
}

const certificates = new Map<string, Promise<Pem>>();

/** One EC certificate per name set (made once a process) for `dnsNames`, localhost and 127.0.0.1. */
export function replicaCertificate(commonName: string, dnsNames: readonly string[]): Promise<Pem> {
  const cacheKey = [commonName, ...dnsNames].join(' ');
  let pem = certificates.get(cacheKey);
  if (!pem) {
    pem = generate([{ name: 'commonName', value: commonName }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            ...dnsNames.map((value) => ({ type: 2 as const, value })),
            { type: 2 as const, value: 'localhost' },
            { type: 7 as const, ip: '127.0.0.1' },
          ],
        },
      ],
    }).then((pems) => ({ key: pems.private, cert: pems.cert }));
    certificates.set(cacheKey, pem);
  }
  return pem;
}

export interface HttpsServerOptions {
  certificate: Pem;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Answers a request whose handler threw before sending headers (default: a plain 500, not logged). */
  fail?(req: IncomingMessage, res: ServerResponse, error: unknown): void;
}

export interface HttpsServer {
  port: number;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

export async function startHttpsServer(options: HttpsServerOptions): Promise<HttpsServer> {
  const { key, cert } = options.certificate;
  const fail = options.fail ?? plainError;
  const sockets = new Set<Socket>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    options.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) fail(req, res, error);
      else res.destroy();
    });
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function plainError(_req: IncomingMessage, res: ServerResponse, error: unknown): void {
  res.writeHead(500, { 'content-type': 'text/plain' });
  res.end(`replica error: ${String(error)}`);
}

export interface LoggedRequest<K extends string> {
  at: number;
  method: string;
  host: string;
  path: string;
  status: number;
  kind: K;
}

export interface RequestLog<K extends string> {
  /** Every request so far, oldest first. */
  readonly requests: LoggedRequest<K>[];
  record(req: IncomingMessage, kind: K, status: number): void;
  /** Logs the request and answers it (never cached). */
  send(req: IncomingMessage, res: ServerResponse, kind: K, status: number, headers: Headers, body: string): void;
  /** Logs the request, sends headers and the start of a page, then nothing: the tab keeps loading forever. */
  hang(req: IncomingMessage, res: ServerResponse, kind: K, startHtml: string): void;
}

export function createRequestLog<K extends string>(now: () => number): RequestLog<K> {
  const requests: LoggedRequest<K>[] = [];
  function record(req: IncomingMessage, kind: K, status: number): void {
    requests.push({ at: now(), method: req.method ?? 'GET', host: hostOf(req), path: req.url ?? '/', status, kind });
  }
  return {
    requests,
    record,
    send(req, res, kind, status, headers, body) {
      record(req, kind, status);
      res.writeHead(status, { 'cache-control': 'no-store', ...headers });
      res.end(body);
    },
    hang(req, res, kind, startHtml) {
      record(req, kind, 200);
      res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', 'cache-control': 'no-store' });
      res.write(startHtml);
    },
  };
}

export interface RollingLimit {
  /** Counts one request; true when it is over `limit` in the window (or a block is up). `null`: no limit, nothing counted. */
  over(limit: number | null): boolean;
  blocked(): boolean;
  /** Lift a block and restart the window. */
  reset(): void;
}

/** A rolling-window request limit that, once exceeded, blocks until `reset()`. */
export function createRollingLimit(now: () => number, windowMs = 60_000): RollingLimit {
  let recent: number[] = [];
  let isBlocked = false;
  return {
    over(limit) {
      if (limit === null) return false;
      if (isBlocked) return true;
      const t = now();
      recent = recent.filter((at) => t - at < windowMs);
      recent.push(t);
      if (recent.length > limit) isBlocked = true;
      return isBlocked;
    },
    blocked: () => isBlocked,
    reset() {
      isBlocked = false;
      recent = [];
    },
  };
}

/** The Host header's name, lower case, without the port. */
export function hostOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
}

export function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > limit) {
        reject(new Error('body too large'));
        req.destroy();
      }
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
