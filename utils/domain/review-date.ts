/**
 * A review's date as the page says it, as a day (utils/domain/review.ts ReviewDate). Relative
 * dates ("3 weeks ago", "3주 전", "a month ago") are counted back from when the page was read,
 * with the precision the words carry; printed dates ("2025.3.5.", "25.3.5.화", "March 5, 2025",
 * "2025년 3월 5일") are that day. Anything else is null: an unknown date is never guessed.
 * Days are counted in UTC from the reading time's UTC day (a day's error at most near midnight,
 * within every relative date's own precision).
 */
import type { ReviewDate } from './review';

type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

const EN_UNITS: Record<string, Unit> = {
  minute: 'minute',
  minutes: 'minute',
  hour: 'hour',
  hours: 'hour',
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};
const KO_UNITS: Record<string, Unit> = { 분: 'minute', 시간: 'hour', 일: 'day', 주: 'week', 개월: 'month', 달: 'month', 년: 'year' };
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The page's date words as a ReviewDate, counted from `readAt` (ms); null when they are not a date. */
export function parseReviewDate(said: string, readAt: number): ReviewDate | null {
  const text = said.replace(/\s+/g, ' ').trim();
  if (!text || text.length > 80 || !Number.isFinite(readAt)) return null;
  // "Edited 2 weeks ago", "수정 3일 전": when it was last edited is the date the page gives.
  const words = text.replace(/^(edited|수정됨?)\s*/i, '').replace(/\s*(on google|수정됨)$/i, '');
  const relative = relativeOf(words);
  if (relative) return back(text, readAt, relative.n, relative.unit);
  const day = printedDay(words, readAt);
  return day ? { said: text, iso: day, precision: 'day' } : null;
}

function relativeOf(words: string): { n: number; unit: Unit } | null {
  const lower = words.toLowerCase();
  if (/^(just now|moments? ago|방금 ?전?)$/.test(lower)) return { n: 0, unit: 'minute' };
  if (/^(yesterday|어제)$/.test(lower)) return { n: 1, unit: 'day' };
  if (/^(today|오늘)$/.test(lower)) return { n: 0, unit: 'day' };
  const en = /^(a|an|one|\d{1,3}) (minute|minutes|hour|hours|day|days|week|weeks|month|months|year|years) ago$/.exec(lower);
  if (en) return { n: /^\d/.test(en[1]!) ? Number(en[1]) : 1, unit: EN_UNITS[en[2]!]! };
  const ko = /^(\d{1,3}) ?(분|시간|일|주|개월|달|년) ?전$/.exec(words);
  if (ko) return { n: Number(ko[1]), unit: KO_UNITS[ko[2]!]! };
  return null;
}

function back(said: string, readAt: number, n: number, unit: Unit): ReviewDate {
  const d = new Date(readAt);
  const at = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const day = new Date(at);
  if (unit === 'minute' || unit === 'hour') {
    const ms = n * (unit === 'minute' ? 60_000 : 3_600_000);
    const t = new Date(readAt - ms);
    return { said, iso: isoDay(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate())), precision: 'day' };
  }
  if (unit === 'day' || unit === 'week') day.setUTCDate(day.getUTCDate() - n * (unit === 'week' ? 7 : 1));
  // Calendar months and years, the day clamped to the month's last ("a month ago" on 31 March: 28 or 29 February).
  else day.setTime(monthsBack(at, unit === 'month' ? n : 12 * n));
  return { said, iso: isoDay(day.getTime()), precision: unit };
}

function monthsBack(at: number, months: number): number {
  const d = new Date(at);
  const target = d.getUTCFullYear() * 12 + d.getUTCMonth() - months;
  const year = Math.floor(target / 12);
  const month = target - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(d.getUTCDate(), last));
}

/** A printed day: "2025.3.5.", "2025-03-05", "2025-03-05 13:45:12", "25.3.5.화", "3.5.화" (this year, or last if that is still to come), "2025년 3월 5일", "March 5, 2025", "5 March 2025". */
function printedDay(words: string, readAt: number): string | null {
  const now = new Date(readAt);
  // A stamp with its time ("2024-05-03 13:45:12", "2024-05-03T13:45:12+09:00"): the day as written.
  const stamp = /^(\d{4})-(\d{2})-(\d{2})[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(words);
  if (stamp) return dayOf(Number(stamp[1]), Number(stamp[2]), Number(stamp[3]));
  const ymd = /^(\d{4})[.\-/] ?(\d{1,2})[.\-/] ?(\d{1,2})\.?(?: ?\(?[월화수목금토일]\)?)?$/.exec(words);
  if (ymd) return dayOf(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  const short = /^(\d{2})\.(\d{1,2})\.(\d{1,2})\.?(?:[월화수목금토일])?$/.exec(words);
  if (short) return dayOf(2000 + Number(short[1]), Number(short[2]), Number(short[3]));
  const md = /^(\d{1,2})\.(\d{1,2})\.(?:[월화수목금토일])$/.exec(words);
  if (md) {
    const year = now.getUTCFullYear();
    const thisYear = dayOf(year, Number(md[1]), Number(md[2]));
    // A day still to come is last year's (a review is never from the future).
    return thisYear && thisYear > isoDay(readAt) ? dayOf(year - 1, Number(md[1]), Number(md[2])) : thisYear;
  }
  const ko = /^(\d{4})년 ?(\d{1,2})월 ?(\d{1,2})일$/.exec(words);
  if (ko) return dayOf(Number(ko[1]), Number(ko[2]), Number(ko[3]));
  const mdy = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(words);
  if (mdy) return monthDay(mdy[1]!, Number(mdy[2]), Number(mdy[3]));
  const dmy = /^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/.exec(words);
  if (dmy) return monthDay(dmy[2]!, Number(dmy[1]), Number(dmy[3]));
  return null;
}

function monthDay(name: string, day: number, year: number): string | null {
  const m = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return m < 0 ? null : dayOf(year, m + 1, day);
}

/** YYYY-MM-DD for a real day of a plausible year; null for 2025.2.30 or the year 1200. */
function dayOf(year: number, month: number, day: number): string | null {
  if (year < 1995 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  const t = Date.UTC(year, month - 1, day);
  if (new Date(t).getUTCDate() !== day) return null;
  return isoDay(t);
}

function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
