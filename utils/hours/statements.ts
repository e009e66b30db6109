/**
 * Tokens → statements, and what each statement says on its own.
 *
 * A statement is one claim about some days: `월~금 09:00~18:00`, `정기휴무 (매주 월요일)`,
 * `15:00 - 17:00 브레이크타임`. Lines, `|`, `;`, full stops and a `·` between claims end one; so does a day named after
 * a time (`월 ~ 토 16:00 ~ 24:00 일요일 휴무`, a real text with no mark between its two claims),
 * and a bracket holding a day after a time (`매일 11:00~22:00 (일요일 휴무)`). A bracket without a
 * day stays in its statement, so `21:00(마지막주문)` is the last order of the hours before it and
 * `일요일 휴무 (※ 매달 5번째 일요일 정기 휴무)` is one statement, unparsed as a whole: what the
 * bracket qualifies is not a rule this parser may simplify.
 */
import { DAY_MINUTES, minutesOf, rangeMinutes, type WrittenTime } from './clock';
import { type Normalised, originalSlice, type Token } from './tokens';
import type { DayKey } from './types';

/** Minutes after midnight; a close at or before the open is past midnight. */
export interface Span {
  open: number;
  close: number;
}

export type Outcome =
  /** Only days (`월` on its own line, Naver's day column): the next statement's days. */
  | { kind: 'days-only' }
  | {
      kind: 'week';
      /** The hours of its days: spans, `closed`, or null when it states only breaks or last orders. */
      hours: Span[] | 'closed' | null;
      breaks: Span[];
      /** Each last order's possible times: one, or two for a Korean `2시` (02:00 or 14:00) to be settled by the hours. */
      lastOrders: number[][];
      /**
       * What it is if neither it nor a day line before it names a day: `Closed`, `휴무`, `24시간 영업`
       * alone are the site's status of the moment (Google's card says `Closed` while the place is
       * closed now; Naver's badge says `24시간 영업`); hours alone are not understood.
       */
      withoutDays: 'note' | 'unparsed';
    }
  | { kind: 'status'; closed: 'permanently' | 'temporarily' }
  | { kind: 'note' }
  | { kind: 'unparsed' };

export interface Statement {
  /** The statement as the site wrote it. */
  source: string;
  /** Its wording after the days it names (`7 AM–8:30 PM` of `Monday: 7 AM–8:30 PM`): DayHours.text. */
  text: string;
  /** The days it names, in the order named; empty when it names none. */
  days: DayKey[];
  outcome: Outcome;
}

/** Cuts the tokens into statements (see the head comment for where one ends). Linear: flags, not rescans. */
export function splitStatements(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [];
  let current: Token[] = [];
  let timeSeen = false; // a time in `current`, outside any bracket
  let liveSeen = false; // a status-of-the-moment word in `current`
  let depth = 0;
  let parenAt = -1; // index in `current` of the bracket now open at depth 1
  let timeBeforeParen = false;
  const flush = (upTo = current.length) => {
    if (upTo > 0) out.push(current.slice(0, upTo));
    current = current.slice(upTo);
    timeSeen = false;
    liveSeen = current.some((t) => t.kind === 'live');
  };
  for (let i = 0; i < tokens.length; i++) {
    let t = tokens[i]!;
    if (t.kind === 'dot') t = { ...t, kind: dotJoins(tokens[i - 1], tokens[i + 1], liveSeen) ? 'list' : 'end' };
    if (t.kind === 'end') {
      flush();
      depth = 0;
      continue;
    }
    if (t.kind === 'paren-open') {
      if (depth === 0) {
        parenAt = current.length;
        timeBeforeParen = timeSeen;
      }
      depth++;
    } else if (t.kind === 'paren-close') {
      depth = Math.max(0, depth - 1);
    } else if (t.kind === 'day') {
      // `Opens 6:30 PM Tue` (a real Google card) is one status, not a status and a day.
      if (depth === 0 && timeSeen && !liveSeen) flush();
      else if (depth === 1 && timeBeforeParen && parenAt > 0) {
        flush(parenAt);
        parenAt = 0;
        timeBeforeParen = false;
      }
    }
    current.push(t);
    if (t.kind === 'time' && depth === 0) timeSeen = true;
    if (t.kind === 'live') liveSeen = true;
  }
  flush();
  return out;
}

/**
 * `토·일` lists two days; a dot next to the site's status of the moment (`Opens soon · 11:30 AM`,
 * `Closed · Opens 5 PM`) keeps the status in one piece; any other dot ends a statement.
 */
function dotJoins(before: Token | undefined, after: Token | undefined, liveSeen: boolean): boolean {
  return (before?.kind === 'day' && after?.kind === 'day') || after?.kind === 'live' || liveSeen;
}

type Item = { kind: 'range'; span: Span } | { kind: 'single'; time: WrittenTime };
type KeywordKind = 'break' | 'last-order';
/** A break or last-order word, sitting just before `items[at]`. */
type Keyword = { kind: KeywordKind; at: number };

/** What one statement says, read on its own (days it does not name come from its neighbours, in week.ts). */
export function readStatement(tokens: readonly Token[], text: Normalised): Statement {
  const source = originalSlice(text, tokens[0]!.at, tokens[tokens.length - 1]!.end).trim();
  // A statement not understood still names its days: week.ts leaves them undecided rather than let a broader statement decide them.
  const daysNamed = (): DayKey[] => {
    const out: DayKey[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.kind !== 'day') continue;
      const to = tokens[i + 1]?.kind === 'to' ? tokens[i + 2] : undefined;
      // A range (월~목) names every day in it.
      if (to?.kind === 'day' && t.single && to.single) {
        out.push(...dayRange(t.days![0] as number, to.days![0] as number));
        i += 2;
      } else out.push(...t.days!);
    }
    return unique(out);
  };
  const result = (outcome: Outcome, days: DayKey[] = outcome.kind === 'unparsed' ? daysNamed() : []): Statement => ({
    source,
    text: wordingAfterDays(tokens, text),
    days,
    outcome,
  });
  const kinds = new Set(tokens.map((t) => t.kind));
  if (kinds.has('text') || kinds.has('irregular')) return result({ kind: 'unparsed' });
  if (kinds.has('live')) return result({ kind: 'note' });
  if (kinds.has('status')) return readStatus(tokens, result);

  const walk = tokens.filter((t) => t.kind !== 'list' && t.kind !== 'paren-open' && t.kind !== 'paren-close');
  const days: DayKey[] = [];
  const items: Item[] = [];
  const keywords: Keyword[] = [];
  let closed = false;
  let open24 = false;
  let allYear = false;
  for (let i = 0; i < walk.length; i++) {
    const t = walk[i]!;
    const rangeEnd = walk[i + 1]?.kind === 'to' ? walk[i + 2] : undefined;
    if (t.kind === 'day') {
      if (rangeEnd) {
        if (!t.single || rangeEnd.kind !== 'day' || !rangeEnd.single) return result({ kind: 'unparsed' });
        days.push(...dayRange(t.days![0] as number, rangeEnd.days![0] as number));
        i += 2;
      } else days.push(...t.days!);
    } else if (t.kind === 'time') {
      if (rangeEnd) {
        if (rangeEnd.kind !== 'time') return result({ kind: 'unparsed' });
        const span = spanOf(t.time!, rangeEnd.time!);
        if (!span) return result({ kind: 'unparsed' });
        items.push({ kind: 'range', span });
        i += 2;
      } else items.push({ kind: 'single', time: t.time! });
    } else if (t.kind === 'break' || t.kind === 'last-order') keywords.push({ kind: t.kind, at: items.length });
    else if (t.kind === 'closed') closed = true;
    else if (t.kind === 'open24') {
      open24 = true;
      allYear ||= t.days !== undefined; // `24/7` names the week itself
    } else if (t.kind === 'all-year') allYear = true;
    else return result({ kind: 'unparsed' }); // a range mark with nothing to join
  }
  const named = unique(days);
  const weekDays = named.length === 0 && allYear ? [1, 2, 3, 4, 5, 6, 7].map((d) => d as DayKey) : named;

  const bound = bindKeywords(items, keywords);
  // A bare `브레이크타임` (Naver's bizhourInfo while the place is on its break) is the status of the moment.
  if (bound === 'unbound') return result(items.length === 0 && !closed && !open24 ? { kind: 'note' } : { kind: 'unparsed' });
  const hours: Span[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (bound.has(i)) continue;
    if (item.kind === 'single') return result({ kind: 'unparsed' }); // a time that is neither hours nor a last order
    hours.push(item.span);
  }
  if ((closed || open24) && hours.length > 0) return result({ kind: 'unparsed' });
  if (closed && open24) return result({ kind: 'unparsed' });

  const breaks = [...bound.entries()].filter(([, k]) => k === 'break').map(([i]) => (items[i] as { span: Span }).span);
  const lastOrders: number[][] = [];
  for (const [i, k] of bound) {
    if (k !== 'last-order') continue;
    const candidates = lastOrderCandidates((items[i] as { time: WrittenTime }).time);
    if (candidates.length === 0) return result({ kind: 'unparsed' });
    lastOrders.push(candidates);
  }
  const stated: Span[] | 'closed' | null = closed ? 'closed' : open24 ? [{ open: 0, close: DAY_MINUTES }] : hours.length > 0 ? hours : null;
  if (stated === null && keywords.length === 0) {
    if (named.length > 0) return result({ kind: 'days-only' }, named);
    // `연중무휴` alone says every day but gives no hours.
    return result(allYear ? { kind: 'note' } : { kind: 'unparsed' });
  }
  const withoutDays = (closed || open24) && keywords.length === 0 ? 'note' : 'unparsed';
  return result({ kind: 'week', hours: stated, breaks, lastOrders, withoutDays }, weekDays);
}

function readStatus(tokens: readonly Token[], result: (o: Outcome) => Statement): Statement {
  const statuses = tokens.filter((t) => t.kind === 'status');
  const others = tokens.some((t) => t.kind !== 'status' && t.kind !== 'list' && t.kind !== 'paren-open' && t.kind !== 'paren-close');
  const words = new Set(statuses.map((t) => t.closed));
  // `월요일 임시휴업` (one day? from when?) is more than a status this parser may reduce.
  if (others || words.size !== 1) return result({ kind: 'unparsed' });
  return result({ kind: 'status', closed: statuses[0]!.closed! });
}

/** `월~금` → 1…5; `금~월` wraps through the weekend. */
function dayRange(from: number, to: number): DayKey[] {
  const out: DayKey[] = [];
  for (let d = from; ; d = (d % 7) + 1) {
    out.push(d as DayKey);
    if (d === to || out.length === 7) return out;
  }
}

/**
 * The range as minutes, or null when it is no span: an open equal to its close (`10:00~10:00`
 * could be 24 hours or nothing), or a close marked next-day (`익일 10:00`) that would make the
 * span longer than a day.
 */
function spanOf(open: WrittenTime, close: WrittenTime): Span | null {
  const span = rangeMinutes(open, close);
  if (!span || span.open === span.close) return null;
  if (close.nextDay && span.close > span.open && span.close !== DAY_MINUTES) return null;
  return span;
}

/**
 * Which items each break and last-order keyword names: the item right after the keyword if it
 * has the keyword's shape (a break is a range, a last order one time), else the item right
 * before it (`15:00 - 17:00 브레이크타임 21:30 라스트오더`: the break is before its word, the
 * last order too). 'unbound' when a keyword names nothing.
 */
function bindKeywords(items: readonly Item[], keywords: readonly Keyword[]): Map<number, KeywordKind> | 'unbound' {
  const bound = new Map<number, KeywordKind>();
  for (const k of keywords) {
    const shape = k.kind === 'break' ? 'range' : 'single';
    const pick = [k.at, k.at - 1].find((i) => items[i]?.kind === shape && !bound.has(i));
    if (pick === undefined) return 'unbound';
    bound.set(pick, k.kind);
  }
  return bound;
}

/**
 * A last order's minutes. A Korean `N시` with no 오전/오후 (`라스트오더 2시` after
 * `11:30~14:30`, a real Naver text) may be either half of the day; both are kept and the hours
 * decide (week.ts). Any other form is read as written.
 */
function lastOrderCandidates(t: WrittenTime): number[] {
  if (t.bare) return [];
  const m = minutesOf(t);
  if (m === null) return [];
  return t.koreanHour && t.hour >= 1 && t.hour <= 11 ? [m, m + 12 * 60] : [m];
}

/** DayHours.text: the statement without the days it opens with, and without the bracket it is wrapped in. */
function wordingAfterDays(tokens: readonly Token[], text: Normalised): string {
  const lead = new Set(['day', 'to', 'list', 'paren-open']);
  const first = tokens.find((t) => !lead.has(t.kind)) ?? tokens[0]!;
  const wrapped = tokens[0]!.kind === 'paren-open' && tokens[tokens.length - 1]!.kind === 'paren-close';
  const last = wrapped ? tokens[tokens.length - 2]! : tokens[tokens.length - 1]!;
  return originalSlice(text, first.at, Math.max(first.end, last.end)).trim();
}

function unique<T>(list: readonly T[]): T[] {
  return [...new Set(list)];
}
