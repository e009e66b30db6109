/**
 * Firefox has no `--host-resolver-rules`: it cannot be told that www.google.com is
 * 127.0.0.1:port. It can be given a proxy, and an HTTPS page through a proxy is a CONNECT
 * naming the host. This proxy, in the test process, tunnels each replica host's CONNECT to that
 * replica's port (the same MAP rules the Chromium tests pass as flags: `routesFromResolverArgs`)
 * and refuses every other request with a 403, keeping a list of what it refused: with Firefox's
 * own background traffic turned off (./prefs.ts), that list is what the pages and the extension
 * asked for beyond the map sites.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';

/** host → the local port that answers as it. */
export type Routes = ReadonlyMap<string, number>;

/**
 * The routes in Chromium's `--host-resolver-rules=MAP host 127.0.0.1:port, …` flags (the
 * replicas' chromiumArgs / naverChromiumArgs / kakaoChromiumArgs), so a host the replicas add
 * is routed here too without a second list.
 */
export function routesFromResolverArgs(...lists: readonly string[][]): Map<string, number> {
  const routes = new Map<string, number>();
  for (const arg of lists.flat()) {
    if (!arg.startsWith('--host-resolver-rules=')) continue;
    for (const rule of arg.slice('--host-resolver-rules='.length).split(',')) {
      const m = /^\s*MAP\s+(\S+)\s+127\.0\.0\.1:(\d+)\s*$/.exec(rule);
      if (!m) throw new Error(`A resolver rule this proxy cannot follow: ${rule}`);
      routes.set(m[1]!, Number(m[2]));
    }
  }
  return routes;
}

export interface MapProxy {
  port: number;
  /** Requests refused, as `CONNECT host:port` or `GET http://…`, in order. */
  refused: string[];
  /** Tunnels opened per replica host. */
  tunnels: Map<string, number>;
  close(): Promise<void>;
}

export async function startMapProxy(routes: Routes): Promise<MapProxy> {
  const refused: string[] = [];
  const tunnels = new Map<string, number>();
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  // Plain http:// requests: none of the map sites is served so; refuse and record.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    refused.push(`${req.method} ${req.url}`);
    res.writeHead(403, { 'content-type': 'text/plain' }).end('Not a replica host');
  });
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host = '', portText = '443'] = (req.url ?? '').split(':');
    const target = portText === '443' ? routes.get(host) : undefined;
    if (target === undefined) {
      refused.push(`CONNECT ${req.url}`);
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    tunnels.set(host, (tunnels.get(host) ?? 0) + 1);
    const upstream = connect(target, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    // Either side gone (a replica closing, Firefox killed): end the other, never throw.
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    refused,
    tunnels,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
