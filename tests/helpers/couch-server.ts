/**
 * A CouchDB-compatible server for the team tests, started by the tests themselves on a free
 * local port: Apache CouchDB when COUCHDB_URL names one (with an admin's credentials in it),
 * else `pouchdb-server` from npm (a devDependency), which speaks CouchDB's HTTP API, on a
 * LevelDB directory of its own so it can be stopped and started again with its data.
 *
 * Each server gets one database with one member user, as the README tells a team to set up:
 * an admin creates the database and the user, and makes the user the database's only member.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CouchTarget } from '../../utils/team/couch';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const BIN = path.join(ROOT, 'node_modules/pouchdb-server/bin/pouchdb-server');

export const ADMIN = { user: 'admin', password: 'admin-secret' };
export const MEMBER = { user: 'sweeper', password: 'sweeper-secret' };

export interface CouchServer {
  /** The server's address, e.g. http://127.0.0.1:43121 */
  url: string;
  port: number;
  /** The member's view of a database (created by `database`). */
  target(db: string, who?: { user: string; password: string }): CouchTarget;
  /** A new database the member may use, and nobody else but the admin. */
  database(db: string): Promise<CouchTarget>;
  /** As the database going away: the process is killed; its data stays on disk. */
  stop(): Promise<void>;
  /** Back on the same port with the same data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function call(url: string, method: string, who: { user: string; password: string } | null, body?: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(url, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(who ? { Authorization: `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

async function waitUp(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/`)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`The test CouchDB at ${url} did not start within ${timeoutMs / 1000} s.`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startCouchServer(): Promise<CouchServer> {
  const external = process.env.COUCHDB_URL;
  if (external) return externalServer(external);
  const dir = mkdtempSync(path.join(tmpdir(), 'mapsweep-couch-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The admin comes from the config file: pouchdb-server 4.2 crashes when a database is
  // created without credentials after an admin was added over HTTP.
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ admins: { [ADMIN.user]: ADMIN.password }, log: { file: path.join(dir, 'log.txt') } }));
  let child: ChildProcess | null = null;
  const launch = async () => {
    child = spawn(process.execPath, [BIN, '--dir', dir, '--port', String(port), '--host', '127.0.0.1', '--config', path.join(dir, 'config.json')], {
      stdio: 'ignore',
      cwd: dir,
    });
    await waitUp(url);
  };
  const kill = async () => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGKILL');
    await exited;
    child = null;
  };
  await launch();
  const server: CouchServer = {
    url,
    port,
    target: (db, who = MEMBER) => ({ url, db, user: who.user, password: who.password }),
    database: (db) => createMemberDatabase(url, db).then(() => server.target(db)),
    stop: kill,
    start: launch,
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

async function createMemberDatabase(url: string, db: string): Promise<void> {
  const made = await call(`${url}/${db}`, 'PUT', ADMIN);
  if (made.status !== 201 && made.status !== 412) throw new Error(`creating ${db}: ${made.status} ${JSON.stringify(made.body)}`);
  const userUrl = `${url}/_users/org.couchdb.user:${MEMBER.user}`;
  const existing = await call(userUrl, 'GET', ADMIN);
  if (existing.status === 404) {
    const user = await call(userUrl, 'PUT', ADMIN, { name: MEMBER.user, password: MEMBER.password, roles: [], type: 'user' });
    if (user.status !== 201) throw new Error(`creating the user: ${user.status} ${JSON.stringify(user.body)}`);
  }
  const security = await call(`${url}/${db}/_security`, 'PUT', ADMIN, { admins: { names: [], roles: [] }, members: { names: [MEMBER.user], roles: [] } });
  if (security.status !== 200) throw new Error(`securing ${db}: ${security.status} ${JSON.stringify(security.body)}`);
}

/** An Apache CouchDB the machine runs (COUCHDB_URL=http://admin:pw@127.0.0.1:5984): not stopped or started by the tests. */
function externalServer(raw: string): CouchServer {
  const u = new URL(raw);
  const admin = { user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
  Object.assign(ADMIN, admin);
  const url = u.origin;
  const server: CouchServer = {
    url,
    port: Number(u.port),
    target: (db, who = MEMBER) => ({ url, db, user: who.user, password: who.password }),
    database: (db) => createMemberDatabase(url, db).then(() => server.target(db)),
    stop: async () => {
      throw new Error('An external CouchDB (COUCHDB_URL) is not stopped by the tests.');
    },
    start: async () => {},
    close: async () => {},
  };
  return server;
}
