/**
 * Translatable text as data: a message key (scripts/locales.ts) and its parameters, which may
 * themselves be texts or instants. View models return these, never sentences, so the popup
 * and the dashboard render them in the user's language with `renderText`.
 */
export type TextParam = string | number | Text | { at: number };

export interface Text {
  key: string;
  params?: TextParam[];
}

export const text = (key: string, ...params: TextParam[]): Text => (params.length > 0 ? { key, params } : { key });

/** Render with the UI's `t` (utils/i18n/t.ts) and its date format (formatDateTime). */
export function renderText(value: Text, t: (key: string, ...params: (string | number)[]) => string, formatTime: (at: number) => string): string {
  const params = (value.params ?? []).map((p) =>
    typeof p === 'string' || typeof p === 'number' ? p : 'key' in p ? renderText(p, t, formatTime) : formatTime(p.at),
  );
  return t(value.key, ...params);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "2 h ago", "3 days ago": hours up to two days, then days. */
export function agoText(ms: number): Text {
  if (ms < MINUTE) return text('health_ago_now');
  if (ms < HOUR) return text('health_ago_minutes', Math.floor(ms / MINUTE));
  if (ms < 2 * DAY) return text('health_ago_hours', Math.floor(ms / HOUR));
  return text('health_ago_days', Math.floor(ms / DAY));
}

/** A duration without "ago": "3 days", "5 h". */
export function durationText(ms: number): Text {
  if (ms < HOUR) return text('health_for_minutes', Math.max(1, Math.floor(ms / MINUTE)));
  if (ms < 2 * DAY) return text('health_for_hours', Math.floor(ms / HOUR));
  return text('health_for_days', Math.floor(ms / DAY));
}
