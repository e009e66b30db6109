/**
 * Times of day as the hours texts write them, and the `HH:MM` strings DayHours stores.
 *
 * A time is kept as it was written (hour, minute, half of the day if one was named) until the
 * range it belongs to is known, because an English range names the half once for both ends
 * (Google's `5–10 PM`) and a Korean one names it once for both ends the other way round
 * (`오후 5시 ~ 10시`). Everything else is read literally as a 24-hour clock: `매일 10:30~10:00`
 * (a real Naver text) is a span past midnight, not a typo this code may correct.
 */

export type Meridiem = 'am' | 'pm';

/** One written time: `21:30`, `9 PM`, `오후 9시`, `9시 반`, `자정`. */
export interface WrittenTime {
  hour: number;
  minute: number;
  meridiem: Meridiem | null;
  /** A number alone (`5` in `5–10 PM`): a time only when the other end of its range names a half of the day. */
  bare: boolean;
  /** Korean `N시` without 오전/오후: read on a 24-hour clock, except a last order that only fits twelve hours later. */
  koreanHour: boolean;
  /** `익일`, `다음날`, `next day`: the site says the time falls on the next day. */
  nextDay: boolean;
}

export const DAY_MINUTES = 24 * 60;

/** Minutes after midnight, or null for what no clock shows (`25:00`, `13 PM`, `9:75`). */
export function minutesOf(t: WrittenTime, meridiem: Meridiem | null = t.meridiem): number | null {
  if (t.minute < 0 || t.minute > 59) return null;
  if (meridiem === null) {
    if (t.hour > 24 || (t.hour === 24 && t.minute > 0)) return null;
    return t.hour * 60 + t.minute;
  }
  if (t.hour < 1 || t.hour > 12) return null;
  const hour = (t.hour % 12) + (meridiem === 'pm' ? 12 : 0);
  return hour * 60 + t.minute;
}

/**
 * A range's two ends in minutes. An end that names no half of the day while the other does takes
 * the reading that makes the shorter span: the next time the dial shows that hour after the
 * open, or the last time before the close (`5–10 PM` → 17:00–22:00, `11–2 PM` → 11:00–14:00,
 * `오후 5시 ~ 10시` → 17:00–22:00, `오후 6시 ~ 2시` → 18:00–02:00, `오전 11시 ~ 2시` → 11:00–14:00).
 * Null when either end is no time, or when a bare number meets no named half.
 */
export function rangeMinutes(open: WrittenTime, close: WrittenTime): { open: number; close: number } | null {
  const pair = readPair(open, close);
  if (!pair) return null;
  // An opening at 24:00 is the day's start; a close at midnight is the day's end (OSM's 24:00).
  return { open: pair.open === DAY_MINUTES ? 0 : pair.open, close: pair.close === 0 ? DAY_MINUTES : pair.close };
}

function readPair(open: WrittenTime, close: WrittenTime): { open: number; close: number } | null {
  const named = open.meridiem ?? close.meridiem;
  if (named === null || (open.meridiem !== null && close.meridiem !== null)) {
    if (open.bare || close.bare) return null;
    const o = minutesOf(open);
    const c = minutesOf(close);
    return o === null || c === null ? null : { open: o, close: c };
  }
  const readings = (['am', 'pm'] as const).flatMap((half) => {
    const o = minutesOf(open, halfFor(open, half));
    const c = minutesOf(close, halfFor(close, half));
    return o === null || c === null ? [] : [{ open: o, close: c }];
  });
  readings.sort((a, b) => closeAfter(a.open, a.close) - a.open - (closeAfter(b.open, b.close) - b.open));
  return readings[0] ?? null;
}

/** The end's own half, else `half` where the dial can show its hour (`13:00` is read as written). */
function halfFor(t: WrittenTime, half: Meridiem): Meridiem | null {
  return t.meridiem ?? (t.hour >= 1 && t.hour <= 12 ? half : null);
}

/** `HH:MM` of minutes after midnight; the day's end is `24:00`, as OSM writes it. */
export function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The close as minutes after the open's midnight: past 24:00 when the span runs past midnight. */
export function closeAfter(open: number, close: number): number {
  return close <= open ? close + DAY_MINUTES : close;
}
