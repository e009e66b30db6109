/**
 * An hours text as a list of words the parser knows: days, times, range and list marks, and the
 * keywords of the three sites (휴무, 브레이크타임, 라스트오더, Open 24 hours, 폐업 …). Anything
 * else is `text`, which makes the statement it sits in unparsed rather than guessed at.
 *
 * One left-to-right pass: at each position the rules below are tried in order with sticky
 * regexes that have no nested repetition, so a hostile text costs (length × rules), never an
 * exponential backtrack. The order matters where words share a start: `마지막주문` (last order)
 * before `마지막 주` (a monthly rule), `24시간` before `24시`, `365일` before `N일`, a date
 * `5/31` before the list mark `/`, `Temporarily closed` before `closed`.
 */
import type { Meridiem, WrittenTime } from './clock';
import type { DayKey } from './types';

export type TokenKind =
  | 'day'
  | 'time'
  | 'to' // a range mark: ~ - – to 부터
  | 'list' // , / & 및 and
  | 'dot' // · between two days lists them (토·일), anywhere else it ends a statement (Google's `Open · Closes 10 PM`)
  | 'end' // a line break, `|`, `;`, or a full stop
  | 'paren-open'
  | 'paren-close'
  | 'closed'
  | 'open24'
  | 'break'
  | 'last-order'
  | 'all-year' // 연중무휴: every day, no hours by itself
  | 'status'
  | 'live' // the site's status of the moment: 영업 중, Opens 5 PM, Naver's `15:00에 브레이크타임` (today's break starts at 15:00)
  | 'irregular' // monthly, fortnightly, dated or festival rules: 매달 5번째 일요일, 5/31, 추석
  | 'next-day'
  | 'text';

export interface Token {
  kind: TokenKind;
  /** Where it starts and ends in the normalised text. */
  at: number;
  end: number;
  /** `day`: the days it names (a group word names several); `open24`: the whole week, for `24/7`. */
  days?: DayKey[];
  /** `day`: one day by name, which may end a day range (`월~금`); group words may not. */
  single?: boolean;
  /** `time`. */
  time?: WrittenTime;
  /** `status`. */
  closed?: 'permanently' | 'temporarily';
}

type Make = (m: RegExpExecArray) => Omit<Token, 'at' | 'end'> | null;

const ALL_WEEK: DayKey[] = [1, 2, 3, 4, 5, 6, 7];
const KOREAN_DAYS = '월화수목금토일';
const ENGLISH_DAYS: Record<string, DayKey> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };
const KOREAN_HALVES: Record<string, Meridiem> = { 오전: 'am', 새벽: 'am', 아침: 'am', 오후: 'pm', 낮: 'pm', 저녁: 'pm', 밤: 'pm' };

const kind =
  (k: TokenKind): Make =>
  () => ({ kind: k });

function group(m: RegExpExecArray): Omit<Token, 'at' | 'end'> {
  const w = m[0].toLowerCase();
  const days: DayKey[] = /평일|주중|weekday/.test(w) ? [1, 2, 3, 4, 5] : /주말|weekend/.test(w) ? [6, 7] : ALL_WEEK;
  return { kind: 'day', days, single: false };
}

function time(m: RegExpExecArray): Omit<Token, 'at' | 'end'> {
  const [, half, h, colonMinutes, siMinutes, siHalf, latin] = m;
  const hour = Number(h);
  const koreanHalf = half ? KOREAN_HALVES[half]! : null;
  // 밤 12시 and 새벽 12시 are midnight; 낮 12시 is noon.
  const meridiem: Meridiem | null = latin ? (latin.toLowerCase() === 'a' ? 'am' : 'pm') : half === '밤' && hour === 12 ? 'am' : koreanHalf;
  const si = m[0].includes('시');
  const minute = colonMinutes !== undefined ? Number(colonMinutes) : siMinutes !== undefined ? Number(siMinutes) : siHalf ? 30 : 0;
  const bare = colonMinutes === undefined && !si && meridiem === null;
  return { kind: 'time', time: { hour, minute, meridiem, bare, koreanHour: si && meridiem === null, nextDay: false } };
}

const named =
  (hour: number): Make =>
  () => ({ kind: 'time', time: { hour, minute: 0, meridiem: null, bare: false, koreanHour: false, nextDay: false } });

/** The rules, tried in this order at each position; the first that matches wins. */
const RULES: Array<[RegExp, Make]> = [
  [/[\n\r|;]|\.(?=\s|$)/y, kind('end')],
  [/[·⋅•∙]/y, kind('dot')],
  [/[([{]/y, kind('paren-open')],
  [/[)\]}]/y, kind('paren-close')],
  [/폐업|permanently\s+closed|closed\s+permanently/iy, () => ({ kind: 'status', closed: 'permanently' })],
  [/임시\s*휴업|휴업\s*중|temporarily\s+closed|closed\s+temporarily/iy, () => ({ kind: 'status', closed: 'temporarily' })],
  [/24\s*\/\s*7/y, () => ({ kind: 'open24', days: ALL_WEEK })],
  [/24\s*시간(?:\s*(?:영업|운영))?|open\s+24\s+hours|24\s*hours/iy, kind('open24')],
  [/브레이크\s*타임|break\s*time|휴게\s*시간|점심\s*시간|lunch\s*(?:break|time)|쉬는\s*시간/iy, kind('break')],
  [/라스트\s*오더|마지막\s*주문|주문\s*마감|last\s+orders?|L\.\s*O\.?/iy, kind('last-order')],
  [/영업\s*시간|운영\s*시간|진료\s*시간|이용\s*시간|opening\s+hours/iy, () => null],
  [
    /(?:곧\s*)?(?:영업|운영)\s*(?:중|전|종료|시작|마감)|오늘\s*휴무|에\s*(?:브레이크\s*타임|라스트\s*오더)|(?:open|closed)\s+now|(?:opens|closes|opening|closing)(?:\s+soon)?\b|open(?=\s*(?:[·⋅•]|$))|hours\s+(?:might|may)\s+differ/iy,
    kind('live'),
  ],
  [/연중\s*무휴|365\s*일|무휴/y, kind('all-year')],
  [/(?:법정\s*)?공휴일|public\s+holidays?|holidays?\b/iy, () => ({ kind: 'day', days: ['PH'], single: false })],
  [
    /매[달월]|격주|(?:첫|둘|셋|넷|다섯)\s*(?:번\s*)?째|마지막\s*주|\d\s*(?:번\s*)?째|명절|설날|추석|연휴|당일|\d{1,2}\s*\/\s*\d{1,2}|\d{1,2}\s*월(?!요)|\d{1,3}\s*일|every\s+other|(?:first|second|third|fourth|fifth|last)\b/iy,
    kind('irregular'),
  ],
  [/(?:정기\s*)?(?:휴무|휴업|휴진|휴관|휴일)(?:일)?|쉼|쉽니다|쉬어요|closed\b|day\s+off|off\b/iy, kind('closed')],
  [/매일|날마다|평일|주중|주말|every\s*day|daily|weekdays?\b|weekends?\b/iy, group],
  [/익일|다음\s*날|next\s+day/iy, kind('next-day')],
  [/정오|noon/iy, named(12)],
  [/자정|midnight/iy, named(24)],
  [
    /(?:(오전|오후|새벽|아침|낮|저녁|밤)\s*)?(?<!\d)(\d{1,2})(?!\d)(?::(\d{2})(?!\d)|\s*시(?:\s*(\d{1,2})\s*분|\s*(반))?)?(?:\s*([ap])(?:\.\s?m\.|\s?m\b))?/iy,
    time,
  ],
  // A Korean day by name: 월, 월요일, 토일, 매주일요일, but not the 일 of 영업일 or the 금 of 금액.
  [
    new RegExp(`(?<=^|[^가-힣]|[${KOREAN_DAYS}주])([${KOREAN_DAYS}])(?:요일|(?=[${KOREAN_DAYS}]|[^가-힣]|$))`, 'y'),
    (m) => ({ kind: 'day', days: [(KOREAN_DAYS.indexOf(m[1]!) + 1) as DayKey], single: true }),
  ],
  [
    // Full names (Mondays too), or short ones with their dot (`Mon.`, `Tues`, `Thurs`).
    /\b(?:(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)s?\b|(mon|tue|wed|thu|fri|sat|sun)(?:s|r|rs)?\b\.?)/iy,
    (m) => ({ kind: 'day', days: [ENGLISH_DAYS[(m[1] ?? m[2])!.toLowerCase()]!], single: true }),
  ],
  [/~|-|부터|\b(?:to|until|till|through|thru)\b/iy, kind('to')],
  [/,|、|\/|&|및|\band\b/iy, kind('list')],
  // Words that carry nothing: 매주 (weekly is the default), 영업/운영/open before hours (`Open daily
  // 9 AM–5 PM`; Google's bare `Open` status is caught above), particles, labels.
  [/매주|every\b|영업|운영|open\b|from\b|on\b|at\b|에|까지|:|※|\*/iy, () => null],
];

/** A text as the tokenizer reads it, and where each of its characters came from in the site's text. */
export interface Normalised {
  text: string;
  original: string;
  /** For each character of `text`, and one past its end, the index in `original` it came from. */
  origin: number[];
}

/**
 * NFKC folds full-width digits and marks (`０９：００～１８：００`) and narrow spaces (Google puts
 * U+202F before AM); dashes of every width become `-`; icon-font glyphs (private use) and
 * zero-width marks are dropped. Folded code point by code point, so every character can be traced
 * back and the statements quote the site's own words (`7 AM–8:30 PM`, not `7 AM-8:30 PM`).
 */
export function normaliseHoursText(original: string): Normalised {
  let text = '';
  const origin: number[] = [];
  let i = 0;
  for (const ch of original) {
    const folded = ch
      .normalize('NFKC')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/[\u301c\u223c]/g, '~')
      .replace(/[\uE000-\uF8FF\u200B-\u200D\uFEFF]/g, '');
    text += folded;
    for (let k = 0; k < folded.length; k++) origin.push(i);
    i += ch.length;
  }
  origin.push(original.length);
  return { text, original, origin };
}

/** The site's own text behind the normalised characters `at` … `end` (exclusive). */
export function originalSlice(n: Normalised, at: number, end: number): string {
  return n.original.slice(n.origin[at], n.origin[end]);
}

const SPACE = /[^\S\n\r]+/y;

/** The tokens of a normalised text; whitespace (but not a line break) and filler words leave none. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    SPACE.lastIndex = i;
    if (SPACE.test(text)) {
      i = SPACE.lastIndex;
      continue;
    }
    let matched = false;
    for (const [re, make] of RULES) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (!m || m[0].length === 0) continue;
      const token = make(m);
      if (token) tokens.push({ ...token, at: i, end: i + m[0].length });
      i += m[0].length;
      matched = true;
      break;
    }
    if (!matched) {
      const last = tokens[tokens.length - 1];
      if (last?.kind === 'text' && last.end === i) last.end = i + 1;
      else tokens.push({ kind: 'text', at: i, end: i + 1 });
      i += 1;
    }
  }
  return attachNextDay(tokens);
}

/** `익일 02:00`: the mark goes onto the time it precedes; anywhere else it is not understood. */
function attachNextDay(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.kind !== 'next-day') out.push(t);
    else if (next?.kind === 'time') next.time = { ...next.time!, nextDay: true };
    else out.push({ ...t, kind: 'text' });
  }
  return out;
}
