/**
 * Where this browser's team database is, and who this browser is to the team. Kept in
 * storage.local only (never storage.sync, never in an export): the password is the user's.
 */
import type { CouchTarget } from './couch';
import { LEASE_LIMITS_MS } from './docs';
import { isOwnNetworkHost } from '../net/addresses';

/** storage.local: the database and this browser's identity (TeamSettings). */
export const TEAM_KEY = 'team';
/** storage.local: the sweeps this browser works on with the team, and each one's lease length. */
export const TEAM_SWEEPS_KEY = 'team-sweeps';
/** storage.session: the database as this browser last found it (TeamStatus), for the popup. */
export const TEAM_STATUS_KEY = 'team-status';

export interface TeamSettings extends CouchTarget {
  /** What the team sees this browser as ("Ana's laptop"). */
  name: string;
  /** A random id, made once: two browsers with one name are still two. */
  browserId: string;
}

export type TeamMemberships = Record<string, { leaseMs: number }>;

export type TeamStatus = (
  | { state: 'online'; at: number; unpushed: number }
  /** The database did not answer: this browser finishes its cell, keeps results here, and takes no new shared cell. */
  | { state: 'offline'; since: number; message: string; unpushed: number }
  /** The database refused this browser (credentials, access): the team's sweeps pause here. */
  | { state: 'refused'; at: number; message: string; unpushed: number }
) & {
  /** Other browsers' cell documents this browser would not believe (utils/team/verify.ts): how many, and why the first. */
  refusedDocs?: { count: number; first: string };
};

/** A lease lasts this long without a heartbeat; the holder renews it every third of that. */
export const DEFAULT_LEASE_MS = 90_000;
export const MIN_LEASE_MS = LEASE_LIMITS_MS.min;

/** A lease length within LEASE_LIMITS_MS. */
export function clampLeaseMs(ms: number): number {
  return Math.min(LEASE_LIMITS_MS.max, Math.max(LEASE_LIMITS_MS.min, Math.round(Number.isFinite(ms) ? ms : DEFAULT_LEASE_MS)));
}

// CouchDB's rule for database names (docs.couchdb.org, "PUT /{db}").
const DB_NAME = /^[a-z][a-z0-9_$()+/-]*$/;

/** Why a plain http:// address is refused (the options page shows it). */
export const HTTP_ONLY_NEARBY =
  'Plain http:// sends the team password and every document unencrypted, so it is accepted only for a database on this computer ' +
  '(localhost, 127.0.0.1) or at a private address of your own network (10.x.x.x, 172.16–31.x.x, 192.168.x.x, fd00::). Use https:// for any other address.';

export type TargetCheck = { ok: true; target: CouchTarget; origin: string } | { ok: false; message: string };

/** The form's values as a database to reach, or what is wrong with them. Changes nothing. */
export function parseTarget(input: { url: string; db: string; user: string; password: string }): TargetCheck {
  let url: URL;
  try {
    url = new URL(input.url.trim());
  } catch {
    return { ok: false, message: 'The database address is not a URL (for example https://couch.example.org:6984).' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, message: 'The database address must start with https:// (or http:// on your own network).' };
  // Plain http carries the team's password and every document in the clear: only where the
  // traffic never leaves this computer or the user's own network, and only by an address that says so.
  if (url.protocol === 'http:' && !isOwnNetworkHost(url.hostname)) return { ok: false, message: HTTP_ONLY_NEARBY };
  if (url.username || url.password) return { ok: false, message: 'Put the user name and password in their own fields, not in the address.' };
  if (url.search || url.hash) return { ok: false, message: 'The database address takes no ?query or #part.' };
  const db = input.db.trim();
  if (!DB_NAME.test(db)) return { ok: false, message: 'A database name starts with a lower-case letter and holds only a–z, 0–9 and _$()+-/.' };
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, target: { url: `${url.origin}${path}`, db, user: input.user.trim(), password: input.password }, origin: `${url.origin}/*` };
}

export function readTeamSettings(value: unknown): TeamSettings | null {
  const v = value as Partial<TeamSettings> | null | undefined;
  if (!v || typeof v.url !== 'string' || typeof v.db !== 'string' || typeof v.browserId !== 'string' || !v.browserId) return null;
  return {
    url: v.url,
    db: v.db,
    user: typeof v.user === 'string' ? v.user : '',
    password: typeof v.password === 'string' ? v.password : '',
    name: typeof v.name === 'string' && v.name.trim() ? v.name.trim().slice(0, 60) : 'A browser',
    browserId: v.browserId,
  };
}

export function readMemberships(value: unknown): TeamMemberships {
  if (!value || typeof value !== 'object') return {};
  const out: TeamMemberships = {};
  for (const [id, m] of Object.entries(value as Record<string, { leaseMs?: unknown }>)) {
    if (typeof m?.leaseMs === 'number' && Number.isFinite(m.leaseMs)) out[id] = { leaseMs: clampLeaseMs(m.leaseMs) };
  }
  return out;
}
