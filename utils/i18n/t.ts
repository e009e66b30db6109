import { browser } from 'wxt/browser';

/**
 * Every string a person reads comes from _locales (the browser's language picks ko or en).
 * Placeholders are positional ($1, $2 in messages.json). A missing key shows the key itself,
 * which a test catches, rather than an empty label.
 */
export function t(key: string, ...params: (string | number)[]): string {
  // Keys are checked by a test against both message files, not by WXT's generated key union.
  const getMessage = browser.i18n.getMessage as (key: string, substitutions?: string[]) => string;
  const text = getMessage(key, params.map(String));
  return text || key;
}

// Built once: a table row formats several numbers and dates, and a new Intl formatter costs
// about a hundred times as much as a call to an existing one.
let numberFormat: Intl.NumberFormat | null = null;
let dateTimeFormat: Intl.DateTimeFormat | null = null;

/** Numbers and dates in the interface's language. */
export function formatNumber(n: number): string {
  numberFormat ??= new Intl.NumberFormat(browser.i18n.getUILanguage());
  return numberFormat.format(n);
}

export function formatDateTime(ms: number): string {
  dateTimeFormat ??= new Intl.DateTimeFormat(browser.i18n.getUILanguage(), { dateStyle: 'medium', timeStyle: 'short' });
  return dateTimeFormat.format(ms);
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h > 0 ? t('durationHoursMinutes', h, m) : t('durationMinutes', Math.max(1, m));
}
