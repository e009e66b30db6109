import { useEffect, useState } from 'preact/hooks';
import { loadIncompleteCoverage, type IncompleteCoverage } from '../utils/dashboard/incomplete';
import { healthLine, loadHealth, renderText, type HealthState } from '../utils/health';
import { formatDateTime, formatNumber, t } from '../utils/i18n/t';
import type { Store } from '../utils/store';
import type { Sweep } from '../utils/domain/sweep';

const REFRESH_MS = 5000;

/**
 * One line: errors, the coverage audit and the last new place, side by side; and, when the
 * sweep the popup shows has saturated cells, how many cells and places are not proven
 * complete instead of "ok". `sweep` is the popup's sweep; without it the line picks the same
 * one the popup does (the running sweep, else the newest).
 */
export function HealthLine(props: { store: Store | null; sweep?: Sweep | null }) {
  const [line, setLine] = useState<{ state: HealthState; text: string } | null>(null);
  const given = props.sweep;
  const sweepKey = given ? `${given.id}@${given.updatedAt}` : given === null ? 'none' : 'auto';
  useEffect(() => {
    if (!props.store) return;
    const store = props.store;
    let stopped = false;
    // Saturated cells and their places are re-read only when the saturated cells or the status changed.
    let cached: { key: string; incomplete: IncompleteCoverage | null } | null = null;
    const read = async () => {
      const data = await loadHealth(store, Date.now(), (at) => -new Date(at).getTimezoneOffset());
      const sweep = given !== undefined ? given : shownSweep(await store.listSweeps());
      let incomplete: IncompleteCoverage | null = null;
      if (sweep && sweep.counters.cellsSaturated > 0) {
        // Counting walks the sweep's places: redone when a cell is newly saturated or the sweep's status changes, not per commit.
        const key = `${sweep.id}@${sweep.counters.cellsSaturated}@${sweep.status}`;
        if (cached?.key !== key) cached = { key, incomplete: await loadIncompleteCoverage(store, sweep.id) };
        incomplete = cached.incomplete;
      }
      const { state, text } = healthLine(data, incomplete);
      if (!stopped) setLine({ state, text: renderText(text, withNumbers, formatDateTime) });
    };
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // `given` is read through sweepKey: a new object for the same record does not restart the timer.
  }, [props.store, sweepKey]);
  if (!line) return null;
  return (
    <p class={`health health-${line.state}`} data-testid="health-line">
      {line.text}
    </p>
  );
}

/** The popup's rule (components/useLatestSweep.ts): the running sweep, else the newest. */
function shownSweep(sweeps: readonly Sweep[]): Sweep | null {
  return sweeps.find((s) => s.status === 'running') ?? [...sweeps].sort((a, b) => b.createdAt - a.createdAt)[0] ?? null;
}

/** Counts in the interface's language ("1,240"). */
export function withNumbers(key: string, ...params: (string | number)[]): string {
  return t(key, ...params.map((p) => (typeof p === 'number' ? formatNumber(p) : p)));
}
