/**
 * The team in the service worker (utils/app/background.ts calls wireTeam once, synchronously):
 * the gate the driver's loops ask, and the options' and popup's messages. Only MapSweep's own
 * pages may check, share, join or read progress. The database's origin must have been granted
 * (an optional host permission asked for when the user saved it); without it nothing is sent.
 */
import { guarded, type Covered, type SenderEnv } from '../messaging/senders';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { WxtBrowser as Browser } from 'wxt/browser';
import type { Reply } from '../domain/errors';
import type { SweepSettings } from '../domain/sweep';
import type { Store } from '../store';
import { checkTeamDatabase, type TeamCheck } from './check';
import { createCouch, CouchError, type Couch } from './couch';
import { createTeamGate, type TeamGate } from './gate';
import { teamProgress, type TeamProgress } from './progress';
import { joinSweep, listSharedSweeps, shareSweep, type SharedSweepSummary } from './share';
import {
  clampLeaseMs,
  DEFAULT_LEASE_MS,
  parseTarget,
  readMemberships,
  readTeamSettings,
  TEAM_KEY,
  TEAM_STATUS_KEY,
  TEAM_SWEEPS_KEY,
  type TeamSettings,
  type TeamStatus,
} from './settings';

export interface TeamMessages {
  /** The options' Check: the form's values, before they are saved. */
  teamCheck(req: { url: string; db: string; user: string; password: string }): TeamCheck | { ok: false; kind: 'invalid' | 'no-permission'; message: string };
  teamCreateDatabase(req: { url: string; db: string; user: string; password: string }): Reply;
  teamList(): Reply<{ sweeps: SharedSweepSummary[] }>;
  /** `leaseMs`: how long a cell stays with a browser that stopped answering (default 90 s). */
  teamShare(req: { sweepId: string; leaseMs?: number }): Reply<{ already: boolean }>;
  teamJoin(req: { sweepId: string }): Reply<{ sweepId: string }>;
  /** null: the sweep is not worked on with a team here. */
  teamProgress(req: { sweepId: string }): Reply<{ progress: TeamProgress | null; status: TeamStatus | null }>;
}

export const { sendMessage: sendTeamMessage, onMessage: onTeamMessage } = defineExtensionMessaging<TeamMessages>();
void (true satisfies Covered<TeamMessages>);

/** Writes what this browser searched and the database lacks, every minute while there may be some. */
export const TEAM_FLUSH_ALARM = 'team-flush';

export interface TeamWiring {
  gate: TeamGate;
  onAlarm(name: string): void;
}

export function wireTeam(
  browser: Browser,
  store: Promise<Store>,
  senders: SenderEnv,
  c: { settings(): Promise<SweepSettings>; ensureDriving(): Promise<void> },
): TeamWiring {
  const local = browser.storage.local;
  let cached: { key: string; couch: Couch } | null = null;

  async function team(): Promise<{ couch: Couch; me: TeamSettings } | null> {
    const me = readTeamSettings((await local.get(TEAM_KEY))[TEAM_KEY]);
    if (!me) return null;
    const parsed = parseTarget(me);
    if (!parsed.ok) throw new CouchError('missing', parsed.message);
    if (!(await browser.permissions.contains({ origins: [parsed.origin] }).catch(() => false))) {
      throw new CouchError('forbidden', `MapSweep has no permission to reach ${parsed.target.url}: save the team database again in the options to grant it.`);
    }
    const key = JSON.stringify(parsed.target);
    if (cached?.key !== key) cached = { key, couch: createCouch(parsed.target) };
    return { couch: cached.couch, me };
  }

  const memberships = async () => readMemberships((await local.get(TEAM_SWEEPS_KEY))[TEAM_SWEEPS_KEY]);
  async function join(sweepId: string, leaseMs: number) {
    const all = await memberships();
    await local.set({ [TEAM_SWEEPS_KEY]: { ...all, [sweepId]: { leaseMs } } });
    await browser.alarms.create(TEAM_FLUSH_ALARM, { periodInMinutes: 1 });
  }

  const ready = store.then((s) =>
    createTeamGate({
      store: s,
      team,
      membership: async (id) => (await memberships())[id] ?? null,
      memberSweeps: async () => Object.keys(await memberships()),
      now: Date.now,
      report: (status: TeamStatus) => void browser.storage.session.set({ [TEAM_STATUS_KEY]: status }),
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    }),
  );
  // The driver's loops start only once the store is open, so they never wait on this for long.
  const gate: TeamGate = {
    claim: (sweep, cell, holder) => ready.then((g) => g.claim(sweep, cell, holder)),
    settled: (sweep, cell, children, listings) => ready.then((g) => g.settled(sweep, cell, children, listings)),
    flush: () => ready.then((g) => g.flush()),
  };

  const failed = (code: string, e: unknown) => ({ ok: false as const, error: { code, message: e instanceof Error ? e.message : String(e) } });

  /** The form's values as a database this browser may reach, or why not. */
  async function target(req: { url: string; db: string; user: string; password: string }) {
    const parsed = parseTarget(req);
    if (!parsed.ok) return { ok: false as const, kind: 'invalid' as const, message: parsed.message };
    if (!(await browser.permissions.contains({ origins: [parsed.origin] }).catch(() => false))) {
      return {
        ok: false as const,
        kind: 'no-permission' as const,
        message: `MapSweep may not reach ${parsed.target.url} yet: allow it when the browser asks.`,
      };
    }
    return { ok: true as const, couch: createCouch(parsed.target) };
  }

  onTeamMessage(
    'teamCheck',
    guarded('teamCheck', senders, async (m) => {
      const t = await target(m.data);
      return t.ok ? checkTeamDatabase(t.couch) : t;
    }),
  );
  onTeamMessage(
    'teamCreateDatabase',
    guarded('teamCreateDatabase', senders, async (m) => {
      const t = await target(m.data);
      if (!t.ok) return { ok: false, error: { code: t.kind, message: t.message } };
      return t.couch.createDatabase().then(
        () => ({ ok: true as const }),
        (e) => failed('team_create', e),
      );
    }),
  );
  /** A command that needs the team database set up: its reply, or why it could not run. */
  async function withTeam<R>(code: string, body: (t: { couch: Couch; me: TeamSettings }) => Promise<R>) {
    try {
      const t = await team();
      if (!t) return { ok: false as const, error: { code: 'team_unset', message: 'Set up the team database first.' } };
      return await body(t);
    } catch (e) {
      return failed(code, e);
    }
  }

  onTeamMessage(
    'teamList',
    guarded('teamList', senders, async () => {
      return withTeam('team_list', async (t) => ({ ok: true as const, sweeps: await listSharedSweeps(t.couch) }));
    }),
  );
  onTeamMessage(
    'teamShare',
    guarded('teamShare', senders, async (m) => {
      return withTeam('team_share', async (t) => {
        const leaseMs = clampLeaseMs(m.data.leaseMs ?? DEFAULT_LEASE_MS);
        const reply = await shareSweep(await store, t.couch, t.me, m.data.sweepId, leaseMs, Date.now());
        if (!reply.ok) return { ok: false as const, error: { code: 'team_share', message: reply.message } };
        await join(m.data.sweepId, leaseMs);
        void gate.flush();
        return { ok: true as const, already: reply.already };
      });
    }),
  );
  onTeamMessage(
    'teamJoin',
    guarded('teamJoin', senders, async (m) => {
      return withTeam('team_join', async (t) => {
        const reply = await joinSweep(await store, t.couch, m.data.sweepId, await c.settings(), Date.now());
        if (!reply.ok) return { ok: false as const, error: { code: 'team_join', message: reply.message } };
        await join(reply.sweep.id, reply.leaseMs);
        await c.ensureDriving();
        return { ok: true as const, sweepId: reply.sweep.id };
      });
    }),
  );
  onTeamMessage(
    'teamProgress',
    guarded('teamProgress', senders, async (m) => {
      const member = (await memberships())[m.data.sweepId];
      const status = ((await browser.storage.session.get(TEAM_STATUS_KEY))[TEAM_STATUS_KEY] as TeamStatus | undefined) ?? null;
      if (!member) return { ok: true, progress: null, status: null };
      try {
        const t = await team();
        if (!t) return { ok: true, progress: null, status };
        return { ok: true, progress: await teamProgress(t.couch, m.data.sweepId, t.me.browserId), status };
      } catch {
        // The database away: the popup shows this browser's own progress and the status says why.
        return { ok: true, progress: null, status };
      }
    }),
  );

  return {
    gate,
    onAlarm(name) {
      if (name === TEAM_FLUSH_ALARM) void gate.flush();
    },
  };
}
