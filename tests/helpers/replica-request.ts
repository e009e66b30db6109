/**
 * One HTTPS request to a replica server on 127.0.0.1, as Chromium sends it through the resolver
 * rules: the Host header and SNI name the site's host, and the self-signed certificate is accepted.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';

export interface ReplicaReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function replicaRequest(
  port: number,
  host: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<ReplicaReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: { host, ...opts.headers },
        rejectUnauthorized: false,
        servername: host.replace(/:\d+$/, ''),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
