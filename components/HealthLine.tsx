import { useEffect, useState } from 'preact/hooks';
import { healthLine, loadHealth, renderText, type HealthState } from '../utils/health';
import { formatDateTime, t } from '../utils/i18n/t';
import type { Store } from '../utils/store';

const REFRESH_MS = 5000;

/** One line: errors, the coverage audit and the last new place, side by side. */
export function HealthLine(props: { store: Store | null }) {
  const [line, setLine] = useState<{ state: HealthState; text: string } | null>(null);
  useEffect(() => {
    if (!props.store) return;
    const store = props.store;
    let stopped = false;
    const read = async () => {
      const data = await loadHealth(store, Date.now(), (at) => -new Date(at).getTimezoneOffset());
      const { state, text } = healthLine(data);
      if (!stopped) setLine({ state, text: renderText(text, t, formatDateTime) });
    };
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [props.store]);
  if (!line) return null;
  return (
    <p class={`health health-${line.state}`} data-testid="health-line">
      {line.text}
    </p>
  );
}
