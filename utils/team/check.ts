/**
 * "Check" in the options: is the address a CouchDB server, does it take these credentials, and
 * is the database there. One answer with one reason, in words a user can act on; nothing is
 * written (creating a missing database is a separate, explicit step).
 */
import { CouchError, type Couch } from './couch';

export type TeamCheck =
  | { ok: true; server: string; docs: number }
  | { ok: false; kind: 'unreachable' | 'not-couch' | 'unauthorised' | 'forbidden' | 'missing' | 'server'; message: string };

export async function checkTeamDatabase(couch: Couch): Promise<TeamCheck> {
  let welcome: Record<string, unknown>;
  try {
    welcome = await couch.server();
  } catch (e) {
    return failed(e, `Nothing answered at ${couch.target.url}: check the address, and that the server runs.`);
  }
  // Apache CouchDB greets with {"couchdb":"Welcome"}; pouchdb-server, which speaks the same API, with {"express-pouchdb":"Welcome!"}.
  const server =
    welcome.couchdb === 'Welcome'
      ? `CouchDB ${String(welcome.version ?? '')}`.trim()
      : welcome['express-pouchdb']
        ? `pouchdb-server ${String(welcome.version ?? '')}`.trim()
        : null;
  if (!server) return { ok: false, kind: 'not-couch', message: `${couch.target.url} answers, but it is not a CouchDB server.` };
  try {
    const info = await couch.info();
    return { ok: true, server, docs: info.doc_count };
  } catch (e) {
    if (e instanceof CouchError && e.kind === 'missing') {
      return {
        ok: false,
        kind: 'missing',
        message: `The server has no database "${couch.target.db}". Create it here (the user must be allowed to), or ask whoever runs the server.`,
      };
    }
    return failed(e, `The server did not answer about "${couch.target.db}".`);
  }
}

function failed(e: unknown, offline: string): TeamCheck {
  if (!(e instanceof CouchError)) return { ok: false, kind: 'server', message: e instanceof Error ? e.message : String(e) };
  switch (e.kind) {
    case 'offline':
      return { ok: false, kind: 'unreachable', message: offline };
    case 'unauthorised':
      return { ok: false, kind: 'unauthorised', message: 'The server refused this user name and password.' };
    case 'forbidden':
      return { ok: false, kind: 'forbidden', message: 'This user may not read the database: ask its administrator to make the user a member.' };
    case 'missing':
      return { ok: false, kind: 'not-couch', message: `${e.message} The address may not be a CouchDB server.` };
    default:
      return { ok: false, kind: 'server', message: e.message };
  }
}
