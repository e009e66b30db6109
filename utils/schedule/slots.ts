import type { SavedSearch } from '../domain/saved-search';

/**
 * Minutes to add to UTC for local time at an instant (Seoul: 540). In the browser:
 * `(at) => -new Date(at).getTimezoneOffset()`. Asked per instant because daylight saving
 * moves it; a test passes a fixed or a hand-made function.
 */
export type TzOffset = (at: number) => number;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Scheduled times further back than this are not enumerated one by one (they are all missed anyway). */
const MAX_LOOKBACK_DAYS = 3700;
/** Started this long after its scheduled time at most, a run is on time; later, it is a catch-up. */
export const ON_TIME_MS = 15 * MINUTE;

type Schedule = Pick<SavedSearch, 'repeat' | 'hour' | 'weekday'>;

/** The local day number (days since 1970-01-01 local) of an instant. */
function localDay(at: number, tz: TzOffset): number {
  return Math.floor((at + tz(at) * MINUTE) / DAY);
}

/**
 * The instant a local wall-clock time happens. The offset depends on the instant we are
 * looking for, so it is asked twice: once at a first guess, once at the corrected one.
 * (A local time that does not exist, in a spring-forward gap, lands just after the gap.)
 */
export function localToInstant(localMs: number, tz: TzOffset): number {
  const guess = localMs - tz(localMs) * MINUTE;
  return localMs - tz(guess) * MINUTE;
}

/** The scheduled instant on local day `day`, or null when the schedule skips that day. */
function slotOn(day: number, s: Schedule, tz: TzOffset): number | null {
  if (s.repeat === 'off') return null;
  // 1970-01-01 was a Thursday (4).
  if (s.repeat === 'weekly' && (((day + 4) % 7) + 7) % 7 !== s.weekday) return null;
  return localToInstant(day * DAY + s.hour * HOUR, tz);
}

/** Every scheduled instant in (after, until], oldest first. */
export function slotsBetween(s: Schedule, after: number, until: number, tz: TzOffset): number[] {
  if (s.repeat === 'off' || !(until > after)) return [];
  const from = Math.max(localDay(after, tz) - 1, localDay(until, tz) - MAX_LOOKBACK_DAYS);
  const to = localDay(until, tz) + 1;
  const out: number[] = [];
  for (let day = from; day <= to; day++) {
    const slot = slotOn(day, s, tz);
    if (slot !== null && slot > after && slot <= until) out.push(slot);
  }
  return out;
}

/** The first scheduled instant after `at`, or null when the search does not repeat. */
export function nextSlotAfter(s: Schedule, at: number, tz: TzOffset): number | null {
  if (s.repeat === 'off') return null;
  for (let day = localDay(at, tz); day <= localDay(at, tz) + 8; day++) {
    const slot = slotOn(day, s, tz);
    if (slot !== null && slot > at) return slot;
  }
  return null;
}

/**
 * What the schedule asks for at `now`:
 * - due: a scheduled time passed that no run has taken care of yet;
 * - slot: the latest such time (the one a run now stands for);
 * - missed: the earlier ones, which the browser was closed for. They are not run one by one:
 *   one run brings the data up to date, so they fold into it and are reported instead;
 * - catchUp: the run would start well after its time (the browser was closed at the hour).
 *
 * Scheduled times count from the last run, or from the search's creation before any run.
 */
export interface DueRun {
  due: boolean;
  slot: number | null;
  missed: number;
  catchUp: boolean;
}

export function dueRun(search: SavedSearch, now: number, tz: TzOffset): DueRun {
  const slots = slotsBetween(search, search.lastRunAt ?? search.createdAt, now, tz);
  const slot = slots[slots.length - 1];
  if (slot === undefined) return { due: false, slot: null, missed: 0, catchUp: false };
  return { due: true, slot, missed: slots.length - 1, catchUp: now - slot > ON_TIME_MS };
}
