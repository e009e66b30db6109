/**
 * The few CouchDB HTTP calls a team sweep needs (docs.couchdb.org, "API Reference"): one
 * document read and written by its revision, several read or written at once, and the
 * database's own identity. Nothing else of CouchDB is assumed, so Apache CouchDB and
 * pouchdb-server (which speaks the same API) both serve.
 *
 * MVCC is the whole coordination: a PUT names the revision it read; CouchDB answers 409 when
 * the document changed since, and the writer lost. Every failure is one of a few kinds
 * (CouchFailure): the callers decide from the kind, never from a message.
 */

export interface CouchTarget {
  /** The server's address, e.g. https://couch.example.org:6984 (no database in it). */
  url: string;
  db: string;
  user: string;
  password: string;
}

export type CouchFailureKind =
  /** No answer at all: the network, the server down, a refused connection. */
  | 'offline'
  /** 401: the user or the password is wrong. */
  | 'unauthorised'
  /** 403: the user may not do this (not a member of the database). */
  | 'forbidden'
  /** 404: no such database (or document, where the caller asked for one). */
  | 'missing'
  /** 5xx or an answer that is not CouchDB's JSON. */
  | 'server';

export class CouchError extends Error {
  constructor(
    readonly kind: CouchFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CouchError';
  }
}

export interface CouchDoc {
  _id: string;
  _rev?: string;
}

export type PutResult = { ok: true; rev: string } | { ok: false; conflict: true };

/** Requests and bytes sent to the database and read from it (the bench's "cost per cell"). */
export interface CouchMeter {
  requests: number;
  bytesSent: number;
  bytesReceived: number;
}

export interface Couch {
  readonly target: CouchTarget;
  readonly meter: CouchMeter;
  /** The server's welcome document (GET /). */
  server(): Promise<Record<string, unknown>>;
  /** The database's info; CouchError 'missing' when it does not exist. */
  info(): Promise<{ db_name: string; doc_count: number }>;
  createDatabase(): Promise<void>;
  get<T extends CouchDoc>(id: string): Promise<T | null>;
  /** A new document (no _rev) or a new revision of the one read (with its _rev). */
  put<T extends CouchDoc>(doc: T): Promise<PutResult>;
  /** Several documents by id, in the order asked; null where there is none. */
  getMany<T extends CouchDoc>(ids: readonly string[]): Promise<(T | null)[]>;
  /** Several writes at once; each row says whether it took or conflicted. */
  bulk<T extends CouchDoc>(docs: readonly T[]): Promise<PutResult[]>;
  /** Every document whose id starts with `prefix`. */
  byPrefix<T extends CouchDoc>(prefix: string): Promise<T[]>;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** One request's limit: a database that does not answer in this time is treated as offline. */
export const COUCH_TIMEOUT_MS = 15_000;

export function createCouch(target: CouchTarget, fetchImpl: Fetch = (i, init) => fetch(i, init)): Couch {
  const base = target.url.replace(/\/+$/, '');
  const dbPath = `${base}/${encodeURIComponent(target.db)}`;
  const auth: Record<string, string> = target.user ? { Authorization: `Basic ${base64(`${target.user}:${target.password}`)}` } : {};
  const meter: CouchMeter = { requests: 0, bytesSent: 0, bytesReceived: 0 };

  async function request(url: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: unknown }> {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    meter.requests++;
    meter.bytesSent += url.length + (body?.length ?? 0);
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: init.method ?? 'GET',
        headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), ...auth } as Record<string, string>,
        body,
        // The database is the user's own server: no cookies of any site, no cache between browsers.
        credentials: 'omit',
        cache: 'no-store',
        signal: AbortSignal.timeout(COUCH_TIMEOUT_MS),
      });
    } catch (e) {
      throw new CouchError('offline', `The team database did not answer (${e instanceof Error ? e.message : String(e)}).`);
    }
    const text = await response.text().catch(() => '');
    meter.bytesReceived += text.length;
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed };
  }

  function fail(status: number, body: unknown, what: string): never {
    const reason = typeof (body as { reason?: unknown })?.reason === 'string' ? (body as { reason: string }).reason : '';
    const said = reason ? ` (${reason})` : '';
    if (status === 401) throw new CouchError('unauthorised', `The team database refused the user name or password${said}.`, status);
    if (status === 403) throw new CouchError('forbidden', `The team database does not let this user ${what}${said}.`, status);
    if (status === 404) throw new CouchError('missing', `The team database has no database "${target.db}"${said}.`, status);
    throw new CouchError('server', `The team database answered ${status} to ${what}${said}.`, status);
  }

  /**
   * The answer's body when it has the shape asked for. Another browser's database is read like page
   * content: a 200 whose body is cut or not JSON (the server stopped mid-answer) is a failed request,
   * retried as any other, never a crash on its contents.
   */
  function shaped<T>(body: unknown, ok: (b: unknown) => boolean, what: string): T {
    if (!ok(body)) throw new CouchError('server', `The team database's answer to ${what} could not be read (cut short, or not JSON).`);
    return body as T;
  }
  const isObject = (b: unknown) => typeof b === 'object' && b !== null && !Array.isArray(b);
  const hasRows = (b: unknown) => isObject(b) && Array.isArray((b as { rows?: unknown }).rows);

  const docUrl = (id: string) => `${dbPath}/${encodeURIComponent(id)}`;

  const couch: Couch = {
    target,
    meter,
    async server() {
      const r = await request(`${base}/`);
      if (r.status !== 200 || typeof r.body !== 'object' || r.body === null) fail(r.status === 200 ? 502 : r.status, r.body, 'say what it is');
      return r.body as Record<string, unknown>;
    },
    async info() {
      const r = await request(dbPath);
      if (r.status !== 200) fail(r.status, r.body, 'read the database');
      return shaped<{ db_name: string; doc_count: number }>(r.body, isObject, 'read the database');
    },
    async createDatabase() {
      const r = await request(dbPath, { method: 'PUT' });
      // 412: it exists already, which is what was wanted.
      if (r.status !== 201 && r.status !== 202 && r.status !== 412) fail(r.status, r.body, 'create the database');
    },
    async get<T extends CouchDoc>(id: string) {
      const r = await request(docUrl(id));
      // A missing or deleted document is null; a missing database is an error (its reason says which).
      const reason = (r.body as { reason?: string } | null)?.reason;
      if (r.status === 404 && (reason === 'missing' || reason === 'deleted')) return null;
      if (r.status !== 200) fail(r.status, r.body, 'read a document');
      return shaped<T>(r.body, isObject, 'read a document');
    },
    async put<T extends CouchDoc>(doc: T) {
      const r = await request(docUrl(doc._id), { method: 'PUT', body: doc });
      if (r.status === 409) return { ok: false, conflict: true };
      if (r.status !== 201 && r.status !== 202) fail(r.status, r.body, 'write a document');
      return { ok: true, rev: shaped<{ rev: string }>(r.body, (b) => isObject(b) && typeof (b as { rev?: unknown }).rev === 'string', 'write a document').rev };
    },
    async getMany<T extends CouchDoc>(ids: readonly string[]) {
      if (ids.length === 0) return [];
      const r = await request(`${dbPath}/_all_docs?include_docs=true`, { method: 'POST', body: { keys: ids } });
      if (r.status !== 200) fail(r.status, r.body, 'read documents');
      const { rows } = shaped<{ rows: { key: string; doc?: T | null }[] }>(r.body, hasRows, 'read documents');
      const byId = new Map(rows.map((row) => [row.key, row.doc ?? null]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    async bulk<T extends CouchDoc>(docs: readonly T[]) {
      if (docs.length === 0) return [];
      const r = await request(`${dbPath}/_bulk_docs`, { method: 'POST', body: { docs } });
      if (r.status !== 201 && r.status !== 202) fail(r.status, r.body, 'write documents');
      const rows = shaped<{ id: string; rev?: string; error?: string }[]>(r.body, Array.isArray, 'write documents');
      return docs.map((_, i): PutResult => {
        const row = rows[i];
        if (row?.rev && !row.error) return { ok: true, rev: row.rev };
        if (row?.error === 'conflict') return { ok: false, conflict: true };
        return fail(row?.error === 'forbidden' ? 403 : 500, row, 'write a document');
      });
    },
    async byPrefix<T extends CouchDoc>(prefix: string) {
      const q = `startkey=${encodeURIComponent(JSON.stringify(prefix))}&endkey=${encodeURIComponent(JSON.stringify(`${prefix}\ufff0`))}&include_docs=true`;
      const r = await request(`${dbPath}/_all_docs?${q}`);
      if (r.status !== 200) fail(r.status, r.body, 'list documents');
      return shaped<{ rows: { doc: T }[] }>(r.body, hasRows, 'list documents').rows.map((row) => row.doc);
    },
  };
  return couch;
}

function base64(text: string): string {
  // UTF-8 first: btoa takes Latin-1 only, and a password may hold any character.
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}
