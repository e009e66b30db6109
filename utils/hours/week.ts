/**
 * Statements → the week: which statement decides each day, breaks taken out, last orders settled.
 *
 * Statements overlap by design: `월요일 휴무 | 평일 11:30~22:00` (a real Naver text) closes Monday
 * although 평일 includes it, and `평일 09:00~18:00 | 수 09:00~13:00` shortens Wednesday. So a
 * day is decided by the statements naming the fewest days that name it; statements naming as
 * many add their intervals (`매일 11:30~14:30 | 매일 17:30~20:30`, lunch and dinner). If those say
 * closed and open at once the day stays unknown and both statements go to `unparsed`.
 *
 * A statement naming no day takes the days of the bare day line before it (Naver's place page
 * puts `월` on a line of its own); a break or last order naming none belongs to the hours
 * before it (`브레이크타임 15:00 - 17:00` under `매일 10:00 - 22:00`), or, first in the text, to
 * every day the text gives hours for. Hours with no day at all are never spread over the week.
 */
import type { DayHours } from '../domain/listing';
import { closeAfter, DAY_MINUTES, hhmm } from './clock';
import type { Span, Statement } from './statements';
import type { DayKey, Interval, ParsedHours } from './types';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const NAMES = {
  ko: ['월요일', '화요일', '수요일', '목요일', '금요일', '토요일', '일요일'],
  en: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
};

interface Claim {
  /** How many days its statement names: fewer is more specific. */
  count: number;
  hours: Span[] | 'closed';
  text: string;
  source: string;
}

interface Extra<T> {
  /** Null: the text tied it to no day, so it goes with every day given hours. */
  days: DayKey[] | null;
  value: T;
  source: string;
}

/** The week the statements describe. `korean` picks the language of DayHours.dayName. */
export function weekOf(statements: readonly Statement[], korean: boolean): ParsedHours {
  const claims = new Map<DayKey, Claim[]>();
  const breaks: Extra<Span>[] = [];
  const lastOrders: Extra<number[]>[] = [];
  const notes: string[] = [];
  const unparsed: string[] = [];
  const statuses = new Map<'permanently' | 'temporarily', string>();
  let pending: Statement | null = null;
  let context: DayKey[] | null = null;
  // Days a statement not understood names ("둘째, 넷째 월요일 휴무"): what it says of them is not
  // known, so no broader statement ("매일 …") decides them either.
  const doubtful = new Set<DayKey>();

  for (const s of statements) {
    const o = s.outcome;
    if (o.kind === 'note') notes.push(s.source);
    else if (o.kind === 'unparsed') {
      unparsed.push(s.source);
      for (const d of s.days) doubtful.add(d);
    } else if (o.kind === 'status') statuses.set(o.closed, s.source);
    else if (o.kind === 'days-only') {
      if (pending) unparsed.push(pending.source);
      pending = s;
    } else {
      let days: DayKey[] | null = s.days.length > 0 ? s.days : null;
      if (!days && pending) days = pending.days;
      else if (pending) unparsed.push(pending.source);
      pending = null;
      if (o.hours !== null) {
        if (!days) {
          (o.withoutDays === 'note' ? notes : unparsed).push(s.source);
          continue;
        }
        for (const d of days) {
          const claim = { count: days.length, hours: o.hours, text: s.text, source: s.source };
          const list = claims.get(d);
          if (list) list.push(claim);
          else claims.set(d, [claim]);
        }
        context = days;
      }
      const extraDays = days ?? context;
      for (const b of o.breaks) breaks.push({ days: extraDays, value: b, source: s.source });
      for (const l of o.lastOrders) lastOrders.push({ days: extraDays, value: l, source: s.source });
    }
  }
  if (pending) unparsed.push(pending.source);

  const decided = new Map<DayKey, { spans: Span[] | 'closed'; text: string }>();
  for (const [day, list] of claims) {
    if (doubtful.has(day)) continue;
    const fewest = Math.min(...list.map((c) => c.count));
    const winners = list.filter((c) => c.count === fewest);
    const closed = winners.filter((c) => c.hours === 'closed');
    if (closed.length > 0 && closed.length < winners.length) {
      unparsed.push(...winners.map((c) => c.source));
      continue;
    }
    const text = unique(winners.map((c) => c.text)).join(', ');
    decided.set(day, { spans: closed.length > 0 ? 'closed' : sortedSpans(winners.flatMap((c) => c.hours as Span[])), text });
  }

  const open = [...decided].filter(([, d]) => d.spans !== 'closed').map(([day]) => day);
  const breaksOut: ParsedHours['breaks'] = [];
  for (const b of breaks) {
    const days = (b.days ?? open).filter((d) => decided.get(d)?.spans !== 'closed');
    for (const d of days) {
      const entry = decided.get(d);
      if (entry && entry.spans !== 'closed') entry.spans = withoutBreak(entry.spans, b.value);
    }
    breaksOut.push({ days: ordered(days), open: hhmm(b.value.open), close: hhmm(b.value.close) });
  }

  const lastOrdersOut: ParsedHours['lastOrders'] = [];
  for (const l of lastOrders) {
    const days = l.days ?? open;
    const time = settleLastOrder(
      l.value,
      days.flatMap((d) => {
        const spans = decided.get(d)?.spans;
        return spans && spans !== 'closed' ? spans : [];
      }),
    );
    if (time === null) unparsed.push(l.source);
    else lastOrdersOut.push({ days: ordered(days), time: hhmm(time) });
  }

  const names = korean ? NAMES.ko : NAMES.en;
  const days: DayHours[] = WEEKDAYS.flatMap((day) => {
    const d = decided.get(day);
    return d ? [{ day, dayName: names[day - 1]!, text: d.text, intervals: intervalsOf(d.spans) }] : [];
  });
  const ph = decided.get('PH');
  const [closed, conflict] = statuses.size === 1 ? [[...statuses.keys()][0]!, []] : [null, [...statuses.values()]];
  return {
    days,
    unknownDays: WEEKDAYS.filter((d) => !decided.has(d)),
    publicHolidays: ph ? { text: ph.text, intervals: intervalsOf(ph.spans) } : null,
    breaks: breaksOut,
    lastOrders: lastOrdersOut,
    closed,
    notes: unique(notes),
    unparsed: unique([...unparsed, ...conflict]),
  };
}

function intervalsOf(spans: Span[] | 'closed'): Interval[] {
  return spans === 'closed' ? [] : spans.map((s) => ({ open: hhmm(s.open), close: hhmm(s.close) }));
}

/** In the day's order, each span once. */
function sortedSpans(spans: readonly Span[]): Span[] {
  const seen = new Set<string>();
  return [...spans]
    .sort((a, b) => a.open - b.open || a.close - b.close)
    .filter((s) => {
      const key = `${s.open}-${s.close}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * The spans with the break cut out: `11:30–22:00` less `14:30–17:00` is `11:30–14:30, 17:00–22:00`.
 * A break that does not start inside a span, or whose end is past midnight with the span going
 * on, is left in place: the piece after it would belong to the next morning, which DayHours
 * cannot say of this day (the break is still listed in `breaks`).
 */
function withoutBreak(spans: readonly Span[], cut: Span): Span[] {
  return spans.flatMap((s) => {
    const end = closeAfter(s.open, s.close);
    const cutEnd = closeAfter(cut.open, cut.close);
    if (cut.open < s.open || cut.open >= end) return [s];
    const before = cut.open > s.open ? [{ open: s.open, close: cut.open }] : [];
    if (cutEnd >= end) return before;
    if (cutEnd >= DAY_MINUTES) return [s];
    return [...before, { open: cutEnd, close: s.close }];
  });
}

/**
 * One time for a last order: the only candidate, or of a Korean `2시`'s two readings the one that
 * falls within the day's hours (`11:30~14:30 라스트오더 2시` is 14:00). Null when neither or both
 * do: not guessed.
 */
function settleLastOrder(candidates: readonly number[], spans: readonly Span[]): number | null {
  if (candidates.length === 1) return candidates[0]!;
  const inside = candidates.filter((t) =>
    spans.some((s) => {
      const end = closeAfter(s.open, s.close);
      return (t >= s.open && t <= end) || (t + DAY_MINUTES >= s.open && t + DAY_MINUTES <= end);
    }),
  );
  return inside.length === 1 ? inside[0]! : null;
}

/** Monday first, public holidays last. */
function ordered(days: readonly DayKey[]): DayKey[] {
  return [...new Set(days)].sort((a, b) => (a === 'PH' ? 8 : a) - (b === 'PH' ? 8 : b));
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
