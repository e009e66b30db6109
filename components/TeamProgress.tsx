import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { formatNumber, t } from '../utils/i18n/t';
import type { TeamProgress as Progress } from '../utils/team/progress';
import type { TeamStatus } from '../utils/team/settings';
import { sendTeamMessage } from '../utils/team/wire';

/** A poll reads one small document per member browser (utils/team/progress.ts), so every 5 s costs the database little. */
export const TEAM_POLL_MS = 5000;

let timeFormat: Intl.DateTimeFormat | null = null;
/** HH:MM in the interface's language: the outage began today, most likely minutes ago. */
function formatTime(ms: number): string {
  timeFormat ??= new Intl.DateTimeFormat(browser.i18n.getUILanguage(), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return timeFormat.format(ms);
}

/** "Ana 40, Bo 38, this browser 41": the names are other browsers' words, joined as plain text. */
export function teamLine(p: Progress): string {
  const cells = p.browsers.map((b) => `${b.me ? t('teamThisBrowser') : b.name} ${formatNumber(b.cells)}`).join(', ');
  return t('teamProgressLine', formatNumber(p.places), cells || '—');
}

/** "3 documents from the team refused (the first: it calls done a list …)": searched here instead. */
export function refusedText(r: NonNullable<TeamStatus['refusedDocs']>): string {
  return r.count === 1 ? t('teamRefusedDocsOne', r.first) : t('teamRefusedDocs', formatNumber(r.count), r.first);
}

export function teamStatusText(s: TeamStatus): string | null {
  if (s.state === 'online') return null;
  if (s.state === 'refused') return t('teamRefused', s.message);
  const waiting = s.unpushed === 1 ? t('teamUnpushedOne') : t('teamUnpushed', formatNumber(s.unpushed));
  return `${t('teamOffline', formatTime(s.since))} ${waiting}`;
}

/**
 * The team's side of the sweep shown in the popup: places the team collected, cells each browser
 * settled, and why this browser is on its own when the database is away or refuses it. Nothing
 * for a sweep not worked on with a team. Rendered as text nodes only (names come from the database).
 */
export function TeamProgress(props: { sweepId: string }) {
  const [shown, setShown] = useState<{ progress: Progress | null; status: TeamStatus | null }>({ progress: null, status: null });
  useEffect(() => {
    let stopped = false;
    const tick = async () => {
      try {
        const reply = await sendTeamMessage('teamProgress', { sweepId: props.sweepId });
        if (!stopped && reply?.ok) setShown({ progress: reply.progress, status: reply.status });
      } catch {
        // The service worker starting up (or gone): the next poll asks again; the sweep's own status still shows.
      }
    };
    setShown({ progress: null, status: null });
    void tick();
    const timer = setInterval(() => void tick(), TEAM_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [props.sweepId]);

  const { progress, status } = shown;
  if (!progress && !status) return null;
  const problem = status ? teamStatusText(status) : null;
  const refused = status?.refusedDocs ? refusedText(status.refusedDocs) : null;
  return (
    <section class="team" data-testid="team-progress">
      {progress && <p>{teamLine(progress)}</p>}
      {problem && (
        <p class="warnings" role="alert">
          {problem}
        </p>
      )}
      {refused && (
        <p class="warnings" data-testid="team-refused">
          {refused}
        </p>
      )}
    </section>
  );
}
