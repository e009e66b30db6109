import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import type { Sweep } from '../utils/domain/sweep';
import { formatNumber, t } from '../utils/i18n/t';
import { providerFor } from '../utils/providers/registry';
import { openStore } from '../utils/store';
import type { TeamCheck } from '../utils/team/check';
import {
  DEFAULT_LEASE_MS,
  MIN_LEASE_MS,
  parseTarget,
  readMemberships,
  readTeamSettings,
  TEAM_KEY,
  TEAM_SWEEPS_KEY,
  type TeamMemberships,
  type TeamSettings,
} from '../utils/team/settings';
import type { SharedSweepSummary } from '../utils/team/share';
import { sendTeamMessage } from '../utils/team/wire';

type Form = { url: string; db: string; user: string; password: string; name: string };
/** What teamCheck answers (utils/team/wire.ts). */
type CheckAnswer = TeamCheck | { ok: false; kind: 'invalid' | 'no-permission'; message: string };

const EMPTY: Form = { url: '', db: '', user: '', password: '', name: '' };
const FIELDS: { key: keyof Form; label: string; type: string }[] = [
  { key: 'url', label: 'teamUrl', type: 'url' },
  { key: 'db', label: 'teamDb', type: 'text' },
  { key: 'user', label: 'teamUser', type: 'text' },
  { key: 'password', label: 'teamPassword', type: 'password' },
  { key: 'name', label: 'teamName', type: 'text' },
];

const errorText = (e: unknown) => t('teamNoAnswer', e instanceof Error ? e.message : String(e));
/** The check's answer in words. The background's messages never hold the password (utils/team/check.ts). */
const checkText = (c: CheckAnswer) => (c.ok ? t('teamCheckOk', c.server, formatNumber(c.docs)) : c.message);
const target = (f: Form) => ({ url: f.url, db: f.db, user: f.user, password: f.password });

/**
 * "Sweep as a team" in the options: where the team's CouchDB is and what this browser is called,
 * then Share (a local sweep to the database) and Join (a shared one here). Saving asks for the
 * database's origin as an optional host permission: the Save click is the user gesture it needs,
 * and without the permission nothing is saved (the background would refuse to send anything).
 * Names and keywords come from other browsers: rendered as text nodes only.
 */
export function TeamOptions() {
  const [form, setForm] = useState<Form>(EMPTY);
  const [saved, setSaved] = useState<TeamSettings | null>(null);
  const [check, setCheck] = useState<{ text: string; missing: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [members, setMembers] = useState<TeamMemberships>({});
  const [local, setLocal] = useState<Sweep[] | null>(null);
  const [leaseSeconds, setLeaseSeconds] = useState(DEFAULT_LEASE_MS / 1000);
  const [shared, setShared] = useState<SharedSweepSummary[] | null>(null);
  const [action, setAction] = useState('');

  const readMembers = async () => setMembers(readMemberships((await browser.storage.local.get(TEAM_SWEEPS_KEY))[TEAM_SWEEPS_KEY]));

  useEffect(() => {
    void browser.storage.local.get([TEAM_KEY, TEAM_SWEEPS_KEY]).then((r) => {
      const s = readTeamSettings(r[TEAM_KEY]);
      setMembers(readMemberships(r[TEAM_SWEEPS_KEY]));
      if (!s) return;
      setSaved(s);
      setForm({ url: s.url, db: s.db, user: s.user, password: s.password, name: s.name });
    });
  }, []);

  // The sweeps stored here, read as the popup reads them (IndexedDB, no background message), once settings exist.
  const loadLocal = async () => {
    try {
      const store = await openStore();
      try {
        setLocal(await store.listSweeps());
      } finally {
        store.close();
      }
    } catch (e) {
      setAction(errorText(e));
    }
  };
  useEffect(() => {
    if (saved) void loadLocal();
  }, [saved !== null]);

  async function runCheck(values: Form, prefix = '') {
    setCheck({ text: t('teamChecking'), missing: false });
    try {
      const answer = await sendTeamMessage('teamCheck', target(values));
      setCheck({ text: prefix + checkText(answer), missing: !answer.ok && answer.kind === 'missing' });
    } catch (e) {
      setCheck({ text: prefix + errorText(e), missing: false });
    }
  }

  async function guarded(work: () => Promise<void>) {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  }

  function save() {
    const parsed = parseTarget(form);
    if (!parsed.ok) {
      setCheck({ text: parsed.message, missing: false });
      return;
    }
    // Asked first, before any other await: the browser takes the click as the gesture only so.
    const asked = browser.permissions.request({ origins: [parsed.origin] }).catch(() => false);
    void guarded(async () => {
      if (!(await asked)) {
        setCheck({ text: t('teamPermissionRefused'), missing: false });
        return;
      }
      // The id is made once per browser: saving again (another address, another name) keeps it.
      const before = readTeamSettings((await browser.storage.local.get(TEAM_KEY))[TEAM_KEY]);
      const next: TeamSettings = { ...parsed.target, name: form.name.trim().slice(0, 60), browserId: before?.browserId ?? crypto.randomUUID() };
      await browser.storage.local.set({ [TEAM_KEY]: next });
      setSaved(next);
      await runCheck({ ...form, ...parsed.target }, `${t('teamSavedNote')} `);
    });
  }

  const createDatabase = () =>
    guarded(async () => {
      try {
        const reply = await sendTeamMessage('teamCreateDatabase', target(form));
        if (!reply.ok) {
          setCheck({ text: reply.error.message, missing: true });
          return;
        }
      } catch (e) {
        setCheck({ text: errorText(e), missing: true });
        return;
      }
      await runCheck(form);
    });

  const share = (sweep: Sweep) =>
    guarded(async () => {
      setAction('');
      try {
        const seconds = Math.max(MIN_LEASE_MS / 1000, Number.isFinite(leaseSeconds) ? leaseSeconds : DEFAULT_LEASE_MS / 1000);
        const reply = await sendTeamMessage('teamShare', { sweepId: sweep.id, leaseMs: Math.round(seconds * 1000) });
        setAction(reply.ok ? t(reply.already ? 'teamAlreadyShared' : 'teamShared', sweep.keywords.join(', ')) : reply.error.message);
      } catch (e) {
        setAction(errorText(e));
      }
      await readMembers();
    });

  const list = () =>
    guarded(async () => {
      setAction('');
      try {
        const reply = await sendTeamMessage('teamList', undefined);
        if (reply.ok) setShared(reply.sweeps);
        else setAction(reply.error.message);
      } catch (e) {
        setAction(errorText(e));
      }
      await readMembers();
    });

  const join = (s: SharedSweepSummary) =>
    guarded(async () => {
      setAction('');
      try {
        const reply = await sendTeamMessage('teamJoin', { sweepId: s.id });
        setAction(reply.ok ? t('teamJoinedNote', s.keywords.join(', ')) : reply.error.message);
      } catch (e) {
        setAction(errorText(e));
      }
      await readMembers();
      await loadLocal();
    });

  // A stopped sweep cannot be shared (utils/team/share.ts): it is not offered.
  const shareable = (local ?? []).filter((s) => !members[s.id] && s.status !== 'stopped');

  return (
    <section class="team">
      <h2>{t('teamTitle')}</h2>
      <p class="hint">{t('teamHint')}</p>
      {FIELDS.map((f) => (
        <label key={f.key}>
          {t(f.label)}
          <input
            type={f.type}
            autocomplete={f.key === 'password' ? 'off' : undefined}
            value={form[f.key]}
            onInput={(e) => setForm({ ...form, [f.key]: (e.target as HTMLInputElement).value })}
          />
        </label>
      ))}
      <div class="row">
        <button type="button" disabled={busy} onClick={() => void guarded(() => runCheck(form))}>
          {t('buttonTeamCheck')}
        </button>
        <button type="button" class="primary" disabled={busy} onClick={save}>
          {t('buttonTeamSave')}
        </button>
        {check?.missing && (
          <button type="button" disabled={busy} onClick={() => void createDatabase()}>
            {t('buttonTeamCreate')}
          </button>
        )}
      </div>
      <p role="status" data-testid="team-check">
        {check?.text ?? ''}
      </p>
      {saved && (
        <>
          <h3>{t('teamShareTitle')}</h3>
          <label>
            {t('teamLease')}
            <input
              type="number"
              min={MIN_LEASE_MS / 1000}
              step={1}
              value={leaseSeconds}
              onInput={(e) => setLeaseSeconds(Number((e.target as HTMLInputElement).value))}
            />
          </label>
          <p class="hint">{t('teamLeaseHint')}</p>
          {local && shareable.length === 0 && <p>{t('teamNoLocalSweeps')}</p>}
          <ul class="team-sweeps">
            {shareable.map((s) => (
              <li key={s.id}>
                {t('teamLocalSweep', s.keywords.join(', '), providerFor(s.provider).displayName, t(`state_${s.status}`))}{' '}
                <button type="button" disabled={busy} data-testid={`team-share-${s.id}`} onClick={() => void share(s)}>
                  {t('buttonTeamShare')}
                </button>
              </li>
            ))}
          </ul>
          <h3>{t('teamJoinTitle')}</h3>
          <button type="button" disabled={busy} onClick={() => void list()}>
            {t('buttonTeamList')}
          </button>
          {shared && shared.length === 0 && <p>{t('teamNoShared')}</p>}
          {shared && shared.length > 0 && (
            <ul class="team-sweeps">
              {shared.map((s) => {
                // Joined while the sweep is here: one deleted here can be joined again.
                const joined = !!members[s.id] && (local ?? []).some((l) => l.id === s.id);
                return (
                  <li key={s.id}>
                    {t('teamSharedLine', s.keywords.join(', '), s.sharedBy, formatNumber(s.cells))}{' '}
                    <button type="button" disabled={busy || joined} data-testid={`team-join-${s.id}`} onClick={() => void join(s)}>
                      {joined ? t('teamJoinedButton') : t('buttonTeamJoin')}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <p role="status" data-testid="team-action">
            {action}
          </p>
        </>
      )}
    </section>
  );
}
